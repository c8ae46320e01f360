package backup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
)

// jsonDifference names the first place where two JSON values differ, as
// "path: the document says x, the ledger computes y", or "" when they are
// the same value (ledger.SameJSON).
func jsonDifference(doc, computed json.RawMessage) string {
	if ledger.SameJSON(doc, computed) {
		return ""
	}
	var a, b any
	if decodeNumbers(doc, &a) != nil || decodeNumbers(computed, &b) != nil {
		return "the document's is not JSON"
	}
	path, x, y := firstDifference("", a, b)
	if path == "" {
		path = "the whole"
	}
	return fmt.Sprintf("%s: the document says %s, the ledger computes %s", path, x, y)
}

func decodeNumbers(raw json.RawMessage, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// firstDifference walks a and b and returns the path of the first member
// or element that differs, with both values there as text.
func firstDifference(path string, a, b any) (string, string, string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !sameAny(x[k], y[k]) {
				return firstDifference(strings.TrimPrefix(path+"."+k, "."), x[k], y[k])
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range min(len(x), len(y)) {
			if !sameAny(x[i], y[i]) {
				return firstDifference(fmt.Sprintf("%s[%d]", path, i), x[i], y[i])
			}
		}
		if len(x) != len(y) {
			return path, fmt.Sprintf("%d elements", len(x)), fmt.Sprintf("%d", len(y))
		}
	}
	return path, valueText(a), valueText(b)
}

func sameAny(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && ledger.SameJSON(ja, jb)
}

// valueText is a value as JSON, shortened.
func valueText(v any) string {
	if v == nil {
		return "nothing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return shortJSON(b)
}

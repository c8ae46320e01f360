package ledger

import (
	"bytes"
	"encoding/json"
	"math/big"
)

// SameJSON reports whether a and b are the same JSON value: objects with
// the same members in any order, arrays element by element, numbers by
// exact value (1.0 equals 1), whitespace ignored.
func SameJSON(a, b json.RawMessage) bool {
	va, errA := decodeJSONNumbers(a)
	vb, errB := decodeJSONNumbers(b)
	if errA != nil || errB != nil {
		return false
	}
	return sameValue(va, vb)
}

func decodeJSONNumbers(v json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var out any
	err := dec.Decode(&out)
	return out, err
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		rx, okx := new(big.Rat).SetString(string(x))
		ry, oky := new(big.Rat).SetString(string(y))
		return okx && oky && rx.Cmp(ry) == 0
	}
	return a == b
}

// CanonicalJSON re-encodes a JSON value so that its spelling (whitespace,
// the order of members) does not change its hash; what is not JSON is
// returned as it is.
func CanonicalJSON(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

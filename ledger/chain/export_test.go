package chain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// CanonicalOracle is Canonical as first written, on encoding/json's
// decoder: the reference the parser is checked against.
var CanonicalOracle = canonicalOracle

func canonicalOracle(raw json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("chain: a JSON value: %w", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("chain: a JSON value followed by more")
	}
	var buf bytes.Buffer
	if err := writeOracle(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeOracle(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Number:
		n, err := canonicalNumber(string(v))
		if err != nil {
			return err
		}
		buf.WriteString(n)
	case string:
		buf.Write(appendString(nil, v))
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeOracle(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(appendString(nil, k))
			buf.WriteByte(':')
			if err := writeOracle(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("chain: unexpected JSON value %T", v)
	}
	return nil
}

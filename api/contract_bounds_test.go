package api_test

// The values TestContractBoundaries sends: at and beyond each boundary a
// schema states.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/ledger"
)

// boundsOf lists the values at and beyond each boundary the schema states.
// A string or integer that states no limit is an error: whatever it takes
// reaches the domain and maybe a column unbounded.
func boundsOf(s *openapi3.Schema, example any) ([]bound, error) {
	switch {
	case len(s.OneOf) > 0:
		return oneOfBounds(s, example)
	case s.Type.Is("integer"):
		return integerBounds(s)
	case s.Type.Is("string"):
		return stringBounds(s, example)
	case s.Type.Is("number"):
		return nil, fmt.Errorf("a number: the test makes no boundaries for numbers yet, add them")
	}
	return nil, nil
}

// oneOfBounds takes every branch's bounds that are at or beyond a
// boundary of the whole schema.
func oneOfBounds(s *openapi3.Schema, example any) ([]bound, error) {
	var out []bound
	for _, branch := range s.OneOf {
		bounds, err := boundsOf(merged(flatten(branch.Value)), example)
		if err != nil {
			return nil, err
		}
		for _, b := range bounds {
			v := b.value
			if n, ok := v.(json.Number); ok {
				f, _ := n.Float64()
				v = f
			}
			if (s.VisitJSON(v) != nil) == b.beyond {
				out = append(out, b)
			}
		}
	}
	return out, nil
}

func integerBounds(s *openapi3.Schema) ([]bound, error) {
	if s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() {
		return nil, fmt.Errorf("exclusive bounds: the test does not know them yet, add them")
	}
	lo, hi := formatRange(s.Format)
	if s.Min != nil {
		lo = maxInt(lo, floatInt(*s.Min))
	}
	if s.Max != nil {
		hi = minInt(hi, floatInt(*s.Max))
	}
	if lo == nil || hi == nil {
		return nil, fmt.Errorf("an integer without a range: state minimum and maximum (or format int32/int64)")
	}
	one := big.NewInt(1)
	return []bound{
		{label: "minimum", value: json.Number(lo.String())},
		{label: "maximum", value: json.Number(hi.String())},
		{label: "below the minimum", value: json.Number(new(big.Int).Sub(lo, one).String()), beyond: true},
		{label: "above the maximum", value: json.Number(new(big.Int).Add(hi, one).String()), beyond: true},
	}, nil
}

func formatRange(format string) (lo, hi *big.Int) {
	switch format {
	case "int32":
		return big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	case "int64":
		return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	}
	return nil, nil
}

// floatInt is a bound as the YAML gave it; 2^63 stands for MaxInt64, which
// a float64 cannot hold.
func floatInt(f float64) *big.Int {
	n, _ := big.NewFloat(f).Int(nil)
	if n.Cmp(big.NewInt(math.MaxInt64)) > 0 {
		return big.NewInt(math.MaxInt64)
	}
	return n
}

func maxInt(a, b *big.Int) *big.Int {
	if a == nil || b.Cmp(a) > 0 {
		return b
	}
	return a
}

func minInt(a, b *big.Int) *big.Int {
	if a == nil || b.Cmp(a) < 0 {
		return b
	}
	return a
}

func stringBounds(s *openapi3.Schema, example any) ([]bound, error) {
	if len(s.Enum) > 0 {
		var out []bound
		for _, v := range s.Enum {
			out = append(out, bound{label: "in the enum", value: fmt.Sprint(v)})
		}
		return append(out, bound{label: "not in the enum", value: fmt.Sprint(s.Enum[0]) + "x", beyond: true}), nil
	}
	var out []bound
	switch s.Format {
	case "":
	case "date":
		out = append(out, dateBounds()...)
	case "uuid":
		out = append(out, uuidBounds()...)
	default:
		return nil, fmt.Errorf("format %q: the test makes no boundaries for it yet, add them", s.Format)
	}
	if s.Pattern != "" {
		re := regexp.MustCompile(s.Pattern)
		for _, v := range []string{"a b", "#", "x", "0"} {
			if !re.MatchString(v) {
				out = append(out, bound{label: "not matching the pattern", value: v, beyond: true})
				break
			}
		}
	}
	if s.Format == "" && s.MaxLength == nil && !boundedPattern(s.Pattern) {
		return out, fmt.Errorf("a string without maxLength (or an enum, a format or a pattern that bounds it)")
	}
	lengths, err := lengthBounds(s, example)
	return append(out, lengths...), err
}

func lengthBounds(s *openapi3.Schema, example any) ([]bound, error) {
	var out []bound
	add := func(n int, label string, beyond bool) error {
		v, ok := stringOfLength(s, example, n)
		if !ok {
			return fmt.Errorf("cannot make a valid string of %d characters from the example %q", n, example)
		}
		out = append(out, bound{label: label, value: v, beyond: beyond})
		return nil
	}
	if s.MinLength > 0 {
		if err := add(int(s.MinLength), "minLength", false); err != nil {
			return nil, err
		}
		out = append(out, bound{label: "below minLength", value: strings.Repeat("a", int(s.MinLength)-1), beyond: true})
	}
	if s.MaxLength != nil {
		n := int(*s.MaxLength)
		if err := add(n, "maxLength", false); err != nil {
			return nil, err
		}
		if err := add(n+1, "above maxLength", true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stringOfLength makes a string of n characters that breaks no constraint
// of s but its length: the example cut or padded, or a run of one letter.
func stringOfLength(s *openapi3.Schema, example any, n int) (string, bool) {
	var candidates []string
	if ex, _ := example.(string); ex != "" {
		r := []rune(ex)
		if len(r) >= n {
			candidates = append(candidates, string(r[:n]))
		} else {
			candidates = append(candidates, ex+strings.Repeat(string(r[len(r)-1]), n-len(r)), strings.Repeat(string(r[0]), n-len(r))+ex)
		}
	}
	candidates = append(candidates, strings.Repeat("a", n), strings.Repeat("1", n))
	loose := openapi3.Schema{Type: s.Type, Pattern: s.Pattern, Format: s.Format}
	for _, c := range candidates {
		if loose.VisitJSON(c) == nil {
			return c, true
		}
	}
	return "", false
}

// boundedPattern reports whether a pattern only matches strings of bounded
// length: anchored at both ends, with no unbounded repetition.
func boundedPattern(pattern string) bool {
	if !strings.HasPrefix(pattern, "^") || !strings.HasSuffix(pattern, "$") {
		return false
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return false
	}
	var bounded func(*syntax.Regexp) bool
	bounded = func(re *syntax.Regexp) bool {
		if re.Op == syntax.OpStar || re.Op == syntax.OpPlus || (re.Op == syntax.OpRepeat && re.Max < 0) {
			return false
		}
		for _, sub := range re.Sub {
			if !bounded(sub) {
				return false
			}
		}
		return true
	}
	return bounded(re)
}

// dateBounds are the ledger's first and last date, as format date takes
// them, and what lies beyond.
func dateBounds() []bound {
	minDate, maxDate := ledger.MinDate, ledger.MaxDate
	day := func(s string, days int) string {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			panic(err)
		}
		d = d.AddDate(0, 0, days)
		return fmt.Sprintf("%04d-%02d-%02d", d.Year(), d.Month(), d.Day())
	}
	return []bound{
		{label: "the first date", value: minDate},
		{label: "the last date", value: maxDate},
		{label: "the day before the first", value: day(minDate, -1), beyond: true},
		{label: "the day after the last", value: day(maxDate, 1), beyond: true},
		{label: "year 0", value: "0000-01-01", beyond: true},
		{label: "no such day", value: "2026-02-30", beyond: true},
	}
}

func uuidBounds() []bound {
	return []bound{
		{label: "the nil UUID", value: "00000000-0000-0000-0000-000000000000"},
		{label: "a UUID in capitals", value: "6F1C2E0A-58D4-4D6B-9F8E-3A1B2C3D4E5F"},
		{label: "empty", value: "", beyond: true},
		{label: "not a UUID", value: "hallo", beyond: true},
		{label: "a UUID and a digit more", value: "6f1c2e0a-58d4-4d6b-9f8e-3a1b2c3d4e5f0", beyond: true},
		{label: "a UUID without its dashes", value: "6f1c2e0a58d44d6b9f8e3a1b2c3d4e5f", beyond: true},
		{label: "8,000 characters", value: incompressible(8000), beyond: true},
	}
}

// incompressible is n characters PostgreSQL cannot compress into an index
// entry.
func incompressible(n int) string {
	var b strings.Builder
	for x := uint64(1); b.Len() < n; x = x*6364136223846793005 + 1442695040888963407 {
		b.WriteString(strconv.FormatUint(x, 36))
	}
	return b.String()[:n]
}

// Package score is the leaf every game engine and the ledger share: exact
// points, the result of scoring one hand, and the contract an engine keeps.
// It imports only the standard library.
package score

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Points is an exact rational number of points, always kept in lowest terms
// with a positive denominator. The zero value is 0. Arithmetic panics with
// ErrOverflow rather than wrap around; engines bound their inputs so that a
// validated hand can never get near that.
type Points struct {
	num int64
	den int64 // 0 in the zero value, read as 1
}

// ErrOverflow is the panic value when points leave the int64 range.
var ErrOverflow = errors.New("score: points overflow int64")

// Int returns the whole number n as points.
func Int(n int64) Points { return Points{num: n, den: 1} }

// Frac returns n/d in lowest terms. It panics if d is 0.
func Frac(n, d int64) Points {
	if d == 0 {
		panic("score: zero denominator")
	}
	if d < 0 {
		n, d = neg(n), neg(d)
	}
	g := gcd(abs(n), d)
	if g > 1 {
		n, d = n/g, d/g
	}
	return Points{num: n, den: d}
}

// Num returns the numerator in lowest terms.
func (p Points) Num() int64 { return p.num }

// Den returns the positive denominator in lowest terms.
func (p Points) Den() int64 {
	if p.den == 0 {
		return 1
	}
	return p.den
}

// IsInt reports whether p is a whole number.
func (p Points) IsInt() bool { return p.Den() == 1 }

// Sign returns -1, 0 or +1.
func (p Points) Sign() int {
	switch {
	case p.num < 0:
		return -1
	case p.num > 0:
		return 1
	}
	return 0
}

// IsZero reports whether p is 0.
func (p Points) IsZero() bool { return p.num == 0 }

// Neg returns -p.
func (p Points) Neg() Points { return Points{num: neg(p.num), den: p.Den()} }

// Add returns p + q exactly.
func (p Points) Add(q Points) Points {
	pd, qd := p.Den(), q.Den()
	if pd == qd {
		return Frac(add(p.num, q.num), pd)
	}
	g := gcd(pd, qd)
	// p.num*(qd/g) + q.num*(pd/g) over pd*(qd/g)
	return Frac(add(mul(p.num, qd/g), mul(q.num, pd/g)), mul(pd, qd/g))
}

// Sub returns p - q exactly.
func (p Points) Sub(q Points) Points { return p.Add(q.Neg()) }

// Mul returns p * q exactly.
func (p Points) Mul(q Points) Points {
	return Frac(mul(p.num, q.num), mul(p.Den(), q.Den()))
}

// MulInt returns p * k.
func (p Points) MulInt(k int64) Points { return Frac(mul(p.num, k), p.Den()) }

// DivInt returns p / k exactly. It panics if k is 0.
func (p Points) DivInt(k int64) Points {
	if k == 0 {
		panic("score: division by zero")
	}
	return Frac(p.num, mul(p.Den(), k))
}

// Cmp returns -1, 0 or +1 as p is less than, equal to or greater than q.
// It compares the 128-bit cross products, so it never overflows.
func (p Points) Cmp(q Points) int {
	if ps, qs := p.Sign(), q.Sign(); ps != qs {
		return cmpInt(ps, qs)
	}
	// Same sign: compare |p.num|*q.den with |q.num|*p.den, flipped when negative.
	hiA, loA := bits.Mul64(magnitude(p.num), uint64(q.Den()))
	hiB, loB := bits.Mul64(magnitude(q.num), uint64(p.Den()))
	c := cmpUint128(hiA, loA, hiB, loB)
	if p.Sign() < 0 {
		return -c
	}
	return c
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUint128(hiA, loA, hiB, loB uint64) int {
	switch {
	case hiA != hiB:
		return cmpInt(boolInt(hiA > hiB), boolInt(hiB > hiA))
	case loA != loB:
		return cmpInt(boolInt(loA > loB), boolInt(loB > loA))
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// magnitude is |n| as an unsigned number; it is exact for math.MinInt64.
func magnitude(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1
	}
	return uint64(n)
}

// String gives the exact form used in JSON and the database: "12", "-7/2".
func (p Points) String() string {
	if p.IsInt() {
		return strconv.FormatInt(p.num, 10)
	}
	return strconv.FormatInt(p.num, 10) + "/" + strconv.FormatInt(p.Den(), 10)
}

// Parse reads the exact form written by String ("12", "-7/2", "14/3"). A
// denominator must be positive; the result is in lowest terms.
func Parse(s string) (Points, error) {
	numText, denText, hasDen := strings.Cut(s, "/")
	n, err := strconv.ParseInt(numText, 10, 64)
	if err != nil || numText == "" || strings.HasPrefix(numText, "+") {
		return Points{}, fmt.Errorf("points %q: want an integer or a fraction like -7/2", s)
	}
	if !hasDen {
		return Int(n), nil
	}
	d, err := strconv.ParseInt(denText, 10, 64)
	if err != nil || d <= 0 || strings.HasPrefix(denText, "+") {
		return Points{}, fmt.Errorf("points %q: the denominator must be a positive integer", s)
	}
	if n == math.MinInt64 {
		// -2^63 shares only powers of two with d; reduce without abs().
		g := d & -d
		return Points{num: n / g, den: d / g}, nil
	}
	return Frac(n, d), nil
}

// ParseDecimal reads points as Parse does, or as a decimal with a comma
// or a point as people write money ("0,5", "2.25": at most 3 places),
// exactly: "0,5" is 1/2.
func ParseDecimal(s string) (Points, error) {
	whole, frac, ok := strings.Cut(strings.Replace(s, ",", ".", 1), ".")
	if !ok {
		return Parse(s)
	}
	if frac == "" || len(frac) > 3 || strings.ContainsAny(frac, "+-") {
		return Points{}, fmt.Errorf("points %q: want an integer, a fraction like 1/2 or a decimal like 0,5 with at most 3 places", s)
	}
	den := int64(1)
	for range frac {
		den *= 10
	}
	n, err := Parse(whole + frac)
	if err != nil || whole == "" || whole == "-" {
		return Points{}, fmt.Errorf("points %q: want an integer, a fraction like 1/2 or a decimal like 0,5 with at most 3 places", s)
	}
	if n.Den() != 1 {
		return Points{}, fmt.Errorf("points %q: a decimal has no fraction bar", s)
	}
	return n.DivInt(den), nil
}

// MarshalJSON writes points as a JSON string in the exact form ("-7/2").
func (p Points) MarshalJSON() ([]byte, error) {
	return []byte(`"` + p.String() + `"`), nil
}

// UnmarshalJSON reads a JSON string in the exact form, or a JSON integer.
func (p *Points) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := Parse(s)
		if err != nil {
			return err
		}
		*p = v
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("points %s: want a string like \"-7/2\" or an integer", b)
	}
	*p = Int(n)
	return nil
}

// Sum adds points exactly.
func Sum(ps ...Points) Points {
	var total Points
	for _, p := range ps {
		total = total.Add(p)
	}
	return total
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(n int64) int64 {
	if n == math.MinInt64 {
		panic(ErrOverflow)
	}
	if n < 0 {
		return -n
	}
	return n
}

func neg(n int64) int64 {
	if n == math.MinInt64 {
		panic(ErrOverflow)
	}
	return -n
}

func add(a, b int64) int64 {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		panic(ErrOverflow)
	}
	return s
}

func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > math.MaxInt64 {
		panic(ErrOverflow)
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

package money

import (
	"math/big"
	"math/bits"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Allocate rounds exact amounts of cents (such as CentsOf a player's points)
// to whole cents by the largest-remainder method and promises:
//
//   - The result has one entry per input, in the same order.
//   - It sums to the exact total rounded to the nearest cent, halves away
//     from zero. When the exact total is a whole number of cents (0 for the
//     zero-sum games) the result sums to exactly that number.
//   - Every entry is its exact amount floored (toward negative infinity, so
//     -7/2 floors to -4 with remainder 1/2) or that plus one cent; the cents
//     still missing to reach the total go one each to the largest remainders,
//     ties to the lower index. So no entry differs from its exact amount by a
//     whole cent or more, and a whole amount is never changed.
//
// The computation is exact for every input: remainders are compared with
// 128-bit products and summed with math/big when their common denominator
// leaves int64. Only a total whose floor leaves int64 (far beyond ±10^15
// cents per amount) makes it panic, with score.ErrOverflow.
func Allocate(exact []score.Points) []int64 {
	out := make([]int64, len(exact))
	if len(exact) == 0 {
		return out
	}
	rems := make([]remainder, len(exact))
	var floors int64 // sum of the floors
	var frac fracSum // sum of the remainders
	for i, x := range exact {
		q, r := floorDivMod(x.Num(), x.Den())
		out[i] = q
		rems[i] = remainder{index: i, num: r, den: x.Den()}
		floors = addChecked(floors, q)
		frac.add(r, x.Den())
	}
	// The exact total is floors + frac.whole + frac.num/frac.den with the
	// last term in [0, 1), so floor(total) is the first two terms.
	floorTotal := addChecked(floors, frac.whole)
	target := floorTotal
	if frac.roundsUp(floorTotal >= 0) {
		target = addChecked(target, 1)
	}
	// 0 <= missing <= the number of non-zero remainders (each remainder is
	// below 1), so only amounts with a remainder are ever raised.
	missing := target - floors
	if missing == 0 {
		return out
	}
	slices.SortFunc(rems, func(a, b remainder) int {
		if c := cmpFrac(b.num, b.den, a.num, a.den); c != 0 {
			return c // larger remainder first
		}
		return a.index - b.index
	})
	for _, r := range rems[:missing] {
		out[r.index]++
	}
	return out
}

// Split divides cents (which may be negative) into n parts that differ by at
// most one cent and sum to exactly cents. The parts that carry the extra cent
// come first, and the extra cent has the sign of cents, so Split(100, 3) is
// [34 33 33] and Split(-100, 3) is [-34 -33 -33]: Split(-c, n) is Split(c, n)
// negated. It is defined for every int64. It panics if n < 1.
func Split(cents int64, n int) []int64 {
	if n < 1 {
		panic("money: Split into fewer than one part")
	}
	q, r := cents/int64(n), cents%int64(n) // r has the sign of cents, |r| < n
	step := int64(1)
	if r < 0 {
		step, r = -1, -r
	}
	parts := make([]int64, n)
	for i := range parts {
		parts[i] = q
		if int64(i) < r {
			parts[i] += step
		}
	}
	return parts
}

// remainder is the fractional part num/den (0 <= num < den) of exact[index].
type remainder struct {
	index    int
	num, den int64
}

// floorDivMod returns q = floor(n/d) and r = n - q*d in [0, d), for d > 0.
func floorDivMod(n, d int64) (q, r int64) {
	q, r = n/d, n%d
	if r < 0 {
		q--
		r += d
	}
	return q, r
}

// cmpFrac compares a/b with c/d for a, c >= 0 and b, d > 0, exactly.
func cmpFrac(a, b, c, d int64) int {
	lh, ll := bits.Mul64(uint64(a), uint64(d))
	rh, rl := bits.Mul64(uint64(c), uint64(b))
	switch {
	case lh != rh:
		return cmpU(lh, rh)
	default:
		return cmpU(ll, rl)
	}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func addChecked(a, b int64) int64 {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		panic(score.ErrOverflow)
	}
	return s
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// fracSum adds fractions in [0, 1) exactly: the sum is whole + num/den with
// 0 <= num/den < 1, or whole + big once a common denominator would leave
// int64.
type fracSum struct {
	whole    int64
	num, den int64 // den 0 reads as 1
	big      *big.Rat
}

var (
	ratOne  = big.NewRat(1, 1)
	ratHalf = big.NewRat(1, 2)
)

// add adds a/d with 0 <= a < d.
func (s *fracSum) add(a, d int64) {
	if a == 0 {
		return
	}
	if s.big == nil {
		if s.den == 0 {
			s.den = 1
		}
		hi, lo := bits.Mul64(uint64(s.den/gcd(s.den, d)), uint64(d))
		if hi == 0 && lo < 1<<62 {
			l := int64(lo) // lcm; each term below is < l, so the sum is < 2^63
			n := s.num*(l/s.den) + a*(l/d)
			if n >= l {
				n -= l
				s.whole++
			}
			g := gcd(n, l)
			s.num, s.den = n/g, l/g
			return
		}
		s.big = big.NewRat(s.num, s.den)
	}
	s.big.Add(s.big, big.NewRat(a, d))
	if s.big.Cmp(ratOne) >= 0 {
		s.big.Sub(s.big, ratOne)
		s.whole++
	}
}

// roundsUp reports whether the fractional part rounds up to the next whole:
// above one half always, exactly one half only when the total is not
// negative (halves away from zero).
func (s *fracSum) roundsUp(nonNegative bool) bool {
	var c int
	if s.big != nil {
		c = s.big.Cmp(ratHalf)
	} else {
		c = cmpFrac(s.num, max(s.den, 1), 1, 2)
	}
	return c > 0 || (c == 0 && nonNegative)
}

// Package money owns the club's money: exact cents from exact points,
// rounding those to whole cents without losing or inventing a cent, splitting
// an amount evenly, working out the fewest transfers that settle an evening,
// and writing euros the German way.
//
// Amounts are whole cents in int64, or exact cents in score.Points where a
// stake makes them fractional. The package is pure (no I/O, no clock), uses
// no floating point, and imports only the standard library and the score
// leaf.
package money

import (
	"strconv"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// CentsOf returns the exact money, in cents, that points are worth at a stake
// of stakePerPoint cents per point: points × stake, not rounded (a stake of
// 1/2 cent makes 7 points worth 7/2 cents). Round a whole table's amounts
// together with Allocate. Like score arithmetic, it panics with
// score.ErrOverflow rather than wrap around.
func CentsOf(points, stakePerPoint score.Points) score.Points {
	return points.Mul(stakePerPoint)
}

// FormatEUR writes cents as euros in German notation: a dot between groups
// of thousands, a comma before exactly two cent digits, a minus sign in front
// of negative amounts and " €" (an ordinary space) after: 123456 gives
// "1.234,56 €", -8000 gives "-80,00 €", 5 gives "0,05 €", 0 gives "0,00 €".
// It is defined for every int64, math.MinInt64 included.
func FormatEUR(cents int64) string {
	u := uint64(cents)
	if cents < 0 {
		u = -u // two's complement magnitude; exact for math.MinInt64 too
	}
	euros := strconv.FormatUint(u/100, 10)
	rest := u % 100

	var b strings.Builder
	b.Grow(len(euros) + len(euros)/3 + 8)
	if cents < 0 {
		b.WriteByte('-')
	}
	for i := 0; i < len(euros); i++ {
		if i > 0 && (len(euros)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteByte(euros[i])
	}
	b.WriteByte(',')
	b.WriteByte(byte('0' + rest/10))
	b.WriteByte(byte('0' + rest%10))
	b.WriteString(" €")
	return b.String()
}

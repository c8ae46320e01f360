package money

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

func pts(s string) score.Points {
	p, err := score.Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

func ptsList(ss ...string) []score.Points {
	out := make([]score.Points, len(ss))
	for i, s := range ss {
		out[i] = pts(s)
	}
	return out
}

func rat(p score.Points) *big.Rat { return big.NewRat(p.Num(), p.Den()) }

// roundHalfAway rounds r to the nearest integer, halves away from zero.
func roundHalfAway(r *big.Rat) *big.Int {
	twice := new(big.Rat).Mul(r, big.NewRat(2, 1))
	abs := new(big.Rat).Abs(twice)
	// floor((2|r| + 1) / 2)
	num := new(big.Int).Add(abs.Num(), abs.Denom()) // (2|r|+1) * den
	q := new(big.Int).Quo(num, new(big.Int).Mul(abs.Denom(), big.NewInt(2)))
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// checkAllocation asserts Allocate's promises for exact and got.
func checkAllocation(t *testing.T, exact []score.Points, got []int64) {
	t.Helper()
	if len(got) != len(exact) {
		t.Fatalf("len = %d, want %d", len(got), len(exact))
	}
	sum := new(big.Rat)
	gotSum := new(big.Int)
	for i, x := range exact {
		sum.Add(sum, rat(x))
		gotSum.Add(gotSum, big.NewInt(got[i]))
		diff := new(big.Rat).Sub(new(big.Rat).SetInt64(got[i]), rat(x))
		if diff.Abs(diff).Cmp(big.NewRat(1, 1)) >= 0 {
			t.Errorf("entry %d: %d cents is a whole cent or more away from %s", i, got[i], x)
		}
	}
	if want := roundHalfAway(sum); gotSum.Cmp(want) != 0 {
		t.Errorf("sum = %s, want %s (exact sum %s)", gotSum, want, sum.RatString())
	}
	// Largest remainder: whoever was raised has a remainder at least as
	// large as whoever was not (and a lower index on a tie).
	raised := func(i int) bool { return rat(exact[i]).Cmp(new(big.Rat).SetInt64(got[i])) < 0 }
	frac := func(i int) *big.Rat {
		r := rat(exact[i])
		f := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for den > 0
		return new(big.Rat).Sub(r, new(big.Rat).SetInt(f))
	}
	for i := range exact {
		for j := range exact {
			if !raised(i) || raised(j) {
				continue
			}
			c := frac(i).Cmp(frac(j))
			if c < 0 || (c == 0 && i > j) {
				t.Errorf("entry %d (remainder %s) raised but entry %d (remainder %s) not",
					i, frac(i).RatString(), j, frac(j).RatString())
			}
		}
	}
}

// refAllocate is Allocate written plainly with math/big.
func refAllocate(exact []score.Points) []int64 {
	out := make([]int64, len(exact))
	sum := new(big.Rat)
	floors := new(big.Int)
	fracs := make([]*big.Rat, len(exact))
	for i, x := range exact {
		r := rat(x)
		sum.Add(sum, r)
		f := new(big.Int).Div(r.Num(), r.Denom())
		out[i] = f.Int64()
		floors.Add(floors, f)
		fracs[i] = new(big.Rat).Sub(r, new(big.Rat).SetInt(f))
	}
	missing := new(big.Int).Sub(roundHalfAway(sum), floors).Int64()
	idx := make([]int, len(exact))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return fracs[b].Cmp(fracs[a]) })
	for _, i := range idx[:missing] {
		out[i]++
	}
	return out
}

func TestAllocate(t *testing.T) {
	half, ten := pts("1/2"), pts("10")
	cents := func(stake score.Points, points ...string) []score.Points {
		out := ptsList(points...)
		for i := range out {
			out[i] = CentsOf(out[i], stake)
		}
		return out
	}
	cases := []struct {
		name  string
		exact []score.Points
		want  []int64
	}{
		{"empty", nil, []int64{}},
		{"whole amounts are kept", ptsList("5", "-3", "-2"), []int64{5, -3, -2}},
		{"a third each way, two up one down", ptsList("1/3", "1/3", "-2/3"), []int64{1, 0, -1}},
		{"a third each way, two down one up", ptsList("-1/3", "-1/3", "2/3"), []int64{0, 0, 0}},
		{"thirds, four players", ptsList("1/3", "1/3", "1/3", "-1"), []int64{1, 0, 0, -1}},
		// 3, -1, -2 points at 1/2 cent: 3/2, -1/2, -1 cents.
		{"stake 1/2, whole points", cents(half, "3", "-1", "-2"), []int64{2, -1, -1}},
		// 1/3, 1/3, -2/3 points at 1/2 cent: 1/6, 1/6, -1/3 cents.
		{"stake 1/2, thirds of points", cents(half, "1/3", "1/3", "-2/3"), []int64{0, 0, 0}},
		// 7/2, -4/3, -13/6 points at 10 cents: 35, -40/3, -65/3 cents.
		{"stake 10, halves and thirds", cents(ten, "7/2", "-4/3", "-13/6"), []int64{35, -13, -22}},
		// 5/2, -5/2 points at 1/2 cent: 5/4, -5/4 cents.
		{"stake 1/2, halves of points", cents(half, "5/2", "-5/2"), []int64{1, -1}},
		{"sum not whole: 5/4 rounds to 1", ptsList("1/2", "1/2", "1/4"), []int64{1, 0, 0}},
		{"sum not whole, negative: -5/4 rounds to -1", ptsList("-1/2", "-1/2", "-1/4"), []int64{0, -1, 0}},
		{"half rounds away from zero", ptsList("1/2"), []int64{1}},
		{"minus half rounds away from zero", ptsList("-1/2"), []int64{-1}},
		{"3/2 rounds to 2, tie to lower index", ptsList("1/2", "1/2", "1/2"), []int64{1, 1, 0}},
		{"-3/2 rounds to -2, tie to lower index", ptsList("-1/2", "-1/2", "-1/2"), []int64{0, -1, -1}},
		{"floor of -7/2 is -4", ptsList("-7/2"), []int64{-4}},
		{"-7/2 and 7/2 sum to 0", ptsList("-7/2", "7/2"), []int64{-3, 3}},
		{"largest remainder wins over index", ptsList("1/4", "3/4", "-1"), []int64{0, 1, -1}},
		{"10^15 cents and a third", ptsList("3000000000000001/3", "-3000000000000001/3"),
			[]int64{1_000_000_000_000_000, -1_000_000_000_000_000}},
		{"-10^15 cents and two thirds", ptsList("-2999999999999999/3", "-1/3", "1000000000000000"),
			[]int64{-1_000_000_000_000_000, 0, 1_000_000_000_000_000}},
		// Denominators near 2^31 make the remainders' common denominator
		// leave int64, so the sum goes through math/big. The exact sum is
		// a hair below 1/2 and must round to 0.
		{"huge denominators", hugeDens, []int64{0, 1, -1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Allocate(c.exact)
			if !slices.Equal(got, c.want) {
				t.Errorf("Allocate(%v) = %v, want %v", c.exact, got, c.want)
			}
			checkAllocation(t, c.exact, got)
		})
	}
}

var hugeDens = ptsList("1/2147483647", "2147483628/2147483629", "-1073741794/2147483587")

func TestFracSumFallsBackToBig(t *testing.T) {
	var s fracSum
	for _, x := range hugeDens {
		_, r := floorDivMod(x.Num(), x.Den())
		s.add(r, x.Den())
	}
	if s.big == nil {
		t.Fatal("the remainders' common denominator fits int64; the test no longer reaches math/big")
	}
	want := new(big.Rat)
	for _, x := range hugeDens {
		want.Add(want, rat(x))
	}
	want.Add(want, big.NewRat(1, 1)) // the floors sum to -1
	if got := new(big.Rat).Add(s.big, big.NewRat(s.whole, 1)); got.Cmp(want) != 0 {
		t.Errorf("remainders sum to %s, want %s", got.RatString(), want.RatString())
	}
	if s.roundsUp(true) {
		t.Error("a sum just below 1/2 rounds up")
	}
}

func TestAllocateOverflowPanics(t *testing.T) {
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, score.ErrOverflow) {
			t.Errorf("recovered %v, want score.ErrOverflow", err)
		}
	}()
	Allocate(ptsList("9223372036854775807", "1"))
}

// TestAllocateProperties checks Allocate against its promises and against a
// plain math/big implementation on generated inputs.
func TestAllocateProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	stakes := []int64{1, 2, 3, 4, 6, 12}
	bigPrimes := []int64{2147483647, 2147483629, 2147483587, 1000000007}
	for iter := range 5000 {
		n := 1 + rng.IntN(10)
		exact := make([]score.Points, n)
		zeroSum := iter%2 == 0
		limit := int64(1_000_000_000_000_000) // |amount| <= 10^15 cents
		if iter%3 == 0 {
			limit = 50 // small amounts: many ties and sign changes
		}
		for i := range exact {
			var den int64
			switch {
			case zeroSum:
				den = stakes[rng.IntN(len(stakes))]
			case rng.IntN(10) == 0:
				den = bigPrimes[rng.IntN(len(bigPrimes))]
				exact[i] = score.Frac(rng.Int64N(2*den)-den, den) // within ±1 cent
				continue
			default:
				den = 1 + rng.Int64N(1000)
			}
			exact[i] = score.Frac(rng.Int64N(2*limit*den+1)-limit*den, den)
		}
		if zeroSum {
			exact[n-1] = score.Sum(exact[:n-1]...).Neg()
		}
		got := Allocate(exact)
		checkAllocation(t, exact, got)
		if want := refAllocate(exact); !slices.Equal(got, want) {
			t.Fatalf("Allocate(%v) = %v, reference gives %v", exact, got, want)
		}
		if zeroSum {
			var s int64
			for _, c := range got {
				s += c
			}
			if s != 0 {
				t.Fatalf("zero-sum Allocate(%v) = %v sums to %d", exact, got, s)
			}
		}
		if t.Failed() {
			t.Fatalf("input %v", exact)
		}
	}
}

func TestSplit(t *testing.T) {
	cases := []struct {
		cents int64
		n     int
		want  []int64
	}{
		{100, 3, []int64{34, 33, 33}},
		{-100, 3, []int64{-34, -33, -33}},
		{0, 4, []int64{0, 0, 0, 0}},
		{2, 5, []int64{1, 1, 0, 0, 0}},
		{-2, 5, []int64{-1, -1, 0, 0, 0}},
		{7, 1, []int64{7}},
		{-8000, 4, []int64{-2000, -2000, -2000, -2000}},
		{-9223372036854775808, 3, []int64{-3074457345618258603, -3074457345618258603, -3074457345618258602}},
		{9223372036854775807, 2, []int64{4611686018427387904, 4611686018427387903}},
	}
	for _, c := range cases {
		got := Split(c.cents, c.n)
		if !slices.Equal(got, c.want) {
			t.Errorf("Split(%d, %d) = %v, want %v", c.cents, c.n, got, c.want)
		}
		var sum int64
		for _, p := range got {
			sum += p
			if d := p - got[len(got)-1]; d < -1 || d > 1 {
				t.Errorf("Split(%d, %d) = %v: parts differ by more than a cent", c.cents, c.n, got)
			}
		}
		if sum != c.cents {
			t.Errorf("Split(%d, %d) = %v sums to %d", c.cents, c.n, got, sum)
		}
	}
}

func TestSplitPanicsBelowOnePart(t *testing.T) {
	for _, n := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Split(100, %d) did not panic", n)
				}
			}()
			Split(100, n)
		}()
	}
}

func TestCentsOf(t *testing.T) {
	cases := []struct{ points, stake, want string }{
		{"7", "1/2", "7/2"},
		{"-7/2", "1/2", "-7/4"},
		{"14/3", "10", "140/3"},
		{"-3", "10", "-30"},
		{"0", "1/2", "0"},
	}
	for _, c := range cases {
		if got := CentsOf(pts(c.points), pts(c.stake)); got.Cmp(pts(c.want)) != 0 {
			t.Errorf("CentsOf(%s, %s) = %s, want %s", c.points, c.stake, got, c.want)
		}
	}
}

func TestFormatEUR(t *testing.T) {
	cases := []struct {
		cents int64
		want  string
	}{
		{123456, "1.234,56 €"},
		{-8000, "-80,00 €"},
		{5, "0,05 €"},
		{-5, "-0,05 €"},
		{0, "0,00 €"},
		{99, "0,99 €"},
		{100, "1,00 €"},
		{99999, "999,99 €"},
		{100000, "1.000,00 €"},
		{-123456789, "-1.234.567,89 €"},
		{9223372036854775807, "92.233.720.368.547.758,07 €"},
		{-9223372036854775808, "-92.233.720.368.547.758,08 €"},
	}
	for _, c := range cases {
		if got := FormatEUR(c.cents); got != c.want {
			t.Errorf("FormatEUR(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}

func BenchmarkAllocate(b *testing.B) {
	// Eight players at half a cent per point, thirds of points: a zero-sum
	// evening with fractional cents everywhere.
	exact := ptsList("1/6", "7/3", "-35/6", "11/2", "-2/3", "13/6", "-19/6", "-1/2")
	for i := range exact {
		exact[i] = CentsOf(exact[i], pts("1/2"))
	}
	if !score.Sum(exact...).IsZero() {
		b.Fatal("benchmark input does not sum to zero")
	}
	b.ReportAllocs()
	for b.Loop() {
		Allocate(exact)
	}
}

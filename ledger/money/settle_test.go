package money

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Player ids in the hand-checked examples.
const (
	A int64 = iota + 1
	B
	C
	D
	E
	F
)

// checkSettles asserts FewestTransfers' promises for balances and got and
// returns the number of non-zero balances.
func checkSettles(t testing.TB, balances map[int64]int64, got []Transfer) int {
	t.Helper()
	left := make(map[int64]int64, len(balances))
	nonZero := 0
	for id, b := range balances {
		left[id] = b
		if b != 0 {
			nonZero++
		}
	}
	seen := make(map[[2]int64]bool)
	for i, tr := range got {
		if tr.Cents <= 0 {
			t.Errorf("transfer %d %+v: cents not positive", i, tr)
		}
		if balances[tr.From] >= 0 || balances[tr.To] <= 0 {
			t.Errorf("transfer %d %+v: not from a debtor to a creditor (%d, %d)",
				i, tr, balances[tr.From], balances[tr.To])
		}
		if seen[[2]int64{tr.From, tr.To}] {
			t.Errorf("transfer %d %+v: pair repeated", i, tr)
		}
		seen[[2]int64{tr.From, tr.To}] = true
		if i > 0 {
			p := got[i-1]
			if c := cmp.Or(cmp.Compare(p.From, tr.From), cmp.Compare(p.To, tr.To)); c > 0 {
				t.Errorf("transfers %d and %d out of order: %+v, %+v", i-1, i, p, tr)
			}
		}
		left[tr.From] += tr.Cents
		left[tr.To] -= tr.Cents
	}
	for id, b := range left {
		if b != 0 {
			t.Errorf("player %d left with %d cents after %v", id, b, got)
		}
	}
	if maxN := max(nonZero-1, 0); len(got) > maxN {
		t.Errorf("%d transfers for %d non-zero balances, want at most %d", len(got), nonZero, maxN)
	}
	return nonZero
}

// searchMinTransfers is an independent minimum by exhaustive search: settle
// the first open balance against each later one of opposite sign in turn.
func searchMinTransfers(bal []int64) int {
	var dfs func(start int) int
	dfs = func(start int) int {
		for start < len(bal) && bal[start] == 0 {
			start++
		}
		if start == len(bal) {
			return 0
		}
		best := math.MaxInt
		for j := start + 1; j < len(bal); j++ {
			if (bal[j] < 0) != (bal[start] < 0) && bal[j] != 0 {
				bal[j] += bal[start]
				best = min(best, 1+dfs(start+1))
				bal[j] -= bal[start]
			}
		}
		return best
	}
	return dfs(0)
}

// naiveTransfers settles debtors against creditors in id order, the way a
// treasurer going down the list would; it is not minimal.
func naiveTransfers(balances map[int64]int64) int {
	var debtors, creditors []account
	for id, b := range balances {
		if b < 0 {
			debtors = append(debtors, account{id, -b})
		} else if b > 0 {
			creditors = append(creditors, account{id, b})
		}
	}
	byID := func(a, b account) int { return cmp.Compare(a.id, b.id) }
	slices.SortFunc(debtors, byID)
	slices.SortFunc(creditors, byID)
	n := 0
	for len(debtors) > 0 && len(creditors) > 0 {
		amt := min(debtors[0].bal, creditors[0].bal)
		n++
		debtors[0].bal -= amt
		creditors[0].bal -= amt
		if debtors[0].bal == 0 {
			debtors = debtors[1:]
		}
		if creditors[0].bal == 0 {
			creditors = creditors[1:]
		}
	}
	return n
}

func TestFewestTransfers(t *testing.T) {
	cases := []struct {
		name     string
		balances map[int64]int64
		want     []Transfer
	}{
		{"nobody", nil, []Transfer{}},
		{"all zero", map[int64]int64{A: 0, B: 0, C: 0}, []Transfer{}},
		{"one pays one", map[int64]int64{A: -500, B: 500, C: 0},
			[]Transfer{{A, B, 500}}},
		// Going down the list, A pays C 5, B pays C 2 and D 5: 3 transfers.
		{"naive order needs 3, optimum 2", map[int64]int64{A: -5, B: -7, C: 7, D: 5},
			[]Transfer{{A, D, 5}, {B, C, 7}}},
		// Largest first: B pays D 5, A pays E 4, B pays C 2, A pays C 1: 4
		// transfers; {A, D} and {B, C, E} are zero-sum groups: 5 - 2 = 3.
		{"largest-first needs 4, optimum 3", map[int64]int64{A: -5, B: -7, C: 3, D: 5, E: 4},
			[]Transfer{{A, D, 5}, {B, C, 3}, {B, E, 4}}},
		// No exact pair; {A, C, D} and {B, E, F} are zero-sum groups: 6 - 2.
		// Largest first takes 5: A pays F 7, B pays C 6, A pays D 3, ...
		{"two groups of three", map[int64]int64{A: -10, B: -9, C: 6, D: 4, E: 2, F: 7},
			[]Transfer{{A, C, 6}, {A, D, 4}, {B, E, 2}, {B, F, 7}}},
		{"one debtor, several creditors", map[int64]int64{A: 300, B: 200, C: -1000, D: 500},
			[]Transfer{{C, A, 300}, {C, B, 200}, {C, D, 500}}},
		{"one creditor, several debtors", map[int64]int64{A: -1, B: -2, C: -3, D: 6},
			[]Transfer{{A, D, 1}, {B, D, 2}, {C, D, 3}}},
		{"equal debts go to lower ids first", map[int64]int64{A: -4, B: -4, C: 4, D: 4},
			[]Transfer{{A, C, 4}, {B, D, 4}}},
		{"negative ids", map[int64]int64{-3: -2, -2: 1, 9: 1},
			[]Transfer{{-3, -2, 1}, {-3, 9, 1}}},
		// Sums of these leave int64: {MinInt64, MinInt64} is 0 modulo 2^64
		// but is not a zero-sum group.
		{"extreme balances", map[int64]int64{
			A: math.MinInt64, B: math.MinInt64, C: math.MaxInt64, D: math.MaxInt64, E: 2},
			[]Transfer{{A, C, math.MaxInt64}, {A, E, 1}, {B, D, math.MaxInt64}, {B, E, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := FewestTransfers(c.balances)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Error("got nil, want a non-nil slice")
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("FewestTransfers(%v) =\n %v, want\n %v", c.balances, got, c.want)
			}
			n := checkSettles(t, c.balances, got)
			if n <= 8 {
				bal := make([]int64, 0, n)
				for _, b := range c.balances {
					bal = append(bal, b)
				}
				if min := searchMinTransfers(bal); len(got) != min {
					t.Errorf("%d transfers, exhaustive search finds %d", len(got), min)
				}
			}
		})
	}
}

func TestFewestTransfersBeatsNaive(t *testing.T) {
	for _, balances := range []map[int64]int64{
		{A: -5, B: -7, C: 7, D: 5},
		{A: -5, B: -7, C: 3, D: 5, E: 4},
	} {
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		checkSettles(t, balances, got)
		if naive := naiveTransfers(balances); naive <= len(got) {
			t.Errorf("%v: naive pairing needs %d, FewestTransfers %d: not an example", balances, naive, len(got))
		}
	}
	// Largest debtor to largest creditor alone misses the optimum here.
	for _, c := range []struct {
		accts []account
		want  int
	}{
		{[]account{{A, -5}, {B, -7}, {C, 3}, {D, 5}, {E, 4}}, 4},
		{[]account{{A, -10}, {B, -9}, {C, 6}, {D, 4}, {E, 2}, {F, 7}}, 5},
	} {
		if greedy := settleLargestFirst(c.accts, nil); len(greedy) != c.want {
			t.Errorf("largest-first takes %d transfers, want %d: %v", len(greedy), c.want, greedy)
		}
	}
}

func TestFewestTransfersRefusesUnbalanced(t *testing.T) {
	for _, balances := range []map[int64]int64{
		{A: -5, B: 4},
		{A: 1},
		// Sums to 2^64, which is 0 modulo 2^64.
		{A: math.MaxInt64, B: math.MaxInt64, C: 2},
	} {
		got, err := FewestTransfers(balances)
		if !errors.Is(err, ErrUnbalanced) {
			t.Errorf("FewestTransfers(%v) error = %v, want ErrUnbalanced", balances, err)
		}
		if got != nil {
			t.Errorf("FewestTransfers(%v) = %v with an error, want nil", balances, got)
		}
	}
	_, err := FewestTransfers(map[int64]int64{A: -5, B: 4})
	if want := "money: balances do not sum to zero: they sum to -1 cents"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestFewestTransfersManyPlayers(t *testing.T) {
	t.Run("20 players without pairs take the greedy path", func(t *testing.T) {
		balances := make(map[int64]int64)
		var sum int64
		for i := int64(1); i < 20; i++ {
			b := i*i*7 + 3 // distinct positive amounts...
			if i%2 == 0 {
				b = -b - 1000 // ...and negative ones, no two opposite
			}
			balances[i] = b
			sum += b
		}
		balances[20] = -sum
		for id, b := range balances {
			for id2, b2 := range balances {
				if id < id2 && b == -b2 {
					t.Fatalf("players %d and %d are an exact pair", id, id2)
				}
			}
		}
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		checkSettles(t, balances, got)
	})
	t.Run("20 players in exact pairs", func(t *testing.T) {
		balances := make(map[int64]int64)
		for i := int64(1); i <= 10; i++ {
			balances[i] = -i * 100
			balances[100+i] = i * 100
		}
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		checkSettles(t, balances, got)
		if len(got) != 10 {
			t.Errorf("%d transfers, want 10", len(got))
		}
	})
	t.Run("20 players: exact pairs first, then the exact search on 12", func(t *testing.T) {
		balances := map[int64]int64{
			1: -50, 2: 50, 3: -60, 4: 60, 5: -70, 6: 70, 7: -100, 8: 100, // 4 pairs
			// {9, 11, 12}, {10, 13, 14}, {15, 17, 18}, {16, 19, 20} are the
			// only zero-sum groups; four debtors allow no more than four.
			9: -10, 10: -9, 11: 6, 12: 4, 13: 2, 14: 7,
			15: -30, 16: -27, 17: 18, 18: 12, 19: 6, 20: 21,
		}
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		checkSettles(t, balances, got)
		// 4 for the pairs, 12 - 4 for the rest.
		if len(got) != 12 {
			t.Errorf("%d transfers, want 12: %v", len(got), got)
		}
		var rest []account
		for id := int64(9); id <= 20; id++ {
			rest = append(rest, account{id, balances[id]})
		}
		if greedy := settleLargestFirst(rest, nil); len(greedy) <= 8 {
			t.Errorf("largest-first settles the 12 in %d, so this does not show the search at work", len(greedy))
		}
	})
}

// TestFewestTransfersOptimal compares the count with an exhaustive search on
// generated small evenings, where zero-sum groups are common.
func TestFewestTransfersOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2026))
	for range 2000 {
		n := 1 + rng.IntN(8)
		balances := make(map[int64]int64, n)
		bal := make([]int64, 0, n)
		var sum int64
		for i := range n {
			b := rng.Int64N(21) - 10
			if i == n-1 {
				b = -sum
			}
			sum += b
			balances[rng.Int64N(1000)-500+int64(i)*1000] = b
			bal = append(bal, b)
		}
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		checkSettles(t, balances, got)
		if want := searchMinTransfers(bal); len(got) != want {
			t.Fatalf("FewestTransfers(%v) = %v: %d transfers, optimum %d", balances, got, len(got), want)
		}
		again, _ := FewestTransfers(balances)
		if !slices.Equal(got, again) {
			t.Fatalf("FewestTransfers(%v) not deterministic: %v then %v", balances, got, again)
		}
	}
}

func TestTransferJSON(t *testing.T) {
	b, err := json.Marshal(Transfer{From: 3, To: 7, Cents: 1250})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"from":3,"to":7,"cents":1250}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
}

// fuzzBalances turns bytes into balances that sum to zero: the first byte
// picks small amounts (zero-sum groups are common) or large ones, each next
// pair of bytes is one player, the last player takes the rest.
func fuzzBalances(data []byte) map[int64]int64 {
	balances := make(map[int64]int64)
	if len(data) == 0 {
		return balances
	}
	small := data[0]&1 == 1
	data = data[1:]
	n := min(len(data)/2, 24)
	var sum int64
	for i := range n {
		v := int64(int16(uint16(data[2*i])<<8 | uint16(data[2*i+1])))
		if small {
			v %= 12
		} else {
			v *= 1_000_003
		}
		balances[int64(i)*7919-50_000] = v
		sum += v
	}
	balances[1_000_000] = -sum
	return balances
}

func FuzzFewestTransfers(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 5, 0, 7, 0xff, 0xfb})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("a long evening of Doppelkopf with many players at many tables"))
	f.Fuzz(func(t *testing.T, data []byte) {
		balances := fuzzBalances(data)
		got, err := FewestTransfers(balances)
		if err != nil {
			t.Fatal(err)
		}
		n := checkSettles(t, balances, got)
		if n <= 7 {
			bal := make([]int64, 0, n)
			for _, b := range balances {
				bal = append(bal, b)
			}
			if want := searchMinTransfers(bal); len(got) != want {
				t.Errorf("%v: %d transfers, optimum %d", balances, len(got), want)
			}
		}
	})
}

func benchBalances(n int) map[int64]int64 {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	balances := make(map[int64]int64, n)
	var sum int64
	for i := range n - 1 {
		b := rng.Int64N(20_001) - 10_000
		balances[int64(i+1)] = b
		sum += b
	}
	balances[int64(n)] = -sum
	return balances
}

func BenchmarkFewestTransfers(b *testing.B) {
	for _, n := range []int{8, 16} {
		balances := benchBalances(n)
		b.Run(map[int]string{8: "8players", 16: "16players"}[n], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FewestTransfers(balances); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

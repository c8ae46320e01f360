package money

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
)

// Transfer is one payment when settling up: From pays To Cents (> 0) cents.
// From and To are the keys of the balances given to FewestTransfers (player
// ids).
type Transfer struct {
	From  int64 `json:"from"`
	To    int64 `json:"to"`
	Cents int64 `json:"cents"`
}

// ErrUnbalanced is returned (wrapped) by FewestTransfers when the balances
// do not sum to zero.
var ErrUnbalanced = errors.New("money: balances do not sum to zero")

// exactLimit is the largest number of unmatched non-zero balances for which
// FewestTransfers searches every subset for the proven minimum.
const exactLimit = 16

// FewestTransfers works out who pays whom to settle balances in cents
// (positive: receives, negative: pays), which must sum to exactly zero; if
// they do not, it returns an error wrapping ErrUnbalanced and no transfers.
// It promises:
//
//   - Applying the transfers (From's balance up by Cents, To's down) brings
//     every balance to zero. Every transfer goes from a negative balance to
//     a positive one, has Cents > 0, and no pair of players appears twice.
//   - The list is sorted by From, then To, and depends only on the map's
//     contents; it is empty (not nil) when every balance is zero.
//   - Its length is never more than the number of non-zero balances minus 1,
//     and it is the minimum, n - k (n non-zero balances, k the largest number
//     of disjoint zero-sum groups they split into), whenever at most
//     16 balances are left after the first step below.
//
// How: first every creditor is paired with a debtor who owes exactly what he
// is owed (creditors by id, each with the lowest-id such debtor); some
// minimum settlement always contains such a pair as its own group, so this
// costs nothing. If at most 16 balances remain, a dynamic program
// over their subsets finds a partition into the most zero-sum groups (O(2^n·n)
// time, 2^n bytes), and each group is settled in one transfer fewer than its
// size. Above that it falls back to a greedy: the largest debtor pays the
// largest creditor (ties to the lower id) until all are settled; it can
// miss the minimum.
//
// It is exact for every int64 balance: sums are taken in 128 bits.
func FewestTransfers(balances map[int64]int64) ([]Transfer, error) {
	var hi int64
	var lo uint64
	open := make([]account, 0, len(balances))
	for id, b := range balances {
		hi, lo = add128(hi, lo, b)
		if b != 0 {
			open = append(open, account{id: id, bal: b})
		}
	}
	if hi != 0 || lo != 0 {
		sum := new(big.Int).Lsh(big.NewInt(hi), 64)
		sum.Add(sum, new(big.Int).SetUint64(lo))
		return nil, fmt.Errorf("%w: they sum to %s cents", ErrUnbalanced, sum)
	}
	slices.SortFunc(open, func(a, b account) int { return cmp.Compare(a.id, b.id) })

	transfers := make([]Transfer, 0, max(len(open)-1, 0))
	open, transfers = matchOpposites(open, transfers)
	if len(open) <= exactLimit {
		for _, g := range zeroSumGroups(open) {
			transfers = settleLargestFirst(g, transfers)
		}
	} else {
		transfers = settleLargestFirst(open, transfers)
	}
	slices.SortFunc(transfers, func(a, b Transfer) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.To, b.To)
	})
	return transfers, nil
}

type account struct {
	id, bal int64
}

// add128 adds v to the 128-bit two's complement number hi:lo.
func add128(hi int64, lo uint64, v int64) (int64, uint64) {
	lo, carry := bits.Add64(lo, uint64(v), 0)
	hi += int64(carry)
	if v < 0 {
		hi--
	}
	return hi, lo
}

// matchOpposites settles every creditor who is owed exactly what some
// debtor owes, and returns the rest (in id order) and the transfers.
func matchOpposites(open []account, out []Transfer) ([]account, []Transfer) {
	debtors := make(map[int64][]int) // balance -> indexes into open, by id
	for i, a := range open {
		if a.bal < 0 {
			debtors[a.bal] = append(debtors[a.bal], i)
		}
	}
	if len(debtors) == 0 {
		return open, out
	}
	matched := make([]bool, len(open))
	for i, a := range open {
		if a.bal <= 0 {
			continue
		}
		q := debtors[-a.bal]
		if len(q) == 0 {
			continue
		}
		j := q[0]
		debtors[-a.bal] = q[1:]
		matched[i], matched[j] = true, true
		out = append(out, Transfer{From: open[j].id, To: a.id, Cents: a.bal})
	}
	rest := make([]account, 0, len(open))
	for i, a := range open {
		if !matched[i] {
			rest = append(rest, a)
		}
	}
	return rest, out
}

// zeroSumGroups partitions accts (at most exactLimit of them, summing to
// zero) into the largest possible number of zero-sum groups.
//
// best[mask] is the most zero-sum groups that a chain of removals from mask
// passes through: best[mask] = max over members i of best[mask without i],
// plus one if mask sums to zero. Any partition into k groups gives such a
// chain (remove one group after the other) and any chain gives a partition
// (the differences between successive zero-sum masks), so best[full] is the
// maximum k. Since best[X] <= best[X without j] + 1 and best only grows
// with the set, best of two masks one member short of the same set differ by
// at most one.
func zeroSumGroups(accts []account) [][]account {
	n := len(accts)
	if n == 0 {
		return nil
	}
	// Subset sums in 128 bits from two half tables (2^(n/2) entries each).
	lowN := n / 2
	low, high := subsetSums(accts[:lowN]), subsetSums(accts[lowN:])
	lowMask := uint32(1)<<lowN - 1
	zero := func(mask uint32) bool {
		a, b := low[mask&lowMask], high[mask>>lowN]
		lo, carry := bits.Add64(a.lo, b.lo, 0)
		return lo == 0 && a.hi+b.hi+int64(carry) == 0
	}

	full := uint32(1)<<n - 1
	best := make([]uint8, full+1)
	for mask := uint32(1); mask <= full; mask++ {
		// Removing one member changes best by at most one, so the other
		// members can only beat the lowest one by one: stop at the first.
		low := mask & -mask
		m := best[mask^low]
		for rest := mask ^ low; rest != 0; rest &= rest - 1 {
			if best[mask&^(rest&-rest)] > m {
				m++
				break
			}
		}
		if zero(mask) {
			m++
		}
		best[mask] = m
	}

	groups := make([][]account, 0, best[full])
	var group []account
	for mask := full; mask != 0; {
		want := best[mask]
		if zero(mask) {
			want--
		}
		var bit uint32
		for rest := mask; rest != 0; rest &= rest - 1 {
			if bit = rest & -rest; best[mask&^bit] == want {
				break // lowest member that keeps the chain optimal
			}
		}
		mask &^= bit
		group = append(group, accts[bits.TrailingZeros32(bit)])
		if mask == 0 || zero(mask) {
			groups = append(groups, group)
			group = nil
		}
	}
	return groups
}

type int128 struct {
	hi int64
	lo uint64
}

// subsetSums returns the sum of every subset of accts, indexed by bit mask.
func subsetSums(accts []account) []int128 {
	sums := make([]int128, 1<<len(accts))
	for mask := 1; mask < len(sums); mask++ {
		i := bits.TrailingZeros(uint(mask))
		s := sums[mask&(mask-1)]
		s.hi, s.lo = add128(s.hi, s.lo, accts[i].bal)
		sums[mask] = s
	}
	return sums
}

// settleLargestFirst settles accts (summing to zero) by letting the largest
// debtor pay the largest creditor, ties to the lower id, until none is left.
// Each transfer settles at least one of the two and the last settles both,
// so it takes at most len(accts)-1 transfers, and a pair never repeats.
func settleLargestFirst(accts []account, out []Transfer) []Transfer {
	var debtors, creditors []account
	for _, a := range accts {
		if a.bal < 0 {
			debtors = append(debtors, a)
		} else if a.bal > 0 {
			creditors = append(creditors, a)
		}
	}
	byDebt := func(a, b account) int { // most negative first, then id
		if c := cmp.Compare(a.bal, b.bal); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	}
	byCredit := func(a, b account) int { // largest first, then id
		if c := cmp.Compare(b.bal, a.bal); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	}
	slices.SortFunc(debtors, byDebt)
	slices.SortFunc(creditors, byCredit)
	for len(debtors) > 0 && len(creditors) > 0 {
		d, c := debtors[0], creditors[0]
		debtors, creditors = debtors[1:], creditors[1:]
		left := d.bal + c.bal // opposite signs: cannot overflow
		cents := c.bal
		if left > 0 {
			cents = -d.bal // here d.bal > -c.bal >= -MaxInt64
		}
		out = append(out, Transfer{From: d.id, To: c.id, Cents: cents})
		switch {
		case left < 0:
			debtors = insertSorted(debtors, account{id: d.id, bal: left}, byDebt)
		case left > 0:
			creditors = insertSorted(creditors, account{id: c.id, bal: left}, byCredit)
		}
	}
	return out
}

func insertSorted(s []account, a account, cmp func(a, b account) int) []account {
	i, _ := slices.BinarySearchFunc(s, a, cmp)
	return slices.Insert(s, i, a)
}

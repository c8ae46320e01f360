package ledger_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func pts(s string) score.Points {
	p, err := score.Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// input is an evening of players 1, 2, 3 (and 4) with the given totals.
func input(mode ledger.SettleMode, stake string, zeroSum bool, totals map[int64]string, hands ...ledger.Hand) ledger.SettleInput {
	in := ledger.SettleInput{
		Session: ledger.Session{ID: 7, TableID: 3, Date: "2026-11-19", Seating: []int64{1, 2, 3, 4},
			Terms: ledger.Terms{Stake: pts(stake), SettleMode: mode, MatchLossCents: 100}},
		Table:   ledger.Table{ID: 3, Game: "test"},
		ZeroSum: zeroSum,
		Names:   map[int64]string{1: "Anna", 2: "Bernd", 3: "Clara", 4: "Dieter"},
		Hands:   hands,
	}
	for id, p := range totals {
		in.Standings = append(in.Standings, ledger.Standing{Player: id, Points: pts(p), Hands: 5})
	}
	return in
}

// transfers renders transfers as "1->2:47" with "K" for the kitty.
func transfers(st ledger.Settlement) string {
	var parts []string
	for _, t := range st.Transfers {
		parts = append(parts, fmt.Sprintf("%s->%s:%d", who(t.From), who(t.To), t.Cents))
	}
	return strings.Join(parts, " ")
}

func who(id *int64) string {
	if id == nil {
		return "K"
	}
	return fmt.Sprint(*id)
}

func nets(st ledger.Settlement) string {
	var parts []string
	for _, p := range st.Players {
		parts = append(parts, fmt.Sprintf("%d:%d", p.Player, p.NetCents))
	}
	return strings.Join(parts, " ")
}

func TestSettleModes(t *testing.T) {
	// Thirds at 10 cents a point: 140/3, 140/3, -280/3 cents, rounded by
	// largest remainder to 47, 47, -94 (ties go to the earlier seat).
	thirds := map[int64]string{1: "14/3", 2: "14/3", 3: "-28/3"}
	payout := ledger.Hand{Number: 4, Result: score.Result{Events: []score.Event{{Type: "payout", Text: "Bernd zahlt", Players: []int64{2}, Amount: 500}}}}
	shared := ledger.Hand{Number: 6, Result: score.Result{Events: []score.Event{{Type: "payout", Players: []int64{2}, Recipients: []int64{1, 3}, Amount: 501}}}}
	match := ledger.Hand{Number: 9, Result: score.Result{Events: []score.Event{
		{Type: "match_won", Players: []int64{1, 3}, Amount: 1},
		{Type: "match_lost", Players: []int64{2, 4}, Amount: 1},
	}}}
	cases := []struct {
		name      string
		in        ledger.SettleInput
		nets      string
		transfers string
		kitty     int64
	}{
		{"transfers between players", input(ledger.SettleTransfers, "10", true, thirds),
			"1:47 2:47 3:-94 4:0", "3->1:47 3->2:47", 0},
		{"everyone with the kitty", input(ledger.SettleKitty, "10", true, thirds),
			"1:47 2:47 3:-94 4:0", "K->1:47 K->2:47 3->K:94", 0},
		{"losers to the kitty", input(ledger.SettleLosersToKitty, "10", true, thirds),
			"1:47 2:47 3:-94 4:0", "3->K:94", 94},
		{"half a cent a point, halves", input(ledger.SettleTransfers, "1/2", true, map[int64]string{1: "7/2", 2: "-7/2"}),
			// 7/4 and -7/4 cents: floors 1 and -2, the missing cent to the larger remainder.
			"1:2 2:-2 3:0 4:0", "2->1:2", 0},
		{"not zero-sum: minus points into the kitty", input(ledger.SettleTransfers, "1", false, map[int64]string{3: "-23", 1: "-45/2"}),
			// -23 and -22.5: -23 and -22 would sum to -45, the exact sum -45.5 rounds to -46.
			"1:-23 2:0 3:-23 4:0", "1->K:23 3->K:23", 46},
		{"payout to the kitty", input(ledger.SettleTransfers, "0", false, nil, payout),
			"1:0 2:-500 3:0 4:0", "2->K:500", 500},
		{"payout shared by the others", input(ledger.SettleTransfers, "0", false, nil, shared),
			"1:251 2:-501 3:250 4:0", "2->1:251 2->3:250", 0},
		{"lost Klaberjass match", input(ledger.SettleTransfers, "0", true, nil, match),
			"1:100 2:-100 3:100 4:-100", "2->1:100 4->3:100", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := ledger.Settle(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := nets(st); got != c.nets {
				t.Errorf("nets %s, want %s", got, c.nets)
			}
			if got := transfers(st); got != c.transfers {
				t.Errorf("transfers %s, want %s", got, c.transfers)
			}
			if st.KittyCents != c.kitty {
				t.Errorf("kitty %d, want %d", st.KittyCents, c.kitty)
			}
			assertSettled(t, st)
		})
	}
}

// assertSettled checks that applying the transfers brings every player's
// net to zero and that what the kitty gets is what the players pay it.
func assertSettled(t *testing.T, st ledger.Settlement) {
	t.Helper()
	if st.Mode == ledger.SettleLosersToKitty {
		return // winners' plus stays with the club by design
	}
	left := map[int64]int64{}
	for _, p := range st.Players {
		left[p.Player] = p.NetCents
	}
	var kitty int64
	for _, tr := range st.Transfers {
		if tr.From != nil {
			left[*tr.From] += tr.Cents
		} else {
			kitty -= tr.Cents
		}
		if tr.To != nil {
			left[*tr.To] -= tr.Cents
		} else {
			kitty += tr.Cents
		}
	}
	for id, c := range left {
		if c != 0 {
			t.Errorf("player %d is left with %d cents after the transfers", id, c)
		}
	}
	if kitty != st.KittyCents {
		t.Errorf("kitty receives %d by the transfers, settlement says %d", kitty, st.KittyCents)
	}
}

func TestSettleMoneyMatchesPointsExactly(t *testing.T) {
	// Zero-sum thirds at a third of a cent: the money still sums to zero.
	st, err := ledger.Settle(input(ledger.SettleTransfers, "1/3", true, map[int64]string{1: "1", 2: "1", 3: "1", 4: "-3"}))
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, p := range st.Players {
		sum += p.PointsCents
	}
	if sum != 0 {
		t.Errorf("money of a zero-sum evening sums to %d cents", sum)
	}
	if got := nets(st); got != "1:1 2:0 3:0 4:-1" {
		t.Errorf("nets %s: a third of a cent each, the missing cent to the first seat", got)
	}
}

package doppelkopf

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestBockEvening plays gamestest.BockEvening, twelve hands at a table of
// four under the house rules, feeding each hand's state into the next, and
// compares the running totals with the sheet computed by hand (see there).
func TestBockEvening(t *testing.T) {
	hands := [len(gamestest.BockEvening)]struct {
		totals   [4]int64
		left     int
		queued   int
		bockGame bool
		queuedBy int64
		dealer   int64
	}{
		{[4]int64{1, 1, -1, -1}, 0, 0, false, 0, 1},
		{[4]int64{-1, 3, -3, 1}, 4, 0, false, 1, 2},
		{[4]int64{-9, 11, 5, -7}, 3, 0, true, 0, 3},
		{[4]int64{-10, 10, 4, -4}, 3, 0, false, 0, 4},
		{[4]int64{-10, 10, 4, -4}, 3, 0, false, 0, 1},
		{[4]int64{-26, 26, 20, -20}, 2, 1, true, 1, 1},
		{[4]int64{-18, 34, 12, -28}, 1, 1, true, 0, 2},
		{[4]int64{-20, 32, 14, -26}, 4, 0, true, 0, 3},
		{[4]int64{-24, 36, 10, -22}, 3, 1, true, 1, 4},
		{[4]int64{-28, 40, 6, -18}, 2, 1, true, 0, 1},
		{[4]int64{-32, 44, 2, -14}, 1, 1, true, 0, 2},
		{[4]int64{-29, 47, -7, -11}, 1, 1, false, 0, 3},
	}
	rules := gamestest.MustRules(t, Engine{}, "house", "")
	var state json.RawMessage
	totals := map[int64]score.Points{}
	for i, hnd := range hands {
		prev := decodeTestStateRaw(t, state)
		if got := prev.nextDealer(four); got != hnd.dealer {
			t.Errorf("hand %d: dealer %d, want %d", i+1, got, hnd.dealer)
		}
		facts := gamestest.Seat(gamestest.BockEvening[i], four...)
		res, err := Engine{}.Score(score.Hand{Seated: four, Session: 42, Rules: rules, State: state, Facts: json.RawMessage(facts)})
		if err != nil {
			t.Fatalf("hand %d: %v", i+1, err)
		}
		if res.Dealer != hnd.dealer || !sameIDs(res.Players, four) {
			t.Errorf("hand %d: result names dealer %d, players %v; want %d, %v", i+1, res.Dealer, res.Players, hnd.dealer, four)
		}
		for _, pp := range res.Points {
			totals[pp.Player] = totals[pp.Player].Add(pp.Points)
		}
		for j, id := range four {
			if totals[id].Cmp(score.Int(hnd.totals[j])) != 0 {
				t.Errorf("hand %d: player %d total %s, want %d", i+1, id, totals[id], hnd.totals[j])
			}
		}
		st := decodeTestState(t, res)
		if st.BockGamesLeft != hnd.left || st.BockRoundsQueued != hnd.queued {
			t.Errorf("hand %d: Bock %d left, %d queued; want %d, %d", i+1, st.BockGamesLeft, st.BockRoundsQueued, hnd.left, hnd.queued)
		}
		_, bockGame := event(res, "bock_game")
		if bockGame != hnd.bockGame {
			t.Errorf("hand %d: bock game %v, want %v", i+1, bockGame, hnd.bockGame)
		}
		hasBockLine := false
		for _, l := range res.Lines {
			hasBockLine = hasBockLine || l.Label == "Bock"
		}
		if hasBockLine != hnd.bockGame {
			t.Errorf("hand %d: Bock line %v, want %v", i+1, hasBockLine, hnd.bockGame)
		}
		q, _ := event(res, "bock_queued")
		if q.Amount != hnd.queuedBy {
			t.Errorf("hand %d: queued %d rounds, want %d", i+1, q.Amount, hnd.queuedBy)
		}
		state = res.State
	}
	st := decodeTestStateRaw(t, state)
	if st.Solos[3] != 1 || st.Solos[4] != 1 || len(st.Solos) != 2 {
		t.Errorf("solos %v, want player 3: 1, player 4: 1", st.Solos)
	}
	if st.Games != 11 || st.NextDealer == nil || *st.NextDealer != 4 {
		t.Errorf("games %d, next dealer %v; want 11 games, dealer 4", st.Games, st.NextDealer)
	}
	want := "{{player:4}} gibt; noch 1 Bockspiel, 1 Bockrunde wartet; Soli an diesem Abend: {{player:3}} 1, {{player:4}} 1"
	if st.Summary != want {
		t.Errorf("summary %q, want %q", st.Summary, want)
	}
}

func decodeTestStateRaw(t *testing.T, raw json.RawMessage) State {
	t.Helper()
	st, err := decodeState(raw)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

package doppelkopf

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestBockEvening plays twelve hands at a table of four under the house
// rules, feeding each hand's state into the next, and compares the running
// totals with a sheet computed by hand:
//
//	 #  dealer  hand                                           value          P1   P2   P3   P4  Bock left/queued
//	 1  1       Re 1+2 150:90                                   1            +1   +1   -1   -1   0/0
//	 2  2       Re 1+3 120:120, Kontra wins, 1+gegen d. Alten   2            -1   +3   -3   +1   4/0  (Spaltarsch)
//	 3  3       Bock 1: Re 2+3 "re" 160:80, (1+1)x2 x Bock      8            -9  +11   +5   -7   3/0
//	 4  4       Damensolo P4 130, won 1, x3, no Bock            3|1         -10  +10   +4   -4   3/0
//	 5  1       Schmeißen, 0, same dealer                       0           -10  +10   +4   -4   3/0
//	 6  1       Bock 2: Re 1+4 "re" 100 vs "kontra": (1+1)x2x2xBock 16  -26  +26  +20  -20   2/1  (Re+Kontra)
//	 7  2       Bock 3: Re 1+2 200:40 + Fuchs: (1+2+1) x Bock   8           -18  +34  +12  -28   1/1
//	 8  3       Bock 4: Re 3+4 121: 1 x Bock                    2           -20  +32  +14  -26   4/0  (next round)
//	 9  4       Bock 1: Re 1+3 90:150, Herzstich: 2 x Bock      4           -24  +36  +10  -22   3/1  (Herzstich)
//	10  1       Bock 2: Hochzeit 2+4 170:70: 2 x Bock           4           -28  +40   +6  -18   2/1
//	11  2       Bock 3: Armut 3+1 110:130: 2 x Bock             4           -32  +44   +2  -14   1/1
//	12  3       Kreuz-Solo P3 100 lost: 1+1+Solo verloren, x3   9|3         -29  +47   -7  -11   1/1
func TestBockEvening(t *testing.T) {
	hands := []struct {
		facts    string
		totals   [4]int64
		left     int
		queued   int
		bockGame bool
		queuedBy int64
		dealer   int64
	}{
		{`{"game":"normal","re":{"players":[1,2],"augen":150}}`, [4]int64{1, 1, -1, -1}, 0, 0, false, 0, 1},
		{`{"game":"normal","re":{"players":[1,3],"augen":120}}`, [4]int64{-1, 3, -3, 1}, 4, 0, false, 1, 2},
		{`{"game":"normal","re":{"players":[2,3],"augen":160,"announced":"re"}}`, [4]int64{-9, 11, 5, -7}, 3, 0, true, 0, 3},
		{`{"game":"damensolo","re":{"players":[4],"augen":130}}`, [4]int64{-10, 10, 4, -4}, 3, 0, false, 0, 4},
		{`{"game":"schmeissen"}`, [4]int64{-10, 10, 4, -4}, 3, 0, false, 0, 1},
		{`{"game":"normal","re":{"players":[1,4],"augen":100,"announced":"re"},"kontra":{"announced":"kontra"}}`, [4]int64{-26, 26, 20, -20}, 2, 1, true, 1, 1},
		{`{"game":"normal","re":{"players":[1,2],"augen":200,"fuchs_gefangen":1}}`, [4]int64{-18, 34, 12, -28}, 1, 1, true, 0, 2},
		{`{"game":"normal","re":{"players":[3,4],"augen":121}}`, [4]int64{-20, 32, 14, -26}, 4, 0, true, 0, 3},
		{`{"game":"normal","herzstich":true,"re":{"players":[1,3],"augen":90}}`, [4]int64{-24, 36, 10, -22}, 3, 1, true, 1, 4},
		{`{"game":"hochzeit","re":{"players":[2,4],"augen":170}}`, [4]int64{-28, 40, 6, -18}, 2, 1, true, 0, 1},
		{`{"game":"armut","re":{"players":[3,1],"augen":110}}`, [4]int64{-32, 44, 2, -14}, 1, 1, true, 0, 2},
		{`{"game":"farbsolo","suit":"kreuz","re":{"players":[3],"augen":100}}`, [4]int64{-29, 47, -7, -11}, 1, 1, false, 0, 3},
	}
	rules := mustRules(t, "house", "")
	var state json.RawMessage
	totals := map[int64]score.Points{}
	for i, hnd := range hands {
		prev := decodeTestStateRaw(t, state)
		if got := prev.nextDealer(four); got != hnd.dealer {
			t.Errorf("hand %d: dealer %d, want %d", i+1, got, hnd.dealer)
		}
		res, err := Engine{}.Score(score.Hand{Seated: four, Session: 42, Rules: rules, State: state, Facts: json.RawMessage(hnd.facts)})
		if err != nil {
			t.Fatalf("hand %d: %v", i+1, err)
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
	want := "next dealer: player 4; 1 Bock game left, 1 round queued; solos this session: player 3: 1, player 4: 1"
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

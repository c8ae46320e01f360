package ledger_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestReportNamesTheDealerOfTheResult: a score sheet row names the dealer
// the engine resolved, also when the facts leave him to the table's state,
// and marks a Bock game by its event.
func TestReportNamesTheDealerOfTheResult(t *testing.T) {
	players := []ledger.Player{{ID: 1, Name: "Anna"}, {ID: 2, Name: "Bernd"}, {ID: 3, Name: "Clara"}, {ID: 4, Name: "Dieter"}}
	hands := []ledger.Hand{
		{Number: 1, Facts: json.RawMessage(`{"game":"normal","re":{"players":[1,2],"augen":150}}`),
			Result: score.Result{Dealer: 3, Points: []score.PlayerPoints{{Player: 1, Points: score.Int(1)}}}},
		{Number: 2, Facts: json.RawMessage(`{"game":"normal","dealer":4,"re":{"players":[1,2],"augen":150}}`),
			Result: score.Result{Dealer: 4, Events: []score.Event{{Type: score.EventBockGame}}}},
		{Number: 3, Facts: json.RawMessage(`{}`)},
	}
	r := ledger.BuildReport(ledger.Club{}, ledger.Table{}, ledger.Session{}, players, hands, nil, ledger.Settlement{}, nil)
	var dealers []int64
	var bock []bool
	for _, row := range r.Hands {
		dealers = append(dealers, row.Dealer)
		bock = append(bock, row.Bock)
	}
	if !slices.Equal(dealers, []int64{3, 4, 0}) || !slices.Equal(bock, []bool{false, true, false}) {
		t.Errorf("rows' dealers %v and Bock marks %v, want [3 4 0] and [false true false]", dealers, bock)
	}
}

// TestVoidResultKeepsDealerAndPlayers: an annulled hand was still dealt
// and played by the same players.
func TestVoidResultKeepsDealerAndPlayers(t *testing.T) {
	previous := score.Result{Dealer: 5, Players: []int64{1, 2, 3, 4},
		Points: []score.PlayerPoints{{Player: 1, Points: score.Int(2)}, {Player: 5, Points: score.Int(0)}}}
	res := ledger.VoidResult(previous, json.RawMessage(`{}`))
	if res.Dealer != 5 || !slices.Equal(res.Players, []int64{1, 2, 3, 4}) {
		t.Errorf("void result: dealer %d, players %v; want 5, [1 2 3 4]", res.Dealer, res.Players)
	}
	for _, pp := range res.Points {
		if !pp.Points.IsZero() {
			t.Errorf("void result: player %d scores %s, want 0", pp.Player, pp.Points)
		}
	}
}

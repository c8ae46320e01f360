package saukopf

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func mustPreview(t *testing.T, h score.Hand) json.RawMessage {
	t.Helper()
	return gamestest.MustPreview(t, Engine{}, h, "summary")
}

// TestPreviewNewTable: a new table's preview is a complete state that
// says no hand has been played, with or without a seating.
func TestPreviewNewTable(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	for _, state := range []string{"", "{}", "null"} {
		for _, seated := range [][]int64{{1, 2, 3, 4}, nil} {
			got := mustPreview(t, score.Hand{Seated: seated, Session: 1, Rules: rules, State: json.RawMessage(state)})
			if string(got) != `{"summary":"Noch kein Spiel an diesem Tisch"}` {
				t.Errorf("state %q: preview %s", state, got)
			}
		}
	}
	if _, err := (Engine{}).Preview(score.Hand{Rules: json.RawMessage(`{}`)}); err == nil {
		t.Error("a foreign rule set previewed")
	}
	if _, err := (Engine{}).Preview(score.Hand{Rules: rules, State: json.RawMessage(`{"summary":1}`)}); err == nil {
		t.Error("an unreadable state previewed")
	}
}

// TestPreviewCarriesNothing: after an evening of five (the dealer sits
// out), four players open the next session: the preview is the state the
// last hand left, its summary of that hand; nothing else carries, so the
// next hand scores from the preview exactly as from the state.
func TestPreviewCarriesNothing(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	five := []int64{1, 2, 3, 4, 5}
	h := score.Hand{Seated: five, Session: 1, Rules: rules}
	// gamestest.LostKeiler dealt by player 5, who sits out.
	h.Facts = json.RawMessage(`{"variant":"vierer","players":[1,2,3,4],"dealer":5,"spieler":1,"bid":61,"contract":"keiler","trump_suit":"herz","huftritte":1,"augen":55,"tricks":4,"laufende":{"holder":1,"count":2}}`)
	state := gamestest.MustScore(t, Engine{}, h).State

	next := score.Hand{Seated: []int64{1, 2, 3, 4}, Session: 2, Rules: rules, State: state}
	preview := mustPreview(t, next)
	if string(preview) != string(state) {
		t.Errorf("preview %s, want the state %s", preview, state)
	}
	var st State
	if err := json.Unmarshal(preview, &st); err != nil || st.Summary != "Letztes Spiel: Herz-Keiler (Spieler {{player:1}}) verloren, je Verlierer 14" {
		t.Errorf("summary %q", st.Summary)
	}

	next.Facts = json.RawMessage(gamestest.Seat(gamestest.LostKeiler, 1, 2, 3, 4))
	res := gamestest.MustScore(t, Engine{}, next)
	next.State = preview
	fromPreview := gamestest.MustScore(t, Engine{}, next)
	same := string(res.State) == string(fromPreview.State) && res.Title == fromPreview.Title && len(res.Points) == len(fromPreview.Points)
	for i := range res.Points {
		same = same && res.Points[i].Player == fromPreview.Points[i].Player && res.Points[i].Points.Cmp(fromPreview.Points[i].Points) == 0
	}
	if !same {
		t.Errorf("from the state %s %s, from the preview %s %s", res.Title, res.State, fromPreview.Title, fromPreview.State)
	}
}

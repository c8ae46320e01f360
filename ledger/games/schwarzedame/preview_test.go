package schwarzedame

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// required are the members SchwarzeDameState requires.
var required = []string{"match", "hands_played", "hands_left", "balance", "matches_won", "summary"}

func mustPreview(t *testing.T, h score.Hand) json.RawMessage {
	t.Helper()
	return gamestest.MustPreview(t, Engine{}, h, required...)
}

// TestPreviewNewTable: a new table's preview is a complete state: match 1,
// none of its hands played, all of them left, no balance, no matches won.
func TestPreviewNewTable(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	for _, state := range []string{"", "{}", "null"} {
		for _, s := range [][]int64{seated, nil} {
			got := mustPreview(t, score.Hand{Seated: s, Session: 1, Rules: rules, State: json.RawMessage(state)})
			gamestest.SameJSON(t, got, `{"match":1,"hands_played":0,"hands_left":8,"balance":{},"matches_won":{},"summary":"Partie 1: 0 von 8 Spielen gespielt"}`)
		}
	}
	_, err := Engine{}.Preview(score.Hand{Rules: json.RawMessage(`{"hands_per_match":0}`)})
	if v := asViolation(t, err); v != nil && v.Field != "rules" {
		t.Errorf("violation of %s, want rules", v.Field)
	}
}

// penaltyHand is a hand given in penalty points of players ids dealt by
// ids[dealer]: 4, 3, 5 and 1 tricks with 20, 40, 47 and 23 penalty
// points, so +20, -10, +3, -13 (example A's points).
func penaltyHand(dealer int, ids ...int64) Facts {
	tricks, penalty := []int{4, 3, 5, 1}, []int{20, 40, 47, 23}
	f := Facts{Dealer: ids[dealer]}
	for i, id := range ids {
		f.Players = append(f.Players, PlayerFacts{Player: id, Tricks: tricks[i], Penalty: pen(penalty[i])})
	}
	return f
}

// TestPreviewNextEvening: the match of three hands carries into the next
// evening whoever sits at the table: four players after an evening of
// five see the balance (player 1, not seated, after them) and the one hand
// left; after the match, who won it: player 1, who kept the best balance
// without playing its last hand.
func TestPreviewNextEvening(t *testing.T) {
	tb := newTable(t, `{"hands_per_match":3}`)
	tb.play(exampleA())
	tb.play(penaltyA())
	h := score.Hand{Seated: []int64{west, sued, ost, bank}, Session: 2, Rules: tb.rules, State: tb.state}
	gamestest.SameJSON(t, mustPreview(t, h), `{"match":1,"hands_played":2,"hands_left":1,"balance":{"1":40,"2":-20,"3":6,"4":-26},"matches_won":{},
		"summary":"Partie 1: 2 von 3 Spielen gespielt; Stand: {{player:4}} -26, {{player:3}} +6, {{player:2}} -20, {{player:1}} +40"}`)

	h.Facts = factsJSON(t, penaltyHand(0, west, sued, ost, bank))
	h.State = gamestest.MustScore(t, Engine{}, h).State
	h.Facts = nil
	gamestest.SameJSON(t, mustPreview(t, h), `{"match":2,"hands_played":0,"hands_left":3,"balance":{},"matches_won":{"1":1},"last_match_winners":[1],
		"summary":"Partie 1 gewonnen von {{player:1}}; Partie 2: 0 von 3 Spielen gespielt"}`)
}

// TestPreviewLoweredHandsPerMatch: a match already past a lowered
// hands_per_match has one hand left, which ends it.
func TestPreviewLoweredHandsPerMatch(t *testing.T) {
	tb := newTable(t, "")
	tb.play(exampleA())
	tb.play(exampleA())
	tb.rules = gamestest.MustRules(t, Engine{}, "", `{"hands_per_match":1}`)
	h := score.Hand{Seated: seated, Session: 1, Rules: tb.rules, State: tb.state}
	var preview State
	if err := json.Unmarshal(mustPreview(t, h), &preview); err != nil {
		t.Fatal(err)
	}
	if preview.HandsLeft != 1 || preview.Summary != "Partie 1: 2 von 1 Spielen gespielt; Stand: {{player:1}} +40, {{player:2}} -20, {{player:3}} +6, {{player:4}} -26" {
		t.Errorf("preview %+v, want 1 hand left", preview)
	}
	if res, _ := tb.play(exampleA()); len(res.Events) != 1 {
		t.Errorf("events %v, want the match won with the hand the preview announced as the last", res.Events)
	}
}

// TestPreviewAgreesWithScoring: before every hand of an evening of five
// and of the next at four, the hand scores from the preview exactly as
// from the state, ends the match exactly when the preview has one hand
// left, and right after a hand the preview of the same session is the
// state the hand left.
func TestPreviewAgreesWithScoring(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", `{"hands_per_match":3}`)
	type evening struct {
		seated  []int64
		session int64
		hands   []Facts
	}
	evenings := []evening{
		{seated, 1, []Facts{exampleA(), penaltyA(), exampleB(), tieHand(), penaltyHand(2, ost, sued, west, nord)}},
		{[]int64{bank, ost, sued, west}, 2, []Facts{
			penaltyHand(0, bank, ost, sued, west), penaltyHand(1, west, bank, ost, sued),
			penaltyHand(2, sued, west, bank, ost), penaltyHand(3, ost, sued, west, bank),
		}},
	}
	var state json.RawMessage
	for _, e := range evenings {
		for i, f := range e.hands {
			h := score.Hand{Seated: e.seated, Session: e.session, Rules: rules, State: state}
			raw := mustPreview(t, h)
			var preview State
			if err := json.Unmarshal(raw, &preview); err != nil {
				t.Fatal(err)
			}
			h.Facts = factsJSON(t, f)
			res := gamestest.MustScore(t, Engine{}, h)
			h.State = raw
			fromPreview := gamestest.MustScore(t, Engine{}, h)
			if string(res.State) != string(fromPreview.State) || len(res.Events) != len(fromPreview.Events) {
				t.Errorf("session %d, hand %d: from the state\n %s %v\nfrom the preview\n %s %v", e.session, i+1, res.State, res.Events, fromPreview.State, fromPreview.Events)
			}
			if ended := len(res.Events) == 1; ended != (preview.HandsLeft == 1) {
				t.Errorf("session %d, hand %d: match ended %v, the preview had %d hands left", e.session, i+1, ended, preview.HandsLeft)
			}
			state = res.State
			h.Facts, h.State = nil, state
			gamestest.SameJSON(t, mustPreview(t, h), string(state))
		}
	}
}

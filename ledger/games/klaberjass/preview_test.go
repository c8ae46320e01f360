package klaberjass

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// required are the members KlaberjassState requires.
var required = []string{"match", "hands", "sides", "matches_won", "summary"}

func mustPreview(t *testing.T, h score.Hand) json.RawMessage {
	t.Helper()
	return gamestest.MustPreview(t, Engine{}, h, required...)
}

// TestPreviewNewTable: a new table's preview is a complete state: match 1,
// the sides of the seating with every die on 0 when 2 to 4 are seated, the
// first seated player proposed as dealer; with more seated, or none, no
// sides yet.
func TestPreviewNewTable(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	for _, state := range []string{"", "{}", "null"} {
		h := score.Hand{Seated: seated4, Session: 1, Rules: rules, State: json.RawMessage(state)}
		gamestest.SameJSON(t, mustPreview(t, h), `{"match":1,"hands":0,"sides":[{"players":[1,3],"die":0,"matches_won":0},{"players":[2,4],"die":0,"matches_won":0}],
			"matches_won":{},"next_dealer":1,"summary":"Partie 1: {{player:1}}/{{player:3}} gegen {{player:2}}/{{player:4}}, alle Würfel auf 0; nächster Geber {{player:1}}"}`)
		h.Seated = seated3
		gamestest.SameJSON(t, mustPreview(t, h), `{"match":1,"hands":0,"sides":[{"players":[1],"die":0,"matches_won":0},{"players":[2],"die":0,"matches_won":0},{"players":[3],"die":0,"matches_won":0}],
			"matches_won":{},"next_dealer":1,"summary":"Partie 1: {{player:1}} gegen {{player:2}} gegen {{player:3}}, alle Würfel auf 0; nächster Geber {{player:1}}"}`)
		h.Seated = []int64{1, 2, 3, 4, 5}
		gamestest.SameJSON(t, mustPreview(t, h), `{"match":1,"hands":0,"sides":[],"matches_won":{},"next_dealer":1,"summary":"Partie 1, noch kein Spiel; nächster Geber {{player:1}}"}`)
		h.Seated = nil
		gamestest.SameJSON(t, mustPreview(t, h), `{"match":1,"hands":0,"sides":[],"matches_won":{},"summary":"Partie 1, noch kein Spiel"}`)
	}
	_, err := Engine{}.Preview(score.Hand{Seated: []int64{1, 2, 1}, Rules: rules})
	gamestest.WantViolation(t, err, "seated[2]")
	_, err = Engine{}.Preview(score.Hand{Seated: seated4, Rules: json.RawMessage(`{}`)})
	gamestest.WantViolation(t, err, "rules")
}

// fiveHand is a hand of players 1 to 4 (named in the facts) at a table of
// five, dealt by player dealer: see gamestest.KlaberjassHand.
func fiveHand(dealer int, trumpWins, kontra bool) string {
	f := gamestest.Seat(gamestest.KlaberjassHand(dealer, trumpWins, kontra), seated4...)
	return strings.Replace(f, "{", `{"players":[1,2,3,4],`, 1)
}

// fiveEvening is an evening at a table of five where players 1 to 4 play:
// 2/4 win match 1 with the fourth hand and lead match 2 by 1 to 0 after
// the fifth; player 2 deals next.
var fiveEvening = []string{
	fiveHand(1, true, false),
	fiveHand(2, false, false),
	fiveHand(3, true, true),
	fiveHand(4, false, false),
	fiveHand(1, true, false),
}

func playFiveEvening(t *testing.T, rules json.RawMessage) json.RawMessage {
	t.Helper()
	var state json.RawMessage
	for _, f := range fiveEvening {
		state = gamestest.MustScore(t, Engine{}, score.Hand{Seated: []int64{1, 2, 3, 4, 5}, Session: 1, Rules: rules, State: state, Facts: json.RawMessage(f)}).State
	}
	return state
}

// TestPreviewNextEvening: after an evening of five, the same partners at a
// table of four continue match 2 where it stands; other partners start
// match 3 (match 2 ends without a winner); three players are sides of
// their own. The matches won carry over, and the proposed dealer is the
// state's if seated, else the first seated player.
func TestPreviewNextEvening(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	state := playFiveEvening(t, rules)

	h := score.Hand{Seated: seated4, Session: 2, Rules: rules, State: state}
	gamestest.SameJSON(t, mustPreview(t, h), `{"match":2,"hands":1,"sides":[{"players":[1,3],"die":0,"matches_won":0},{"players":[2,4],"die":1,"matches_won":1}],
		"matches_won":{"2":1,"4":1},"next_dealer":2,"last_match_winners":[2,4],
		"summary":"Partie 2 nach 1 Spiel: {{player:1}}/{{player:3}} auf 0, {{player:2}}/{{player:4}} auf 1; nächster Geber {{player:2}}"}`)

	h.Seated = []int64{1, 3, 2, 4}
	gamestest.SameJSON(t, mustPreview(t, h), `{"match":3,"hands":0,"sides":[{"players":[1,2],"die":0,"matches_won":0},{"players":[3,4],"die":0,"matches_won":0}],
		"matches_won":{"2":1,"4":1},"next_dealer":2,"last_match_winners":[2,4],
		"summary":"Partie 2 endet ohne Sieger, es spielen andere Seiten; Partie 3: {{player:1}}/{{player:2}} gegen {{player:3}}/{{player:4}}, alle Würfel auf 0; nächster Geber {{player:2}}"}`)

	h.Seated = []int64{5, 1, 3}
	gamestest.SameJSON(t, mustPreview(t, h), `{"match":3,"hands":0,"sides":[{"players":[5],"die":0,"matches_won":0},{"players":[1],"die":0,"matches_won":0},{"players":[3],"die":0,"matches_won":0}],
		"matches_won":{"2":1,"4":1},"next_dealer":5,"last_match_winners":[2,4],
		"summary":"Partie 2 endet ohne Sieger, es spielen andere Seiten; Partie 3: {{player:5}} gegen {{player:1}} gegen {{player:3}}, alle Würfel auf 0; nächster Geber {{player:5}}"}`)

	// Five seated again: who plays is not known, the match stands.
	h.Seated = []int64{1, 2, 3, 4, 5}
	if st := decodePreview(t, mustPreview(t, h)); st.Match != 2 || st.Hands != 1 || die(t, st, 2, 4) != 1 {
		t.Errorf("five seated: %+v, want match 2 as it stands", st)
	}
}

func decodePreview(t *testing.T, raw json.RawMessage) State {
	t.Helper()
	var st State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestPreviewAgreesWithScoring: before every hand of an evening of five,
// an evening of four with other partners and one of three, the next hand
// dealt by the proposed dealer scores from the preview exactly as from the
// state (the preview already started the match the hand starts, so only
// the abandonment's event is missing); it continues the preview's match
// and moves the preview's dice; and right after a hand the preview of the
// same session is the state the hand left.
func TestPreviewAgreesWithScoring(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	type evening struct {
		seated  []int64
		session int64
		hands   []struct{ trumpWins, kontra bool }
	}
	hands := func(n int) []struct{ trumpWins, kontra bool } {
		out := make([]struct{ trumpWins, kontra bool }, n)
		for i := range out {
			out[i].trumpWins, out[i].kontra = i%3 != 1, i%4 == 2
		}
		return out
	}
	evenings := []evening{
		{[]int64{1, 2, 3, 4, 5}, 1, hands(5)},
		{[]int64{1, 3, 2, 4}, 2, hands(9)},
		{[]int64{2, 1, 3}, 3, hands(4)},
	}
	var state json.RawMessage
	for _, e := range evenings {
		for i, hd := range e.hands {
			h := score.Hand{Seated: e.seated, Session: e.session, Rules: rules, State: state}
			raw := mustPreview(t, h)
			preview := decodePreview(t, raw)
			players := e.seated
			if len(players) > 4 {
				players = players[:4]
			}
			d := slices.Index(players, preview.NextDealer)
			if d < 0 {
				t.Fatalf("session %d, hand %d: proposed dealer %d plays no hand", e.session, i+1, preview.NextDealer)
			}
			var facts string
			if len(players) == 3 {
				facts = threeHand(players, d, hd.trumpWins, hd.kontra)
			} else {
				facts = gamestest.Seat(gamestest.KlaberjassHand(d+1, hd.trumpWins, hd.kontra), players...)
			}
			if len(e.seated) > 4 {
				facts = strings.Replace(facts, "{", `{"players":`+jsonIDs(players)+`,`, 1)
			}
			h.Facts = json.RawMessage(facts)
			res := gamestest.MustScore(t, Engine{}, h)
			h.State = raw
			fromPreview := gamestest.MustScore(t, Engine{}, h)
			events := slices.DeleteFunc(slices.Clone(res.Events), func(ev score.Event) bool { return ev.Type == score.EventMatchAbandoned })
			if string(res.State) != string(fromPreview.State) || !slices.Equal(res.Lines, fromPreview.Lines) || !slices.EqualFunc(events, fromPreview.Events, sameEvent) {
				t.Errorf("session %d, hand %d: from the state\n %s %v\nfrom the preview\n %s %v", e.session, i+1, res.State, res.Events, fromPreview.State, fromPreview.Events)
			}
			if _, ok := event(fromPreview, score.EventMatchAbandoned); ok {
				t.Errorf("session %d, hand %d: the hand abandons the match the preview showed", e.session, i+1)
			}
			state = res.State
			h.Facts, h.State = nil, state
			gamestest.SameJSON(t, mustPreview(t, h), string(state))
		}
	}
}

func sameEvent(a, b score.Event) bool {
	return a.Type == b.Type && a.Text == b.Text && slices.Equal(a.Players, b.Players) && slices.Equal(a.Recipients, b.Recipients) && a.Amount == b.Amount
}

func event(res score.Result, typ score.EventType) (score.Event, bool) {
	for _, ev := range res.Events {
		if ev.Type == typ {
			return ev, true
		}
	}
	return score.Event{}, false
}

func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// threeHand is a hand of three players dealt by players[d]: the next
// player plays Karo trump and takes 92 card points and the last trick
// (or only 30, the player after him the 92 and the last trick).
func threeHand(players []int64, d int, trumpWins, kontra bool) string {
	trump, a, b := players[(d+1)%3], players[(d+2)%3], players[d]
	pts := []int{92, 30, 30}
	last := trump
	if !trumpWins {
		pts = []int{30, 92, 30}
		last = a
	}
	f := map[string]any{
		"dealer": players[d], "trump_player": trump, "trump_suit": "karo", "kontra": kontra, "last_trick": last,
		"card_points": []map[string]any{{"player": trump, "points": pts[0]}, {"player": a, "points": pts[1]}, {"player": b, "points": pts[2]}},
	}
	raw, _ := json.Marshal(f)
	return string(raw)
}

package schwarzesau

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// required are the members SchwarzeSauState requires.
var required = []string{"tallies", "to_limit", "limit", "threshold_base", "date", "round", "hands", "payouts", "summary"}

func mustPreview(t *testing.T, h score.Hand) json.RawMessage {
	t.Helper()
	return gamestest.MustPreview(t, Engine{}, h, required...)
}

var (
	march9  = score.Date{Year: 2025, Month: 3, Day: 9}
	april2  = score.Date{Year: 2025, Month: 4, Day: 2}
	march31 = score.Date{Year: 2025, Month: 3, Day: 31}
)

// TestPreviewNewTable: a new table's preview is a complete state: no
// tallies, the first Durchgang, the limit of the session's date; without a
// date the limit is the threshold base alone.
func TestPreviewNewTable(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", `{"threshold_base":1000}`)
	for _, state := range []string{"", "{}", "null"} {
		got := mustPreview(t, score.Hand{Seated: []int64{1, 2, 3, 4}, Session: 3, Date: score.Date{Year: 2025, Month: 3, Day: 21}, Rules: rules, State: json.RawMessage(state)})
		gamestest.SameJSON(t, got, `{"tallies":{},"to_limit":{},"limit":1021,"threshold_base":1000,"date":{"year":2025,"month":3,"day":21},
			"round":1,"hands":0,"payouts":{},"summary":"Durchgang 1, 0 Spiele; Grenze 1021 (1000 + 21.)"}`)

		got = mustPreview(t, score.Hand{Rules: rules, State: json.RawMessage(state)})
		gamestest.SameJSON(t, got, `{"tallies":{},"to_limit":{},"limit":1000,"threshold_base":1000,"date":{"year":0,"month":0,"day":0},
			"round":1,"hands":0,"payouts":{},"summary":"Durchgang 1, 0 Spiele; Grenze 1000 + Tag des Abends"}`)
	}
	_, err := Engine{}.Preview(score.Hand{Rules: rules, Date: score.Date{Year: 2025, Month: 3, Day: 32}})
	gamestest.WantViolation(t, err, "date.day")
}

// playEvenings scores gamestest.SchwarzeSauMarch9 (players 1 to 4 seated)
// and SchwarzeSauApril2 (1 to 5) and returns the state after each
// evening.
func playEvenings(t *testing.T, rules json.RawMessage) (afterMarch, afterApril json.RawMessage) {
	t.Helper()
	var state json.RawMessage
	for _, facts := range gamestest.SchwarzeSauMarch9 {
		h := score.Hand{Seated: []int64{1, 2, 3, 4}, Session: 10, Date: march9, Rules: rules, State: state, Facts: json.RawMessage(gamestest.Seat(facts, seatedFive...))}
		state = gamestest.MustScore(t, Engine{}, h).State
	}
	afterMarch = state
	for _, facts := range gamestest.SchwarzeSauApril2 {
		h := score.Hand{Seated: seatedFive, Session: 11, Date: april2, Rules: rules, State: state, Facts: json.RawMessage(gamestest.Seat(facts, seatedFive...))}
		state = gamestest.MustScore(t, Engine{}, h).State
	}
	return afterMarch, state
}

// TestPreviewNextEvening: the tallies carry into the next evening, whoever
// sits at it; the limit is that of the new date, and the summary names
// the seated players first, in their seating order.
func TestPreviewNextEvening(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	afterMarch, afterApril := playEvenings(t, rules)

	got := mustPreview(t, score.Hand{Seated: []int64{5, 4, 3, 2, 1}, Session: 11, Date: april2, Rules: rules, State: afterMarch})
	gamestest.SameJSON(t, got, `{"tallies":{"1":"1080","2":"320","3":"0","4":"120"},"to_limit":{"1":"422","2":"1182","3":"1502","4":"1382"},
		"limit":1502,"threshold_base":1500,"date":{"year":2025,"month":4,"day":2},"round":1,"hands":3,"payouts":{},
		"summary":"Durchgang 1, 3 Spiele; Grenze 1502 (1500 + 2.): {{player:4}} 120 (noch 1382), {{player:3}} 0 (noch 1502), {{player:2}} 320 (noch 1182), {{player:1}} 1080 (noch 422)"}`)

	// Four players after an evening of five: player 5's tally carries and
	// is named after the seated players.
	got = mustPreview(t, score.Hand{Seated: []int64{2, 3, 4, 1}, Session: 12, Date: march31, Rules: rules, State: afterApril})
	gamestest.SameJSON(t, got, `{"tallies":{"1":"0","2":"0","3":"41/2","4":"0","5":"0"},"to_limit":{"1":"1531","2":"1531","3":"3021/2","4":"1531","5":"1531"},
		"limit":1531,"threshold_base":1500,"date":{"year":2025,"month":3,"day":31},"round":2,"hands":1,"payouts":{"1":1},
		"last_payout":{"session":11,"date":{"year":2025,"month":4,"day":2},"limit":1502,"payers":[1],"tallies":{"1":"1505"},"cents":500,"target":"kitty"},
		"summary":"Durchgang 2, 1 Spiel; Grenze 1531 (1500 + 31.): {{player:2}} 0 (noch 1531), {{player:3}} 20,5 (noch 1510,5), {{player:4}} 0 (noch 1531), {{player:1}} 0 (noch 1531), {{player:5}} 0 (noch 1531)"}`)

	// No session yet: the date of the last hand.
	got = mustPreview(t, score.Hand{Rules: rules, State: afterApril})
	if st := decodeStateT(t, got); st.Limit != 1502 || st.Date != april2 {
		t.Errorf("without a date: limit %d on %v, want 1502 on the last hand's date", st.Limit, st.Date)
	}
}

// TestPreviewTallyAboveLimit: a tally carried from the 31st lies above the
// limit of the 2nd; the preview says so, and the next hand makes its
// player pay although he loses nothing in it.
func TestPreviewTallyAboveLimit(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	state := `{"tallies":{"5":"1520","1":"10"},"round":1,"hands":4}`
	h := score.Hand{Seated: []int64{1, 2, 3, 4}, Session: 2, Date: april2, Rules: rules, State: json.RawMessage(state)}
	preview := decodeStateT(t, mustPreview(t, h))
	if preview.ToLimit[5].Cmp(score.Int(-18)) != 0 {
		t.Errorf("to_limit of player 5 %s, want -18", preview.ToLimit[5])
	}
	want := "Durchgang 1, 4 Spiele; Grenze 1502 (1500 + 2.): {{player:1}} 10 (noch 1492), {{player:5}} 1520 (18 über der Grenze)"
	if preview.Summary != want {
		t.Errorf("summary %q, want %q", preview.Summary, want)
	}
	h.Facts = json.RawMessage(`{"dealer":4,"players":[
		{"player":1,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},
		{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":4,"tricks":1}]}`)
	res := gamestest.MustScore(t, Engine{}, h)
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{5}) {
		t.Errorf("events %+v, want player 5 to pay", res.Events)
	}
}

// TestPreviewAgreesWithScoring: before every hand of both evenings the
// preview's tallies plus the hand's minus points are the tallies after it,
// a payout comes exactly when one of them passes the preview's limit, and
// right after a hand the preview of the same session is the state the
// hand left.
func TestPreviewAgreesWithScoring(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	type evening struct {
		seated  []int64
		session int64
		date    score.Date
		hands   []string
	}
	evenings := []evening{
		{[]int64{1, 2, 3, 4}, 10, march9, gamestest.SchwarzeSauMarch9[:]},
		{seatedFive, 11, april2, gamestest.SchwarzeSauApril2[:]},
	}
	var state json.RawMessage
	for _, e := range evenings {
		for i, facts := range e.hands {
			h := score.Hand{Seated: e.seated, Session: e.session, Date: e.date, Rules: rules, State: state}
			preview := decodeStateT(t, mustPreview(t, h))
			h.Facts = json.RawMessage(gamestest.Seat(facts, seatedFive...))
			res := gamestest.MustScore(t, Engine{}, h)
			after := decodeStateT(t, res.State)
			over := false
			for id := range after.Tallies {
				sum := preview.Tallies[id]
				for _, p := range res.Points {
					if p.Player == id {
						sum = sum.Sub(p.Points)
					}
				}
				over = over || sum.Cmp(score.Int(preview.Limit)) > 0
				if len(res.Events) == 0 && sum.Cmp(after.Tallies[id]) != 0 {
					t.Errorf("session %d, hand %d: player %d's tally %s, the preview's and the hand's make %s", e.session, i+1, id, after.Tallies[id], sum)
				}
			}
			if paid := len(res.Events) == 1; paid != over {
				t.Errorf("session %d, hand %d: payout %v, the preview's limit %d says %v", e.session, i+1, paid, preview.Limit, over)
			}
			if after.Limit != preview.Limit {
				t.Errorf("session %d, hand %d: limit %d, the preview said %d", e.session, i+1, after.Limit, preview.Limit)
			}
			state = res.State
			h.Facts, h.State = nil, state
			gamestest.SameJSON(t, mustPreview(t, h), string(state))
		}
	}
}

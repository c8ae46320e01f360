package doppelkopf

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// required are the members DoppelkopfState requires.
var required = []string{"session", "games", "next_players", "next_sitting_out", "bock_games_left", "bock_rounds_queued", "solos", "summary"}

func mustPreview(t *testing.T, h score.Hand) json.RawMessage {
	t.Helper()
	return gamestest.MustPreview(t, Engine{}, h, required...)
}

// TestPreviewNewTable: a new table's preview is a complete state: the
// first seated player deals, the four after him play, no Bock, no solos;
// without a seating nobody is named.
func TestPreviewNewTable(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	for _, state := range []string{"", "{}", "null"} {
		got := mustPreview(t, score.Hand{Seated: []int64{1, 2, 3, 4, 5}, Session: 9, Rules: rules, State: json.RawMessage(state)})
		gamestest.SameJSON(t, got, `{"session":9,"games":0,"next_dealer":1,"next_players":[2,3,4,5],"next_sitting_out":[1],
			"bock_games_left":0,"bock_rounds_queued":0,"solos":{},"summary":"{{player:1}} gibt und setzt aus; kein Bock"}`)

		got = mustPreview(t, score.Hand{Rules: rules, State: json.RawMessage(state)})
		gamestest.SameJSON(t, got, `{"session":0,"games":0,"next_players":[],"next_sitting_out":[],
			"bock_games_left":0,"bock_rounds_queued":0,"solos":{},"summary":"Geber noch offen; kein Bock"}`)
	}
}

// fiveEvening is an evening at a table of five (players 1 to 5, session 1,
// the dealer and the players left to the state): hand 1 is 120:120 and
// opens a Bock round of five games; hand 2 is a Damensolo of player 3
// with Re and Kontra announced, which queues two rounds and uses no Bock
// game; hands 3 and 4 are Bock games. After it: next dealer 5, 3 Bock
// games left, 2 rounds queued, one solo of player 3.
var fiveEvening = []string{
	`{"game":"normal","re":{"players":[2,3],"augen":120}}`,
	`{"game":"damensolo","re":{"players":[3],"augen":130,"announced":"re"},"kontra":{"announced":"kontra"}}`,
	`{"game":"normal","re":{"players":[4,5],"augen":150}}`,
	`{"game":"normal","re":{"players":[5,1],"augen":150}}`,
}

var five = []int64{1, 2, 3, 4, 5}

func playFiveEvening(t *testing.T, rules json.RawMessage) json.RawMessage {
	t.Helper()
	var state json.RawMessage
	for _, facts := range fiveEvening {
		res := gamestest.MustScore(t, Engine{}, score.Hand{Seated: five, Session: 1, Rules: rules, State: state, Facts: json.RawMessage(facts)})
		state = res.State
	}
	st := decodeTestStateRaw(t, state)
	if st.NextDealer == nil || *st.NextDealer != 5 || st.BockGamesLeft != 3 || st.BockRoundsQueued != 2 || st.Solos[3] != 1 || st.Games != 4 {
		t.Fatalf("the evening at five left %s", state)
	}
	return state
}

// TestPreviewNextEvening: four players open a session after an evening of
// five. Nobody sits out, the solos and games start again, the Bock games
// and rounds carry over; the next dealer of the state is not seated, so
// the first seated player deals. With the state's dealer seated he deals;
// in the same session the solos and games stay.
func TestPreviewNextEvening(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "house", "")
	state := playFiveEvening(t, rules)

	got := mustPreview(t, score.Hand{Seated: four, Session: 2, Rules: rules, State: state})
	gamestest.SameJSON(t, got, `{"session":2,"games":0,"next_dealer":1,"next_players":[1,2,3,4],"next_sitting_out":[],
		"bock_games_left":3,"bock_rounds_queued":2,"solos":{},"summary":"{{player:1}} gibt; noch 3 Bockspiele, 2 Bockrunden warten"}`)

	got = mustPreview(t, score.Hand{Seated: []int64{2, 5, 3, 4}, Session: 2, Rules: rules, State: state})
	gamestest.SameJSON(t, got, `{"session":2,"games":0,"next_dealer":5,"next_players":[2,5,3,4],"next_sitting_out":[],
		"bock_games_left":3,"bock_rounds_queued":2,"solos":{},"summary":"{{player:5}} gibt; noch 3 Bockspiele, 2 Bockrunden warten"}`)

	got = mustPreview(t, score.Hand{Seated: five, Session: 1, Rules: rules, State: state})
	gamestest.SameJSON(t, got, `{"session":1,"games":4,"next_dealer":5,"next_players":[1,2,3,4],"next_sitting_out":[5],
		"bock_games_left":3,"bock_rounds_queued":2,"solos":{"3":1},
		"summary":"{{player:5}} gibt und setzt aus; noch 3 Bockspiele, 2 Bockrunden warten; Soli an diesem Abend: {{player:3}} 1"}`)

	// No session yet: the state's dealer, nobody's players, no solos.
	got = mustPreview(t, score.Hand{Rules: rules, State: state})
	gamestest.SameJSON(t, got, `{"session":0,"games":0,"next_dealer":5,"next_players":[],"next_sitting_out":[],
		"bock_games_left":3,"bock_rounds_queued":2,"solos":{},"summary":"{{player:5}} gibt; noch 3 Bockspiele, 2 Bockrunden warten"}`)
}

// TestPreviewStartsQueuedRound: a queued round with none running (the
// table played without Bock for a while) starts with the next hand; the
// preview shows it started, as long as the seating tells its length.
func TestPreviewStartsQueuedRound(t *testing.T) {
	state := json.RawMessage(`{"session":1,"next_dealer":2,"bock_games_left":0,"bock_rounds_queued":2}`)
	cases := []struct {
		options      string
		seated       []int64
		left, queued int
	}{
		{"", five, 5, 1},
		{"", four, 4, 1},
		{`{"bock_round_length":3}`, five, 3, 1},
		{"", nil, 0, 2},
		{`{"bock_round_length":3}`, nil, 3, 1},
		{`{"bock":false}`, five, 0, 2},
	}
	for _, c := range cases {
		rules := gamestest.MustRules(t, Engine{}, "house", c.options)
		h := score.Hand{Seated: c.seated, Session: 1, Rules: rules, State: state}
		st := decodeTestStateRaw(t, mustPreview(t, h))
		if st.BockGamesLeft != c.left || st.BockRoundsQueued != c.queued {
			t.Errorf("options %s, %d seated: %d left, %d queued; want %d, %d", c.options, len(c.seated), st.BockGamesLeft, st.BockRoundsQueued, c.left, c.queued)
		}
		if len(c.seated) == 0 {
			continue
		}
		// The next hand is the Bock game the preview announced, and uses
		// one game of the round the preview started.
		h.Facts = json.RawMessage(`{"game":"normal","re":{"players":[3,4],"augen":150}}`)
		res := gamestest.MustScore(t, Engine{}, h)
		if _, bockGame := event(res, score.EventBockGame); bockGame != (c.left > 0) {
			t.Errorf("options %s, %d seated: Bock game %v, the preview said %d left", c.options, len(c.seated), bockGame, c.left)
		}
		if after := decodeTestState(t, res); c.left > 0 && (after.BockGamesLeft != c.left-1 || after.BockRoundsQueued != c.queued) {
			t.Errorf("options %s, %d seated: after the hand %d left, %d queued; want %d, %d", c.options, len(c.seated), after.BockGamesLeft, after.BockRoundsQueued, c.left-1, c.queued)
		}
	}
}

// TestPreviewRefusesSeating: a seating Doppelkopf cannot play is refused
// as it is when scoring.
func TestPreviewRefusesSeating(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "", "")
	_, err := Engine{}.Preview(score.Hand{Seated: []int64{1, 2, 3}, Rules: rules})
	gamestest.WantViolation(t, err, "seated")
	_, err = Engine{}.Preview(score.Hand{Seated: four, Rules: json.RawMessage(`{"valuation":"x"}`)})
	gamestest.WantViolation(t, err, "rules.valuation")
}

// TestPreviewAgreesWithScoring: before every hand of the evening at five,
// of the next evening at four (other seating, other session) and of
// gamestest.BockEvening, the preview names the dealer and the players the
// hand finds when its facts leave them out, announces a Bock game exactly
// when the hand is one (a solo excepted), and after a hand the preview of
// the same session and seating is the state the hand left.
func TestPreviewAgreesWithScoring(t *testing.T) {
	rules := gamestest.MustRules(t, Engine{}, "house", "")
	type evening struct {
		seated  []int64
		session int64
		hands   []string
	}
	nextEvening := []string{
		`{"game":"normal","re":{"players":[1,2],"augen":150}}`,
		`{"game":"bubensolo","re":{"players":[4],"augen":150}}`,
		`{"game":"schmeissen"}`,
		`{"game":"normal","re":{"players":[3,4],"augen":100}}`,
		`{"game":"normal","re":{"players":[1,3],"augen":150}}`,
	}
	bock := make([]string, len(gamestest.BockEvening))
	for i, h := range gamestest.BockEvening {
		bock[i] = gamestest.Seat(h, 11, 12, 13, 14)
	}
	evenings := []evening{
		{five, 1, fiveEvening},
		{four, 2, nextEvening},
		{[]int64{11, 12, 13, 14}, 3, bock},
	}
	var state json.RawMessage
	for _, e := range evenings {
		for i, facts := range e.hands {
			h := score.Hand{Seated: e.seated, Session: e.session, Rules: rules, State: state}
			preview := decodeTestStateRaw(t, mustPreview(t, h))
			h.Facts = json.RawMessage(facts)
			res := gamestest.MustScore(t, Engine{}, h)
			if preview.NextDealer == nil || res.Dealer != *preview.NextDealer {
				t.Errorf("session %d, hand %d: dealt by %d, the preview said %v", e.session, i+1, res.Dealer, preview.NextDealer)
			}
			if !slices.Equal(res.Players, preview.NextPlayers) {
				t.Errorf("session %d, hand %d: played by %v, the preview said %v", e.session, i+1, res.Players, preview.NextPlayers)
			}
			var f Facts
			if err := json.Unmarshal(h.Facts, &f); err != nil {
				t.Fatal(err)
			}
			_, bockGame := event(res, score.EventBockGame)
			solo := f.Game != GameNormal && f.Game != GameHochzeit && f.Game != GameArmut || len(f.Re.Players) == 1
			if !isRedeal(f.Game) && !solo && bockGame != (preview.BockGamesLeft > 0) {
				t.Errorf("session %d, hand %d: Bock game %v, the preview said %d Bock games left", e.session, i+1, bockGame, preview.BockGamesLeft)
			}
			state = res.State
			h.Facts = nil
			h.State = state
			gamestest.SameJSON(t, mustPreview(t, h), string(state))
		}
	}
}

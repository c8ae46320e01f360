package api

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestAHandIsWrittenAsTheEncoderWritesIt: the short way jsonEncode writes
// a hand gives the bytes encoding/json's encoder gives (HTML not escaped
// by the encoder, a newline after), for a hand with texts that need
// escaping and with facts sent with spaces.
func TestAHandIsWrittenAsTheEncoderWritesIt(t *testing.T) {
	h := ledger.Hand{ID: 7, TableID: 2, SessionID: 3, Number: 4, Game: "doppelkopf",
		Rules: json.RawMessage(`{"bock": true}`),
		Facts: json.RawMessage("{ \"game\" : \"normal\",\n \"note\": \"<b>&\\u00fc\" }"),
		Result: score.Result{Title: "Re gewinnt <knapp> & \"sauber\"", Dealer: 5, Players: []int64{5, 6, 7, 8},
			Points: []score.PlayerPoints{{Player: 5, Points: score.Frac(-7, 2)}}, State: json.RawMessage(`{ "bock" : 1 }`)},
		RecordedBy: 1, RecordedAt: time.Date(2026, 11, 24, 20, 15, 0, 0, time.UTC), Revision: 2, Reason: "Tippfehler <Augen>"}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := jsonEncode(&got, h); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("jsonEncode wrote\n%s\nthe encoder writes\n%s", got.Bytes(), want.Bytes())
	}
}

// BenchmarkHandAnswer writes a recorded Doppelkopf hand's answer as
// jsonEncode does ("short") and as encoding/json's encoder does.
func BenchmarkHandAnswer(b *testing.B) {
	h := ledger.Hand{ID: 7, TableID: 2, SessionID: 3, Number: 4, Game: "doppelkopf",
		Rules: json.RawMessage(`{"bock": true, "soli": ["fleischlos", "damen", "buben"], "bock_after": ["re_lost_120", "solo_lost", "tie"]}`),
		Facts: json.RawMessage(`{"game": "normal", "re": {"players": [5, 7], "augen": 187, "announced": "keine90"}}`),
		Result: score.Result{Title: "Normalspiel, Re gewinnt 187:53", Dealer: 5, Players: []int64{5, 6, 7, 8},
			Points: []score.PlayerPoints{{Player: 5, Points: score.Frac(16, 1)}, {Player: 6, Points: score.Frac(-16, 1)},
				{Player: 7, Points: score.Frac(16, 1)}, {Player: 8, Points: score.Frac(-16, 1)}},
			Lines: []score.Line{{Label: "gewonnen", Op: score.OpAdd, Value: score.Frac(1, 1)}, {Label: "keine 90", Op: score.OpAdd, Value: score.Frac(1, 1)}, {Label: "keine 90 angesagt", Op: score.OpAdd, Value: score.Frac(2, 1)},
				{Label: "gegen die Alten", Op: score.OpAdd, Value: score.Frac(0, 1)}, {Label: "Bock", Op: score.OpAdd, Value: score.Frac(4, 1)}},
			State: json.RawMessage(`{"games": 196, "solos": {"3": 15, "4": 15}, "session": 1, "summary": "next dealer: player 1; 1 Bock game left, 0 rounds queued", "next_dealer": 1, "next_players": [1, 2, 3, 4], "bock_games_left": 1, "next_sitting_out": [], "bock_rounds_queued": 0}`)},
		RecordedBy: 1, RecordedAt: time.Date(2026, 11, 24, 20, 15, 0, 0, time.UTC), Revision: 1}
	b.Run("short", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := jsonEncode(io.Discard, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			enc := json.NewEncoder(io.Discard)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package chain_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/chain"
)

// TestCanonicalIsTheSameForEveryTextOfAValue: jsonb's text (key order by
// length, spaces, numbers rewritten) and Go's give one canonical form.
func TestCanonicalIsTheSameForEveryTextOfAValue(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{`{"b": 1, "a": [1, 2, {"y": true, "x": null}]}`, `{"a":[1,2,{"x":null,"y":true}],"b":1}`},
		{`{"n": 1.50}`, `{"n": 15e-1}`},
		{`{"n": 100}`, `{"n": 1E+2}`},
		{`"a<b\u00e4"`, `"a\u003cbä"`},
		{`{"a": 1, "a": 2}`, `{"a": 2}`},
	} {
		a, err := chain.Canonical(json.RawMessage(c.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := chain.Canonical(json.RawMessage(c.b))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s → %s, but %s → %s", c.a, a, c.b, b)
		}
	}
	if got, _ := chain.Canonical(json.RawMessage(`{"z": "<&>", "a": 7/2}`)); got != nil {
		t.Errorf("invalid JSON gave %s", got)
	}
	if got, _ := chain.Canonical(json.RawMessage(`{"z": "<&>", "p": 0.5}`)); string(got) != `{"p":1/2,"z":"<&>"}` {
		t.Errorf("got %s", got)
	}
}

// TestHandHashCoversEveryFieldAndTheKey: changing any field, the previous
// hash or the key changes the hash.
func TestHandHashCoversEveryFieldAndTheKey(t *testing.T) {
	k1, _ := chain.NewKey(bytes.Repeat([]byte{1}, 32))
	k2, _ := chain.NewKey(bytes.Repeat([]byte{2}, 32))
	at := time.Date(2026, 11, 23, 20, 0, 0, 123456000, time.UTC)
	c := chain.HandContent{ClubID: 1, TableID: 2, SessionID: 3, Number: 4, Game: "doppelkopf",
		Rules: json.RawMessage(`{}`), Facts: json.RawMessage(`{"a":1}`), Result: json.RawMessage(`{"points":[]}`),
		StateAfter: json.RawMessage(`{}`), RecordedBy: 5, RecordedAt: at}
	base, err := k1.Hand(c, []byte("prev"))
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 32 {
		t.Fatalf("hash of %d bytes", len(base))
	}
	variants := map[string]func(*chain.HandContent){
		"club": func(c *chain.HandContent) { c.ClubID++ }, "table": func(c *chain.HandContent) { c.TableID++ },
		"session": func(c *chain.HandContent) { c.SessionID++ }, "number": func(c *chain.HandContent) { c.Number++ },
		"game":   func(c *chain.HandContent) { c.Game = "skat" },
		"facts":  func(c *chain.HandContent) { c.Facts = json.RawMessage(`{"a":2}`) },
		"result": func(c *chain.HandContent) { c.Result = json.RawMessage(`{"points":[1]}`) },
		"state":  func(c *chain.HandContent) { c.StateAfter = json.RawMessage(`{"b":1}`) },
		"by":     func(c *chain.HandContent) { c.RecordedBy++ },
		"at":     func(c *chain.HandContent) { c.RecordedAt = c.RecordedAt.Add(time.Microsecond) },
	}
	for name, change := range variants {
		v := c
		change(&v)
		if h, _ := k1.Hand(v, []byte("prev")); bytes.Equal(h, base) {
			t.Errorf("changing %s keeps the hash", name)
		}
	}
	if h, _ := k1.Hand(c, []byte("other")); bytes.Equal(h, base) {
		t.Error("changing the previous hash keeps the hash")
	}
	if h, _ := k2.Hand(c, []byte("prev")); bytes.Equal(h, base) {
		t.Error("another key gives the same hash")
	}
	if bytes.Equal(k1.ID(), k2.ID()) || len(k1.ID()) != chain.IDSize {
		t.Error("key ids")
	}
	if _, err := (chain.Key{}).Hand(c, nil); err == nil {
		t.Error("no key hashed")
	}
	if _, err := chain.NewKey([]byte("short")); err == nil {
		t.Error("a short key was taken")
	}
}

// BenchmarkHand is the chain's cost on the write path: a Doppelkopf hand
// as ledger/postgres/bench/hand.sql stores it (its result of 1.5 KB),
// canonicalized and hashed.
func BenchmarkHand(b *testing.B) {
	k, _ := chain.NewKey(bytes.Repeat([]byte{7}, 32))
	c := chain.HandContent{ClubID: 1, TableID: 2, SessionID: 3, Number: 4, Game: "doppelkopf",
		Rules:      json.RawMessage(`{"preset": "house", "bock": true, "solo_first": false}`),
		Facts:      json.RawMessage(`{"re": {"augen": 187, "players": [1, 3], "announced": "keine90"}, "game": "normal"}`),
		Result:     json.RawMessage(`{"lines": [{"op": "+", "label": "gewonnen", "value": "1"}, {"op": "+", "label": "keine 90", "value": "1"}, {"op": "+", "label": "keine 60", "value": "1"}, {"op": "+", "label": "keine 90 angesagt (Re)", "value": "1"}, {"op": "x", "label": "Re angesagt", "value": "2"}, {"op": "x", "label": "Bock", "value": "2"}, {"op": "=", "label": "Spielwert", "value": "16"}, {"op": "=", "label": "Re", "value": "16", "player": 1}, {"op": "=", "label": "Kontra", "value": "-16", "player": 2}, {"op": "=", "label": "Re", "value": "16", "player": 3}, {"op": "=", "label": "Kontra", "value": "-16", "player": 4}], "stats": [{"key": "absage_said", "count": 1, "player": 1}, {"key": "absage_won", "count": 1, "player": 1}, {"key": "bock_game", "count": 1, "player": 1}, {"key": "re_said", "count": 1, "player": 1}, {"key": "re_said_won", "count": 1, "player": 1}, {"key": "bock_game", "count": 1, "player": 2}, {"key": "absage_said", "count": 1, "player": 3}, {"key": "absage_won", "count": 1, "player": 3}, {"key": "bock_game", "count": 1, "player": 3}, {"key": "re_said", "count": 1, "player": 3}, {"key": "re_said_won", "count": 1, "player": 3}, {"key": "bock_game", "count": 1, "player": 4}], "title": "Normalspiel, Re gewinnt 187:53", "events": [{"text": "Bockspiel (x2); 1 Bockspiel in dieser Runde übrig", "type": "bock_game"}], "points": [{"player": 1, "points": "16"}, {"player": 2, "points": "-16"}, {"player": 3, "points": "16"}, {"player": 4, "points": "-16"}], "parties": [[1, 3], [2, 4]], "winners": [1, 3]}`),
		StateAfter: json.RawMessage(`{"games": 196, "solos": {"3": 15, "4": 15}, "session": 1, "summary": "next dealer: player 1; 1 Bock game left, 0 rounds queued; solos this session: player 3: 15, player 4: 15", "next_dealer": 1, "next_players": [1, 2, 3, 4], "bock_games_left": 1, "next_sitting_out": [], "bock_rounds_queued": 0}`),
		RecordedBy: 5, RecordedAt: time.Now()}
	prev := bytes.Repeat([]byte{9}, 32)
	for b.Loop() {
		if _, err := k.Hand(c, prev); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCanonicalAgreesWithTheDecoder: on every valid JSON value, the parser
// gives what encoding/json's decoder gives (CanonicalOracle), so the
// canonical form is the one the chain was defined with.
//
//	go test ./ledger/chain -run '^$' -fuzz FuzzCanonical -fuzztime 1m
func FuzzCanonicalAgreesWithTheDecoder(f *testing.F) {
	for _, s := range []string{
		`{"b": 1, "a": [1, 2, {"y": true, "x": null}]}`, `{"n": 1.50, "m": 15e-1, "k": -0, "j": 1E+2, "i": -0.0}`,
		`"a<b\u00e4\ud83d\ude00\ud83d x\udc00 \"\\\/\b\f\n\r\t\u0001"`, "\"\xff\xfe ok \xc3\"", `{"a": 1, "a": 2, "": 3}`,
		`[]`, `{}`, ` [ [ ] , { } ] `, `true`, `false`, `null`, `0`, `-12.5e-3`, `{"z": {"y": {"x": [1, "2", 3.0]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		want, werr := chain.CanonicalOracle(in)
		got, gerr := chain.Canonical(in)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("Canonical(%q) = %q, %v; the decoder gives %q, %v", in, got, gerr, want, werr)
		}
	})
}

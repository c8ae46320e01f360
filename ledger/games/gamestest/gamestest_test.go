package gamestest

import (
	"encoding/json"
	"testing"
)

func TestSeat(t *testing.T) {
	if got, want := Seat(`{"players":[P1,P2],"dealer":P10,"text":"Spieler P2, XP1"}`, 11, 12, 3, 4, 5, 6, 7, 8, 9, 20), `{"players":[11,12],"dealer":20,"text":"Spieler 12, XP1"}`; got != want {
		t.Errorf("Seat = %s, want %s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("Seat with a placeholder beyond the ids did not panic")
		}
	}()
	Seat(`[P1,P3]`, 1, 2)
}

// TestHandsAreJSON: every shared hand is a JSON object once seated.
func TestHandsAreJSON(t *testing.T) {
	ids := []int64{1, 2, 3, 4, 5}
	var hands []string
	hands = append(hands, BockEvening[:]...)
	hands = append(hands, SchwarzeSauMarch9[:]...)
	hands = append(hands, SchwarzeSauApril2[:]...)
	hands = append(hands, LostKeiler, LostDreihaxer)
	for dealer := 1; dealer <= 4; dealer++ {
		hands = append(hands, KlaberjassHand(dealer, dealer%2 == 0, dealer > 2))
	}
	for _, h := range hands {
		var v map[string]any
		if err := json.Unmarshal([]byte(Seat(h, ids...)), &v); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
}

func TestNullAt(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"a":[1,{"b":null}],"c":{}}`), &v); err != nil {
		t.Fatal(err)
	}
	if path, ok := nullAt(v, ""); !ok || path != ".a[1].b" {
		t.Errorf("nullAt = %q, %v; want .a[1].b", path, ok)
	}
	if err := json.Unmarshal([]byte(`{"a":[],"c":{},"d":0,"e":""}`), &v); err != nil {
		t.Fatal(err)
	}
	if path, ok := nullAt(v, ""); ok {
		t.Errorf("nullAt found a null at %q in a state without one", path)
	}
}

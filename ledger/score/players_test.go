package score

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestRenderPlayers(t *testing.T) {
	names := map[int64]string{1: "Anna", 2: "Bernd", 3: "Clara", 4: `Dörte "Dö" \`}
	cases := []struct{ text, want string }{
		{PlayerRef(1) + " gibt noch einmal", "Anna gibt noch einmal"},
		{PlayerList([]int64{2, 3}) + " gewinnen", "Bernd und Clara gewinnen"},
		{PlayerList([]int64{1, 2, 3}) + " verlieren", "Anna, Bernd und Clara verlieren"},
		{"Verstoß von " + PlayerRef(12), "Verstoß von Spieler 12"},
		{"keine Namen", "keine Namen"},
		{"kaputt {{player:x}} und {{player:", "kaputt {{player:x}} und {{player:"},
		{PlayerRef(1) + "/" + PlayerRef(3), "Anna/Clara"},
	}
	for _, c := range cases {
		if got := RenderPlayers(c.text, names); got != c.want {
			t.Errorf("RenderPlayers(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if PlayerRef(12) != "{{player:12}}" {
		t.Errorf("PlayerRef(12) = %q", PlayerRef(12))
	}
}

func TestResultWithNames(t *testing.T) {
	names := map[int64]string{1: "Anna", 4: `Dörte "Dö"`}
	state, _ := json.Marshal(map[string]string{"summary": "nächster Geber " + PlayerRef(4)})
	r := Result{
		Title:  "Solo von " + PlayerRef(1),
		Lines:  []Line{{Label: "Bella (" + PlayerRef(4) + ")", Op: OpAdd, Value: Int(20), Player: 4}},
		Events: []Event{{Type: EventRedeal, Text: PlayerRef(1) + " gibt noch einmal", Players: []int64{1}}},
		State:  state,
	}
	got := r.WithNames(names)
	if got.Title != "Solo von Anna" || got.Lines[0].Label != `Bella (Dörte "Dö")` || got.Events[0].Text != "Anna gibt noch einmal" {
		t.Errorf("rendered %+v", got)
	}
	var st map[string]string
	if err := json.Unmarshal(got.State, &st); err != nil || st["summary"] != `nächster Geber Dörte "Dö"` {
		t.Errorf("state %s (%v)", got.State, err)
	}
	if r.Title != "Solo von "+PlayerRef(1) || r.Lines[0].Label != "Bella ("+PlayerRef(4)+")" || r.Events[0].Text != PlayerRef(1)+" gibt noch einmal" {
		t.Errorf("WithNames changed the result it was called on: %+v", r)
	}
	if got.Lines[0].Player != 4 || got.Events[0].Players[0] != 1 {
		t.Errorf("structured fields changed: %+v", got)
	}
}

func TestInSeatingOrder(t *testing.T) {
	for _, c := range []struct{ ids, seated, want []int64 }{
		{[]int64{4, 2, 9, 1}, []int64{1, 2, 3, 4}, []int64{1, 2, 4, 9}},
		{[]int64{8, 7}, []int64{3, 1}, []int64{7, 8}},
		{[]int64{3, 3, 1}, []int64{3, 1}, []int64{3, 1}},
		{nil, []int64{1, 2}, []int64{}},
	} {
		if got := InSeatingOrder(c.ids, c.seated); !slices.Equal(got, c.want) {
			t.Errorf("InSeatingOrder(%v, %v) = %v, want %v", c.ids, c.seated, got, c.want)
		}
	}
}

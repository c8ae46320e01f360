package schwarzedame

import (
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

func TestTitle(t *testing.T) {
	cases := []struct {
		name  string
		facts Facts
		want  string
	}{
		{"worked example A", exampleA(), "{{player:1}} gewinnt mit +20, {{player:2}} hat die Pik-Dame"},
		{"worked example B: all tricks", exampleB(), "{{player:1}} macht alle Stiche, alle 0"},
		{"penalty points: the worst instead of the Pik-Dame", penaltyA(), "{{player:1}} gewinnt mit +20, {{player:4}} verliert mit -13"},
		{"tie for best and worst", Facts{Dealer: west, Players: []PlayerFacts{
			{Player: nord, Tricks: 4, Penalty: pen(20)},
			{Player: ost, Tricks: 2, Penalty: pen(40)},
			{Player: sued, Tricks: 4, Penalty: pen(20)},
			{Player: west, Tricks: 3, Penalty: pen(50)},
		}}, "{{player:1}} und {{player:3}} gewinnen mit +20, {{player:2}} und {{player:4}} verlieren mit -20"},
		{"everyone 0, Pik-Dame given as a card", Facts{Dealer: nord, Players: []PlayerFacts{
			{Player: nord, Tricks: 3, Penalty: pen(30)},
			{Player: ost, Tricks: 4, Hearts: []int{14}, PikDame: true},
			{Player: sued, Tricks: 3, Penalty: pen(30)},
			{Player: west, Tricks: 3, Penalty: pen(30)},
		}}, "Alle 0, {{player:2}} hat die Pik-Dame"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := mustScore(t, c.facts)
			if res.Title != c.want {
				t.Errorf("title %q, want %q", res.Title, c.want)
			}
			// Rendered with the names of a table, the title stays short.
			shown := score.RenderPlayers(res.Title, map[int64]string{1: "Anna", 2: "Bernd", 3: "Clara", 4: "Dieter"})
			if n := len([]rune(shown)); n > 70 {
				t.Errorf("title %q has %d characters, want a short one", shown, n)
			}
		})
	}
}

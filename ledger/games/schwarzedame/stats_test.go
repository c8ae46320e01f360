package schwarzedame

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// st is one expected statistic.
func st(player int64, key string, count int64) score.Stat {
	return score.Stat{Player: player, Key: key, Count: count}
}

func TestStats(t *testing.T) {
	exampleAStats := []score.Stat{
		st(nord, "tricks", 4), st(ost, "pik_dame", 1), st(ost, "tricks", 3), st(sued, "tricks", 5), st(west, "tricks", 1),
	}
	tests := []struct {
		name  string
		facts Facts
		rules string
		state string
		stats []score.Stat
	}{
		{name: "worked example A", facts: exampleA(), stats: exampleAStats},
		{name: "worked example B: all tricks", facts: exampleB(), stats: []score.Stat{st(nord, "pik_dame", 1), st(nord, "tricks", 13)}},
		{
			name:  "penalty points: nobody is known to hold the Pik-Dame",
			facts: penaltyA(),
			stats: []score.Stat{st(nord, "tricks", 4), st(ost, "tricks", 3), st(sued, "tricks", 5), st(west, "tricks", 1)},
		},
		{
			name:  "match end: Nord wins the match",
			facts: exampleA(),
			rules: `{"hands_per_match":3}`,
			state: `{"match":1,"hands_played":2,"hands_left":1,"balance":{"1":20,"2":-10,"3":3,"4":-13},"matches_won":{"3":1}}`,
			stats: []score.Stat{
				st(nord, "match_won", 1), st(nord, "tricks", 4), st(ost, "pik_dame", 1), st(ost, "tricks", 3), st(sued, "tricks", 5), st(west, "tricks", 1),
			},
		},
		{
			name:  "match end shared with players not in the hand, the unseated last",
			facts: exampleA(),
			rules: `{"hands_per_match":2}`,
			state: `{"match":1,"hands_played":1,"balance":{"1":20,"5":40,"9":40}}`,
			stats: []score.Stat{
				st(nord, "match_won", 1), st(nord, "tricks", 4), st(ost, "pik_dame", 1), st(ost, "tricks", 3), st(sued, "tricks", 5), st(west, "tricks", 1),
				st(bank, "match_won", 1), st(9, "match_won", 1),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Engine{}.Score(score.Hand{
				Seated: seated, Rules: gamestest.MustRules(t, Engine{}, "", tc.rules), State: json.RawMessage(tc.state), Facts: factsJSON(t, tc.facts),
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Stats, tc.stats) {
				t.Errorf("stats\n got %v\nwant %v", res.Stats, tc.stats)
			}
			checkStats(t, res)
		})
	}
}

// TestStatsRandomHands checks the invariants on random valid hands.
func TestStatsRandomHands(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	one := gamestest.MustRules(t, Engine{}, "", `{"hands_per_match":1}`)
	for range 200 {
		h, _ := randomHand(r)
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: one, Facts: factsJSON(t, h)})
		if err != nil {
			t.Fatal(err)
		}
		checkStats(t, res)
	}
}

// FuzzStats checks the statistics of every accepted hand against the
// invariants checkStats states.
func FuzzStats(f *testing.F) {
	for _, facts := range []Facts{exampleA(), exampleB(), penaltyA(), tieHand()} {
		f.Add([]byte(factsJSON(f, facts)), false)
		f.Add([]byte(factsJSON(f, facts)), true)
	}
	eight := gamestest.MustRules(f, Engine{}, "", "")
	one := gamestest.MustRules(f, Engine{}, "", `{"hands_per_match":1}`)
	f.Fuzz(func(t *testing.T, facts []byte, closeMatch bool) {
		rules := eight
		if closeMatch {
			rules = one
		}
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules, Facts: facts})
		if err == nil {
			checkStats(t, res)
		}
	})
}

// checkStats states what holds for every hand: documented keys, tricks
// adding up to 13, at most one Pik-Dame, match winners as the event says,
// each key once per player, ordered by seat (others after, by id) then
// key; no parties.
func checkStats(t *testing.T, res score.Result) {
	t.Helper()
	gamestest.CheckStats(t, res, seated, func(s score.Stat) string {
		switch {
		case s.Key != "tricks" && s.Key != "pik_dame" && s.Key != "match_won":
			return "unknown key"
		case s.Key == "tricks" && s.Count > tricksPerHand || s.Key != "tricks" && s.Count != 1:
			return "count out of range"
		}
		return ""
	})
	tricks, pik := int64(0), 0
	var won []int64
	for _, s := range res.Stats {
		switch s.Key {
		case "tricks":
			tricks += s.Count
		case "pik_dame":
			pik++
		case "match_won":
			won = append(won, s.Player)
		}
	}
	if tricks != tricksPerHand || pik > 1 || len(res.Parties) != 0 {
		t.Fatalf("stats %v: %d tricks, %d Pik-Damen, parties %v", res.Stats, tricks, pik, res.Parties)
	}
	var want []int64
	for _, ev := range res.Events {
		if ev.Type == "match_won" {
			want = ev.Players
		}
	}
	rank := func(id int64) int64 {
		if i := slices.Index(seated, id); i >= 0 {
			return int64(i)
		}
		return int64(len(seated)) + id
	}
	slices.SortFunc(want, func(a, b int64) int { return int(rank(a) - rank(b)) })
	if !slices.Equal(won, want) {
		t.Fatalf("match_won stats for %v, event for %v", won, want)
	}
}

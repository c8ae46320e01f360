package klaberjass

import (
	"encoding/json"
	"fmt"
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
	orgi := gamestest.MustRules(t, Engine{}, "", `{"orgi":true}`)
	tests := []struct {
		name    string
		seated  []int64
		rules   json.RawMessage
		state   string
		facts   string
		stats   []score.Stat
		parties [][]int64
	}{
		{
			name:   "openapi example: trump won against Kontra, a Terz and Bella",
			seated: seated4,
			facts:  exampleFacts,
			stats: []score.Stat{
				st(1, "melds_counted", 1), st(1, "trump_played", 1), st(1, "trump_won", 1),
				st(2, "kontra_said", 1), st(3, "bella", 1), st(4, "kontra_said", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:   "match end: Kontra won the last hand of the match",
			seated: seated4,
			state:  `{"match":2,"hands":3,"sides":[{"players":[1,3],"die":1},{"players":[2,4],"die":5}],"matches_won":{}}`,
			facts:  `{"dealer":4,"trump_player":1,"trump_suit":"herz","kontra":true,"card_points":[{"player":1,"points":60},{"player":2,"points":92}],"last_trick":2}`,
			stats: []score.Stat{
				st(1, "match_lost", 1), st(1, "trump_played", 1),
				st(2, "kontra_said", 1), st(2, "kontra_won", 1), st(2, "match_won", 1),
				st(3, "match_lost", 1),
				st(4, "kontra_said", 1), st(4, "kontra_won", 1), st(4, "match_won", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:   "match end: the trump team wins the match with Re",
			seated: seated4,
			state:  `{"match":1,"hands":5,"sides":[{"players":[1,3],"die":2},{"players":[2,4],"die":5}],"matches_won":{}}`,
			facts:  `{"dealer":4,"trump_player":3,"trump_suit":"kreuz","kontra":true,"re":true,"card_points":[{"player":1,"points":100},{"player":2,"points":52}],"last_trick":1}`,
			stats: []score.Stat{
				st(1, "match_won", 1), st(1, "re_said", 1), st(1, "re_won", 1),
				st(2, "kontra_said", 1), st(2, "match_lost", 1),
				st(3, "match_won", 1), st(3, "re_said", 1), st(3, "re_won", 1), st(3, "trump_played", 1), st(3, "trump_won", 1),
				st(4, "kontra_said", 1), st(4, "match_lost", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:   "Re said and lost, Bella of the trump team: 2 x 4 ends the match at once",
			seated: seated4,
			facts:  `{"dealer":1,"trump_player":2,"trump_suit":"pik","kontra":true,"re":true,"bella":4,"card_points":[{"player":2,"points":70},{"player":1,"points":82}],"last_trick":1}`,
			stats: []score.Stat{
				st(1, "kontra_said", 1), st(1, "kontra_won", 1), st(1, "match_won", 1),
				st(2, "match_lost", 1), st(2, "re_said", 1), st(2, "trump_played", 1),
				st(3, "kontra_said", 1), st(3, "kontra_won", 1), st(3, "match_won", 1),
				st(4, "bella", 1), st(4, "match_lost", 1), st(4, "re_said", 1),
			},
			parties: [][]int64{{2, 4}, {1, 3}},
		},
		{
			name:    "a team's melds count for both partners",
			seated:  seated4,
			facts:   `{"dealer":4,"trump_player":2,"trump_suit":"herz","melds":[{"player":1,"kind":"terz","suit":"pik","top":"koenig"},{"player":3,"kind":"halber","suit":"kreuz","top":"ass"},{"player":3,"kind":"terz","suit":"karo","top":"10"},{"player":2,"kind":"terz","suit":"herz","top":"dame"}],"card_points":[{"player":1,"points":80},{"player":2,"points":72}],"last_trick":1}`,
			stats:   []score.Stat{st(1, "melds_counted", 1), st(2, "trump_played", 1), st(3, "melds_counted", 2)},
			parties: [][]int64{{2, 4}, {1, 3}},
		},
		{
			name:    "four players in another order: teams by the hand, listed by seat",
			seated:  seated4,
			facts:   `{"players":[1,2,4,3],"dealer":4,"trump_player":1,"trump_suit":"herz","card_points":[{"player":1,"points":92},{"player":2,"points":60}],"last_trick":1}`,
			stats:   []score.Stat{st(1, "trump_played", 1), st(1, "trump_won", 1)},
			parties: [][]int64{{1, 4}, {2, 3}},
		},
		{
			name:   "three players: Kontra for both opponents, no parties",
			seated: seated3,
			facts:  `{"players":[1,2,3],"dealer":3,"trump_player":1,"trump_suit":"herz","kontra":true,"melds":[{"player":1,"kind":"terz","suit":"kreuz","top":"ass"},{"player":2,"kind":"halber","suit":"pik","top":"10"}],"card_points":[{"player":1,"points":40},{"player":2,"points":56},{"player":3,"points":56}],"last_trick":2}`,
			stats: []score.Stat{
				st(1, "trump_played", 1),
				st(2, "kontra_said", 1), st(2, "kontra_won", 1), st(2, "melds_counted", 1),
				st(3, "kontra_said", 1), st(3, "kontra_won", 1),
			},
		},
		{
			name:   "two players, Orgi and Kontra: 2 x 4 ends the match, no parties",
			seated: seated2,
			rules:  orgi,
			facts:  `{"players":[2,1],"dealer":2,"trump_player":1,"trump_suit":"karo","orgi":true,"kontra":true,"card_points":[{"player":1,"points":71},{"player":2,"points":81}],"bella":2,"last_trick":1}`,
			stats: []score.Stat{
				st(1, "match_lost", 1), st(1, "trump_played", 1),
				st(2, "bella", 1), st(2, "kontra_said", 1), st(2, "kontra_won", 1), st(2, "match_won", 1),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var state json.RawMessage
			if tc.state != "" {
				state = json.RawMessage(tc.state)
			}
			res := play(t, tc.seated, tc.rules, state, tc.facts)
			if !slices.Equal(res.Stats, tc.stats) {
				t.Errorf("stats\n got %v\nwant %v", res.Stats, tc.stats)
			}
			if !slices.EqualFunc(res.Parties, tc.parties, slices.Equal) {
				t.Errorf("parties %v, want %v", res.Parties, tc.parties)
			}
			checkStats(t, res, tc.seated)
		})
	}
}

// FuzzStats checks the statistics of every accepted hand against the
// invariants checkStats states.
func FuzzStats(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	plain := gamestest.MustRules(f, Engine{}, "", "")
	orgi := gamestest.MustRules(f, Engine{}, "", `{"orgi":true,"dealer_rule":"winner_deals"}`)
	state := json.RawMessage(`{"match":2,"hands":3,"sides":[{"players":[1,3],"die":5},{"players":[2,4],"die":4}],"matches_won":{"1":1}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		for _, rules := range []json.RawMessage{plain, orgi} {
			res, err := Engine{}.Score(score.Hand{Seated: seated4, Rules: rules, State: state, Facts: facts})
			if err == nil {
				checkStats(t, res, seated4)
			}
		}
	})
}

// checkStats states what holds for every hand: documented keys, counts in
// range, each key once per player, ordered by seat then key, players of
// the hand only, one trump player; "won" keys only for winners; match
// keys as the events say; two teams with four players, the trump team
// first, one of them the winners.
func checkStats(t *testing.T, res score.Result, seated []int64) {
	t.Helper()
	players := make([]int64, len(res.Points))
	for i, pp := range res.Points {
		players[i] = pp.Player
	}
	gamestest.CheckStats(t, res, seated, func(s score.Stat) string {
		if !slices.Contains(players, s.Player) {
			return fmt.Sprintf("for a player not in the hand %v", players)
		}
		switch s.Key {
		case "melds_counted":
			if s.Count > 5 {
				return "count out of range"
			}
		case "trump_played", "kontra_said", "re_said", "bella", "match_won", "match_lost", "trump_won", "kontra_won", "re_won":
			if s.Count != 1 {
				return "count out of range"
			}
		default:
			return "unknown key"
		}
		if (s.Key == "trump_won" || s.Key == "kontra_won" || s.Key == "re_won") && !slices.Contains(res.Winners, s.Player) {
			return fmt.Sprintf("for a player who did not win (winners %v)", res.Winners)
		}
		return ""
	})
	var trump []int64
	matches := map[string][]int64{}
	for _, s := range res.Stats {
		switch s.Key {
		case "trump_played":
			trump = append(trump, s.Player)
		case "match_won", "match_lost":
			matches[s.Key] = append(matches[s.Key], s.Player)
		}
	}
	if len(trump) != 1 {
		t.Fatalf("trump players %v, want one", trump)
	}
	for _, ev := range res.Events {
		if ev.Type == "match_won" || ev.Type == "match_lost" {
			want := slices.Sorted(slices.Values(ev.Players))
			got := slices.Sorted(slices.Values(matches[string(ev.Type)]))
			if !slices.Equal(got, want) {
				t.Fatalf("%s stats for %v, event for %v", ev.Type, got, want)
			}
			delete(matches, string(ev.Type))
		}
	}
	if len(matches) > 0 {
		t.Fatalf("match stats %v without a match event", matches)
	}
	if len(players) != 4 {
		if res.Parties != nil {
			t.Fatalf("parties %v with %d players", res.Parties, len(players))
		}
		return
	}
	if len(res.Parties) != 2 || len(res.Parties[0]) != 2 || len(res.Parties[1]) != 2 || !slices.Contains(res.Parties[0], trump[0]) || len(res.Winners) == 0 {
		t.Fatalf("parties %v, winners %v: want two teams, the trump player %d's first, one of them winning", res.Parties, res.Winners, trump[0])
	}
}

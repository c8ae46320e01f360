package schwarzesau

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// st is one expected statistic.
func st(player int64, key string) score.Stat {
	return score.Stat{Player: player, Key: key, Count: 1}
}

func TestStats(t *testing.T) {
	tests := []struct {
		name  string
		facts Facts
		state string
		stats []score.Stat
	}{
		{
			name:  "example A: the Sau holder loses",
			facts: exampleA,
			stats: []score.Stat{st(2, "lost"), st(2, "sau_taken")},
		},
		{
			name:  "example B: Kontra, Re, Sub",
			facts: exampleB,
			stats: []score.Stat{st(1, "kontra_said"), st(1, "lost"), st(1, "sau_taken"), st(2, "re_said"), st(3, "sub_said")},
		},
		{
			name: "Hirsch said by the first player, Kontra by the Sau holder",
			facts: Facts{
				Players:   []PlayerFacts{pl(1, 50, 3), sau(pl(2, 30, 3)), pl(3, 25, 3), pl(4, 15, 1)},
				Dealer:    4,
				Doublings: dbl(2, 3, 4, 1),
			},
			stats: []score.Stat{st(1, "hirsch_said"), st(2, "kontra_said"), st(2, "lost"), st(2, "sau_taken"), st(3, "re_said"), st(4, "sub_said")},
		},
		{
			name: "Durchmarsch with Kontra pays out for two players",
			facts: Facts{
				Players:   []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)},
				Dealer:    4,
				Doublings: dbl(2),
			},
			state: `{"tallies":{"2":"1300","3":"1290","4":"10","5":"1400"}}`,
			stats: []score.Stat{
				st(1, "durchmarsch"), st(1, "sau_taken"),
				st(2, "kontra_said"), st(2, "lost"), st(2, "payout"),
				st(3, "lost"), st(3, "payout"),
				st(4, "lost"),
			},
		},
		{
			name:  "a payer who is not seated comes last",
			facts: exampleA,
			state: `{"tallies":{"7":"1520"}}`,
			stats: []score.Stat{st(2, "lost"), st(2, "sau_taken"), st(7, "payout")},
		},
		{
			name: "the blind Stock takes the Sau: nobody loses",
			facts: Facts{
				Players:   []PlayerFacts{pl(1, 50, 4), pl(2, 35, 3), pl(3, 25, 2)},
				Dealer:    2,
				Stock:     &StockFacts{CardPoints: 10, Tricks: 1, PikDame: true},
				Doublings: dbl(1),
			},
			stats: []score.Stat{st(1, "kontra_said")},
		},
		{
			name: "Verstoß overrides a Durchmarsch",
			facts: Facts{
				Players:    []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)},
				Dealer:     4,
				VerstossBy: ptr(2),
			},
			stats: []score.Stat{st(1, "sau_taken"), st(2, "lost")},
		},
		{
			name: "Verstoß before anybody took the Sau",
			facts: Facts{
				Players:    []PlayerFacts{pl(1, 20, 2), pl(2, 10, 1), pl(3, 15, 1), pl(4, 0, 0)},
				Dealer:     4,
				VerstossBy: ptr(1),
			},
			stats: []score.Stat{st(1, "lost")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, tc.facts), 9, tc.state))
			if !slices.Equal(res.Stats, tc.stats) {
				t.Errorf("stats\n got %v\nwant %v", res.Stats, tc.stats)
			}
			checkStats(t, res, seatedFive)
		})
	}
}

func TestStatsSeatingOrder(t *testing.T) {
	h := hand(t, mustJSON(t, exampleB), 9, "")
	h.Seated = []int64{5, 3, 1, 2, 4}
	res := gamestest.MustScore(t, Engine{}, h)
	want := []score.Stat{st(3, "sub_said"), st(1, "kontra_said"), st(1, "lost"), st(1, "sau_taken"), st(2, "re_said")}
	if !slices.Equal(res.Stats, want) {
		t.Errorf("stats\n got %v\nwant %v", res.Stats, want)
	}
}

// FuzzStats checks the statistics of every accepted hand against the
// invariants checkStats states.
func FuzzStats(f *testing.F) {
	for _, tc := range scoreCases {
		f.Add([]byte(mustJSON(f, tc.facts)))
	}
	rules := gamestest.MustRules(f, Engine{}, "", "")
	state := json.RawMessage(`{"tallies":{"1":"1400","2":"2973/2","3":"3","5":"1509","9":"1600"}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		h := score.Hand{Seated: seatedFive, Session: 7, Date: score.Date{Year: 2025, Month: 3, Day: 9}, Rules: rules, State: state, Facts: facts}
		res, err := Engine{}.Score(h)
		if err == nil {
			checkStats(t, res, seatedFive)
		}
	})
}

var statKeys = []string{"sau_taken", "lost", "durchmarsch", "payout", "kontra_said", "re_said", "sub_said", "hirsch_said"}

// checkStats states what holds for every hand: documented keys, Count 1,
// each key once per player, ordered by seat (others after, by id) then
// key; the losers are the players who did not win, the payers those of
// the payout event; at most one player took the Sau; no parties.
func checkStats(t *testing.T, res score.Result, seated []int64) {
	t.Helper()
	gamestest.CheckStats(t, res, seated, func(s score.Stat) string {
		if !slices.Contains(statKeys, s.Key) || s.Count != 1 {
			return "unknown key or count"
		}
		return ""
	})
	var lost, payers []int64
	sau := 0
	for _, s := range res.Stats {
		switch s.Key {
		case "lost":
			lost = append(lost, s.Player)
		case "payout":
			payers = append(payers, s.Player)
		case "sau_taken":
			sau++
		}
	}
	var want []int64
	for _, pp := range res.Points {
		if !slices.Contains(res.Winners, pp.Player) {
			want = append(want, pp.Player)
		}
	}
	if !slices.Equal(lost, want) {
		t.Fatalf("lost %v, want the players who did not win %v", lost, want)
	}
	var paid []int64
	for _, ev := range res.Events {
		if ev.Type == "payout" {
			paid = ev.Players
		}
	}
	if !slices.Equal(payers, paid) {
		t.Fatalf("payout stats for %v, payout event for %v", payers, paid)
	}
	if sau > 1 || len(res.Parties) != 0 {
		t.Fatalf("%d players took the Sau; parties %v", sau, res.Parties)
	}
}

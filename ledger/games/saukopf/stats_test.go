package saukopf

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// st is one expected statistic.
func st(player int64, key string, count int64) score.Stat {
	return score.Stat{Player: player, Key: key, Count: count}
}

func TestStats(t *testing.T) {
	tests := []struct {
		name    string
		facts   string
		stats   []score.Stat
		parties [][]int64
	}{
		{
			name:  "worked example A: Sauerei won with a Huftritt",
			facts: exampleA,
			stats: []score.Stat{
				st(1, "contract_played_sauerei", 1), st(1, "contract_won_sauerei", 1), st(1, "huftritt", 1),
				st(2, "huftritt", 1), st(3, "huftritt", 1), st(4, "huftritt", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "worked example B: Keiler won",
			facts:   exampleB,
			stats:   []score.Stat{st(2, "contract_played_keiler", 1), st(2, "contract_won_keiler", 1)},
			parties: [][]int64{{2}, {1, 3, 4}},
		},
		{
			name:    "lost solo: Ferkelparade",
			facts:   solo(`"bid":61,"contract":"ferkelparade","am_spiess":true`, 30, 2, `{"holder":1,"count":6}`),
			stats:   []score.Stat{st(1, "contract_played_ferkelparade", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "Mastschwein won",
			facts:   solo(`"bid":61,"contract":"mastschwein"`, 0, 0, ""),
			stats:   []score.Stat{st(1, "contract_played_mastschwein", 1), st(1, "contract_won_mastschwein", 1), st(1, "mastschwein_won", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "Mastschwein lost",
			facts:   solo(`"bid":61,"contract":"mastschwein"`, 10, 1, ""),
			stats:   []score.Stat{st(1, "contract_played_mastschwein", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "Schwarte won",
			facts:   solo(`"bid":61,"contract":"schwarte"`, 120, 8, ""),
			stats:   []score.Stat{st(1, "contract_played_schwarte", 1), st(1, "contract_won_schwarte", 1), st(1, "schwarte_won", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:  "Unreine Sauerei lost with two Huftritte",
			facts: solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"huftritte":2,"hauer":2`, 50, 3, `{"holder":2,"count":1}`),
			stats: []score.Stat{
				st(1, "contract_played_sauerei", 1), st(1, "huftritt", 2),
				st(2, "huftritt", 2), st(3, "huftritt", 2), st(4, "huftritt", 2),
			},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "Dreihaxer mit Trog lost",
			facts:   threeHand(`"trog":"mit"`, "61", 55, 5, `{"holder":1,"count":3}`),
			stats:   []score.Stat{st(1, "contract_played_keiler", 1)},
			parties: [][]int64{{1}, {2, 3}},
		},
		{
			name:  "Eber of a player seated last, in seating order",
			facts: `{"variant":"vierer","players":[2,5,1,3],"dealer":4,"bid":61,"spieler":5,"contract":"eber","augen":80,"tricks":5,"huftritte":1,"laufende":{"holder":5,"count":2}}`,
			stats: []score.Stat{
				st(1, "huftritt", 1), st(2, "huftritt", 1), st(3, "huftritt", 1),
				st(5, "contract_played_eber", 1), st(5, "contract_won_eber", 1), st(5, "huftritt", 1),
			},
			parties: [][]int64{{5}, {1, 2, 3}},
		},
		{
			name:    "Wilde Sauerei: no contract, the parties the count made",
			facts:   wild(`"laufende":{"holder":2,"count":2},"saukopf":{"trumped_by":1,"herz_sau_of":4}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"),
			stats:   nil,
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "Wilde Sauerei tied: no parties",
			facts:   wild(`"laufende":{"holder":2,"count":3}`, "1:40/3", "2:40/3", "3:10/1", "4:30/1"),
			stats:   nil,
			parties: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustScore(t, tc.facts, "")
			if !slices.Equal(res.Stats, tc.stats) {
				t.Errorf("stats\n got %v\nwant %v", res.Stats, tc.stats)
			}
			if !slices.EqualFunc(res.Parties, tc.parties, slices.Equal) {
				t.Errorf("parties %v, want %v", res.Parties, tc.parties)
			}
			checkStats(t, res)
		})
	}
}

// FuzzStats checks the statistics of every accepted hand against the
// invariants checkStats states.
func FuzzStats(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	rules := gamestest.MustRules(f, Engine{}, "", "")
	f.Fuzz(func(t *testing.T, facts []byte) {
		res, err := Engine{}.Score(score.Hand{Seated: seated, Rules: rules, Facts: facts})
		if err == nil {
			checkStats(t, res)
		}
	})
}

var statKey = regexp.MustCompile(`^(contract_(played|won)_(mastschwein|sauerei|keiler|eber|wutz|ferkelparade|knorpel|schwarte)|mastschwein_won|schwarte_won|huftritt)$`)

// checkStats states what holds for every hand: documented keys, counts in
// range, each key once per player, ordered by seat then key, players of
// the hand only; the parties split the hand's players and the winners
// are one of them; a won contract is a win of the Spieler.
func checkStats(t *testing.T, res score.Result) {
	t.Helper()
	players := make([]int64, len(res.Points))
	for i, pp := range res.Points {
		players[i] = pp.Player
	}
	gamestest.CheckStats(t, res, seated, func(s score.Stat) string {
		switch {
		case !statKey.MatchString(s.Key) || !slices.Contains(players, s.Player):
			return "unknown key or player not in the hand"
		case s.Key == "huftritt" && s.Count > maxHuftritte || s.Key != "huftritt" && s.Count != 1:
			return "count out of range"
		case s.Key != "huftritt" && !strings.HasPrefix(s.Key, "contract_played_") && !slices.Contains(res.Winners, s.Player):
			return fmt.Sprintf("for a player who did not win (winners %v)", res.Winners)
		}
		return ""
	})
	if len(res.Parties) == 0 {
		if len(res.Winners) > 0 {
			t.Fatalf("winners %v without parties", res.Winners)
		}
		return
	}
	all := slices.Concat(res.Parties...)
	if len(res.Parties) != 2 || len(all) != len(players) || len(res.Winners) == 0 {
		t.Fatalf("parties %v, winners %v: want the Spieler party and the Nichtspieler, all the players %v, one of them winning", res.Parties, res.Winners, players)
	}
}

package doppelkopf

import (
	"encoding/json"
	"fmt"
	"regexp"
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
	five := []int64{1, 2, 3, 4, 5}
	bockState := `{"session":1,"next_dealer":2,"bock_games_left":3,"bock_rounds_queued":1}`
	tests := []struct {
		name    string
		hand    testHand
		stats   []score.Stat
		parties [][]int64
	}{
		{
			name: "won Herz-Solo with keine 90 against Kontra",
			hand: testHand{facts: `{"game":"farbsolo","suit":"herz","re":{"players":[4],"augen":190,"announced":"keine90"},"kontra":{"announced":"kontra"}}`},
			stats: []score.Stat{
				st(1, "kontra_said", 1), st(2, "kontra_said", 1), st(3, "kontra_said", 1),
				st(4, "absage_said", 1), st(4, "absage_won", 1), st(4, "re_said", 1), st(4, "re_said_won", 1),
				st(4, "solo_played", 1), st(4, "solo_played_farbsolo_herz", 1), st(4, "solo_won", 1), st(4, "solo_won_farbsolo_herz", 1),
			},
			parties: [][]int64{{4}, {1, 2, 3}},
		},
		{
			name:    "lost Damensolo",
			hand:    testHand{facts: `{"game":"damensolo","re":{"players":[1],"augen":100}}`},
			stats:   []score.Stat{st(1, "solo_played", 1), st(1, "solo_played_damensolo", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name: "Köhler: schwarz said and lost against keine 30",
			hand: testHand{facts: `{"game":"koehler","re":{"players":[2],"augen":8,"announced":"schwarz"},"kontra":{"announced":"keine30"}}`},
			stats: []score.Stat{
				st(1, "absage_said", 3), st(1, "absage_won", 1), st(1, "kontra_said", 1), st(1, "kontra_said_won", 1),
				st(2, "absage_said", 4), st(2, "re_said", 1), st(2, "solo_played", 1), st(2, "solo_played_koehler", 1),
				st(3, "absage_said", 3), st(3, "absage_won", 1), st(3, "kontra_said", 1), st(3, "kontra_said_won", 1),
				st(4, "absage_said", 3), st(4, "absage_won", 1), st(4, "kontra_said", 1), st(4, "kontra_said_won", 1),
			},
			parties: [][]int64{{2}, {1, 3, 4}},
		},
		{
			name: "Bock game won by Re with keine 90",
			hand: testHand{state: bockState, session: 1, facts: `{"game":"normal","re":{"players":[1,3],"augen":187,"announced":"keine90","fuchs_gefangen":1},"kontra":{"doppelkopf":1}}`},
			stats: []score.Stat{
				st(1, "absage_said", 1), st(1, "absage_won", 1), st(1, "bock_game", 1), st(1, "re_said", 1), st(1, "re_said_won", 1),
				st(2, "bock_game", 1),
				st(3, "absage_said", 1), st(3, "absage_won", 1), st(3, "bock_game", 1), st(3, "re_said", 1), st(3, "re_said_won", 1),
				st(4, "bock_game", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "a solo in a Bock round is no Bock game",
			hand:    testHand{state: bockState, session: 1, facts: `{"game":"bubensolo","re":{"players":[2],"augen":121}}`},
			stats:   []score.Stat{st(2, "solo_played", 1), st(2, "solo_played_bubensolo", 1), st(2, "solo_won", 1), st(2, "solo_won_bubensolo", 1)},
			parties: [][]int64{{2}, {1, 3, 4}},
		},
		{
			name:    "Kontra said and lost",
			hand:    testHand{facts: `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"announced":"kontra"}}`},
			stats:   []score.Stat{st(3, "kontra_said", 1), st(4, "kontra_said", 1)},
			parties: [][]int64{{1, 2}, {3, 4}},
		},
		{
			name:    "Kontra said and won",
			hand:    testHand{facts: `{"game":"normal","re":{"players":[2,4],"augen":100},"kontra":{"announced":"kontra"}}`},
			stats:   []score.Stat{st(1, "kontra_said", 1), st(1, "kontra_said_won", 1), st(3, "kontra_said", 1), st(3, "kontra_said_won", 1)},
			parties: [][]int64{{2, 4}, {1, 3}},
		},
		{
			name: "neither party reaches its goal: nothing won",
			hand: testHand{facts: `{"game":"normal","re":{"players":[1,3],"augen":120,"announced":"keine90","fuchs_gefangen":2},"kontra":{"announced":"keine90","karlchen":true}}`},
			stats: []score.Stat{
				st(1, "absage_said", 1), st(1, "re_said", 1),
				st(2, "absage_said", 1), st(2, "kontra_said", 1),
				st(3, "absage_said", 1), st(3, "re_said", 1),
				st(4, "absage_said", 1), st(4, "kontra_said", 1),
			},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "revoke: the revoker's party loses its Re",
			hand:    testHand{facts: `{"game":"normal","verworfen_by":1,"re":{"players":[1,3],"augen":130,"announced":"re"}}`},
			stats:   []score.Stat{st(1, "re_said", 1), st(3, "re_said", 1)},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "Hochzeit: the first Re player is the Hochzeit player",
			hand:    testHand{facts: `{"game":"hochzeit","re":{"players":[3,1],"augen":130}}`},
			stats:   []score.Stat{st(3, "hochzeit", 1)},
			parties: [][]int64{{1, 3}, {2, 4}},
		},
		{
			name:    "Hochzeit without partner is a solo",
			hand:    testHand{facts: `{"game":"hochzeit","re":{"players":[1],"augen":130}}`},
			stats:   []score.Stat{st(1, "hochzeit", 1), st(1, "solo_played", 1), st(1, "solo_played_hochzeit", 1), st(1, "solo_won", 1), st(1, "solo_won_hochzeit", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "stille Hochzeit lost",
			hand:    testHand{facts: `{"game":"stille_hochzeit","re":{"players":[3],"augen":90}}`},
			stats:   []score.Stat{st(3, "solo_played", 1), st(3, "solo_played_stille_hochzeit", 1)},
			parties: [][]int64{{3}, {1, 2, 4}},
		},
		{
			name:    "Armut: the first Re player is the poor player",
			hand:    testHand{facts: `{"game":"armut","re":{"players":[2,3],"augen":240,"doppelkopf":4},"kontra":{"took_trick":false}}`},
			stats:   []score.Stat{st(2, "armut", 1)},
			parties: [][]int64{{2, 3}, {1, 4}},
		},
		{
			name:    "Trumpfsolo lost with Schweinchen",
			hand:    testHand{facts: `{"game":"farbsolo","suit":"karo","schweinchen":1,"herzstich":true,"re":{"players":[1],"augen":0}}`},
			stats:   []score.Stat{st(1, "schweinchen", 1), st(1, "solo_played", 1), st(1, "solo_played_farbsolo_karo", 1)},
			parties: [][]int64{{1}, {2, 3, 4}},
		},
		{
			name:    "plain game at five: the player sitting out is in no party",
			hand:    testHand{seated: five, facts: `{"game":"normal","players":[5,1,2,3],"dealer":4,"re":{"players":[5,1],"augen":130}}`},
			stats:   nil,
			parties: [][]int64{{1, 5}, {2, 3}},
		},
		{
			name:  "Schmeißen: a redeal for the dealer",
			hand:  testHand{facts: `{"game":"schmeissen","dealer":2}`},
			stats: []score.Stat{st(2, "redeal", 1)},
		},
		{
			name:  "Armut not taken: a redeal for the dealer",
			hand:  testHand{seated: five, facts: `{"game":"armut_nicht_genommen","dealer":5}`},
			stats: []score.Stat{st(5, "redeal", 1)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.hand.mustScore(t)
			wantStats(t, res.Stats, tc.stats)
			if !slices.EqualFunc(res.Parties, tc.parties, slices.Equal) {
				t.Errorf("parties %v, want %v", res.Parties, tc.parties)
			}
			seated := tc.hand.seated
			if seated == nil {
				seated = four
			}
			checkStats(t, res, seated)
		})
	}
}

// TestStatsSoloKeys checks the solo type key of every solo.
func TestStatsSoloKeys(t *testing.T) {
	for _, tc := range []struct{ game, suit, typ string }{
		{"farbsolo", "kreuz", "farbsolo_kreuz"},
		{"farbsolo", "pik", "farbsolo_pik"},
		{"farbsolo", "herz", "farbsolo_herz"},
		{"farbsolo", "karo", "farbsolo_karo"},
		{"koehler", "", "koehler"},
		{"damensolo", "", "damensolo"},
		{"bubensolo", "", "bubensolo"},
		{"fleischloser", "", "fleischloser"},
		{"stille_hochzeit", "", "stille_hochzeit"},
	} {
		suit := ""
		if tc.suit != "" {
			suit = fmt.Sprintf(`"suit":%q,`, tc.suit)
		}
		facts := fmt.Sprintf(`{"game":%q,%s"re":{"players":[2],"augen":200}}`, tc.game, suit)
		res := testHand{facts: facts}.mustScore(t)
		wantStats(t, res.Stats, []score.Stat{
			st(2, "solo_played", 1), st(2, "solo_played_"+tc.typ, 1), st(2, "solo_won", 1), st(2, "solo_won_"+tc.typ, 1),
		})
	}
}

// TestStatsSurviveJSON checks that stats and parties round-trip through
// the stored form of a result.
func TestStatsSurviveJSON(t *testing.T) {
	res := testHand{facts: `{"game":"normal","re":{"players":[1,2],"augen":130},"kontra":{"announced":"kontra"}}`}.mustScore(t)
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back score.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	wantStats(t, back.Stats, res.Stats)
	if !slices.EqualFunc(back.Parties, res.Parties, slices.Equal) {
		t.Errorf("parties %v after JSON, want %v", back.Parties, res.Parties)
	}
}

// FuzzStats checks the statistics of every accepted hand against the
// invariants checkStats states.
func FuzzStats(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	rules := make([]json.RawMessage, len(fuzzRules))
	for i, r := range fuzzRules {
		rules[i] = gamestest.MustRules(f, Engine{}, r.preset, r.options)
	}
	tables := [][]int64{four, {1, 2, 3, 4, 5}}
	state := json.RawMessage(`{"session":1,"next_dealer":4,"bock_games_left":1,"bock_rounds_queued":1,"solos":{"1":1}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		for _, r := range rules {
			for _, seated := range tables {
				res, err := Engine{}.Score(score.Hand{Seated: seated, Session: 1, Rules: r, State: state, Facts: facts})
				if err == nil {
					checkStats(t, res, seated)
				}
			}
		}
	})
}

var statKey = regexp.MustCompile(`^(solo_(played|won)(_(farbsolo_(kreuz|pik|herz|karo)|koehler|damensolo|bubensolo|fleischloser|stille_hochzeit|hochzeit))?|(re|kontra)_said(_won)?|absage_(said|won)|bock_game|hochzeit|armut|schweinchen|redeal)$`)

// checkStats states what holds for the stats and parties of every hand:
// documented keys, positive counts, each key once per player, ordered by
// seat then key, players of the hand only; the parties split the four
// players of a played hand, and the winners are one of them.
func checkStats(t *testing.T, res score.Result, seated []int64) {
	t.Helper()
	gamestest.CheckStats(t, res, seated, func(s score.Stat) string {
		won := s.Key == "solo_won" || s.Key == "re_said_won" || s.Key == "kontra_said_won" || s.Key == "absage_won"
		switch {
		case !statKey.MatchString(s.Key) || !slices.Contains(seated, s.Player):
			return "unknown key or player not seated"
		case s.Key == "absage_said" && s.Count > 4 || s.Key != "absage_said" && s.Count != 1:
			return "count out of range"
		case won && !slices.Contains(res.Winners, s.Player):
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
	if len(res.Parties) != 2 || len(slices.Concat(res.Parties...)) != playersPerHand {
		t.Fatalf("parties %v, want Re and Kontra of the four players", res.Parties)
	}
}

// wantStats compares stats exactly, nil and empty alike.
func wantStats(t *testing.T, got, want []score.Stat) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("stats\n got %v\nwant %v", got, want)
	}
}

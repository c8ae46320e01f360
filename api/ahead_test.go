package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// aheadOf reads the open session's hands to come from the table's
// next_hand, as a phone keeps them before it goes offline.
func (g *gameTable) aheadOf() []seats {
	g.t.Helper()
	next, _ := g.table()["next_hand"].(map[string]any)
	raw, ok := next["ahead"].([]any)
	if !ok {
		g.t.Fatalf("next_hand has no ahead: %v", next)
	}
	out := make([]seats, len(raw))
	for i, r := range raw {
		m := r.(map[string]any)
		out[i] = seats{dealer: int64(m["dealer_id"].(float64)), players: ids(m["player_ids"]), out: ids(m["sitting_out_ids"])}
	}
	return out
}

type seats struct {
	dealer       int64
	players, out []int64
}

func (s seats) String() string {
	return fmt.Sprintf("dealer %d, players %v, out %v", s.dealer, s.players, s.out)
}

// list writes ids as a JSON array.
func list(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// aheadFacts are a valid hand of each game with the dealer and players
// given; explicit false leaves them out where the game lets the facts
// (Doppelkopf), so the engine's own rotation must find them.
var aheadFacts = map[string]func(s seats, explicit bool) string{
	"doppelkopf": func(s seats, explicit bool) string {
		p := s.players
		seat := ""
		if explicit {
			seat = fmt.Sprintf(`"dealer":%d,"players":%s,`, s.dealer, list(p))
		}
		return fmt.Sprintf(`{%s"game":"normal","re":{"players":[%d,%d],"augen":150}}`, seat, p[0], p[2])
	},
	"saukopf": func(s seats, _ bool) string {
		p := s.players
		return fmt.Sprintf(`{"variant":"vierer","players":%s,"dealer":%d,"spieler":%d,"bid":61,"contract":"keiler","trump_suit":"herz","huftritte":1,"augen":55,"tricks":4,"laufende":{"holder":%d,"count":2}}`, list(p), s.dealer, p[0], p[0])
	},
	"schwarze_sau": func(s seats, _ bool) string {
		var entries []string
		others := []string{`"card_points":45,"tricks":3`, `"card_points":35,"tricks":3,"pik_dame":true`, `"card_points":30,"tricks":3`}
		for _, id := range s.players {
			e := `"card_points":10,"tricks":1`
			if id != s.dealer {
				e, others = others[0], others[1:]
			}
			entries = append(entries, fmt.Sprintf(`{"player":%d,%s}`, id, e))
		}
		return fmt.Sprintf(`{"players":[%s],"dealer":%d}`, strings.Join(entries, ","), s.dealer)
	},
	"schwarze_dame": func(s seats, _ bool) string {
		p := s.players
		return fmt.Sprintf(`{"dealer":%d,"players":[{"player":%d,"tricks":4,"hearts":[2,5,13]},{"player":%d,"tricks":3,"hearts":[14],"pik_dame":true},{"player":%d,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":%d,"tricks":1,"hearts":[11,12]}]}`,
			s.dealer, p[0], p[1], p[2], p[3])
	},
	"klaberjass": func(s seats, _ bool) string {
		p := s.players
		return fmt.Sprintf(`{"players":%s,"dealer":%d,"trump_player":%d,"trump_suit":"herz","card_points":[{"player":%d,"points":90},{"player":%d,"points":62}],"last_trick":%d}`,
			list(p), s.dealer, s.dealer, p[0], p[1], p[0])
	},
}

// TestOfflineRoundFromAhead: a phone reads next_hand.ahead, goes offline
// and records three hands in a row with ahead[0], ahead[1], ahead[2]; every
// one is accepted with that dealer and those players, one sitting out in
// turn where more are seated than play, and afterwards the next hand is
// ahead[3]: for every game and 4 to 7 seated.
func TestOfflineRoundFromAhead(t *testing.T) {
	for _, c := range []struct {
		game   string
		seated int
	}{
		{"doppelkopf", 4}, {"doppelkopf", 5}, {"doppelkopf", 6}, {"doppelkopf", 7},
		{"saukopf", 4}, {"saukopf", 5},
		{"schwarze_sau", 4}, {"schwarze_sau", 5},
		{"schwarze_dame", 4}, {"schwarze_dame", 5},
		{"klaberjass", 4}, {"klaberjass", 5},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.game, c.seated), func(t *testing.T) {
			g := newGameTable(t, c.game, "", c.seated)
			order := make([]int, c.seated)
			for i := range order {
				order[i] = i + 1
			}
			g.open("2026-03-12", order...)
			ahead := g.aheadOf()
			if len(ahead) != c.seated {
				t.Fatalf("ahead has %d hands, want one round of %d: %v", len(ahead), c.seated, ahead)
			}
			for k, s := range ahead {
				seat := k
				if c.game == "klaberjass" {
					seat = k % 4 // the deal passes among the four of the match
				}
				if want := g.p(seat + 1); s.dealer != want {
					t.Errorf("ahead[%d] dealt by %d, want P%d (%d), the deal passing round the table", k, s.dealer, seat+1, want)
				}
				if len(s.players)+len(s.out) != c.seated || slices.ContainsFunc(s.players, func(id int64) bool { return slices.Contains(s.out, id) }) {
					t.Errorf("ahead[%d] %v does not split the seated into players and those sitting out", k, s)
				}
			}
			wantOut := map[string]int{"doppelkopf": 4, "saukopf": 4, "schwarze_sau": 4, "schwarze_dame": 4, "klaberjass": 4}[c.game]
			for k := range 3 {
				s := ahead[k]
				if c.seated > wantOut && len(s.out) != c.seated-wantOut {
					t.Errorf("ahead[%d] %v: %d sit out, want %d", k, s, len(s.out), c.seated-wantOut)
				}
				h := g.e.must(201, "POST", g.handsPath(), g.e.admin,
					map[string]any{"session_id": g.session, "number": g.hands + 1, "facts": g.facts(aheadFacts[c.game](s, k != 1))})
				g.hands++
				if got := int64(h["dealer_id"].(float64)); got != s.dealer {
					t.Errorf("offline hand %d dealt by %d, want ahead's %d", k+1, got, s.dealer)
				}
				if got := ids(h["player_ids"]); !slices.Equal(got, s.players) {
					t.Errorf("offline hand %d played by %v, want ahead's %v", k+1, got, s.players)
				}
			}
			if c.seated > 3 {
				if now := g.aheadOf(); now[0].String() != ahead[3].String() {
					t.Errorf("after three hands the next is %v, want ahead[3] %v", now[0], ahead[3])
				}
			}
		})
	}
}

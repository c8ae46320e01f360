package schwarzesau

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// --- helpers -------------------------------------------------------------

func pl(id int64, cardPoints, tricks int) PlayerFacts {
	return PlayerFacts{Player: id, CardPoints: cardPoints, Tricks: tricks}
}

func sau(p PlayerFacts) PlayerFacts {
	p.PikDame = true
	return p
}

func dbl(players ...int64) []Doubling {
	out := make([]Doubling, len(players))
	for i, id := range players {
		out[i] = Doubling{Call: calls[i], Player: id}
	}
	return out
}

func ptr(id int64) *int64 { return &id }

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var seatedFive = []int64{1, 2, 3, 4, 5}

// hand builds a hand at a five-seat table on the given day of March 2025.
func hand(t testing.TB, facts json.RawMessage, day int, state string) score.Hand {
	return score.Hand{
		Seated:  seatedFive,
		Session: 1,
		Date:    score.Date{Year: 2025, Month: 3, Day: day},
		Rules:   gamestest.MustRules(t, Engine{}, "", ""),
		State:   json.RawMessage(state),
		Facts:   facts,
	}
}

func decodeStateT(t testing.TB, raw json.RawMessage) State {
	t.Helper()
	var st State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("state %s: %v", raw, err)
	}
	return st
}

// pointsOf renders Result.Points as "id:points" in order.
func pointsOf(res score.Result) string {
	parts := make([]string, len(res.Points))
	for i, p := range res.Points {
		parts[i] = jsonInt(p.Player) + ":" + p.Points.String()
	}
	return strings.Join(parts, " ")
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

func linesOf(res score.Result) []string {
	out := make([]string, len(res.Lines))
	for i, l := range res.Lines {
		s := l.Label + " " + string(l.Op) + " " + l.Value.String()
		if l.Player != 0 {
			s += " @" + jsonInt(l.Player)
		}
		out[i] = s
	}
	return out
}

func talliesOf(st State) string {
	ids := make([]int64, 0, len(st.Tallies))
	for id := range st.Tallies {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = jsonInt(id) + ":" + st.Tallies[id].String()
	}
	return strings.Join(parts, " ")
}

// --- worked examples and scoring ------------------------------------------

// exampleA is worked example A of README.md (players 1 to 4, 4 deals).
var exampleA = Facts{
	Players: []PlayerFacts{pl(1, 46, 3), sau(pl(2, 40, 3)), pl(3, 30, 3), pl(4, 4, 1)},
	Dealer:  4,
}

// exampleB is worked example B: Kontra, Re, Sub; A took the Sau.
var exampleB = Facts{
	Players:   []PlayerFacts{sau(pl(1, 52, 4)), pl(2, 40, 3), pl(3, 28, 3), pl(4, 0, 0)},
	Dealer:    4,
	Doublings: dbl(1, 2, 3),
}

var scoreCases = []struct {
	name    string
	facts   Facts
	points  string
	winners []int64
	lines   []string
}{
	{
		name: "example A: halved", facts: exampleA,
		points: "1:0 2:-23 3:0 4:0", winners: []int64{1, 3, 4},
		lines: []string{"höchste Augen 46 + 46", "halbiert / 2", "Schwarze Sau = -23 @2"},
	},
	{
		name: "example B: x8, loser holds the highest total himself, dealer without trick", facts: exampleB,
		points: "1:-416 2:0 3:0 4:0", winners: []int64{2, 3, 4},
		lines: []string{"höchste Augen 52 + 52", "x8 (Kontra, Re, Sub) x 8", "Schwarze Sau = -416 @1"},
	},
	{
		name: "Hirsch x16 with the dealer doubling, halved",
		facts: Facts{
			Players:   []PlayerFacts{pl(1, 50, 3), sau(pl(2, 30, 3)), pl(3, 25, 3), pl(4, 15, 1)},
			Dealer:    4,
			Doublings: dbl(2, 3, 4, 1),
		},
		points: "1:0 2:-400 3:0 4:0", winners: []int64{1, 3, 4},
		lines: []string{"höchste Augen 50 + 50", "x16 (Kontra, Re, Sub, Hirsch) x 16", "halbiert / 2", "Schwarze Sau = -400 @2"},
	},
	{
		name:   "odd total halved keeps the half",
		facts:  Facts{Players: []PlayerFacts{pl(1, 45, 3), sau(pl(2, 35, 3)), pl(3, 30, 3), pl(4, 10, 1)}, Dealer: 4},
		points: "1:0 2:-45/2 3:0 4:0", winners: []int64{1, 3, 4},
		lines: []string{"höchste Augen 45 + 45", "halbiert / 2", "Schwarze Sau = -45/2 @2"},
	},
	{
		name:   "loser holds the highest total himself, not halved",
		facts:  Facts{Players: []PlayerFacts{sau(pl(1, 60, 5)), pl(2, 30, 2), pl(3, 30, 3), pl(4, 0, 0)}, Dealer: 4},
		points: "1:-60 2:0 3:0 4:0", winners: []int64{2, 3, 4},
		lines: []string{"höchste Augen 60 + 60", "Schwarze Sau = -60 @1"},
	},
	{
		name: "Durchmarsch with Kontra: every other player 120 x 2, the dealer too",
		facts: Facts{
			Players:   []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)},
			Dealer:    4,
			Doublings: dbl(2),
		},
		points: "1:0 2:-240 3:-240 4:-240", winners: []int64{1},
		lines: []string{"Durchmarsch + 120 @1", "x2 (Kontra) x 2", "Minuspunkte = -240 @2", "Minuspunkte = -240 @3", "Minuspunkte = -240 @4"},
	},
	{
		name: "three players with a Stock trick: still halved",
		facts: Facts{
			Players: []PlayerFacts{pl(1, 50, 4), sau(pl(2, 35, 3)), pl(3, 25, 2)},
			Dealer:  3,
			Stock:   &StockFacts{CardPoints: 10, Tricks: 1},
		},
		points: "1:0 2:-25 3:0", winners: []int64{1, 3},
		lines: []string{"höchste Augen 50 + 50", "halbiert / 2", "Schwarze Sau = -25 @2"},
	},
	{
		name: "three players: the Stock's higher total does not count",
		facts: Facts{
			Players: []PlayerFacts{pl(1, 30, 3), sau(pl(2, 30, 3)), pl(3, 20, 2)},
			Dealer:  1,
			Stock:   &StockFacts{CardPoints: 40, Tricks: 2},
		},
		points: "1:0 2:-15 3:0", winners: []int64{1, 3},
		lines: []string{"höchste Augen 30 + 30", "halbiert / 2", "Schwarze Sau = -15 @2"},
	},
	{
		name: "three players: Durchmarsch x4 (x8 is the most with three)",
		facts: Facts{
			Players:   []PlayerFacts{pl(1, 0, 0), sau(pl(2, 120, 10)), pl(3, 0, 0)},
			Dealer:    1,
			Stock:     &StockFacts{CardPoints: 0, Tricks: 0},
			Doublings: dbl(3, 1),
		},
		points: "1:-480 2:0 3:-480", winners: []int64{2},
		lines: []string{"Durchmarsch + 120 @2", "x4 (Kontra, Re) x 4", "Minuspunkte = -480 @1", "Minuspunkte = -480 @3"},
	},
	{
		name: "three players: the blind Stock wins the Sau, nobody loses",
		facts: Facts{
			Players:   []PlayerFacts{pl(1, 50, 4), pl(2, 35, 3), pl(3, 25, 2)},
			Dealer:    2,
			Stock:     &StockFacts{CardPoints: 10, Tricks: 1, PikDame: true},
			Doublings: dbl(1),
		},
		points: "1:0 2:0 3:0", winners: []int64{1, 2, 3},
		lines: []string{"Schwarze Sau im Stock: kein Verlierer = 0"},
	},
	{
		name:   "Verstoß: the rule breaker loses instead of the Sau holder",
		facts:  Facts{Players: exampleA.Players, Dealer: 4, VerstossBy: ptr(3)},
		points: "1:0 2:0 3:-23 4:0", winners: []int64{1, 2, 4},
		lines: []string{"höchste Augen 46 + 46", "halbiert / 2", "Verstoß = -23 @3"},
	},
	{
		name: "Verstoß ends the hand early: sums below 120 and 10, no Sau yet",
		facts: Facts{
			Players:    []PlayerFacts{pl(1, 20, 2), pl(2, 10, 1), pl(3, 15, 1), pl(4, 0, 0)},
			Dealer:     4,
			Doublings:  dbl(1),
			VerstossBy: ptr(1),
		},
		points: "1:-40 2:0 3:0 4:0", winners: []int64{2, 3, 4},
		lines: []string{"höchste Augen 20 + 20", "x2 (Kontra) x 2", "Verstoß = -40 @1"},
	},
	{
		name: "Verstoß overrides a Durchmarsch",
		facts: Facts{
			Players:    []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)},
			Dealer:     4,
			VerstossBy: ptr(2),
		},
		points: "1:0 2:-120 3:0 4:0", winners: []int64{1, 3, 4},
		lines: []string{"höchste Augen 120 + 120", "Verstoß = -120 @2"},
	},
}

func TestScoreExamples(t *testing.T) {
	for _, tc := range scoreCases {
		t.Run(tc.name, func(t *testing.T) {
			res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, tc.facts), 9, ""))
			if got := pointsOf(res); got != tc.points {
				t.Errorf("points = %s, want %s", got, tc.points)
			}
			if !slices.Equal(res.Winners, tc.winners) {
				t.Errorf("winners = %v, want %v", res.Winners, tc.winners)
			}
			if got := linesOf(res); !slices.Equal(got, tc.lines) {
				t.Errorf("lines = %q, want %q", got, tc.lines)
			}
			if len(res.Events) != 0 {
				t.Errorf("events = %v, want none", res.Events)
			}
		})
	}
}

// titles are the score-sheet titles of scoreCases, by case name.
var titles = map[string]string{
	"example A: halved": "{{player:2}} hat die Sau",
	"example B: x8, loser holds the highest total himself, dealer without trick": "{{player:1}} hat die Sau, Sub",
	"Hirsch x16 with the dealer doubling, halved":                                "{{player:2}} hat die Sau, Hirsch",
	"odd total halved keeps the half":                                            "{{player:2}} hat die Sau",
	"loser holds the highest total himself, not halved":                          "{{player:1}} hat die Sau",
	"Durchmarsch with Kontra: every other player 120 x 2, the dealer too":        "Durchmarsch von {{player:1}}, Kontra",
	"three players with a Stock trick: still halved":                             "{{player:2}} hat die Sau",
	"three players: the Stock's higher total does not count":                     "{{player:2}} hat die Sau",
	"three players: Durchmarsch x4 (x8 is the most with three)":                  "Durchmarsch von {{player:2}}, Re",
	"three players: the blind Stock wins the Sau, nobody loses":                  "Sau im Stock, kein Verlierer",
	"Verstoß: the rule breaker loses instead of the Sau holder":                  "Verstoß von {{player:3}}",
	"Verstoß ends the hand early: sums below 120 and 10, no Sau yet":             "Verstoß von {{player:1}}, Kontra",
	"Verstoß overrides a Durchmarsch":                                            "Verstoß von {{player:2}}",
}

func TestTitle(t *testing.T) {
	for _, tc := range scoreCases {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := titles[tc.name]
			if !ok {
				t.Fatal("no title written down for this case")
			}
			res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, tc.facts), 9, ""))
			if res.Title != want {
				t.Errorf("title %q, want %q", res.Title, want)
			}
			if n := len([]rune(res.Title)); n > 60 {
				t.Errorf("title %q has %d characters, want at most 60", res.Title, n)
			}
		})
	}
	if len(titles) != len(scoreCases) {
		t.Errorf("%d titles for %d cases", len(titles), len(scoreCases))
	}
}

func TestPointsInSeatingOrderWithoutSitters(t *testing.T) {
	h := hand(t, mustJSON(t, exampleA), 9, "")
	h.Seated = []int64{5, 3, 1, 2, 4}
	res := gamestest.MustScore(t, Engine{}, h)
	if got, want := pointsOf(res), "3:0 1:0 2:-23 4:0"; got != want {
		t.Errorf("points = %s, want %s (seating order, player 5 sits out)", got, want)
	}
	if !slices.Equal(res.Winners, []int64{3, 1, 4}) {
		t.Errorf("winners = %v, want [3 1 4]", res.Winners)
	}
}

// TestDealerAndPlayers: the result names the dealer of the facts and the
// hand's players in seating order, the dealer of a four-player hand (who
// plays the Stock) among them.
func TestDealerAndPlayers(t *testing.T) {
	h := hand(t, mustJSON(t, exampleA), 9, "")
	h.Seated = []int64{5, 3, 1, 2, 4}
	res := gamestest.MustScore(t, Engine{}, h)
	if res.Dealer != exampleA.Dealer || !slices.Equal(res.Players, []int64{3, 1, 2, 4}) {
		t.Errorf("dealer %d, players %v; want %d, [3 1 2 4]", res.Dealer, res.Players, exampleA.Dealer)
	}
	three := Facts{Players: []PlayerFacts{sau(pl(1, 45, 3)), pl(2, 40, 3), pl(5, 25, 3)}, Dealer: 5, Stock: &StockFacts{CardPoints: 10, Tricks: 1}}
	res = gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, three), 9, ""))
	if res.Dealer != 5 || !slices.Equal(res.Players, []int64{1, 2, 5}) {
		t.Errorf("three players: dealer %d, players %v; want 5, [1 2 5]", res.Dealer, res.Players)
	}
}

func TestFirstHandState(t *testing.T) {
	for _, initial := range []string{"", "null", "{}"} {
		res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, exampleA), 9, initial))
		st := decodeStateT(t, res.State)
		if got, want := talliesOf(st), "1:0 2:23 3:0 4:0"; got != want {
			t.Errorf("state %q: tallies = %s, want %s", initial, got, want)
		}
		if st.Limit != 1509 || st.ToLimit[2] != score.Int(1486) || st.ToLimit[1] != score.Int(1509) {
			t.Errorf("state %q: limit %d, to_limit %v", initial, st.Limit, st.ToLimit)
		}
		want := "Durchgang 1, 1 Spiel; Grenze 1509 (1500 + 9.): {{player:1}} 0 (noch 1509), {{player:2}} 23 (noch 1486), {{player:3}} 0 (noch 1509), {{player:4}} 0 (noch 1509)"
		if st.Summary != want {
			t.Errorf("summary = %q, want %q", st.Summary, want)
		}
	}
}

// --- the threshold ---------------------------------------------------------

func TestThreshold(t *testing.T) {
	cases := []struct {
		name    string
		day     int
		state   string
		facts   Facts
		payers  []int64
		tallies string // after the hand
	}{
		{"9th: exactly 1509 pays nothing", 9, `{"tallies":{"2":"1486"}}`, exampleA, nil, "1:0 2:1509 3:0 4:0"},
		{"9th: 1509.5 pays", 9, `{"tallies":{"2":"2973/2"}}`, exampleA, []int64{2}, "1:0 2:0 3:0 4:0"},
		{"9th: 1510 pays", 9, `{"tallies":{"2":"1487","3":"700"}}`, exampleA, []int64{2}, "1:0 2:0 3:0 4:0"},
		{"31st: exactly 1531 pays nothing", 31, `{"tallies":{"2":"1508"}}`, exampleA, nil, "1:0 2:1531 3:0 4:0"},
		{"31st: 1532 pays", 31, `{"tallies":{"2":"1509"}}`, exampleA, []int64{2}, "1:0 2:0 3:0 4:0"},
		{"1st: a tally carried from the 31st pays though its player lost nothing", 1, `{"tallies":{"1":"1520"}}`, exampleA, []int64{1}, "1:0 2:0 3:0 4:0"},
		{
			"two players cross with one Durchmarsch and each pays", 9, `{"tallies":{"2":"1400","3":"1450","4":"1000","5":"300"}}`,
			Facts{Players: []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)}, Dealer: 4},
			[]int64{2, 3}, "1:0 2:0 3:0 4:0 5:0",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, tc.facts), tc.day, tc.state))
			st := decodeStateT(t, res.State)
			if got := talliesOf(st); got != tc.tallies {
				t.Errorf("tallies = %s, want %s", got, tc.tallies)
			}
			if tc.payers == nil {
				if len(res.Events) != 0 {
					t.Fatalf("events = %v, want none", res.Events)
				}
				return
			}
			if len(res.Events) != 1 {
				t.Fatalf("events = %v, want one payout", res.Events)
			}
			ev := res.Events[0]
			if ev.Type != "payout" || !slices.Equal(ev.Players, tc.payers) || ev.Amount != 500 {
				t.Errorf("event = %+v, want payout by %v of 500", ev, tc.payers)
			}
			if st.Round != 2 || st.Hands != 0 || st.LastPayout == nil || !slices.Equal(st.LastPayout.Payers, tc.payers) {
				t.Errorf("round %d, hands %d, last payout %+v", st.Round, st.Hands, st.LastPayout)
			}
			for _, id := range tc.payers {
				if st.Payouts[id] != 1 {
					t.Errorf("payouts[%d] = %d, want 1", id, st.Payouts[id])
				}
			}
			limit := score.Int(1500 + int64(tc.day))
			for id, d := range st.ToLimit {
				if d != limit {
					t.Errorf("to_limit[%d] = %s, want %s after the reset", id, d, limit)
				}
			}
		})
	}
}

func TestPayoutTextKitty(t *testing.T) {
	res := gamestest.MustScore(t, Engine{}, hand(t, mustJSON(t, exampleA), 9, `{"tallies":{"2":"2973/2"}}`))
	want := "{{player:2}} (1509,5 Minuspunkte) überschreitet die Grenze 1509 (1500 + 9.) und zahlt 5,00 € in die Kasse. Alle Stände beginnen wieder bei 0."
	if res.Events[0].Text != want {
		t.Errorf("text = %q, want %q", res.Events[0].Text, want)
	}
}

func TestPayoutToPlayers(t *testing.T) {
	h := hand(t, mustJSON(t, Facts{Players: []PlayerFacts{sau(pl(1, 120, 10)), pl(2, 0, 0), pl(3, 0, 0), pl(4, 0, 0)}, Dealer: 4}), 9,
		`{"tallies":{"2":"1400","3":"1450"}}`)
	h.Rules = gamestest.MustRules(t, Engine{}, "", `{"payout_target":"players","payout_cents":250}`)
	res := gamestest.MustScore(t, Engine{}, h)
	ev := res.Events[0]
	want := "{{player:2}} (1520 Minuspunkte) und {{player:3}} (1570 Minuspunkte) überschreiten die Grenze 1509 (1500 + 9.) und zahlen je 2,50 € an {{player:1}} und {{player:4}} (geteilt). Alle Stände beginnen wieder bei 0."
	if ev.Text != want || ev.Amount != 250 || !slices.Equal(ev.Recipients, []int64{1, 4}) {
		t.Errorf("event = %+v, want text %q, amount 250 and recipients [1 4]", ev, want)
	}
	st := decodeStateT(t, res.State)
	if st.LastPayout.Target != TargetPlayers || !slices.Equal(st.LastPayout.Recipients, []int64{1, 4}) {
		t.Errorf("last payout = %+v, want players target to [1 4]", st.LastPayout)
	}
}

// TestTwoSessions records gamestest's two Schwarze Sau evenings at a table
// (the 9th, limit 1509, then the 2nd of the next month, limit 1502) and
// checks the tallies computed by hand after each hand, the payout and the
// reset.
func TestTwoSessions(t *testing.T) {
	type step struct {
		facts   string
		points  string
		tallies string
	}
	five := []int64{1, 2, 3, 4, 5}
	session1 := []step{
		{gamestest.SchwarzeSauMarch9[0], "1:-960 2:0 3:0 4:0", "1:960 2:0 3:0 4:0"},
		{gamestest.SchwarzeSauMarch9[1], "1:0 2:-200 3:0 4:0", "1:960 2:200 3:0 4:0"},
		{gamestest.SchwarzeSauMarch9[2], "1:-120 2:-120 3:0 4:-120", "1:1080 2:320 3:0 4:120"},
	}
	session2 := []step{
		{gamestest.SchwarzeSauApril2[0], "1:-45 2:0 5:0", "1:1125 2:320 3:0 4:120 5:0"},
		{gamestest.SchwarzeSauApril2[1], "1:-188 3:0 4:0 5:0", "1:1313 2:320 3:0 4:120 5:0"},
		{gamestest.SchwarzeSauApril2[2], "1:0 2:-45/2 3:0 4:0", "1:1313 2:685/2 3:0 4:120 5:0"},
		{gamestest.SchwarzeSauApril2[3], "1:-192 2:0 3:0 4:0", "1:0 2:0 3:0 4:0 5:0"},
		{gamestest.SchwarzeSauApril2[4], "1:0 2:0 3:-41/2 4:0", "1:0 2:0 3:41/2 4:0 5:0"},
	}
	rules := gamestest.MustRules(t, Engine{}, "", "")
	var state json.RawMessage
	var events []score.Event
	play := func(seated []int64, session int64, date score.Date, steps []step) {
		for i, s := range steps {
			facts := json.RawMessage(gamestest.Seat(s.facts, five...))
			res := gamestest.MustScore(t, Engine{}, score.Hand{Seated: seated, Session: session, Date: date, Rules: rules, State: state, Facts: facts})
			if got := pointsOf(res); got != s.points {
				t.Errorf("session %d hand %d: points = %s, want %s", session, i+1, got, s.points)
			}
			if got := talliesOf(decodeStateT(t, res.State)); got != s.tallies {
				t.Errorf("session %d hand %d: tallies = %s, want %s", session, i+1, got, s.tallies)
			}
			events = append(events, res.Events...)
			state = res.State
		}
	}

	play([]int64{1, 2, 3, 4}, 10, score.Date{Year: 2025, Month: 3, Day: 9}, session1)
	st := decodeStateT(t, state)
	wantTo := map[int64]score.Points{1: score.Int(429), 2: score.Int(1189), 3: score.Int(1509), 4: score.Int(1389)}
	if st.Limit != 1509 || !mapsEqual(st.ToLimit, wantTo) || len(events) != 0 {
		t.Fatalf("after session 1: limit %d, to_limit %v, events %v", st.Limit, st.ToLimit, events)
	}

	play([]int64{1, 2, 3, 4, 5}, 11, score.Date{Year: 2025, Month: 4, Day: 2}, session2)
	if len(events) != 1 {
		t.Fatalf("events = %v, want exactly one payout", events)
	}
	wantText := "{{player:1}} (1505 Minuspunkte) überschreitet die Grenze 1502 (1500 + 2.) und zahlt 5,00 € in die Kasse. Alle Stände beginnen wieder bei 0."
	if ev := events[0]; ev.Type != "payout" || !slices.Equal(ev.Players, []int64{1}) || ev.Amount != 500 || ev.Text != wantText {
		t.Errorf("payout = %+v", ev)
	}
	st = decodeStateT(t, state)
	wantTo = map[int64]score.Points{1: score.Int(1502), 2: score.Int(1502), 3: score.Frac(2963, 2), 4: score.Int(1502), 5: score.Int(1502)}
	if st.Limit != 1502 || !mapsEqual(st.ToLimit, wantTo) {
		t.Errorf("limit %d, to_limit %v, want 1502 and %v", st.Limit, st.ToLimit, wantTo)
	}
	if st.Round != 2 || st.Hands != 1 || st.Payouts[1] != 1 || len(st.Payouts) != 1 {
		t.Errorf("round %d, hands %d, payouts %v", st.Round, st.Hands, st.Payouts)
	}
	lp := st.LastPayout
	if lp == nil || lp.Session != 11 || lp.Limit != 1502 || lp.Tallies[1] != score.Int(1505) || lp.Target != TargetKitty {
		t.Errorf("last payout = %+v", lp)
	}
	if !strings.Contains(st.Summary, "{{player:3}} 20,5 (noch 1481,5)") {
		t.Errorf("summary = %q, want {{player:3}} 20,5 (noch 1481,5)", st.Summary)
	}
}

func mapsEqual(a, b map[int64]score.Points) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// --- invalid hands ---------------------------------------------------------

func TestInvalidHands(t *testing.T) {
	four := `"dealer":4`
	ok := `{"player":1,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3}`
	cases := []struct {
		name, facts, field string
	}{
		{"points not adding to 120", `{"players":[` + ok + `,{"player":4,"card_points":5,"tricks":1}],` + four + `}`, "facts.players[].card_points"},
		{"tricks not adding to 10", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":2}],` + four + `}`, "facts.players[].tricks"},
		{"two Sau holders", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1,"pik_dame":true}],` + four + `}`, "facts.players[3].pik_dame"},
		{"no Sau holder", `{"players":[{"player":1,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":3},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":4,"tricks":1}],` + four + `}`, "facts.players[].pik_dame"},
		{"a doubling twice by one player", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"doublings":[{"call":"Kontra","player":2},{"call":"Re","player":2}]}`, "facts.doublings[1].player"},
		{"a four-player dealer with three tricks", `{"players":[{"player":1,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":2,"pik_dame":true},{"player":3,"card_points":30,"tricks":2},{"player":4,"card_points":4,"tricks":3}],` + four + `}`, "facts.players[3].tricks"},
		{"doublings out of order", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"doublings":[{"call":"Re","player":2}]}`, "facts.doublings[0].call"},
		{"five doublings", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"doublings":[{"call":"Kontra","player":1},{"call":"Re","player":2},{"call":"Sub","player":3},{"call":"Hirsch","player":4},{"call":"Kontra","player":1}]}`, "facts.doublings"},
		{"a doubling by a player not in the hand", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"doublings":[{"call":"Kontra","player":5}]}`, "facts.doublings[0].player"},
		{"a doubling without player", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"doublings":[{"call":"Kontra"}]}`, "facts.doublings[0].player"},
		{"two players", `{"players":[{"player":1,"card_points":60,"tricks":5,"pik_dame":true},{"player":2,"card_points":60,"tricks":5}],"dealer":1}`, "facts.players"},
		{"five players", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1},{"player":5,"card_points":0,"tricks":0}],` + four + `}`, "facts.players"},
		{"player not seated", `{"players":[{"player":9,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":4,"tricks":1}],` + four + `}`, "facts.players[0].player"},
		{"player named twice", `{"players":[` + ok + `,{"player":3,"card_points":4,"tricks":1}],"dealer":3}`, "facts.players[3].player"},
		{"player missing", `{"players":[` + ok + `,{"card_points":4,"tricks":1}],` + four + `}`, "facts.players[3].player"},
		{"tricks missing", `{"players":[` + ok + `,{"player":4,"card_points":4}],` + four + `}`, "facts.players[3].tricks"},
		{"card points missing", `{"players":[` + ok + `,{"player":4,"tricks":1}],` + four + `}`, "facts.players[3].card_points"},
		{"negative card points", `{"players":[` + ok + `,{"player":4,"card_points":-1,"tricks":1}],` + four + `}`, "facts.players[3].card_points"},
		{"card points over 120", `{"players":[` + ok + `,{"player":4,"card_points":121,"tricks":1}],` + four + `}`, "facts.players[3].card_points"},
		{"eleven tricks for one player", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":11}],"dealer":1}`, "facts.players[3].tricks"},
		{"card points without a trick", `{"players":[{"player":1,"card_points":46,"tricks":4},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":4,"tricks":0}],` + four + `}`, "facts.players[3].card_points"},
		{"Sau holder without a trick", `{"players":[{"player":1,"card_points":46,"tricks":4},{"player":2,"card_points":44,"tricks":3},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":0,"tricks":0,"pik_dame":true}],` + four + `}`, "facts.players[3].pik_dame"},
		{"Sau holder with 2 card points", `{"players":[{"player":1,"card_points":48,"tricks":3},{"player":2,"card_points":40,"tricks":3},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":2,"tricks":1,"pik_dame":true}],` + four + `}`, "facts.players[3].card_points"},
		{"dealer missing", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}]}`, "facts.dealer"},
		{"dealer not in the hand", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],"dealer":5}`, "facts.dealer"},
		{"a Stock with four players", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"stock":{"card_points":0,"tricks":0}}`, "facts.stock"},
		{"no Stock with three players", `{"players":[{"player":1,"card_points":50,"tricks":4},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3}],"dealer":3}`, "facts.stock"},
		{"a Stock with three tricks", `{"players":[{"player":1,"card_points":50,"tricks":3},{"player":2,"card_points":40,"tricks":2,"pik_dame":true},{"player":3,"card_points":20,"tricks":2}],"dealer":3,"stock":{"card_points":10,"tricks":3}}`, "facts.stock.tricks"},
		{"Stock tricks missing", `{"players":[{"player":1,"card_points":50,"tricks":4},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3}],"dealer":3,"stock":{"card_points":0}}`, "facts.stock.tricks"},
		{"Sau by the Stock and a player", `{"players":[{"player":1,"card_points":50,"tricks":3},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":20,"tricks":2}],"dealer":3,"stock":{"card_points":10,"tricks":2,"pik_dame":true}}`, "facts.stock.pik_dame"},
		{"Verstoß by a player not in the hand", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"verstoss_by":5}`, "facts.verstoss_by"},
		{"Verstoß with more than 120 card points", `{"players":[` + ok + `,{"player":4,"card_points":10,"tricks":1}],` + four + `,"verstoss_by":1}`, "facts.players[].card_points"},
		{"Verstoß with more than 10 tricks", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":2}],` + four + `,"verstoss_by":1}`, "facts.players[].tricks"},
		{"unknown field", `{"players":[` + ok + `,{"player":4,"card_points":4,"tricks":1}],` + four + `,"bock":true}`, "facts.bock"},
		{"tricks as a string", `{"players":[{"player":1,"card_points":46,"tricks":"3"}],` + four + `}`, "facts.players[0].tricks"},
		{"not JSON", `{"players":`, "facts"},
		{"two JSON values", `{} {}`, "facts"},
		{"empty", ``, "facts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Engine{}.Score(hand(t, json.RawMessage(tc.facts), 9, ""))
			gamestest.WantViolation(t, err, tc.field)
		})
	}
}

func TestViolationRuleSentences(t *testing.T) {
	facts := `{"players":[{"player":1,"card_points":46,"tricks":3},{"player":2,"card_points":40,"tricks":3,"pik_dame":true},{"player":3,"card_points":30,"tricks":3},{"player":4,"card_points":3,"tricks":1}],"dealer":4}`
	_, err := Engine{}.Score(hand(t, json.RawMessage(facts), 9, ""))
	if err == nil || err.Error() != "facts.players[].card_points: card points add up to 119, need 120" {
		t.Errorf("err = %v", err)
	}
}

func TestInvalidHandContext(t *testing.T) {
	h := hand(t, mustJSON(t, exampleA), 0, "")
	_, err := Engine{}.Score(h)
	gamestest.WantViolation(t, err, "date.day")

	h = hand(t, mustJSON(t, exampleA), 9, "")
	h.Rules = json.RawMessage(`{"preset":"standard","threshold_base":1500,"payout_target":"pot","payout_cents":500}`)
	_, err = Engine{}.Score(h)
	gamestest.WantViolation(t, err, "rules.payout_target")

	h.Rules = json.RawMessage(`nonsense`)
	_, err = Engine{}.Score(h)
	gamestest.WantViolation(t, err, "rules")
}

func TestCorruptState(t *testing.T) {
	for _, st := range []string{`{"tallies":{"2":"-5"}}`, `{"tallies":{"2":"1/3"}}`, `{"tallies":{"2":"9223372036854775807"}}`, `[1]`} {
		_, err := Engine{}.Score(hand(t, mustJSON(t, exampleA), 9, st))
		if err == nil {
			t.Errorf("state %s accepted", st)
		}
	}
}

// --- rules -----------------------------------------------------------------

func TestRules(t *testing.T) {
	got, err := Engine{}.Rules("", nil)
	if err != nil || string(got) != `{"preset":"standard","threshold_base":1500,"payout_target":"kitty","payout_cents":500}` {
		t.Errorf("default rules = %s, %v", got, err)
	}
	got, err = Engine{}.Rules("standard", json.RawMessage(`{"threshold_base":1000,"payout_target":"players","payout_cents":200}`))
	if err != nil || string(got) != `{"preset":"standard","threshold_base":1000,"payout_target":"players","payout_cents":200}` {
		t.Errorf("overridden rules = %s, %v", got, err)
	}
	bad := []struct{ preset, overrides, field string }{
		{"", `{"bock":2}`, "options.bock"},
		{"", `{"threshold_base":0}`, "options.threshold_base"},
		{"", `{"threshold_base":100001}`, "options.threshold_base"},
		{"", `{"payout_target":"pot"}`, "options.payout_target"},
		{"", `{"payout_cents":0}`, "options.payout_cents"},
		{"", `{"payout_cents":"5"}`, "options.payout_cents"},
		{"turnier", `{}`, "preset"},
	}
	for _, tc := range bad {
		_, err := Engine{}.Rules(tc.preset, json.RawMessage(tc.overrides))
		gamestest.WantViolation(t, err, tc.field)
	}
}

func TestThresholdBaseOption(t *testing.T) {
	h := hand(t, mustJSON(t, exampleB), 9, "")
	h.Rules = gamestest.MustRules(t, Engine{}, "", `{"threshold_base":400}`)
	res := gamestest.MustScore(t, Engine{}, h) // 416 > 409
	if len(res.Events) != 1 || !slices.Equal(res.Events[0].Players, []int64{1}) {
		t.Errorf("events = %v, want player 1 paying at limit 409", res.Events)
	}
}

func TestEngineIdentity(t *testing.T) {
	e := Engine{}
	if e.Name() != "schwarze_sau" || e.ZeroSum() {
		t.Errorf("name %q zero-sum %v", e.Name(), e.ZeroSum())
	}
}

func TestFormatPoints(t *testing.T) {
	cases := map[score.Points]string{
		score.Int(23): "23", score.Frac(45, 2): "22,5", score.Frac(-45, 2): "-22,5",
		score.Frac(-1, 2): "-0,5", score.Frac(1, 3): "1/3",
	}
	for p, want := range cases {
		if got := formatPoints(p); got != want {
			t.Errorf("formatPoints(%s) = %q, want %q", p, got, want)
		}
	}
}

// TestFragmentExample scores the SchwarzeSauFacts example of openapi.yaml.
func TestFragmentExample(t *testing.T) {
	raw, err := os.ReadFile("../../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, schema, _ := strings.Cut(string(raw), "    SchwarzeSauFacts:")
	var example string
	for line := range strings.SplitSeq(schema, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(line), "example: "); ok {
			example = s
			break
		}
	}
	if example == "" {
		t.Fatal("no SchwarzeSauFacts example in openapi.yaml")
	}
	res := gamestest.MustScore(t, Engine{}, hand(t, json.RawMessage(example), 9, ""))
	if got := pointsOf(res); got != "1:-416 2:0 3:0 4:0" {
		t.Errorf("example points = %s", got)
	}
}

// --- fuzz and benchmark ----------------------------------------------------

func FuzzScore(f *testing.F) {
	for _, tc := range scoreCases {
		f.Add([]byte(mustJSON(f, tc.facts)))
	}
	f.Add([]byte(`{"players":[{"player":1,"card_points":46,"tricks":3}],"dealer":4}`))
	f.Add([]byte(`{"players":[{"player":1,"card_points":0,"tricks":0},{"player":2,"card_points":0,"tricks":0},{"player":3,"card_points":0,"tricks":0}],"dealer":1,"stock":{"card_points":0,"tricks":0},"verstoss_by":2}`))
	rules := gamestest.MustRules(f, Engine{}, "", "")
	state := json.RawMessage(`{"tallies":{"1":"1400","2":"2973/2","3":"3","5":"1509"}}`)
	f.Fuzz(func(t *testing.T, facts []byte) {
		h := score.Hand{Seated: seatedFive, Session: 7, Date: score.Date{Year: 2025, Month: 3, Day: 9}, Rules: rules, State: state, Facts: facts}
		res, err := Engine{}.Score(h)
		if err != nil {
			var v *score.Violation
			if !errors.As(err, &v) {
				t.Fatalf("err %v is not a *score.Violation", err)
			}
			return
		}
		checkAccepted(t, res)
	})
}

// checkAccepted asserts what holds for every accepted hand: 3 or 4 players,
// only minus points and at most 120 x 16 each, no player with minus points
// among the winners, and no tally left above the limit.
func checkAccepted(t *testing.T, res score.Result) {
	if n := len(res.Points); n != 3 && n != 4 {
		t.Fatalf("%d players scored", n)
	}
	for _, p := range res.Points {
		if p.Points.Sign() > 0 || p.Points.Cmp(score.Int(-1920)) < 0 {
			t.Fatalf("player %d scored %s", p.Player, p.Points)
		}
		if p.Points.Sign() < 0 && slices.Contains(res.Winners, p.Player) {
			t.Fatalf("player %d lost %s but is a winner", p.Player, p.Points)
		}
	}
	if len(res.Winners) == 0 || len(res.Winners) >= len(res.Points)+1 {
		t.Fatalf("winners %v of %d players", res.Winners, len(res.Points))
	}
	st := decodeStateT(t, res.State)
	for id, tally := range st.Tallies {
		if tally.Cmp(score.Int(st.Limit)) > 0 || tally.Sign() < 0 {
			t.Fatalf("tally of %d is %s with limit %d", id, tally, st.Limit)
		}
	}
}

func BenchmarkScore(b *testing.B) {
	rules := gamestest.MustRules(b, Engine{}, "", "")
	facts := mustJSON(b, exampleB)
	state := json.RawMessage(`{"tallies":{"1":"400","2":"2973/2","3":"30","4":"0"},"round":1,"hands":3}`)
	h := score.Hand{Seated: []int64{1, 2, 3, 4}, Session: 1, Date: score.Date{Year: 2025, Month: 3, Day: 9}, Rules: rules, State: state, Facts: facts}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Engine{}).Score(h); err != nil {
			b.Fatal(err)
		}
	}
}

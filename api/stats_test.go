package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// statsClub records a Doppelkopf evening of four hands (the first four of
// gamestest.BockEvening, whose results are known), a Doppelkopf hand at
// a table of five where P5 sits out, and a Schwarze Dame evening, through
// the API, and closes the sessions.
//
//	D1 2026-03-12   P1   P2   P3   P4   winners
//	1 Re P1+P2 150   1    1   -1   -1   P1 P2
//	2 Re P1+P3 120  -2    2   -2    2   P2 P4   (Kontra wins; Bock follows)
//	3 Re P2+P3 160  -8    8    8   -8   P2 P3   (Re said, Bock)
//	4 Damensolo P4  -1   -1   -1    3   P4      (Bock round goes on; solos x3, no Bock)
//	D2 2026-03-13 at five, P5 deals and sits out:
//	1 Re P1+P2 150   1    1   -1   -1   P1 P2
//	SD 2026-04-02: worked example A twice: +20 -10 +3 -13, winners P1 P3
type statsClub struct {
	*gameTable
	d2, sd int64 // the other tables
}

func newStatsClub(t *testing.T) *statsClub {
	t.Helper()
	g := newGameTable(t, "doppelkopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4)
	for _, facts := range gamestest.BockEvening[:4] {
		g.record(facts)
	}
	g.close()
	c := &statsClub{gameTable: g}

	other := func(name, game string, date string, seats []int64, hands ...string) int64 {
		tbl := g.e.must(201, "POST", "/v1/tables", g.e.admin, map[string]any{"name": name, "game": game, "stake_cents_per_point": "1"})
		id := int64(tbl["id"].(float64))
		s := g.e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", id), g.e.admin, map[string]any{"date": date, "player_ids": seats})
		for i, facts := range hands {
			g.e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", id), g.e.admin,
				map[string]any{"session_id": s["id"], "number": i + 1, "facts": g.facts(facts)})
		}
		g.e.must(200, "POST", fmt.Sprintf("/v1/sessions/%v/close", s["id"]), g.e.admin, nil)
		return id
	}
	c.d2 = other("Fünferrunde", "doppelkopf", "2026-03-13", g.seats(1, 2, 3, 4, 5),
		`{"game":"normal","dealer":P5,"re":{"players":[P1,P2],"augen":150}}`)
	sd := `{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":1,"hearts":[11,12]}]}`
	c.sd = other("Dame", "schwarze_dame", "2026-04-02", g.seats(1, 2, 3, 4), sd, sd)
	return c
}

func (c *statsClub) get(path string, query ...string) map[string]any {
	c.t.Helper()
	q := url.Values{}
	for i := 0; i+1 < len(query); i += 2 {
		q.Add(query[i], c.want(query[i+1]))
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return c.e.must(200, "GET", c.want(path), c.e.admin, nil)
}

func TestPlayerStatsThroughTheAPI(t *testing.T) {
	c := newStatsClub(t)
	p2 := c.get("/v1/stats/players/P2")
	if got := fmt.Sprintf("%v %v %v %v %v %v %v %v %v", p2["sessions"], p2["hands"], p2["hands_won"], p2["hands_lost"], p2["win_rate_permille"],
		p2["points"], p2["points_per_hand"], p2["longest_winning_streak"], p2["longest_losing_streak"]); got != "3 7 4 3 571 -9 -9/7 3 2" {
		// D1: W W W L (10 points), D2: W (1), SD: L L (-20).
		t.Errorf("P2: sessions hands won lost rate points per-hand streaks = %s", got)
	}
	money := p2["money"].(map[string]any)
	if money["sessions"] != 3.0 || money["lost_cents"] != 20.0 {
		t.Errorf("P2's money %v: three settled sessions, 20 cents lost at Schwarze Dame (stake 1)", money)
	}
	if best := p2["best_evening"].(map[string]any); best["date"] != "2026-03-12" || best["points"] != "10" {
		t.Errorf("P2's best evening %v", best)
	}
	games := p2["games"].([]any)
	if len(games) != 2 {
		t.Fatalf("P2 games %v", games)
	}
	dk := games[0].(map[string]any)
	counters := dk["counters"].(map[string]any)
	if dk["game"] != "doppelkopf" || dk["hands"] != 5.0 || counters["re_said"] != 1.0 || counters["re_said_won"] != 1.0 || counters["bock_game"] == nil {
		t.Errorf("P2's Doppelkopf: %v", dk)
	}
	sd := games[1].(map[string]any)["counters"].(map[string]any)
	if sd["pik_dame"] != 2.0 {
		t.Errorf("P2 took the Pik-Dame twice: %v", sd)
	}
	p4 := c.get("/v1/stats/players/P4", "game", "doppelkopf")
	counters = p4["games"].([]any)[0].(map[string]any)["counters"].(map[string]any)
	if counters["solo_played_damensolo"] != 1.0 || counters["solo_won_damensolo"] != 1.0 {
		t.Errorf("P4's Damensolo is not counted: %v", counters)
	}
	p5 := c.get("/v1/stats/players/P5")
	if p5["hands"] != 0.0 || p5["hands_sat_out"] != 1.0 || p5["sessions"] != 0.0 || p5["best_evening"] != nil {
		t.Errorf("P5 sat out the one hand of his evening: %v", p5)
	}

	// Filters combined: the first Doppelkopf evening only.
	f := c.get("/v1/stats/players/P2", "from", "2026-03-01", "to", "2026-03-12", "game", "doppelkopf", "table_id", fmt.Sprint(c.id))
	if f["hands"] != 4.0 || f["points"] != "10" || f["longest_winning_streak"] != 3.0 {
		t.Errorf("P2 on the 12th: %v", f)
	}
	if fl := f["filter"].(map[string]any); fl["from"] != "2026-03-01" || fl["game"] != "doppelkopf" || fl["table_id"] != float64(c.id) {
		t.Errorf("the filter is not echoed: %v", fl)
	}
	for _, bad := range []string{"from=2026-13-01", "game=skat", "table_id=0", "from=2026-03-02&to=2026-03-01"} {
		c.e.must(422, "GET", c.want("/v1/stats/players/P2?"+bad), c.e.admin, nil)
	}
	c.e.must(404, "GET", c.want("/v1/stats/players/P2?table_id=999999"), c.e.admin, nil)
	c.e.must(404, "GET", "/v1/stats/players/999999", c.e.admin, nil)
}

func TestPartnersLeaderboardAndSeriesThroughTheAPI(t *testing.T) {
	c := newStatsClub(t)
	partners := c.get("/v1/stats/players/P2/partners", "game", "doppelkopf")["partners"].([]any)
	var got []string
	for _, p := range partners {
		m := p.(map[string]any)
		got = append(got, fmt.Sprintf("%s %v/%v/%v", m["name"], m["hands"], m["partner_hands"], m["partner_won"]))
	}
	// P1: partners in D1 hand 1 (won) and 4 (Kontra against P4's solo, lost)
	// and in D2 (won); P3: hands 3 (won) and 4; P4: hand 2 (won); P5 sat
	// out his only hand.
	if strings.Join(got, ", ") != "Anna 5/3/2, Clara 5/2/1, Dieter 5/1/1" {
		t.Errorf("P2's Doppelkopf partners: %s", strings.Join(got, ", "))
	}
	h := c.get("/v1/stats/players/P2/versus/P4")
	if got := fmt.Sprintf("%v %v %v %v %v", h["hands"], h["as_partners"], h["as_opponents"], h["points"], h["other_points"]); got !=
		"7 map[hands:1 lost:0 won:1] map[hands:6 lost:1 won:3] -9 -31" {
		t.Errorf("P2 against P4: %s", got)
	}
	c.e.must(422, "GET", c.want("/v1/stats/players/P2/versus/P2"), c.e.admin, nil)

	lb := c.get("/v1/stats/leaderboard", "by", "win_rate", "min_hands", "5", "from", "2026-01-01", "to", "2026-12-31", "mix", "true")
	var ranks []string
	for _, e := range lb["entries"].([]any) {
		m := e.(map[string]any)
		ranks = append(ranks, fmt.Sprintf("%v %s %v/%v", m["rank"], m["name"], m["hands_won"], m["hands"]))
	}
	// P1: W L L L | W | W W = 4/7; P2: W W W L | W | L L = 4/7;
	// P3: L L W L | L | W W = 3/7; P4: L W L W | L | L L = 2/7; P5 no hand.
	if strings.Join(ranks, ", ") != "1 Anna 4/7, 1 Bernd 4/7, 3 Clara 3/7, 4 Dieter 2/7" {
		t.Errorf("win rate leaderboard: %s", strings.Join(ranks, ", "))
	}
	if lb["min_hands"] != 5.0 || lb["by"] != "win_rate" || lb["mix"] != true {
		t.Errorf("leaderboard header %v %v %v", lb["by"], lb["min_hands"], lb["mix"])
	}
	money := c.get("/v1/stats/leaderboard", "by", "money", "limit", "1", "mix", "true")["entries"].([]any)
	if len(money) != 1 || money[0].(map[string]any)["name"] != "Anna" {
		t.Errorf("the richest: %v", money)
	}
	c.e.must(422, "GET", "/v1/stats/leaderboard?by=luck", c.e.admin, nil)
	c.e.must(422, "GET", "/v1/stats/leaderboard?limit=0", c.e.admin, nil)

	series := c.get("/v1/stats/series", "player_id", "P1", "player_id", "P5", "game", "doppelkopf")["series"].([]any)
	if len(series) != 2 {
		t.Fatalf("series %v", series)
	}
	var pts []string
	for _, p := range series[0].(map[string]any)["points"].([]any) {
		m := p.(map[string]any)
		pts = append(pts, fmt.Sprintf("%s %s=%s", m["date"], m["points"], m["cumulative"]))
	}
	if strings.Join(pts, ", ") != "2026-03-12 -10=-10, 2026-03-13 1=-9" {
		t.Errorf("P1's Doppelkopf series: %s", strings.Join(pts, ", "))
	}
	c.e.must(422, "GET", "/v1/stats/series?player_id=abc", c.e.admin, nil)
}

// TestTheLeaderboardRanksOneGame: without game, a period of Doppelkopf
// and Schwarze Dame is refused naming game; one game, a table, a period of
// one game or mix=true are ranked.
func TestTheLeaderboardRanksOneGame(t *testing.T) {
	c := newStatsClub(t)
	for _, path := range []string{"/v1/stats/leaderboard", "/v1/stats/leaderboard?from=2026-03-01&to=2026-04-30", "/v1/stats/leaderboard?mix=false"} {
		p := c.e.must(422, "GET", path, c.e.admin, nil)
		if p["field"] != "game" || !strings.Contains(p["detail"].(string), "mix=true") || !strings.Contains(p["detail"].(string), "doppelkopf, schwarze_dame") {
			t.Errorf("%s: %v", path, p)
		}
	}
	points := func(query string) string {
		t.Helper()
		lb := c.e.must(200, "GET", "/v1/stats/leaderboard?"+query, c.e.admin, nil)
		var out []string
		for _, e := range lb["entries"].([]any) {
			m := e.(map[string]any)
			out = append(out, fmt.Sprintf("%s %s", m["name"], m["points"]))
		}
		return strings.Join(out, ", ")
	}
	dame := points("game=schwarze_dame")
	for query, want := range map[string]string{
		"game=schwarze_dame":             dame,
		fmt.Sprintf("table_id=%d", c.sd): dame,
		"from=2026-04-01":                dame,
		"game=doppelkopf":                points("to=2026-03-31"),
	} {
		if got := points(query); got != want || got == "" {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	if mixed := points("mix=true"); mixed == dame || mixed == points("game=doppelkopf") {
		t.Errorf("mix=true ranks one game: %s", mixed)
	}
}

func TestStatsOfAnotherClubAreNotFound(t *testing.T) {
	c := newStatsClub(t)
	_, other, err := c.e.store.CreateClub(t.Context(), ledger.NewClub{Name: "Skatfreunde Nord"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/stats/players/P1", "/v1/stats/players/P1/partners", "/v1/stats/players/P1/versus/P2",
		"/v1/stats/series?player_id=P1", "/v1/stats/players/P1?table_id=" + fmt.Sprint(c.id)} {
		c.e.must(404, "GET", c.want(path), other, nil)
	}
	if e := c.e.must(200, "GET", "/v1/stats/leaderboard", other, nil)["entries"].([]any); len(e) != 0 {
		t.Errorf("another club's leaderboard lists %d players", len(e))
	}
	if s := c.e.must(200, "GET", "/v1/stats/series", other, nil)["series"].([]any); len(s) != 0 {
		t.Errorf("another club's series lists %d players", len(s))
	}
	reader := c.e.must(201, "POST", "/v1/keys", c.e.admin, map[string]any{"role": "reader"})["secret"].(string)
	c.e.must(200, "GET", c.want("/v1/stats/players/P1"), reader, nil)
}

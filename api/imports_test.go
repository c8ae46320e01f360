package api_test

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

var oldMembers = []string{"Anna", "Bernd", "Jürgen", "Günther", "Eva", "Frieda", "Gustl", "Hanne", "Ingo", "Käthe"}

// oldLists is a club's ten years (2016–2025) of old lists, every Thursday
// two tables of four: perEvening one row per player and evening,
// perHand one row per hand; totals2019 each member's points of 2019.
type oldLists struct {
	perEvening, perHand string
	evenings, hands     int
	totals2019          map[string]*big.Rat
}

func tenYearsOfLists() oldLists {
	rng := rand.New(rand.NewPCG(10, 30))
	l := oldLists{totals2019: map[string]*big.Rat{}}
	var pe, ph strings.Builder
	pe.WriteString("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\r\n")
	ph.WriteString("Datum;Spiel;Tisch;" + strings.Join(oldMembers, ";") + "\r\n")
	for d := time.Date(2016, 1, 7, 0, 0, 0, 0, time.UTC); d.Year() < 2026; d = d.AddDate(0, 0, 7) {
		seats := rng.Perm(len(oldMembers))
		for table := range 2 {
			n := 16 + rng.IntN(9)
			sums := map[int]int64{}
			for range n {
				row := make([]string, len(oldMembers))
				for _, p := range seats[table*4 : table*4+4] {
					pts := int64(rng.IntN(41) - 20)
					row[p] = fmt.Sprint(pts)
					sums[p] += pts
				}
				fmt.Fprintf(&ph, "%s;Doppelkopf;%d;%s\r\n", d.Format("02.01.2006"), table+1, strings.Join(row, ";"))
			}
			for _, p := range seats[table*4 : table*4+4] {
				// Halves, as a list with a half point writes them: "12,5".
				pts := new(big.Rat).Add(big.NewRat(sums[p], 1), big.NewRat(int64(p%2), 2))
				fmt.Fprintf(&pe, "%s;Doppelkopf;%d;%s;%s;%d\r\n", d.Format("02.01.2006"), table+1, oldMembers[p],
					strings.TrimSuffix(strings.Replace(pts.FloatString(1), ".", ",", 1), ",0"), n)
				if d.Year() == 2019 {
					if l.totals2019[oldMembers[p]] == nil {
						l.totals2019[oldMembers[p]] = new(big.Rat)
					}
					l.totals2019[oldMembers[p]].Add(l.totals2019[oldMembers[p]], pts)
				}
				l.hands += n
			}
			l.evenings++
		}
	}
	l.perEvening, l.perHand = pe.String(), ph.String()
	return l
}

func latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, byte(r))
	}
	return out
}

func importBody(raw []byte, dryRun bool) map[string]any {
	return map[string]any{"file_name": "alte-listen.csv", "dry_run": dryRun, "content_base64": base64.StdEncoding.EncodeToString(raw)}
}

// Ten years of old lists: the dry run shows and stores nothing, the
// import stores every evening once (the same file again stores nothing),
// existing members are matched by name, and the imported evenings count
// in the season table, marked as imported.
func TestImportTenYearsOfOldLists(t *testing.T) {
	e := newEnv(t)
	anna := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": "anna"}) // matched whatever the case
	l := tenYearsOfLists()
	raw := latin1(l.perEvening) // Windows-1252, as an old Excel saves it
	dry := e.must(200, "POST", "/v1/imports", e.admin, importBody(raw, true))
	if dry["evenings"] != float64(l.evenings) || dry["stored"] != false || dry["encoding"] != "Windows-1252" || len(dry["new_players"].([]any)) != 9 {
		t.Fatalf("dry run = evenings %v stored %v encoding %v new %d; want %d, false, Windows-1252, 9 new", dry["evenings"], dry["stored"], dry["encoding"], len(dry["new_players"].([]any)), l.evenings)
	}
	if m := dry["players"].([]any); len(m) != 1 || m[0].(map[string]any)["player_id"] != anna["id"] {
		t.Errorf("matched = %v, want Anna as player %v", m, anna["id"])
	}
	if n := e.count("imported_evenings") + e.count("imports"); n != 0 || e.count("players") != 1 {
		t.Fatalf("the dry run stored %d rows and %d players", n, e.count("players")-1)
	}
	stored := e.must(201, "POST", "/v1/imports", e.admin, importBody(raw, false))
	if stored["stored"] != true || e.count("imported_evenings") != l.evenings || e.count("imported_lines") != 4*l.evenings || e.count("players") != 10 {
		t.Fatalf("import: %v; %d evenings, %d lines, %d players stored", stored["stored"], e.count("imported_evenings"), e.count("imported_lines"), e.count("players"))
	}
	again := e.must(200, "POST", "/v1/imports", e.admin, importBody(raw, false))
	if again["already_imported"] != true || again["import_id"] != stored["import_id"] || e.count("imported_evenings") != l.evenings {
		t.Errorf("the same file again: %v, %d evenings; want it stored once", again, e.count("imported_evenings"))
	}
	// The other shape in the other encoding, a file a year (ten years of
	// hands exceed a request's 1 MiB), reads to the same evenings and hands.
	rows := strings.Split(strings.TrimSuffix(l.perHand, "\r\n"), "\r\n")
	evenings, hands := 0, 0
	for year := 2016; year <= 2025; year++ {
		file := []string{rows[0]}
		for _, r := range rows[1:] {
			if strings.HasPrefix(r[6:10], fmt.Sprint(year)) {
				file = append(file, r)
			}
		}
		other := e.must(200, "POST", "/v1/imports", e.admin, importBody([]byte("\ufeff"+strings.Join(file, "\r\n")), true))
		if other["shape"] != "per_hand" || other["encoding"] != "UTF-8" {
			t.Errorf("%d: read as %v, %v; want per_hand, UTF-8", year, other["shape"], other["encoding"])
		}
		evenings += int(other["evenings"].(float64))
		hands += int(other["hands"].(float64))
	}
	if evenings != l.evenings || hands != l.hands {
		t.Errorf("per hand, UTF-8: %d evenings, %d hands; want %d and %d", evenings, hands, l.evenings, l.hands)
	}

	rules := map[string]any{"period": map[string]any{"kind": "year", "year": 2019}, "games": []string{"doppelkopf"},
		"unit": map[string]any{"kind": "points"}, "aggregate": map[string]any{"kind": "sum"}, "missed": map[string]any{"kind": "ignored"}}
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "saison-2019", "rules": rules})
	table := e.must(200, "GET", "/v1/seasons/saison-2019", e.admin, nil)
	if table["imported_evenings"] != float64(len(table["offered"].([]any))) || len(table["offered"].([]any)) != 52 {
		t.Errorf("2019: %v offered, %v imported; want 52 Thursdays, all imported", len(table["offered"].([]any)), table["imported_evenings"])
	}
	for _, r := range table["rows"].([]any) {
		row := r.(map[string]any)
		name := row["name"].(string)
		if name == "anna" {
			name = "Anna"
		}
		if row["total_points"] != l.totals2019[name].RatString() || row["imported"] != row["attended"] {
			t.Errorf("2019: %s has %v points (%v of %v evenings imported), want %s, all imported", name, row["total_points"], row["imported"], row["attended"], l.totals2019[name].RatString())
		}
	}
}

// The imported evenings feed the leaderboard, which says how many of its
// hands were imported, and no fact-based counter.
func TestImportedEveningsInTheLeaderboard(t *testing.T) {
	e := newEnv(t)
	l := tenYearsOfLists()
	e.must(201, "POST", "/v1/imports", e.admin, importBody([]byte(l.perEvening), false))
	lb := e.must(200, "GET", "/v1/stats/leaderboard?game=doppelkopf&from=2019-01-01&to=2019-12-31&min_hands=0", e.admin, nil)
	hands := 0
	for _, x := range lb["entries"].([]any) {
		entry := x.(map[string]any)
		name := entry["name"].(string)
		if entry["points"] != l.totals2019[name].RatString() || entry["imported_hands"] != entry["hands"] || entry["hands_won"] != float64(0) {
			t.Errorf("2019: %s has %v points, %v of %v hands imported, %v won; want %s, all imported, none won",
				name, entry["points"], entry["imported_hands"], entry["hands"], entry["hands_won"], l.totals2019[name].RatString())
		}
		hands += int(entry["hands"].(float64))
	}
	if lb["imported_hands"] != float64(hands) || hands == 0 {
		t.Errorf("the leaderboard says %v imported hands of %d", lb["imported_hands"], hands)
	}
	// Points per hand over the years: the series says which hands were imported.
	series := e.must(200, "GET", "/v1/stats/series?from=2019-01-01&to=2019-12-31", e.admin, nil)["series"].([]any)
	for _, sr := range series {
		for _, pt := range sr.(map[string]any)["points"].([]any) {
			if p := pt.(map[string]any); p["imported_hands"] != p["hands"] || p["hands"] == float64(0) {
				t.Errorf("series point %v: want every hand imported", p)
			}
		}
	}
	if len(series) != len(oldMembers) {
		t.Errorf("%d series of 2019, want %d", len(series), len(oldMembers))
	}
	// A player known only from the old lists has no statistics of facts.
	anna := lb["entries"].([]any)[0].(map[string]any)["player_id"]
	ps := e.must(200, "GET", fmt.Sprintf("/v1/stats/players/%v", anna), e.admin, nil)
	if ps["hands"] != float64(0) || len(ps["games"].([]any)) != 0 {
		t.Errorf("player statistics of an imported-only player: %v hands, games %v; want none (no facts)", ps["hands"], ps["games"])
	}
}

// A file with one bad line stores nothing, and the problem names the
// line and column in German.
func TestImportABadLineStoresNothing(t *testing.T) {
	e := newEnv(t)
	l := tenYearsOfLists()
	lines := strings.Split(l.perEvening, "\r\n")
	f := strings.Split(lines[1233], ";")
	f[4] = "1.234"
	lines[1233] = strings.Join(f, ";")
	res := e.call("POST", "/v1/imports", e.admin, importBody([]byte(strings.Join(lines, "\r\n")), false))
	p := res.json(t)
	if res.status != 422 || p["field"] != "content_base64" || !strings.HasPrefix(p["rule"].(string), "Zeile 1234, Spalte 5 (Punkte): „1.234“ ist keine Zahl") {
		t.Errorf("a bad line: %d %v, want 422 naming Zeile 1234, Spalte 5", res.status, p)
	}
	if ls, _ := p["lines"].([]any); len(ls) != 1 || ls[0].(map[string]any)["line"] != float64(1234) || ls[0].(map[string]any)["column"] != float64(5) {
		t.Errorf("lines = %v, want line 1234, column 5", p["lines"])
	}
	for _, table := range []string{"imports", "imported_evenings", "imported_lines", "players"} {
		if n := e.count(table); n != 0 {
			t.Errorf("%d rows in %s from a refused file", n, table)
		}
	}
}

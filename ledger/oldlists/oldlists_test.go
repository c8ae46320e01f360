package oldlists

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func games(name string) string {
	switch strings.ToLower(name) {
	case "doppelkopf":
		return "doppelkopf"
	case "schwarze dame", "schwarze_dame":
		return "schwarze_dame"
	}
	return ""
}

var today = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

var members = []string{"Anna", "Bernd", "Jürgen", "Günther", "Eva", "Frieda", "Gustl", "Hanne", "Ingo", "Käthe"}

// history is a club's ten years as the per-hand shape and the
// per-evening shape, with each player's expected total (exact).
type history struct {
	perHand, perEvening string
	totals              map[string]*big.Rat
	hands               map[string]int
	evenings            int
}

// tenYears generates 2016–2025: every Thursday two tables (16–24 hands,
// four of the members each), points in halves sometimes ("12,5").
func tenYears() history {
	rng := rand.New(rand.NewPCG(30, 2026))
	h := history{totals: map[string]*big.Rat{}, hands: map[string]int{}}
	var ph, pe strings.Builder
	ph.WriteString("Datum;Spiel;Tisch;" + strings.Join(members, ";") + "\r\n")
	pe.WriteString("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\r\n")
	for d := time.Date(2016, 1, 7, 0, 0, 0, 0, time.UTC); d.Year() < 2026; d = d.AddDate(0, 0, 7) {
		seats := rng.Perm(len(members))
		for table := range 2 {
			players := seats[table*4 : table*4+4]
			n := 16 + rng.IntN(9)
			evening := map[int]*big.Rat{}
			for range n {
				row := make([]string, len(members))
				for _, p := range players {
					pts := big.NewRat(int64(rng.IntN(41)-20), 1)
					cell := pts.RatString()
					if rng.IntN(10) == 0 {
						pts.Add(pts, big.NewRat(1, 2))
						cell = strings.Replace(pts.FloatString(1), ".", ",", 1)
					}
					row[p] = cell
					if evening[p] == nil {
						evening[p] = new(big.Rat)
					}
					evening[p].Add(evening[p], pts)
				}
				fmt.Fprintf(&ph, "%s;Doppelkopf;Tisch %d;%s\r\n", d.Format("02.01.2006"), table+1, strings.Join(row, ";"))
			}
			for _, p := range players {
				name := members[p]
				fmt.Fprintf(&pe, "%s;Doppelkopf;Tisch %d;%s;%s;%d\r\n", d.Format("02.01.2006"), table+1, name,
					strings.TrimSuffix(strings.Replace(evening[p].FloatString(1), ".", ",", 1), ",0"), n)
				if h.totals[name] == nil {
					h.totals[name] = new(big.Rat)
				}
				h.totals[name].Add(h.totals[name], evening[p])
				h.hands[name] += n
			}
			h.evenings++
		}
	}
	h.perHand, h.perEvening = ph.String(), pe.String()
	return h
}

// windows1252 encodes text (Latin-1 letters only) as Windows-1252.
func windows1252(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			panic(fmt.Sprintf("%q is not Latin-1", r))
		}
		out = append(out, byte(r))
	}
	return out
}

// Ten years in both shapes and both encodings read to the same evenings,
// with each member's points and hands as generated.
func TestTenYearsInBothShapesAndEncodings(t *testing.T) {
	h := tenYears()
	files := map[string][]byte{
		"per hand, UTF-8 with BOM":       []byte("\ufeff" + h.perHand),
		"per hand, Windows-1252":         windows1252(h.perHand),
		"per evening, UTF-8 without BOM": []byte(h.perEvening),
		"per evening, Windows-1252":      windows1252(h.perEvening),
	}
	for name, raw := range files {
		f, err := Read(raw, games, today)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Evenings) != h.evenings {
			t.Errorf("%s: %d evenings, want %d", name, len(f.Evenings), h.evenings)
		}
		totals, hands := map[string]*big.Rat{}, map[string]int{}
		for _, ev := range f.Evenings {
			for _, l := range ev.Lines {
				if totals[l.Name] == nil {
					totals[l.Name] = new(big.Rat)
				}
				totals[l.Name].Add(totals[l.Name], l.Points)
				hands[l.Name] += l.Hands
			}
		}
		for _, m := range members {
			if totals[m] == nil || totals[m].Cmp(h.totals[m]) != 0 || hands[m] != h.hands[m] {
				t.Errorf("%s: %s has %v points in %d hands, want %s in %d", name, m, totals[m], hands[m], h.totals[m].RatString(), h.hands[m])
			}
		}
		wantEnc := map[bool]string{true: "Windows-1252", false: "UTF-8"}[strings.Contains(name, "1252")]
		if f.Encoding != wantEnc {
			t.Errorf("%s: read as %s", name, f.Encoding)
		}
	}
}

// One bad line: no evening, and the error names its line and column.
func TestABadLineNamesLineAndColumn(t *testing.T) {
	h := tenYears()
	lines := strings.Split(h.perEvening, "\r\n")
	cases := []struct {
		line int // 1-based, as the error says
		bad  func(string) string
		want string
	}{
		{500, func(l string) string { return strings.Replace(l, ";Doppelkopf;", ";Poker;", 1) }, "Zeile 500, Spalte 2 (Spiel): „Poker“ ist kein Spiel"},
		{77, func(l string) string { f := strings.Split(l, ";"); f[4] = "12.5"; return strings.Join(f, ";") }, "Zeile 77, Spalte 5 (Punkte): „12.5“ ist keine Zahl wie -12 oder 12,5 (Dezimalkomma"},
		{1234, func(l string) string { f := strings.Split(l, ";"); f[0] = "31.02.2019"; return strings.Join(f, ";") }, "Zeile 1234, Spalte 1 (Datum): den 31.02.2019 gibt es nicht"},
		{2, func(l string) string { f := strings.Split(l, ";"); f[5] = "0"; return strings.Join(f, ";") }, "Zeile 2, Spalte 6 (Spiele)"},
		{3000, func(l string) string { return l + ";zu viel" }, "Zeile 3000: die Zeile hat 7 Felder, die Kopfzeile 6"},
	}
	for _, c := range cases {
		broken := append([]string(nil), lines...)
		broken[c.line-1] = c.bad(broken[c.line-1])
		f, err := Read([]byte(strings.Join(broken, "\r\n")), games, today)
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || !strings.HasPrefix(es[0].Error(), c.want) {
			t.Errorf("line %d: %v, want one error starting %q", c.line, err, c.want)
		}
		if len(f.Evenings) != 0 {
			t.Errorf("line %d: %d evenings read from a file with an error", c.line, len(f.Evenings))
		}
	}
	// A player twice at one evening, a hand nobody scored in, a header of neither shape.
	for _, c := range []struct{ file, want string }{
		{"Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2026;Doppelkopf;;Anna;3;24\n19.11.2026;Doppelkopf;;anna;4;24\n", "Zeile 3, Spalte 4 (Spieler): anna steht an diesem Abend (Zeile 2) schon"},
		{"Datum;Spiel;Tisch;Anna;Bernd\n19.11.2026;Doppelkopf;;;\n", "Zeile 2, Spalte 4 (Anna): in der Zeile hat niemand Punkte"},
		{"Tag;Punkte\n", "Zeile 1, Spalte 1: die Kopfzeile ist weder"},
		{"Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2027;Doppelkopf;;Anna;3;24\n", "Zeile 2, Spalte 1 (Datum): der 19.11.2027 liegt nicht zwischen 1950 und heute"},
	} {
		_, err := Read([]byte(c.file), games, today)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
}

// The same bytes hash the same; another encoding of the same text is
// another file.
func TestTheHashIsTheFiles(t *testing.T) {
	raw := []byte("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2026;Doppelkopf;;Jürgen;-3,5;24\n")
	a, errA := Read(raw, games, today)
	b, errB := Read(append([]byte(nil), raw...), games, today)
	c, errC := Read(windows1252(string(raw)), games, today)
	if errA != nil || errB != nil || errC != nil {
		t.Fatal(errA, errB, errC)
	}
	if a.Hash != b.Hash || a.Hash == c.Hash {
		t.Errorf("hashes %s %s %s: want the first two equal, the third different", a.Hash, b.Hash, c.Hash)
	}
	if got := c.Evenings[0].Lines[0]; got.Name != "Jürgen" || got.Points.RatString() != "-7/2" {
		t.Errorf("Windows-1252 line = %s %s, want Jürgen -7/2", got.Name, got.Points.RatString())
	}
}

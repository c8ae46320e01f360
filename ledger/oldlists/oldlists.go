// Package oldlists owns the format of a club's old lists (paper lists
// and spreadsheets from before stichbuch) as CSV, as German spreadsheets
// write it: ';' separated, UTF-8 with or without a byte order mark or
// Windows-1252, decimal comma, dates as 19.11.2026. It reads a file into
// evenings (points and hands per player), or into every error, in German,
// naming the file's line and column. It imports only the standard library.
//
// Two shapes, told apart by the header row:
//
//   - one row per hand: "Datum;Spiel;Tisch;<Name>;<Name>;…", each row a
//     hand with each player's points (an empty cell: he did not play it);
//     an evening is a date, game and table, its players' hands counted;
//   - one row per player and evening: "Datum;Spiel;Tisch;Spieler;Punkte;Spiele".
//
// Tisch may be empty (one table). Spiel is a game of stichbuch by its
// name or its German name ("doppelkopf", "Doppelkopf", "Schwarze Dame").
package oldlists

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of a file.
const (
	MaxErrors      = 50
	MaxHands       = 1000    // hands of one player at one evening
	MaxPoints      = 1000000 // |points| of one cell
	MaxNameLen     = 100
	MaxTableLen    = 100
	MaxColumns     = 64
	MaxEvenings    = 5000
	MinYear        = 1950
	MaxYearsFuture = 1
)

// Shape is how a file lists its evenings.
type Shape string

// Shapes.
const (
	PerHand    Shape = "per_hand"
	PerEvening Shape = "per_evening"
)

// Line is one player's evening.
type Line struct {
	Name   string
	Hands  int
	Points *big.Rat
}

// Evening is one table's evening of the old lists.
type Evening struct {
	Date  string // YYYY-MM-DD
	Game  string // the registry's name
	Table string
	Lines []Line // by name
	// FileLine is the line of the file where it starts.
	FileLine int
}

// File is a file read whole.
type File struct {
	Shape    Shape
	Encoding string // "UTF-8" or "Windows-1252"
	Hash     string // SHA-256 of the file's bytes, hex: the same file is the same import
	Evenings []Evening
}

// Error is one error of a file: its line (1 is the header) and column
// (1 is the first), with the column's header when there is one.
type Error struct {
	Line, Column int
	Header       string
	Message      string
}

func (e Error) Error() string {
	where := fmt.Sprintf("Zeile %d", e.Line)
	if e.Column > 0 {
		where += fmt.Sprintf(", Spalte %d", e.Column)
		if e.Header != "" {
			where += " (" + e.Header + ")"
		}
	}
	return where + ": " + e.Message
}

// Errors are every error of a file, in order (at most MaxErrors).
type Errors []Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Games tells a game's registry name from what a list calls it ("" when
// it is no game of stichbuch).
type Games func(name string) string

// Read reads a file whole; any error of any line is returned as Errors
// and no evening.
func Read(raw []byte, games Games, today time.Time) (File, error) {
	sum := sha256.Sum256(raw)
	f := File{Hash: hex.EncodeToString(sum[:])}
	text, enc := decode(raw)
	f.Encoding = enc
	r := csv.NewReader(strings.NewReader(text))
	r.Comma, r.FieldsPerRecord, r.ReuseRecord = ';', -1, false
	var errs Errors
	fail := func(line, col int, header, format string, args ...any) {
		if len(errs) < MaxErrors {
			errs = append(errs, Error{Line: line, Column: col, Header: header, Message: fmt.Sprintf(format, args...)})
		}
	}
	header, err := r.Read()
	if err != nil {
		fail(1, 0, "", "die Datei hat keine Kopfzeile (Datum;Spiel;Tisch;…)")
		return File{}, errs
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	rd := reader{games: games, today: today.Format(time.DateOnly), fail: fail, header: header}
	switch {
	case len(header) == 6 && slices.Equal(header, []string{"Datum", "Spiel", "Tisch", "Spieler", "Punkte", "Spiele"}):
		f.Shape = PerEvening
	case len(header) > 3 && slices.Equal(header[:3], []string{"Datum", "Spiel", "Tisch"}):
		f.Shape = PerHand
		if len(header) > MaxColumns {
			fail(1, MaxColumns+1, "", "höchstens %d Spalten", MaxColumns)
		}
		seen := map[string]int{}
		for i, name := range header[3:] {
			col := i + 4
			switch {
			case name == "":
				fail(1, col, "", "der Spieler hat keinen Namen")
			case utf8.RuneCountInString(name) > MaxNameLen:
				fail(1, col, "", "der Name ist länger als %d Zeichen", MaxNameLen)
			case seen[strings.ToLower(name)] > 0:
				fail(1, col, name, "%s steht schon in Spalte %d", name, seen[strings.ToLower(name)])
			}
			seen[strings.ToLower(name)] = col
		}
	default:
		fail(1, 1, "", "die Kopfzeile ist weder „Datum;Spiel;Tisch;<Namen>“ (ein Spiel je Zeile) noch „Datum;Spiel;Tisch;Spieler;Punkte;Spiele“ (ein Abend je Spieler und Zeile)")
		return File{}, errs
	}
	type key struct{ date, game, table string }
	evenings := map[key]*Evening{}
	var order []key
	lineNo := 1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		lineNo = line
		if err != nil {
			if pe, ok := err.(*csv.ParseError); ok {
				fail(pe.Line, pe.Column, "", "die Zeile ist kein CSV (%v)", pe.Err)
			} else {
				fail(lineNo, 0, "", "die Zeile ist kein CSV (%v)", err)
			}
			break
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // an empty line
		}
		if len(rec) != len(header) {
			fail(line, 0, "", "die Zeile hat %d Felder, die Kopfzeile %d", len(rec), len(header))
			continue
		}
		date, okD := rd.date(line, rec[0])
		game, okG := rd.game(line, rec[1])
		table := strings.TrimSpace(rec[2])
		if utf8.RuneCountInString(table) > MaxTableLen {
			fail(line, 3, "Tisch", "der Tisch ist länger als %d Zeichen", MaxTableLen)
		}
		if !okD || !okG {
			continue
		}
		k := key{date, game, table}
		ev := evenings[k]
		if ev == nil {
			if len(order) >= MaxEvenings {
				fail(line, 0, "", "höchstens %d Abende in einer Datei", MaxEvenings)
				break
			}
			ev = &Evening{Date: date, Game: game, Table: table, FileLine: line}
			evenings[k] = ev
			order = append(order, k)
		}
		if f.Shape == PerHand {
			rd.hand(ev, line, rec)
		} else {
			rd.playerEvening(ev, line, rec)
		}
	}
	if len(order) == 0 && len(errs) == 0 {
		fail(lineNo, 0, "", "die Datei enthält keinen Abend")
	}
	if len(errs) > 0 {
		return File{Hash: f.Hash, Encoding: f.Encoding, Shape: f.Shape}, errs
	}
	for _, k := range order {
		ev := evenings[k]
		slices.SortFunc(ev.Lines, func(a, b Line) int { return strings.Compare(a.Name, b.Name) })
		f.Evenings = append(f.Evenings, *ev)
	}
	return f, nil
}

type reader struct {
	games  Games
	today  string
	header []string
	fail   func(line, col int, header, format string, args ...any)
}

var dateRE = regexp.MustCompile(`^([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})$`)

// date reads 19.11.2026.
func (rd reader) date(line int, s string) (string, bool) {
	s = strings.TrimSpace(s)
	m := dateRE.FindStringSubmatch(s)
	if m == nil {
		rd.fail(line, 1, "Datum", "„%s“ ist kein Datum wie 19.11.2026", s)
		return "", false
	}
	d, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || int(t.Month()) != mo {
		rd.fail(line, 1, "Datum", "den %s gibt es nicht", s)
		return "", false
	}
	iso := t.Format(time.DateOnly)
	if y < MinYear || iso > rd.today {
		rd.fail(line, 1, "Datum", "der %s liegt nicht zwischen %d und heute", s, MinYear)
		return "", false
	}
	return iso, true
}

func (rd reader) game(line int, s string) (string, bool) {
	g := rd.games(strings.TrimSpace(s))
	if g == "" {
		rd.fail(line, 2, "Spiel", "„%s“ ist kein Spiel von stichbuch (Doppelkopf, Saukopf, Schwarze Sau, Schwarze Dame, Klaberjass)", strings.TrimSpace(s))
		return "", false
	}
	return g, true
}

var numberRE = regexp.MustCompile(`^[+-]?[0-9]{1,7}(,[0-9]{1,6})?$`)

// points reads a German number: -12, 12,5 (decimal comma, no thousands
// separator), exactly.
func (rd reader) points(line, col int, s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if !numberRE.MatchString(s) {
		hint := ""
		if strings.Contains(s, ".") {
			hint = " (Dezimalkomma statt Punkt, ohne Tausenderpunkt)"
		}
		rd.fail(line, col, rd.header[col-1], "„%s“ ist keine Zahl wie -12 oder 12,5%s", s, hint)
		return nil, false
	}
	p, _ := new(big.Rat).SetString(strings.Replace(strings.TrimPrefix(s, "+"), ",", ".", 1))
	if p.Cmp(big.NewRat(MaxPoints, 1)) > 0 || p.Cmp(big.NewRat(-MaxPoints, 1)) < 0 {
		rd.fail(line, col, rd.header[col-1], "%s liegt nicht zwischen -%d und %d", s, MaxPoints, MaxPoints)
		return nil, false
	}
	return p, true
}

// hand adds one hand's row to its evening.
func (rd reader) hand(ev *Evening, line int, rec []string) {
	played := 0
	for i, cell := range rec[3:] {
		col := i + 4
		if strings.TrimSpace(cell) == "" {
			continue
		}
		p, ok := rd.points(line, col, cell)
		if !ok {
			continue
		}
		played++
		name := rd.header[col-1]
		j := slices.IndexFunc(ev.Lines, func(l Line) bool { return l.Name == name })
		if j < 0 {
			ev.Lines = append(ev.Lines, Line{Name: name, Points: new(big.Rat)})
			j = len(ev.Lines) - 1
		}
		ev.Lines[j].Hands++
		ev.Lines[j].Points.Add(ev.Lines[j].Points, p)
		if ev.Lines[j].Hands > MaxHands {
			rd.fail(line, col, name, "mehr als %d Spiele an einem Abend", MaxHands)
		}
	}
	if played == 0 {
		rd.fail(line, 4, rd.header[3], "in der Zeile hat niemand Punkte")
	}
}

// playerEvening adds one player's evening row.
func (rd reader) playerEvening(ev *Evening, line int, rec []string) {
	name := strings.TrimSpace(rec[3])
	switch {
	case name == "":
		rd.fail(line, 4, "Spieler", "der Spieler hat keinen Namen")
		return
	case utf8.RuneCountInString(name) > MaxNameLen:
		rd.fail(line, 4, "Spieler", "der Name ist länger als %d Zeichen", MaxNameLen)
		return
	}
	p, okP := rd.points(line, 5, rec[4])
	hands, err := strconv.Atoi(strings.TrimSpace(rec[5]))
	if err != nil || hands < 1 || hands > MaxHands {
		rd.fail(line, 6, "Spiele", "„%s“ ist keine Zahl von Spielen von 1 bis %d", strings.TrimSpace(rec[5]), MaxHands)
		return
	}
	if !okP {
		return
	}
	if slices.ContainsFunc(ev.Lines, func(l Line) bool { return strings.EqualFold(l.Name, name) }) {
		rd.fail(line, 4, "Spieler", "%s steht an diesem Abend (Zeile %d) schon", name, ev.FileLine)
		return
	}
	ev.Lines = append(ev.Lines, Line{Name: name, Hands: hands, Points: p})
}

// decode returns the file's text: UTF-8 (a byte order mark dropped) when
// it is valid UTF-8, else Windows-1252.
func decode(raw []byte) (string, string) {
	if utf8.Valid(raw) {
		return string(bytes.TrimPrefix(raw, []byte("\ufeff"))), "UTF-8"
	}
	var b strings.Builder
	for _, c := range raw {
		switch {
		case c < 0x80 || c >= 0xA0:
			b.WriteRune(rune(c))
		default:
			b.WriteRune(cp1252[c-0x80])
		}
	}
	return b.String(), "Windows-1252"
}

// cp1252 maps Windows-1252's bytes 0x80–0x9F (the rest is Latin-1).
var cp1252 = [32]rune{
	'€', '\u0081', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u008d', 'Ž', '\u008f',
	'\u0090', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u009d', 'ž', 'Ÿ',
}

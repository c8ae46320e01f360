package report

import (
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// The chart's geometry in SVG user units (the SVG scales to its box).
const (
	chartWidth   = 760
	plotLeft     = 64  // room for the y labels
	plotRight    = 744 // chartWidth - right margin
	plotTop      = 16
	plotHeight   = 280
	plotBottom   = plotTop + plotHeight
	legendTop    = plotBottom + 44 // centre of the legend's first row
	legendRow    = 22
	legendCols   = 4
	legendName   = 22 // runes of a name shown in the legend
	maxYTicks    = 6
	maxXTicks    = 12
	clampPoints  = 1 << 60 // totals beyond ±2^60 are drawn at the edge
	noChartValue = "Noch keine Spiele an diesem Abend – kein Verlauf."
)

// palette and dashes tell the lines apart on screen and on a
// black-and-white printout.
var (
	palette = []string{"#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#2c3e50", "#b8860b", "#16a085"}
	dashes  = []string{"", "8 4", "2 3", "10 3 2 3", "4 4"}
)

// chart is an SVG line chart of every player's running total, with
// every coordinate an integer.
type chart struct {
	Empty   bool   // no hands: the page says so instead of drawing
	NoData  string // what it says then
	Width   int64
	Height  int64
	Left    int64
	Right   int64
	Top     int64
	Bottom  int64
	ZeroY   int64
	YTicks  []tick
	XTicks  []tick
	Lines   []chartLine
	Legend  []legendItem
	Caption string // the SVG's accessible description
}

// tick is one labelled position on an axis.
type tick struct {
	Pos   int64
	Label string
}

// chartLine is one player's polyline.
type chartLine struct {
	ID     int64
	Name   string
	Color  string
	Dash   string
	Points string // "x,y x,y ..." in integers
}

// legendItem places one player's name and line sample.
type legendItem struct {
	X, X2 int64 // the line sample's ends; the name follows it
	Y     int64
	Name  string
	Color string
	Dash  string
}

// buildChart lays out the running totals of rows, one line per player
// starting at 0 before the first hand. Each point's y is
// top + floor((hi - v) * height / (hi - lo)) computed exactly from the
// rational total v; nothing is a float.
func buildChart(players []ledger.Player, rows []sheetRow) chart {
	c := chart{Width: chartWidth, Left: plotLeft, Right: plotRight, Top: plotTop, Bottom: plotBottom,
		Caption: "Verlauf der Punktestände über den Abend"}
	c.Legend = legend(players)
	c.Height = legendTop + legendRow*int64(max(0, (len(players)+legendCols-1)/legendCols-1)) + 18
	if len(rows) == 0 || len(players) == 0 {
		c.Empty, c.NoData = true, noChartValue
		return c
	}
	lo, hi := valueRange(rows)
	step := niceStep(hi-lo, maxYTicks)
	lo, hi = floorTo(lo, step), ceilTo(hi, step)
	ys := newYScale(lo, hi)
	c.ZeroY = ys.pos(score.Points{})
	for v := lo; v <= hi; v += step {
		c.YTicks = append(c.YTicks, tick{Pos: ys.pos(score.Int(v)), Label: formatPoints(score.Int(v))})
	}
	c.XTicks = xTicks(rows)
	for i, p := range players {
		c.Lines = append(c.Lines, chartLine{ID: p.ID, Name: p.Name, Color: colorOf(i), Dash: dashOf(i), Points: polyline(rows, i, ys)})
	}
	return c
}

// legend places the players' names in rows of legendCols below the plot.
func legend(players []ledger.Player) []legendItem {
	items := make([]legendItem, len(players))
	col := int64(plotRight-plotLeft) / legendCols
	for i, p := range players {
		items[i] = legendItem{
			X: plotLeft + col*int64(i%legendCols), Y: legendTop + legendRow*int64(i/legendCols),
			X2:   plotLeft + col*int64(i%legendCols) + 24,
			Name: shorten(p.Name, legendName), Color: colorOf(i), Dash: dashOf(i),
		}
	}
	return items
}

// valueRange is the smallest integer range holding 0 and every running
// total, clamped to ±2^60; never empty (lo < hi).
func valueRange(rows []sheetRow) (lo, hi int64) {
	for _, row := range rows {
		for _, v := range row.running {
			lo = min(lo, floorPoints(v))
			hi = max(hi, ceilPoints(v))
		}
	}
	lo, hi = max(lo, -clampPoints), min(hi, clampPoints)
	if lo == hi { // every total is 0: put the zero line in the middle
		return -1, 1
	}
	return lo, hi
}

// floorPoints is the greatest integer not above p.
func floorPoints(p score.Points) int64 {
	q := p.Num() / p.Den()
	if p.Num()%p.Den() != 0 && p.Num() < 0 {
		q--
	}
	return q
}

// ceilPoints is the least integer not below p.
func ceilPoints(p score.Points) int64 {
	q := p.Num() / p.Den()
	if p.Num()%p.Den() != 0 && p.Num() > 0 {
		q++
	}
	return q
}

// niceStep is the smallest step of 1, 2 or 5 times a power of ten that
// cuts span (> 0) into at most most steps.
func niceStep(span, most int64) int64 {
	for mag := int64(1); ; mag *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if span <= most*m*mag {
				return m * mag
			}
		}
	}
}

// floorTo rounds v down to a multiple of step (> 0).
func floorTo(v, step int64) int64 {
	r := v % step
	if r < 0 {
		r += step
	}
	return v - r
}

// ceilTo rounds v up to a multiple of step (> 0).
func ceilTo(v, step int64) int64 {
	if f := floorTo(v, step); f != v {
		return f + step
	}
	return v
}

// yScale maps exact points to a y coordinate of the plot, reusing its
// big integers so a chart costs few allocations.
type yScale struct {
	hi, span    *big.Int // integer range top and hi - lo
	num, den, d *big.Int // scratch
	quo, scale  *big.Int
}

// newYScale returns the scale for the integer range lo < hi.
func newYScale(lo, hi int64) *yScale {
	return &yScale{
		hi: big.NewInt(hi), span: new(big.Int).Sub(big.NewInt(hi), big.NewInt(lo)),
		num: new(big.Int), den: new(big.Int), d: new(big.Int), quo: new(big.Int), scale: big.NewInt(plotHeight),
	}
}

// pos is plotTop + floor((hi - v) * plotHeight / (hi - lo)) for v = n/d,
// that is floor(((hi*d - n) * plotHeight) / ((hi - lo) * d)), in exact
// integers, clamped to the plot.
func (s *yScale) pos(v score.Points) int64 {
	d := s.d.SetInt64(v.Den())
	s.num.Mul(s.hi, d)
	s.num.Sub(s.num, s.den.SetInt64(v.Num()))
	s.num.Mul(s.num, s.scale)
	s.den.Mul(s.span, d)
	s.quo.Div(s.num, s.den) // Euclidean: the floor for a positive divisor
	switch {
	case s.quo.Sign() < 0:
		return plotTop
	case s.quo.Cmp(s.scale) > 0:
		return plotBottom
	}
	return plotTop + s.quo.Int64()
}

// xOf is the x coordinate after k of n hands (k = 0 is the start).
func xOf(k, n int) int64 {
	return plotLeft + int64(k)*(plotRight-plotLeft)/int64(n)
}

// xTicks labels at most maxXTicks hands with their numbers.
func xTicks(rows []sheetRow) []tick {
	n := len(rows)
	step := int(niceStep(int64(n), maxXTicks))
	ticks := []tick{{Pos: xOf(0, n), Label: "0"}}
	for k := step; k <= n; k += step {
		ticks = append(ticks, tick{Pos: xOf(k, n), Label: strconv.Itoa(rows[k-1].hand.Number)})
	}
	return ticks
}

// polyline is player i's points attribute: the start at 0, then the
// running total after each hand.
func polyline(rows []sheetRow, i int, ys *yScale) string {
	buf := make([]byte, 0, 10*(len(rows)+1))
	buf = appendXY(buf, xOf(0, len(rows)), ys.pos(score.Points{}))
	for k, row := range rows {
		buf = append(buf, ' ')
		buf = appendXY(buf, xOf(k+1, len(rows)), ys.pos(row.running[i]))
	}
	return string(buf)
}

// appendXY appends "x,y".
func appendXY(buf []byte, x, y int64) []byte {
	buf = strconv.AppendInt(buf, x, 10)
	buf = append(buf, ',')
	return strconv.AppendInt(buf, y, 10)
}

// colorOf is player i's line colour.
func colorOf(i int) string { return palette[i%len(palette)] }

// dashOf is player i's dash pattern ("" is solid). Five patterns against
// eight colours: the first five players differ on a black-and-white
// printout, and no two of the first 40 look alike on screen.
func dashOf(i int) string { return dashes[i%len(dashes)] }

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

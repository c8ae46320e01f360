package report

import (
	"math/rand/v2"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestChartByHand checks the example's coordinates against ones worked
// out on paper: totals range over [-31/6, 7], rounded out to the 5-step
// ticks -10..10, so y = 16 + floor((10 - v) * 280 / 20).
func TestChartByHand(t *testing.T) {
	r := exampleReport()
	c := buildChart(r.Players, sheet(len(r.Players), r.Hands))
	if c.Empty {
		t.Fatal("chart of five hands is empty")
	}
	want := map[int64]string{
		anna:   "64,156 200,90 336,118 472,104 608,153 744,111",  // 14/3 -> 16+floor(74 2/3) = 90
		chris:  "64,156 200,172 336,200 472,214 608,214 744,228", // -31/6 -> 16+floor(212 1/3) = 228
		doerte: "64,156 200,156 336,184 472,198 608,198 744,212",
	}
	for _, l := range c.Lines {
		if w, ok := want[l.ID]; ok && l.Points != w {
			t.Errorf("player %d: points %q, want %q", l.ID, l.Points, w)
		}
	}
	if c.ZeroY != 156 {
		t.Errorf("zero line at %d, want 156", c.ZeroY)
	}
	var labels []string
	for _, tk := range c.YTicks {
		labels = append(labels, tk.Label)
	}
	if got := fmtRows([][]string{labels}); got != "-10|-5|0|5|10" {
		t.Errorf("y ticks %s", got)
	}
}

func TestFloorCeilPoints(t *testing.T) {
	cases := []struct {
		p           score.Points
		floor, ceil int64
	}{
		{score.Frac(14, 3), 4, 5}, {score.Frac(-14, 3), -5, -4}, {score.Frac(-7, 2), -4, -3},
		{score.Int(3), 3, 3}, {score.Int(-3), -3, -3}, {score.Points{}, 0, 0}, {score.Frac(-1, 6), -1, 0},
	}
	for _, c := range cases {
		if f, cl := floorPoints(c.p), ceilPoints(c.p); f != c.floor || cl != c.ceil {
			t.Errorf("floor/ceil(%s) = %d/%d, want %d/%d", c.p, f, cl, c.floor, c.ceil)
		}
	}
}

func TestNiceStep(t *testing.T) {
	cases := []struct{ span, most, want int64 }{
		{2, 6, 1}, {6, 6, 1}, {7, 6, 2}, {13, 6, 5}, {30, 6, 5}, {31, 6, 10}, {60, 12, 5}, {1 << 61, 6, 500000000000000000},
	}
	for _, c := range cases {
		if got := niceStep(c.span, c.most); got != c.want {
			t.Errorf("niceStep(%d, %d) = %d, want %d", c.span, c.most, got, c.want)
		}
	}
}

// TestChartInvariants draws random evenings and checks what the chart
// promises: integer coordinates inside the plot, higher totals never
// lower on the page, equal totals at equal heights, zero on the zero
// line, ticks that cover every total.
func TestChartInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 200 {
		players := make([]ledger.Player, 1+rng.IntN(7))
		for i := range players {
			players[i] = ledger.Player{ID: int64(i + 1), Name: "P"}
		}
		hands := make([]ledger.ReportHand, 1+rng.IntN(80))
		running := make([]score.Points, len(players))
		scale := int64(1) << rng.IntN(40)
		for k := range hands {
			pts := make([]score.Points, len(players))
			for i := range pts {
				pts[i] = score.Frac((rng.Int64N(41)-20)*scale, 1+rng.Int64N(6))
				running[i] = running[i].Add(pts[i])
			}
			hands[k] = ledger.ReportHand{Number: k + 1, Points: pts, Running: append([]score.Points(nil), running...)}
		}
		rows := sheet(len(players), hands)
		c := buildChart(players, rows)
		lo, hi := valueRange(rows)
		ys := newYScale(floorTo(lo, niceStep(hi-lo, maxYTicks)), ceilTo(hi, niceStep(hi-lo, maxYTicks)))
		if got := ys.pos(score.Points{}); got != c.ZeroY {
			t.Fatalf("trial %d: zero line %d, zero maps to %d", trial, c.ZeroY, got)
		}
		if c.YTicks[0].Pos != plotBottom || c.YTicks[len(c.YTicks)-1].Pos != plotTop {
			t.Fatalf("trial %d: ticks %v do not span the plot", trial, c.YTicks)
		}
		if len(c.YTicks) > maxYTicks+2 || len(c.XTicks) > maxXTicks+2 {
			t.Fatalf("trial %d: %d y ticks, %d x ticks", trial, len(c.YTicks), len(c.XTicks))
		}
		var vals []score.Points
		var ys2 []int64
		for _, row := range rows {
			for _, v := range row.running {
				vals = append(vals, v)
				ys2 = append(ys2, ys.pos(v))
			}
		}
		for a := range vals {
			if ys2[a] < plotTop || ys2[a] > plotBottom {
				t.Fatalf("trial %d: %s at y %d outside the plot", trial, vals[a], ys2[a])
			}
			b := rng.IntN(len(vals))
			switch vals[a].Cmp(vals[b]) {
			case 1:
				if ys2[a] > ys2[b] {
					t.Fatalf("trial %d: %s drawn below %s", trial, vals[a], vals[b])
				}
			case 0:
				if ys2[a] != ys2[b] {
					t.Fatalf("trial %d: %s drawn at two heights", trial, vals[a])
				}
			}
		}
	}
}

func TestChartAllZero(t *testing.T) {
	r := exampleReport()
	for k := range r.Hands {
		r.Hands[k].Points = make([]score.Points, 4)
		r.Hands[k].Running = make([]score.Points, 4)
	}
	c := buildChart(r.Players, sheet(4, r.Hands))
	if c.ZeroY != plotTop+plotHeight/2 {
		t.Errorf("all-zero evening: zero line at %d, want the middle %d", c.ZeroY, plotTop+plotHeight/2)
	}
	for _, l := range c.Lines {
		if l.Points != "64,156 200,156 336,156 472,156 608,156 744,156" {
			t.Errorf("flat line drawn as %q", l.Points)
		}
	}
}

func TestChartLongEvening(t *testing.T) {
	r := longReport(60)
	c := buildChart(r.Players, sheet(4, r.Hands))
	if len(c.XTicks) != 13 || c.XTicks[12].Label != "60" || c.XTicks[12].Pos != plotRight {
		t.Errorf("x ticks of 60 hands: %v", c.XTicks)
	}
}

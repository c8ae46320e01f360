package ledger_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// TestTheLeaderboardRanksOneGameAtATime: a period of one game is ranked;
// once a second game is played in it, a leaderboard without game is
// refused naming game, unless it mixes them.
func TestTheLeaderboardRanksOneGameAtATime(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	c.play(1)
	board := func(q ledger.LeaderboardQuery) (ledger.Leaderboard, error) {
		q.By = ledger.ByPoints
		return c.svc.Leaderboard(ctx, c.admin, q)
	}
	if lb, err := board(ledger.LeaderboardQuery{}); err != nil || len(lb.Entries) != 4 {
		t.Fatalf("one game: %v, %+v", err, lb)
	}
	dame, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Dame", Game: "schwarze_dame"}, nil)
	c.must(err)
	sess, _, err := c.svc.OpenSession(ctx, c.scorer, dame.ID, "2026-03-12", c.players, nil)
	c.must(err)
	_, _, err = c.svc.RecordHand(ctx, c.scorer, ledger.NewHand{TableID: dame.ID, SessionID: sess.ID, Number: 1, Facts: c.facts(
		`{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":1,"hearts":[11,12]}]}`)}, nil)
	c.must(err)
	_, err = board(ledger.LeaderboardQuery{})
	if e := wantCode(t, "two games", err, ledger.EINVALID); e.Field != "game" {
		t.Errorf("two games: the refusal names %q, want game", e.Field)
	}
	for _, q := range []ledger.LeaderboardQuery{{Mix: true}, {Filter: ledger.StatsFilter{Game: "doppelkopf"}}, {Filter: ledger.StatsFilter{TableID: dame.ID}}} {
		if lb, err := board(q); err != nil || len(lb.Entries) != 4 || lb.Mix != q.Mix {
			t.Errorf("%+v: %v, %+v", q, err, lb)
		}
	}
}

// countingStats counts the reads of the statistics' port.
type countingStats struct {
	ledger.StatsStore
	reads int
}

func (c *countingStats) PlayerRecords(ctx context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	c.reads++
	return c.StatsStore.PlayerRecords(ctx, clubID, playerID, f)
}

func (c *countingStats) PairRecords(ctx context.Context, clubID, playerID, otherID int64, f ledger.StatsFilter) (ledger.PairRecords, error) {
	c.reads++
	return c.StatsStore.PairRecords(ctx, clubID, playerID, otherID, f)
}

func (c *countingStats) LeaderboardRecords(ctx context.Context, clubID int64, f ledger.StatsFilter) (ledger.LeaderboardRecords, error) {
	c.reads++
	return c.StatsStore.LeaderboardRecords(ctx, clubID, f)
}

func (c *countingStats) SeriesRecords(ctx context.Context, clubID int64, players []int64, f ledger.StatsFilter) (ledger.SeriesRecords, error) {
	c.reads++
	return c.StatsStore.SeriesRecords(ctx, clubID, players, f)
}

// TestEachFigureIsOneRead: every statistics figure, the leaderboard and a
// series of several players among them, and each of their refusals (a
// table or player of no one, two games unmixed) is assembled from one
// read of the statistics' port and no other port (a service with only
// that port would fail on any other). The defaults and the filter's
// checks are the ledger's: an unknown order or a bad date is refused
// before anything is read.
func TestEachFigureIsOneRead(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	c.play(3)
	dame, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Dame", Game: "schwarze_dame"}, nil)
	c.must(err)
	stats := &countingStats{StatsStore: c.store}
	svc := ledger.NewService(ledger.Ports{Stats: stats})
	p, other := c.players[0], c.players[1]
	year := ledger.StatsFilter{From: "2026-01-01", To: "2026-12-31"}
	ratio := ledger.LeaderboardQuery{By: ledger.ByWinRate, Filter: year}
	for _, x := range []struct {
		what  string
		reads int
		call  func() error
	}{
		{"player", 1, func() error { _, err := svc.PlayerStats(ctx, c.admin, p, year); return err }},
		{"partners", 1, func() error { _, err := svc.PartnerStats(ctx, c.admin, p, year); return err }},
		{"head to head", 1, func() error { _, err := svc.HeadToHead(ctx, c.admin, p, other, year); return err }},
		{"leaderboard", 1, func() error {
			lb, err := svc.Leaderboard(ctx, c.admin, ratio)
			if err == nil && (lb.MinHands != ledger.DefaultRatioMinHands || lb.By != ledger.ByWinRate) {
				t.Errorf("the win rate's leaderboard: min_hands %d by %s, want the default %d", lb.MinHands, lb.By, ledger.DefaultRatioMinHands)
			}
			return err
		}},
		{"series of four", 1, func() error { _, err := svc.PointsSeries(ctx, c.admin, c.players, year); return err }},
		{"series of everyone", 1, func() error { _, err := svc.PointsSeries(ctx, c.admin, nil, year); return err }},
		{"a table of no one", 1, func() error {
			_, err := svc.Leaderboard(ctx, c.admin, ledger.LeaderboardQuery{Filter: ledger.StatsFilter{TableID: 999999}})
			return wantError(ledger.ENOTFOUND, err)
		}},
		{"a player of no one", 1, func() error {
			_, err := svc.PointsSeries(ctx, c.admin, []int64{p, 999999}, year)
			return wantError(ledger.ENOTFOUND, err)
		}},
		{"an unknown order", 0, func() error {
			_, err := svc.Leaderboard(ctx, c.admin, ledger.LeaderboardQuery{By: "luck"})
			return wantError(ledger.EINVALID, err)
		}},
		{"a date", 0, func() error {
			_, err := svc.PlayerStats(ctx, c.admin, p, ledger.StatsFilter{From: "2026-13-01"})
			return wantError(ledger.EINVALID, err)
		}},
	} {
		stats.reads = 0
		if err := x.call(); err != nil {
			t.Errorf("%s: %v", x.what, err)
		}
		if stats.reads != x.reads {
			t.Errorf("%s: %d reads of the statistics, want %d", x.what, stats.reads, x.reads)
		}
	}
	sess, _, err := c.svc.OpenSession(ctx, c.scorer, dame.ID, "2026-03-12", c.players, nil)
	c.must(err)
	_, _, err = c.svc.RecordHand(ctx, c.scorer, ledger.NewHand{TableID: dame.ID, SessionID: sess.ID, Number: 1, Facts: c.facts(
		`{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":1,"hearts":[11,12]}]}`)}, nil)
	c.must(err)
	stats.reads = 0
	if _, err := svc.Leaderboard(ctx, c.admin, ledger.LeaderboardQuery{}); ledger.ErrorCode(err) != ledger.EINVALID || stats.reads != 1 {
		t.Errorf("two games unmixed: %v after %d reads, want EINVALID after 1", err, stats.reads)
	}
}

// wantError is nil when err has code, else an error saying what it is.
func wantError(code string, err error) error {
	if ledger.ErrorCode(err) == code {
		return nil
	}
	return fmt.Errorf("got %v, want %s", err, code)
}

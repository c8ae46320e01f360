package ledger_test

import (
	"context"
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

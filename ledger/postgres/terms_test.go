package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// termsLedger is a Schwarze Dame table (1 cent a point, matches of 8
// hands) whose settings change in the database, as an edit of a table
// would, to 5 cents and matches of 12 hands while its first evening is
// open: evening a is played and settled under the old terms, evening b
// under the new ones.
type termsLedger struct {
	db    *postgres.Store
	pool  *pgxpool.Pool
	svc   *ledger.Service
	club  ledger.Club
	admin ledger.Actor
	table int64
	a, b  ledger.Session
	ids   *strings.Replacer
	// The table's next hand while a is open after the change, and between
	// the evenings.
	nextInA, nextBetween json.RawMessage
}

func newTermsLedger(t *testing.T) *termsLedger {
	t.Helper()
	ctx := context.Background()
	l := &termsLedger{pool: pgtest.New(t)}
	l.db = postgres.New(l.pool, pgtest.ChainKey)
	l.svc = l.db.Service()
	var secret string
	var err error
	l.club, secret, err = l.svc.CreateClub(ctx, ledger.NewClub{Name: "Damenrunde", TimeZone: "Europe/Berlin"})
	must(t, err)
	l.admin, err = l.svc.Authenticate(ctx, secret)
	must(t, err)
	var seats []int64
	var pairs []string
	for i, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := l.svc.CreatePlayer(ctx, l.admin, name, nil)
		must(t, err)
		seats = append(seats, p.ID)
		pairs = append(pairs, fmt.Sprintf("P%d", i+1), fmt.Sprint(p.ID))
	}
	l.ids = strings.NewReplacer(pairs...)
	tb, _, err := l.svc.CreateTable(ctx, l.admin, ledger.NewTable{Name: "Damentisch", Game: "schwarze_dame", Stake: score.Int(1)}, nil)
	must(t, err)
	l.table = tb.ID
	l.a, _, err = l.svc.OpenSession(ctx, l.admin, l.table, "2026-11-19", seats, nil)
	must(t, err)
	l.record(t, l.a.ID, 1)
	_, err = l.pool.Exec(ctx, `
		UPDATE tables SET stake_num = 5, stake_den = 1, options = '{"hands_per_match": 12}',
		       rules = rules || '{"hands_per_match": 12}'
		WHERE table_id = $1`, l.table)
	must(t, err)
	l.record(t, l.a.ID, 2)
	l.nextInA = l.nextHand(t)
	_, err = l.svc.CloseSession(ctx, l.admin, l.a.ID)
	must(t, err)
	l.nextBetween = l.nextHand(t)
	l.b, _, err = l.svc.OpenSession(ctx, l.admin, l.table, "2026-11-26", seats, nil)
	must(t, err)
	l.record(t, l.b.ID, 3)
	return l
}

// record records hand number in session, worked example A of
// games/schwarzedame/README.md, and returns its result's state.
func (l *termsLedger) record(t *testing.T, session int64, number int) json.RawMessage {
	t.Helper()
	facts := json.RawMessage(l.ids.Replace(schwarzeDame(false)))
	h, _, err := l.svc.RecordHand(context.Background(), l.admin, ledger.NewHand{TableID: l.table, SessionID: session, Number: number, Facts: facts}, nil)
	must(t, err)
	return h.Result.State
}

// nextHand reads the table's next hand.
func (l *termsLedger) nextHand(t *testing.T) json.RawMessage {
	t.Helper()
	tbl, err := l.svc.FindTable(context.Background(), l.admin, l.table)
	must(t, err)
	return tbl.NextHand
}

// handsLeft reads a Schwarze Dame state's hands left in the match.
func handsLeft(t *testing.T, state json.RawMessage) int {
	t.Helper()
	var s struct {
		HandsLeft int `json:"hands_left"`
	}
	must(t, json.Unmarshal(state, &s))
	return s.HandsLeft
}

// TestSessionTermsOutliveTheTable: an evening keeps the terms it opened
// with when its table's settings change: its next hand, its hands (also
// one recorded after an undo) and its settlement (also one a correction
// makes after the change) follow them, while the next evening takes the
// table's new ones.
func TestSessionTermsOutliveTheTable(t *testing.T) {
	ctx := context.Background()
	l := newTermsLedger(t)
	a, err := l.svc.FindSession(ctx, l.admin, l.a.ID)
	must(t, err)
	if a.Terms.Stake.Cmp(score.Int(1)) != 0 || l.b.Terms.Stake.Cmp(score.Int(5)) != 0 {
		t.Errorf("the evenings' stakes: %s and %s, want 1 and 5", a.Terms.Stake, l.b.Terms.Stake)
	}
	hands, err := l.svc.ListHands(ctx, l.admin, l.table, ledger.HandFilter{Page: ledger.Page{Limit: 10}})
	must(t, err)
	// Evening a's second hand was recorded after the change, under a's
	// matches of 8 hands; evening b's, the match's third, under the new 12.
	if len(hands) != 3 || handsLeft(t, hands[1].Result.State) != 6 || handsLeft(t, hands[2].Result.State) != 9 {
		t.Fatalf("the hands' states: %s, %s; want 6 and 9 hands left", hands[1].Result.State, hands[2].Result.State)
	}
	// While a is open, the table's next hand follows a's terms; with no
	// evening open, the table's new settings.
	if handsLeft(t, l.nextInA) != 6 || handsLeft(t, l.nextBetween) != 10 {
		t.Errorf("the table's next hand: %s while a is open, %s between the evenings; want 6 of a's 8 and 10 of the new 12 left",
			l.nextInA, l.nextBetween)
	}
	// A correction of a's first hand re-settles a with a's stake.
	_, _, err = l.svc.CorrectHand(ctx, l.admin, ledger.Correction{TableID: l.table, Number: 1, Revision: 1,
		Facts: json.RawMessage(l.ids.Replace(schwarzeDame(true))), Reason: "vertauscht"}, nil)
	must(t, err)
	st, err := l.svc.FindSettlement(ctx, l.admin, l.a.ID)
	must(t, err)
	if st.Version != 2 || st.Stake.Cmp(score.Int(1)) != 0 {
		t.Errorf("evening a's settlement after the correction: version %d at %s cents a point, want version 2 at 1", st.Version, st.Stake)
	}
	// The table changes again, to matches of 4, while b is open: undoing
	// b's hand and recording the next keep b's matches of 12.
	_, err = l.pool.Exec(ctx, `
		UPDATE tables SET options = '{"hands_per_match": 4}', rules = rules || '{"hands_per_match": 4}'
		WHERE table_id = $1`, l.table)
	must(t, err)
	undone, _, err := l.svc.UndoHand(ctx, l.admin, l.table, 3)
	must(t, err)
	if handsLeft(t, undone.NextHand) != 10 {
		t.Errorf("the next hand after the undo: %s, want 10 of b's 12 left", undone.NextHand)
	}
	if state := l.record(t, l.b.ID, 4); handsLeft(t, state) != 9 {
		t.Errorf("b's hand after the undo: %s, want 9 of b's 12 left", state)
	}
}

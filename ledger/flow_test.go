package ledger_test

// The flows' rules, run against the in-memory ports (ledger/memory): no
// database needed. The same flows run against PostgreSQL in the postgres
// and api tests; these pin each rule of the flow itself, so breaking one
// fails a test here.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/memory"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// club is an in-memory club with an admin and a scorer, four players and a
// Doppelkopf table (house rules) with an open session.
type club struct {
	t       *testing.T
	store   *memory.Store
	svc     *ledger.Service
	admin   ledger.Actor
	scorer  ledger.Actor
	secret  string // the scorer's
	players []int64
	table   ledger.Table
	session ledger.Session
	ids     *strings.Replacer
}

func newClub(t *testing.T) *club {
	t.Helper()
	store := memory.New()
	return newClubOn(t, store, store.Ports())
}

// newClubOn is newClub on the given ports of store.
func newClubOn(t *testing.T, store *memory.Store, ports ledger.Ports) *club {
	t.Helper()
	ctx := context.Background()
	c := &club{t: t, store: store, svc: ledger.NewService(ports)}
	_, secret, err := c.svc.CreateClub(ctx, ledger.NewClub{Name: "Doko-Club Eichel"})
	c.must(err)
	c.admin, err = c.svc.Authenticate(ctx, secret)
	c.must(err)
	_, c.secret, err = c.svc.CreateKey(ctx, c.admin, ledger.RoleScorer, "Tisch 1")
	c.must(err)
	c.scorer, err = c.svc.Authenticate(ctx, c.secret)
	c.must(err)
	var pairs []string
	for i, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := c.svc.CreatePlayer(ctx, c.admin, name, nil)
		c.must(err)
		c.players = append(c.players, p.ID)
		pairs = append(pairs, fmt.Sprintf("P%d", i+1), fmt.Sprint(p.ID))
	}
	c.ids = strings.NewReplacer(pairs...)
	c.table, _, err = c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Donnerstag", Game: "doppelkopf", Preset: "house"}, nil)
	c.must(err)
	c.session, _, err = c.svc.OpenSession(ctx, c.scorer, c.table.ID, "2026-03-12", c.players, nil)
	c.must(err)
	return c
}

func (c *club) must(err error) {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
}

// facts replaces the placeholders P1..P4 by the players' ids.
func (c *club) facts(s string) json.RawMessage { return json.RawMessage(c.ids.Replace(s)) }

// record records the next hand as the scorer.
func (c *club) record(number int, facts string, idem *ledger.Idempotency) (ledger.Hand, bool, error) {
	return c.svc.RecordHand(context.Background(), c.scorer, ledger.NewHand{
		TableID: c.table.ID, SessionID: c.session.ID, Number: number, Facts: c.facts(facts)}, idem)
}

// play records hands 1..n of the Bock evening.
func (c *club) play(n int) {
	c.t.Helper()
	for i := range n {
		_, _, err := c.record(i+1, bockEvening[i], nil)
		c.must(err)
	}
}

// bockEvening is the shared Bock evening: hand 2 (120:120, Spaltarsch)
// opens a Bock round.
var bockEvening = gamestest.BockEvening

func code(err error) string { return ledger.ErrorCode(err) }

func wantCode(t *testing.T, what string, err error, want string) *ledger.Error {
	t.Helper()
	if code(err) != want {
		t.Fatalf("%s: got %v, want %s", what, err, want)
	}
	return ledger.AsError(err)
}

func (c *club) handCount() int {
	c.t.Helper()
	tb, err := c.svc.FindTable(context.Background(), c.admin, c.table.ID)
	c.must(err)
	return tb.Hands
}

func TestRecordHandNumbersHandsWithoutGaps(t *testing.T) {
	c := newClub(t)
	c.play(2)
	// Hand 2 again, and hand 4 before 3: both 409 naming the next number.
	for _, n := range []int{2, 4} {
		_, _, err := c.record(n, bockEvening[2], nil)
		e := wantCode(t, fmt.Sprintf("hand %d", n), err, ledger.ECONFLICT)
		if e.Field != "number" || e.Extra["next_number"] != 3 {
			t.Errorf("hand %d: the conflict names %q, next %v; want number, 3", n, e.Field, e.Extra["next_number"])
		}
	}
	if n := c.handCount(); n != 2 {
		t.Errorf("the table has %d hands, want 2", n)
	}
}

func TestRecordHandIsIdempotent(t *testing.T) {
	c := newClub(t)
	key := &ledger.Idempotency{Key: "phone-1-hand-1", Hash: []byte("body 1")}
	first, replayed, err := c.record(1, bockEvening[0], key)
	c.must(err)
	if replayed {
		t.Error("the first request is marked replayed")
	}
	// The same key and body, even after the table moved on, replays.
	c.play2From(2)
	again, replayed, err := c.record(1, bockEvening[0], key)
	c.must(err)
	if !replayed || again.ID != first.ID {
		t.Errorf("the retry: replayed %v, hand %d; want the replay of hand %d", replayed, again.ID, first.ID)
	}
	// The same key with another body, or for another kind of thing, is refused.
	_, _, err = c.record(3, bockEvening[2], &ledger.Idempotency{Key: "phone-1-hand-1", Hash: []byte("body 3")})
	wantCode(t, "the key with another body", err, ledger.EIDEMPOTENCY)
	_, _, err = c.svc.CreatePlayer(context.Background(), c.admin, "Erika", &ledger.Idempotency{Key: "phone-1-hand-1", Hash: []byte("body 1")})
	wantCode(t, "the key for a player", err, ledger.EIDEMPOTENCY)
	if n := c.handCount(); n != 2 {
		t.Errorf("the table has %d hands, want 2", n)
	}
}

// play2From records hand n of the Bock evening without a key.
func (c *club) play2From(n int) {
	c.t.Helper()
	_, _, err := c.record(n, bockEvening[n-1], nil)
	c.must(err)
}

func TestRecordHandRefusesWhatIsNotTheTables(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	other, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Freitag", Game: "doppelkopf"}, nil)
	c.must(err)
	// A session of another table.
	_, _, err = c.svc.RecordHand(ctx, c.scorer, ledger.NewHand{TableID: other.ID, SessionID: c.session.ID, Number: 1, Facts: c.facts(bockEvening[0])}, nil)
	if e := wantCode(t, "another table's session", err, ledger.EINVALID); e.Field != "session_id" {
		t.Errorf("the refusal names %q, want session_id", e.Field)
	}
	// Facts the engine refuses: Augen over 240.
	_, _, err = c.record(1, `{"game":"normal","re":{"players":[P1,P2],"augen":241}}`, nil)
	wantCode(t, "Augen 241", err, ledger.EINVALID)
	// A closed session takes no hand.
	_, err = c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	_, _, err = c.record(1, bockEvening[0], nil)
	wantCode(t, "a closed session", err, ledger.ECONFLICT)
	if n := c.handCount(); n != 0 {
		t.Errorf("refused hands left %d hands", n)
	}
}

func TestCorrectionNeedsTheCurrentRevision(t *testing.T) {
	c := newClub(t)
	c.play(3)
	ctx := context.Background()
	correct := func(rev int) (ledger.CorrectionResult, error) {
		res, _, err := c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 1, Revision: rev,
			Facts: c.facts(`{"game":"normal","re":{"players":[P1,P2],"augen":140}}`), Reason: "Augen verzählt"}, nil)
		return res, err
	}
	_, err := correct(0)
	wantCode(t, "no revision", err, ledger.EPRECONDREQ)
	res, err := correct(1)
	c.must(err)
	if res.Hand.Revision != 2 {
		t.Errorf("the corrected hand is at revision %d, want 2", res.Hand.Revision)
	}
	_, err = correct(1)
	if e := wantCode(t, "a stale revision", err, ledger.EPRECONDITION); e.Extra["current_revision"] != 2 {
		t.Errorf("the refusal names revision %v, want 2", e.Extra["current_revision"])
	}
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 1, Revision: 2, Reason: "nichts"}, nil)
	wantCode(t, "neither facts nor void", err, ledger.EINVALID)
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 1, Revision: 2, Void: true, Reason: "  "}, nil)
	wantCode(t, "no reason", err, ledger.EINVALID)
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 9, Revision: 1, Void: true, Reason: "gibt es nicht"}, nil)
	wantCode(t, "a hand not recorded", err, ledger.ENOTFOUND)
}

func TestCorrectionStopsWhereTheStateIsTheSame(t *testing.T) {
	c := newClub(t)
	c.play(5)
	ctx := context.Background()
	// Hand 1 with 140 Augen instead of 150 scores the same and leaves the
	// same state: only hand 1 gets a revision.
	res, _, err := c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 1, Revision: 1,
		Facts: c.facts(`{"game":"normal","re":{"players":[P1,P2],"augen":140}}`), Reason: "Augen verzählt"}, nil)
	c.must(err)
	if len(res.Rescored) != 0 {
		t.Errorf("re-scored %v after a correction that changes nothing later", res.Rescored)
	}
	for n := 2; n <= 5; n++ {
		if h, _ := c.svc.FindHand(ctx, c.admin, c.table.ID, n); h.Revision != 1 {
			t.Errorf("hand %d is at revision %d, want 1", n, h.Revision)
		}
	}
	// Hand 2 with 121 Augen opens no Bock round: the Bock hands after it
	// score half (hand 3: Re 160 with "Re" said, 2 x 2 = 4 instead of 8)
	// and get new revisions.
	if h3, _ := c.svc.FindHand(ctx, c.admin, c.table.ID, 3); h3.Result.Points[1].Points.String() != "8" {
		t.Fatalf("hand 3 as a Bock hand: %v, want Bernd +8", h3.Result.Points)
	}
	res, _, err = c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 2, Revision: 1,
		Facts: c.facts(`{"game":"normal","re":{"players":[P1,P3],"augen":121}}`), Reason: "121 statt 120"}, nil)
	c.must(err)
	if !slices.Equal(res.Rescored, []int{3, 4, 5}) {
		t.Errorf("re-scored %v, want [3 4 5]", res.Rescored)
	}
	h3, err := c.svc.FindHand(ctx, c.admin, c.table.ID, 3)
	c.must(err)
	if h3.Revision != 2 || h3.Result.Points[1].Points.String() != "4" {
		t.Errorf("hand 3 after the correction: revision %d, points %v; want 2 and Bernd +4", h3.Revision, h3.Result.Points)
	}
}

func TestOnlyAnAdminCorrectsAClosedSession(t *testing.T) {
	c := newClub(t)
	c.play(3)
	ctx := context.Background()
	_, err := c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	void := ledger.Correction{TableID: c.table.ID, Number: 3, Revision: 1, Void: true, Reason: "falsch gegeben"}
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, void, nil)
	wantCode(t, "a scorer", err, ledger.EFORBIDDEN)
	res, _, err := c.svc.CorrectHand(ctx, c.admin, void, nil)
	c.must(err)
	if !slices.Equal(res.Settlements, []int64{c.session.ID}) {
		t.Errorf("settlements resettled: %v, want the session's", res.Settlements)
	}
	st, err := c.svc.FindSettlement(ctx, c.admin, c.session.ID)
	c.must(err)
	if st.Version != 2 {
		t.Errorf("the settlement is at version %d, want 2", st.Version)
	}
	// The void hand scores nothing and counts for no Bock round.
	h, err := c.svc.FindHand(ctx, c.admin, c.table.ID, 3)
	c.must(err)
	if !h.Void || h.Result.Points[0].Points.Sign() != 0 {
		t.Errorf("hand 3 after voiding: void %v, points %v", h.Void, h.Result.Points)
	}
}

func TestAFailedFlowLeavesNothing(t *testing.T) {
	c := newClub(t)
	c.play(2)
	ctx := context.Background()
	before, err := c.svc.Changes(ctx, c.admin, 0, 1000, 0)
	c.must(err)
	// A correction the engine refuses changes nothing.
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 1, Revision: 1,
		Facts: c.facts(`{"game":"normal","re":{"players":[P1,P1],"augen":150}}`), Reason: "x"}, nil)
	wantCode(t, "invalid facts", err, ledger.EINVALID)
	after, err := c.svc.Changes(ctx, c.admin, 0, 1000, 0)
	c.must(err)
	if len(after) != len(before) {
		t.Errorf("a refused correction added %d changes", len(after)-len(before))
	}
	if h, _ := c.svc.FindHand(ctx, c.admin, c.table.ID, 1); h.Revision != 1 {
		t.Errorf("hand 1 is at revision %d after a refused correction", h.Revision)
	}
}

func TestSessionsAndNames(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	_, _, err := c.svc.OpenSession(ctx, c.scorer, c.table.ID, "2026-03-19", c.players, nil)
	if e := wantCode(t, "a second open session", err, ledger.ECONFLICT); e.Extra["open_session_id"] != c.session.ID {
		t.Errorf("the conflict names %v, want the open session %d", e.Extra["open_session_id"], c.session.ID)
	}
	_, err = c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	changes, err := c.svc.Changes(ctx, c.admin, 0, 1000, 0)
	c.must(err)
	again, err := c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	if again.ClosedAt == nil {
		t.Error("closing twice reopened the session")
	}
	if st, err := c.svc.FindSettlement(ctx, c.admin, c.session.ID); err != nil || st.Version != 1 {
		t.Errorf("closing twice: settlement version %d (%v), want 1", st.Version, err)
	}
	if after, _ := c.svc.Changes(ctx, c.admin, 0, 1000, 0); len(after) != len(changes) {
		t.Errorf("closing a closed session recorded %d changes", len(after)-len(changes))
	}
	_, _, err = c.svc.OpenSession(ctx, c.scorer, c.table.ID, "2026-03-19", []int64{c.players[0], c.players[1], 999}, nil)
	wantCode(t, "an unknown player", err, ledger.EINVALID)
	_, _, err = c.svc.CreatePlayer(ctx, c.admin, " Anna ", nil)
	if e := wantCode(t, "a taken name", err, ledger.ECONFLICT); e.Extra["existing_id"] != c.players[0] {
		t.Errorf("the conflict names %v, want Anna's id %d", e.Extra["existing_id"], c.players[0])
	}
	_, _, err = c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Donnerstag", Game: "doppelkopf"}, nil)
	wantCode(t, "a taken table name", err, ledger.ECONFLICT)
	_, _, err = c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Neu", Game: "doppelkopf", SettleMode: "bar"}, nil)
	wantCode(t, "an unknown settle mode", err, ledger.EINVALID)
}

func TestKeysAndKitty(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	keys, err := c.svc.ListKeys(ctx, c.admin, ledger.Page{})
	c.must(err)
	rotated, secret, err := c.svc.RotateKey(ctx, c.admin, c.scorer.KeyID)
	c.must(err)
	if rotated.Role != ledger.RoleScorer {
		t.Errorf("the successor is a %s key", rotated.Role)
	}
	if _, err := c.svc.Authenticate(ctx, secret); err != nil {
		t.Errorf("the successor's secret: %v", err)
	}
	after, err := c.svc.ListKeys(ctx, c.admin, ledger.Page{})
	c.must(err)
	if len(after) != len(keys)+1 || after[1].RevokedAt == nil {
		t.Errorf("after rotating: %+v", after)
	}
	_, err = c.svc.Authenticate(ctx, c.secret)
	wantCode(t, "the rotated key", err, ledger.EUNAUTHORIZED)
	_, err = c.svc.Authenticate(ctx, fmt.Sprintf("sb_%d_%d_%s", c.admin.ClubID, c.admin.KeyID, strings.Repeat("x", 43)))
	wantCode(t, "a wrong secret", err, ledger.EUNAUTHORIZED)

	_, _, err = c.svc.BookKitty(ctx, c.admin, 0, "nichts", nil)
	wantCode(t, "a booking of 0", err, ledger.EINVALID)
	b, _, err := c.svc.BookKitty(ctx, c.admin, -8000, "Grillabend", &ledger.Idempotency{Key: "grill", Hash: []byte("1")})
	c.must(err)
	again, replayed, err := c.svc.BookKitty(ctx, c.admin, -8000, "Grillabend", &ledger.Idempotency{Key: "grill", Hash: []byte("1")})
	c.must(err)
	if !replayed || again.ID != b.ID {
		t.Errorf("the retried booking: replayed %v, id %d; want %d", replayed, again.ID, b.ID)
	}
	k, err := c.svc.Kitty(ctx, c.admin)
	c.must(err)
	if k.CashCents != -8000 || k.TotalCents != -8000 || len(k.Cash) != 1 {
		t.Errorf("the kitty: %+v", k)
	}
}

func TestPaymentsCountInTheNextSettlementVersion(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	other, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Mit Einsatz", Game: "doppelkopf", Stake: score.Int(5)}, nil)
	c.must(err)
	_, err = c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	c.table = other
	c.session, _, err = c.svc.OpenSession(ctx, c.scorer, other.ID, "2026-03-19", c.players, nil)
	c.must(err)
	c.play(5)
	_, err = c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	v1, err := c.svc.FindSettlement(ctx, c.admin, c.session.ID)
	c.must(err)
	paid := v1.Transfers[0]
	_, err = c.svc.MarkTransferPaid(ctx, c.scorer, paid.ID)
	c.must(err)
	_, _, err = c.svc.CorrectHand(ctx, c.admin, ledger.Correction{TableID: other.ID, Number: 5, Revision: 1, Void: true, Reason: "falsch"}, nil)
	c.must(err)
	v2, err := c.svc.FindSettlement(ctx, c.admin, c.session.ID)
	c.must(err)
	var open int64
	for _, p := range v2.Players {
		if p.OpenCents != p.SettleCents+p.PaidCents-p.ReceivedCents {
			t.Errorf("player %d: open %d, settles %d, paid %d, received %d", p.Player, p.OpenCents, p.SettleCents, p.PaidCents, p.ReceivedCents)
		}
		open += p.OpenCents
	}
	if v2.Version != 2 || open != 0 {
		t.Errorf("version %d, open amounts sum to %d", v2.Version, open)
	}
	if p := v2.Players[slices.IndexFunc(v2.Players, func(p ledger.PlayerMoney) bool { return p.Player == *paid.From })]; p.PaidCents != paid.Cents {
		t.Errorf("the payer's %d cents are credited as %d", paid.Cents, p.PaidCents)
	}
	_, err = c.svc.MarkTransferPaid(ctx, c.scorer, v1.Transfers[1].ID)
	if e := wantCode(t, "a replaced transfer", err, ledger.ECONFLICT); e.Extra["current_version"] != 2 {
		t.Errorf("the conflict names version %v, want 2", e.Extra["current_version"])
	}
}

// staleHands is the in-memory HandStore with a write that loses its race
// the first `lose` times: another hand is recorded in between.
type staleHands struct {
	ledger.HandStore
	lose   int
	before func()
}

func (s *staleHands) AppendHand(ctx context.Context, clubID int64, r ledger.HandRecord) (ledger.Hand, error) {
	if s.lose > 0 {
		s.lose--
		s.before()
		return ledger.Hand{}, ledger.ErrStale
	}
	return s.HandStore.AppendHand(ctx, clubID, r)
}

func TestALostRaceIsDecidedAgain(t *testing.T) {
	store := memory.New()
	ports := store.Ports()
	hands := &staleHands{HandStore: ports.Hands}
	ports.Hands = hands
	c := newClubOn(t, store, ports)
	ctx := context.Background()

	// A phone loses the race for hand 1 to another phone's hand 1: it
	// reads again and gets the 409 naming hand 2.
	other := ledger.NewService(store.Ports())
	hands.lose, hands.before = 1, func() {
		if _, _, err := other.RecordHand(ctx, c.admin, ledger.NewHand{TableID: c.table.ID, SessionID: c.session.ID, Number: 1,
			Facts: c.facts(bockEvening[0])}, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := c.record(1, bockEvening[0], nil)
	if e := wantCode(t, "the lost race", err, ledger.ECONFLICT); e.Extra["next_number"] != 2 {
		t.Errorf("the conflict names %v, want 2", e.Extra["next_number"])
	}
	// A write that keeps losing to something that leaves the number free
	// gives up, asking to be sent again.
	hands.lose, hands.before = 10, func() {}
	_, _, err = c.record(2, bockEvening[1], nil)
	wantCode(t, "a race lost again and again", err, ledger.EUNAVAILABLE)
}

// TestKeyRulesKeepTheClubManageable: a revoked key gets no successor, and
// the club's last active admin key is neither revoked nor rotated; with a
// second admin key both are allowed.
func TestKeyRulesKeepTheClubManageable(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	_, err := c.svc.RevokeKey(ctx, c.admin, c.scorer.KeyID)
	c.must(err)
	again, err := c.svc.RevokeKey(ctx, c.admin, c.scorer.KeyID)
	c.must(err) // revoking again changes nothing
	if again.RevokedAt == nil {
		t.Error("the revoked key reads as active")
	}
	_, _, err = c.svc.RotateKey(ctx, c.admin, c.scorer.KeyID)
	wantCode(t, "rotating a revoked key", err, ledger.ECONFLICT)
	_, err = c.svc.RevokeKey(ctx, c.admin, c.admin.KeyID)
	wantCode(t, "revoking the last admin key", err, ledger.ECONFLICT)
	_, _, err = c.svc.RotateKey(ctx, c.admin, c.admin.KeyID)
	wantCode(t, "rotating the last admin key", err, ledger.ECONFLICT)
	_, err = c.svc.RevokeKey(ctx, c.admin, 999_999)
	wantCode(t, "an unknown key", err, ledger.ENOTFOUND)
	keys, err := c.svc.ListKeys(ctx, c.admin, ledger.Page{})
	c.must(err)
	if len(keys) != 2 {
		t.Fatalf("refused key changes left %d keys, want 2", len(keys))
	}

	second, _, err := c.svc.CreateKey(ctx, c.admin, ledger.RoleAdmin, "Kassenwart")
	c.must(err)
	successor, _, err := c.svc.RotateKey(ctx, c.admin, c.admin.KeyID)
	c.must(err)
	if successor.Role != ledger.RoleAdmin {
		t.Errorf("the successor is a %s key", successor.Role)
	}
	_, err = c.svc.RevokeKey(ctx, c.admin, second.ID)
	c.must(err)
	_, err = c.svc.RevokeKey(ctx, c.admin, successor.ID)
	wantCode(t, "revoking the last admin key after a rotation", err, ledger.ECONFLICT)
}

// TestKeyActiveSeesRevocations: this service forgets a key it revoked or
// rotated at once; another service on the same store (another instance)
// sees it once its memory is KeyRecheck old, without a read per check.
func TestKeyActiveSeesRevocations(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 12, 20, 0, 0, 0, time.UTC)
	other := c.store.Service().WithClock(func() time.Time { return now })
	active := func(svc *ledger.Service, a ledger.Actor) bool {
		t.Helper()
		ok, err := svc.KeyActive(ctx, a)
		c.must(err)
		return ok
	}
	if !active(c.svc, c.scorer) || !active(other, c.scorer) {
		t.Fatal("an active key reads as revoked")
	}
	reader, _, err := c.svc.CreateKey(ctx, c.admin, ledger.RoleReader, "Tafel")
	c.must(err)
	readerActor := ledger.Actor{ClubID: c.admin.ClubID, KeyID: reader.ID, Role: ledger.RoleReader}
	if !active(c.svc, readerActor) {
		t.Error("a new key reads as revoked where it was created")
	}
	_, _, err = c.svc.RotateKey(ctx, c.admin, c.scorer.KeyID)
	c.must(err)
	if active(c.svc, c.scorer) {
		t.Error("the rotated key is active where it was rotated")
	}
	if !active(other, c.scorer) {
		t.Error("another instance read the keys again before KeyRecheck passed")
	}
	now = now.Add(ledger.KeyRecheck)
	if active(other, c.scorer) {
		t.Errorf("another instance still takes the rotated key %v later", ledger.KeyRecheck)
	}
}

// TestAHandsClientIDIsItsKey: a hand sent with an Idempotency-Key and a
// client id is keyed by the id, so the outbox's retry under that id is
// the replay, not a refusal.
func TestAHandsClientIDIsItsKey(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	hand := ledger.NewHand{TableID: c.table.ID, SessionID: c.session.ID, Number: 1, Facts: c.facts(bockEvening[0]),
		ClientID: "0b7e2a4c-outbox-1"}
	first, _, err := c.svc.RecordHand(ctx, c.scorer, hand, &ledger.Idempotency{Key: "header-key", Hash: []byte("the body")})
	c.must(err)
	// The outbox retries the same hand, spelt otherwise, under its id alone.
	retry := hand
	retry.Facts = json.RawMessage(" " + string(hand.Facts) + " ")
	again, replayed, err := c.svc.RecordHand(ctx, c.scorer, retry, nil)
	c.must(err)
	if !replayed || again.ID != first.ID {
		t.Errorf("the outbox's retry: replayed %v, hand %d; want the replay of hand %d", replayed, again.ID, first.ID)
	}
	// The same id with another hand is refused.
	other := hand
	other.Number, other.Facts = 2, c.facts(bockEvening[1])
	_, _, err = c.svc.RecordHand(ctx, c.scorer, other, nil)
	wantCode(t, "the id with another hand", err, ledger.EIDEMPOTENCY)
	if n := c.handCount(); n != 1 {
		t.Errorf("the table has %d hands, want 1", n)
	}
}

// TestAScorerGetsNoAdminsReplay: the role check of a closed session's
// correction comes before the Idempotency-Key is looked up.
func TestAScorerGetsNoAdminsReplay(t *testing.T) {
	c := newClub(t)
	c.play(3)
	ctx := context.Background()
	_, err := c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	void := ledger.Correction{TableID: c.table.ID, Number: 3, Revision: 1, Void: true, Reason: "falsch gegeben"}
	key := &ledger.Idempotency{Key: "admin-void-3", Hash: []byte("the body")}
	_, _, err = c.svc.CorrectHand(ctx, c.admin, void, key)
	c.must(err)
	_, replayed, err := c.svc.CorrectHand(ctx, c.admin, void, key)
	c.must(err)
	if !replayed {
		t.Error("the admin's retry is not a replay")
	}
	res, replayed, err := c.svc.CorrectHand(ctx, c.scorer, void, key)
	wantCode(t, fmt.Sprintf("a scorer with the admin's key (replayed %v, %+v)", replayed, res.Hand.ID), err, ledger.EFORBIDDEN)
}

// TestEventsCarryTheHandStandingsAndState: a page of the feed as events,
// hands with their table's standings and state, other changes bare.
func TestEventsCarryTheHandStandingsAndState(t *testing.T) {
	c := newClub(t)
	c.play(3)
	ctx := context.Background()
	events, err := c.svc.Events(ctx, c.admin, 0, 100, 0)
	c.must(err)
	if len(events) != 4 || events[0].Change.Kind != ledger.ChangeSessionOpened || events[0].Hand != nil {
		t.Fatalf("events: %d, the first %+v", len(events), events[0].Change)
	}
	for i, ev := range events[1:] {
		if ev.Hand == nil || ev.Hand.Number != i+1 || len(ev.Standings) != 4 || len(ev.State) == 0 {
			t.Errorf("event %d: hand %v, %d standings, state %s", ev.Change.Seq, ev.Hand, len(ev.Standings), ev.State)
		}
	}
	page, err := c.svc.Events(ctx, c.admin, events[1].Change.Seq, 1, c.table.ID)
	c.must(err)
	if len(page) != 1 || page[0].Hand == nil || page[0].Hand.Number != 2 {
		t.Errorf("a page of one after hand 1: %+v", page)
	}
}

// TestUndoTakesBackTheLastHandThatCounts: the last hand is voided and the
// table's next hand is what it was before it; undoing it again changes
// nothing; only the last counting hand of an open session can be undone.
func TestUndoTakesBackTheLastHandThatCounts(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	c.play(3)
	before, err := c.svc.FindTable(ctx, c.admin, c.table.ID)
	c.must(err)
	c.play2From(4)
	res, replayed, err := c.svc.UndoHand(ctx, c.scorer, c.table.ID, 4)
	c.must(err)
	if replayed || !res.Hand.Void || res.Hand.Reason != ledger.UndoReason {
		t.Errorf("undo of hand 4: replayed %v, void %v, reason %q", replayed, res.Hand.Void, res.Hand.Reason)
	}
	if !ledger.SameState(res.NextHand, before.NextHand) {
		t.Errorf("the next hand after the undo is\n%s\nwant the one before hand 4\n%s", res.NextHand, before.NextHand)
	}
	again, replayed, err := c.svc.UndoHand(ctx, c.scorer, c.table.ID, 4)
	c.must(err)
	if !replayed || again.Hand.Revision != res.Hand.Revision {
		t.Errorf("undoing hand 4 again: replayed %v, revision %d, want %d", replayed, again.Hand.Revision, res.Hand.Revision)
	}
	_, _, err = c.svc.UndoHand(ctx, c.scorer, c.table.ID, 2)
	if e := wantCode(t, "undoing hand 2 before hand 3", err, ledger.ECONFLICT); e.Extra["last_hand"] != 3 {
		t.Errorf("the refusal names hand %v, want 3", e.Extra["last_hand"])
	}
	_, _, err = c.svc.UndoHand(ctx, c.scorer, c.table.ID, 9)
	wantCode(t, "undoing a hand not recorded", err, ledger.ENOTFOUND)
	_, err = c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	_, _, err = c.svc.UndoHand(ctx, c.admin, c.table.ID, 3)
	wantCode(t, "undoing a hand of a closed session", err, ledger.ECONFLICT)
}

// openLooking is a TableStore whose unlocked reads still see every session
// open: what the check before the lock saw when the session closed
// between that check and the table's lock.
type openLooking struct{ ledger.TableStore }

func (s openLooking) FindSession(ctx context.Context, clubID, id int64) (ledger.Session, error) {
	sess, err := s.TableStore.FindSession(ctx, clubID, id)
	sess.ClosedAt = nil
	return sess, err
}

// TestAScorerLosesTheRaceWithTheClose: a scorer's correction whose first
// look found the session open, but which reaches the table after the
// session closed, is refused under the lock; nothing changes.
func TestAScorerLosesTheRaceWithTheClose(t *testing.T) {
	store := memory.New()
	ports := store.Ports()
	ports.Tables = openLooking{ports.Tables}
	c := newClubOn(t, store, ports)
	c.play(3)
	ctx := context.Background()
	_, err := c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	void := ledger.Correction{TableID: c.table.ID, Number: 3, Revision: 1, Void: true, Reason: "falsch gegeben"}
	_, _, err = c.svc.CorrectHand(ctx, c.scorer, void, nil)
	wantCode(t, "a scorer after the close", err, ledger.EFORBIDDEN)
	h, err := c.svc.FindHand(ctx, c.admin, c.table.ID, 3)
	c.must(err)
	if h.Void || h.Revision != 1 {
		t.Errorf("hand 3 after the refused correction: void %v, revision %d", h.Void, h.Revision)
	}
}

// countedHands counts the store's hand snapshots.
type countedHands struct {
	ledger.HandStore
	reads int
}

func (s *countedHands) HandSnapshot(ctx context.Context, clubID, tableID, sessionID int64, key string) (ledger.HandSnapshot, error) {
	s.reads++
	return s.HandStore.HandSnapshot(ctx, clubID, tableID, sessionID, key)
}

// TestTheNextHandIsDecidedFromWhatTheLastLeft: a table's hands recorded
// one after another through one service read the table once; the next
// hand is decided from what the last one left (its number, state and
// version), and once SnapshotReuse has passed the table is read again.
// A refusal is never answered from what was kept: a retried hand 1 reads
// the table and is replayed.
func TestTheNextHandIsDecidedFromWhatTheLastLeft(t *testing.T) {
	store := memory.New()
	ports := store.Ports()
	hands := &countedHands{HandStore: ports.Hands}
	ports.Hands = hands
	now := time.Date(2026, 3, 12, 20, 0, 0, 0, time.UTC)
	c := newClubOn(t, store, ports)
	c.svc = c.svc.WithClock(func() time.Time { return now })
	key := &ledger.Idempotency{Key: "hand-1", Hash: []byte("hand 1")}
	h1, _, err := c.record(1, bockEvening[0], key)
	c.must(err)
	for n := 2; n <= 5; n++ {
		_, _, err := c.record(n, bockEvening[n-1], nil)
		c.must(err)
	}
	if hands.reads != 1 {
		t.Errorf("5 hands read the table %d times, want once", hands.reads)
	}
	again, replayed, err := c.record(1, bockEvening[0], key)
	c.must(err)
	if !replayed || again.ID != h1.ID || hands.reads != 2 {
		t.Errorf("the retry of hand 1: replayed %v, hand %d (want %d), %d reads (want 2)", replayed, again.ID, h1.ID, hands.reads)
	}
	now = now.Add(ledger.SnapshotReuse)
	_, _, err = c.record(6, bockEvening[5], nil)
	c.must(err)
	if hands.reads != 3 {
		t.Errorf("after SnapshotReuse the table was read %d times in all, want 3", hands.reads)
	}
}

// pausedHands is the in-memory HandStore whose next write, and whose next
// read after readsBefore more, each wait until released, telling when they
// have begun; it counts the writes.
type pausedHands struct {
	ledger.HandStore
	mu                    sync.Mutex
	writes, readsBefore   int
	pauseWrite, pauseRead bool
	writing, reading      chan struct{}
	releaseW, releaseR    chan struct{}
}

func (s *pausedHands) AppendHand(ctx context.Context, clubID int64, r ledger.HandRecord) (ledger.Hand, error) {
	s.mu.Lock()
	s.writes++
	pause := s.pauseWrite
	s.pauseWrite = false
	s.mu.Unlock()
	if pause {
		close(s.writing)
		<-s.releaseW
	}
	return s.HandStore.AppendHand(ctx, clubID, r)
}

func (s *pausedHands) HandSnapshot(ctx context.Context, clubID, tableID, sessionID int64, key string) (ledger.HandSnapshot, error) {
	s.mu.Lock()
	pause := s.pauseRead && s.readsBefore == 0
	if pause {
		s.pauseRead = false
	}
	s.readsBefore--
	s.mu.Unlock()
	if pause {
		close(s.reading)
		<-s.releaseR
	}
	return s.HandStore.HandSnapshot(ctx, clubID, tableID, sessionID, key)
}

// TestALoserIsAnsweredOutsideTheTablesTurn: two phones send hand 2 of a
// table at once. The second waits for the table's turn while the first
// writes; it then writes nothing (one write for hand 2), and the read its
// 409 comes from does not hold the turn: hand 3 is stored while that read
// is still under way.
func TestALoserIsAnsweredOutsideTheTablesTurn(t *testing.T) {
	store := memory.New()
	ports := store.Ports()
	hands := &pausedHands{HandStore: ports.Hands, writing: make(chan struct{}), reading: make(chan struct{}),
		releaseW: make(chan struct{}), releaseR: make(chan struct{})}
	ports.Hands = hands
	c := newClubOn(t, store, ports)
	_, _, err := c.record(1, bockEvening[0], nil)
	c.must(err)
	hands.mu.Lock()
	hands.writes, hands.pauseWrite, hands.pauseRead, hands.readsBefore = 0, true, true, 0
	hands.mu.Unlock()
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { _, _, err := c.record(2, bockEvening[1], nil); first <- err }()
	<-hands.writing
	go func() { _, _, err := c.record(2, bockEvening[1], nil); second <- err }()
	time.Sleep(20 * time.Millisecond) // the second request decides from what hand 1 left and waits for the turn
	close(hands.releaseW)
	c.must(<-first)
	select {
	case <-hands.reading:
	case err := <-second:
		t.Fatalf("the second hand 2 was answered (%v) without a read of the store", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the second hand 2 never read the table")
	}
	third := make(chan error, 1)
	go func() { _, _, err := c.record(3, bockEvening[2], nil); third <- err }()
	select {
	case err := <-third:
		c.must(err)
	case <-time.After(10 * time.Second):
		t.Fatal("hand 3 waited for the second hand 2's read: the read held the table's turn")
	}
	close(hands.releaseR)
	wantCode(t, "the second hand 2", <-second, ledger.ECONFLICT)
	if hands.writes != 2 {
		t.Errorf("%d writes for hands 2, 2 and 3, want 2: the loser wrote", hands.writes)
	}
}

// TestTheNextHandWaitsForTheOneBeingWritten: a phone sends hand 3 while
// hand 2 of its table is being written. It waits for that write and is
// decided from what hand 2 leaves: stored, without a read of the table,
// instead of being refused from what hand 1 left.
func TestTheNextHandWaitsForTheOneBeingWritten(t *testing.T) {
	store := memory.New()
	ports := store.Ports()
	hands := &pausedHands{HandStore: ports.Hands, writing: make(chan struct{}), releaseW: make(chan struct{})}
	ports.Hands = hands
	c := newClubOn(t, store, ports)
	_, _, err := c.record(1, bockEvening[0], nil)
	c.must(err)
	hands.mu.Lock()
	hands.writes, hands.pauseWrite, hands.readsBefore = 0, true, 1000
	hands.mu.Unlock()
	second, third := make(chan error, 1), make(chan error, 1)
	go func() { _, _, err := c.record(2, bockEvening[1], nil); second <- err }()
	<-hands.writing
	go func() { _, _, err := c.record(3, bockEvening[2], nil); third <- err }()
	time.Sleep(20 * time.Millisecond) // hand 3 reaches the table's lane while hand 2 is written
	close(hands.releaseW)
	c.must(<-second)
	if err := <-third; err != nil {
		t.Fatalf("hand 3, sent while hand 2 was written: %v, want it stored after hand 2", err)
	}
	hands.mu.Lock()
	defer hands.mu.Unlock()
	if reads := 1000 - hands.readsBefore; reads != 0 || hands.writes != 2 {
		t.Errorf("hands 2 and 3 read the table %d times and wrote %d times, want 0 reads and 2 writes", reads, hands.writes)
	}
}

// failingWriter runs the store's transactions with a LockTable that fails
// as a broken database would.
type failingWriter struct {
	store *memory.Store
	err   error
}

func (w failingWriter) InTx(ctx context.Context, clubID int64, fn func(ledger.Tx) error) error {
	return w.store.InTx(ctx, clubID, func(tx ledger.Tx) error { return fn(failingTx{tx, w.err}) })
}

type failingTx struct {
	ledger.Tx
	err error
}

func (f failingTx) LockTable(context.Context, int64) (ledger.Table, error) {
	return ledger.Table{}, f.err
}

// TestAStoreFailureSaysWhere: an error of the store comes back from a flow
// wrapped with the flow and the step it failed in, for the log of the
// 500 it becomes, and still is what the store returned (errors.Is) and an
// internal error (no code of its own).
func TestAStoreFailureSaysWhere(t *testing.T) {
	c := newClub(t)
	broken := errors.New("disk on fire")
	ports := c.store.Ports()
	ports.Writer = failingWriter{c.store, broken}
	svc := ledger.NewService(ports)
	_, err := svc.CloseSession(context.Background(), c.scorer, c.session.ID)
	if !errors.Is(err, broken) || ledger.ErrorCode(err) != ledger.EINTERNAL || !strings.Contains(err.Error(), "CloseSession: LockTable") {
		t.Errorf("closing with a broken store: %v (code %s), want the store's error wrapped with CloseSession: LockTable", err, ledger.ErrorCode(err))
	}
}

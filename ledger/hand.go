package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Engine returns the scoring engine of a game, or EINVALID naming field.
func Engine(field, game string) (score.Engine, error) {
	e, ok := games.Lookup(game)
	if !ok {
		return nil, Invalid(field, "unknown game %q (known: %v)", game, games.Names())
	}
	return e, nil
}

// ResolveRules turns a game's preset and option overrides into the complete
// rule set stored with every hand.
func ResolveRules(game, preset string, options json.RawMessage) (json.RawMessage, error) {
	e, err := Engine("game", game)
	if err != nil {
		return nil, err
	}
	rules, err := e.Rules(preset, options)
	if err != nil {
		return nil, AsError(err)
	}
	return rules, nil
}

// ParseDate checks a YYYY-MM-DD date.
func ParseDate(field, s string) (score.Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return score.Date{}, Invalid(field, "must be a date YYYY-MM-DD, got %q", s)
	}
	return score.Date{Year: t.Year(), Month: int(t.Month()), Day: t.Day()}, nil
}

// Today returns today's date in the time zone tz (UTC if it is unknown).
func Today(now time.Time, tz string) string {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	return now.In(loc).Format(time.DateOnly)
}

// ScoreHand scores facts for the next hand at table t in session s, from
// the table's current state under the table's current rules, and checks
// what every hand must satisfy: only seated players score, and a zero-sum
// game's hand sums to exactly zero.
func ScoreHand(t Table, s Session, facts json.RawMessage) (score.Result, error) {
	date, err := ParseDate("date", s.Date)
	if err != nil {
		return score.Result{}, err
	}
	return scoreWith(t.Game, score.Hand{
		Seated:  s.Seating,
		Session: s.ID,
		Date:    date,
		Rules:   t.Rules,
		State:   t.State,
		Facts:   facts,
	})
}

// Preview scores a hand without storing anything: the stateless score
// endpoint. The rules are resolved from preset and options.
func Preview(game, preset string, options json.RawMessage, seated []int64, date string, state, facts json.RawMessage) (score.Result, json.RawMessage, error) {
	rules, err := ResolveRules(game, preset, options)
	if err != nil {
		return score.Result{}, nil, err
	}
	d, err := ParseDate("date", date)
	if err != nil {
		return score.Result{}, nil, err
	}
	if err := CheckSeating("players", seated); err != nil {
		return score.Result{}, nil, err
	}
	res, err := scoreWith(game, score.Hand{Seated: seated, Date: d, Rules: rules, State: state, Facts: facts})
	if ErrorCode(err) == EINTERNAL && len(state) > 0 {
		// Here the state comes from the client, not from the ledger.
		return score.Result{}, nil, Invalid("state", "is not a %s state this hand can follow: %v", game, err)
	}
	return res, rules, err
}

// CheckSeating refuses an empty seating or a player seated twice.
func CheckSeating(field string, seating []int64) error {
	if len(seating) < 2 || len(seating) > 8 {
		return Invalid(field, "a table seats 2 to 8 players, got %d", len(seating))
	}
	for i, id := range seating {
		if slices.Contains(seating[:i], id) {
			return Invalid(fmt.Sprintf("%s[%d]", field, i), "player %d is seated twice", id)
		}
	}
	return nil
}

func scoreWith(game string, h score.Hand) (res score.Result, err error) {
	e, err := Engine("game", game)
	if err != nil {
		return score.Result{}, err
	}
	defer func() {
		// An engine must never panic; if one does, the hand is refused as a
		// bug rather than taking the server down.
		if p := recover(); p != nil {
			res, err = score.Result{}, Errorf(EINTERNAL, "scoring engine %s failed: %v", game, p)
		}
	}()
	res, err = e.Score(h)
	var v *score.Violation
	if errors.As(err, &v) {
		return score.Result{}, AsError(err)
	}
	if err != nil {
		return score.Result{}, Errorf(EINTERNAL, "scoring engine %s: %v", game, err)
	}
	return res, checkResult(e, h.Seated, res)
}

// checkResult guards the ledger against an engine bug: an unseated or
// repeated player, or a zero-sum game's hand that does not sum to zero.
func checkResult(e score.Engine, seated []int64, res score.Result) error {
	var sum score.Points
	seen := make(map[int64]bool, len(res.Points))
	for _, p := range res.Points {
		if !slices.Contains(seated, p.Player) || seen[p.Player] {
			return Errorf(EINTERNAL, "engine %s scored player %d who is not seated or twice", e.Name(), p.Player)
		}
		seen[p.Player] = true
		sum = sum.Add(p.Points)
	}
	if e.ZeroSum() && !sum.IsZero() {
		return Errorf(EINTERNAL, "engine %s: hand sums to %s, a %s hand must sum to 0", e.Name(), sum, e.Name())
	}
	if len(res.State) == 0 {
		return Errorf(EINTERNAL, "engine %s returned no state", e.Name())
	}
	return nil
}

// ZeroSumGames lists the games whose hands must sum to exactly zero.
func ZeroSumGames() []string {
	var out []string
	for _, name := range games.Names() {
		if e, _ := games.Lookup(name); e.ZeroSum() {
			out = append(out, name)
		}
	}
	return out
}

// Validate refuses a hand that names no session or a number below 1;
// its facts are the engine's to judge.
func (nh NewHand) Validate() error {
	if nh.SessionID < 1 {
		return Invalid("session_id", "must name the session, a positive id")
	}
	if nh.Number < 1 {
		return Invalid("number", "must be the hand's number, from 1")
	}
	return nil
}

// RecordHand scores and stores one hand in one transaction: the hand, one
// entry per player, the running totals of table and session, the table's
// new state and hand count, the statistics, the Idempotency-Key and the
// change. The table is locked first, so hands of one table are numbered
// 1, 2, 3 … with no gap and no duplicate; a request expecting another
// number is ECONFLICT naming the current one. The bool is true when an
// earlier identical request is replayed. A hand with a client id is keyed
// by that id (ClientKey), not by idem.
func (s *Service) RecordHand(ctx context.Context, a Actor, nh NewHand, idem *Idempotency) (Hand, bool, error) {
	if err := nh.Validate(); err != nil {
		return Hand{}, false, err
	}
	if nh.ClientID != "" {
		idem = nh.ClientKey()
	}
	if err := s.numberTaken(ctx, a.ClubID, nh, idem); err != nil {
		return Hand{}, false, err
	}
	var h Hand
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindHand)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			h, err = tx.Hand(ctx, ref)
			return err
		}
		t, sess, found, err := tx.LockTableAndSession(ctx, nh.TableID, nh.SessionID)
		if err != nil {
			return err
		}
		if !found || sess.TableID != t.ID {
			return Invalid("session_id", "session %d is not a session of table %d", nh.SessionID, t.ID)
		}
		if !sess.Open() {
			return Errorf(ECONFLICT, "session %d is closed; no more hands can be recorded in it", sess.ID)
		}
		if nh.Number != t.Hands+1 {
			return numberConflict(nh, t.Hands)
		}
		res, err := ScoreHand(t, sess, nh.Facts)
		if err != nil {
			return err
		}
		h, err = tx.AppendHand(ctx, HandRecord{
			Table: t, Session: sess, Number: nh.Number, Facts: nh.Facts, Result: res, RecordedBy: a.KeyID,
			Stats: StatsOf(res), Idempotency: idem,
			Change: NewChange{Kind: ChangeHandRecorded, TableID: &t.ID, SessionID: &sess.ID, Number: &nh.Number,
				Data: map[string]any{"revision": 1}},
		})
		return err
	})
	return h, replayed, err
}

// ClientKey is the idempotency of a hand with a client id: the id is the
// key, and what makes the hand this hand (its session, number and facts,
// however spelt) is the hash. The same id with the same hand replays it;
// with another hand it is refused.
func (nh NewHand) ClientKey() *Idempotency {
	raw, _ := json.Marshal(struct {
		SessionID int64           `json:"session_id"`
		Number    int             `json:"number"`
		Facts     json.RawMessage `json:"facts"`
	}{nh.SessionID, nh.Number, CanonicalJSON(nh.Facts)})
	sum := sha256.Sum256(raw)
	return &Idempotency{Key: "hand:" + nh.ClientID, Hash: sum[:]}
}

// numberTaken is the 409 of a phone that lost the race for a hand number,
// from one read before any transaction or lock: at a hot table most
// requests are such losers. A request whose Idempotency-Key is already
// stored goes on to its replay; the hand and its key are committed
// together, so one snapshot never shows the number taken by this very key
// without the key. A missing table is left to the transaction to name.
func (s *Service) numberTaken(ctx context.Context, clubID int64, nh NewHand, idem *Idempotency) error {
	key := ""
	if idem != nil {
		key = idem.Key
	}
	hands, known, err := s.Hands.HandCount(ctx, clubID, nh.TableID, key)
	if ErrorCode(err) == ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if nh.Number <= hands && !known {
		return numberConflict(nh, hands)
	}
	return nil
}

// numberConflict is the 409 of a hand that expects another number than the
// table's next, naming the one to record.
func numberConflict(nh NewHand, hands int) error {
	return &Error{
		Code:    ECONFLICT,
		Message: fmt.Sprintf("hand %d of table %d is already recorded or out of order: the table has %d hands, the next is %d", nh.Number, nh.TableID, hands, hands+1),
		Field:   "number", Rule: "must be the table's next hand number",
		Extra: map[string]any{"current_number": hands, "next_number": hands + 1},
	}
}

// FindHand returns hand number n of a table.
func (s *Service) FindHand(ctx context.Context, a Actor, tableID int64, n int) (Hand, error) {
	return s.Hands.FindHand(ctx, a.ClubID, tableID, n)
}

// ListHands returns a table's hands in order, those numbered after p.After.
func (s *Service) ListHands(ctx context.Context, a Actor, tableID int64, p Page) ([]Hand, error) {
	if _, err := s.Tables.FindTable(ctx, a.ClubID, tableID); err != nil {
		return nil, err
	}
	list, err := s.Hands.ListHands(ctx, a.ClubID, tableID, p)
	if list == nil {
		list = []Hand{}
	}
	return list, err
}

// HandRevisions returns every revision of a hand, the original first.
func (s *Service) HandRevisions(ctx context.Context, a Actor, tableID int64, number int) ([]Revision, error) {
	return s.Hands.HandRevisions(ctx, a.ClubID, tableID, number)
}

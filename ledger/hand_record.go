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

// Hand is the immutable record of one hand: its facts, the rule set it was
// scored under, the result, and the table's state after it.
type Hand struct {
	ID         int64           `json:"id"`
	TableID    int64           `json:"table_id"`
	SessionID  int64           `json:"session_id"`
	Number     int             `json:"number"`
	Game       string          `json:"game"`
	Rules      json.RawMessage `json:"rules"`
	Facts      json.RawMessage `json:"facts"`
	Result     score.Result    `json:"result"`
	RecordedBy int64           `json:"recorded_by_key_id"`
	RecordedAt time.Time       `json:"recorded_at"`
	// Revision is the hand's current revision: 1 as recorded, more after
	// corrections (the facts and result above are the current ones).
	Revision int  `json:"revision"`
	Void     bool `json:"void"`
	// SessionNumber is the hand's number within its evening, from 1, as a
	// paper list counts (Number runs on across the table's evenings).
	SessionNumber int `json:"session_number"`
	// Reason is the reason given with the current revision (why the hand
	// was corrected or voided, or which correction re-scored it); empty as
	// recorded.
	Reason string `json:"reason,omitempty"`
	// Hash is the tamper-evidence hash of the current revision, what the
	// store chains the hand's next revision to; the flows hand it back to
	// the store unread.
	Hash []byte `json:"-"`
}

// MarshalJSON adds to the hand's fields who dealt it and who played it
// (the result's, as the engine resolved them when the facts left them
// out), and whether it stands corrected.
func (h Hand) MarshalJSON() ([]byte, error) {
	type plain Hand
	return json.Marshal(struct {
		plain
		Dealer    int64   `json:"dealer_id,omitempty"`
		Players   []int64 `json:"player_ids,omitempty"`
		Corrected bool    `json:"corrected"`
	}{plain(h), h.Result.Dealer, h.Result.Players, h.Corrected()})
}

// Corrected reports whether the hand stands as a later revision than it
// was recorded with (corrected, or re-scored by an earlier hand's
// correction) and still counts: an undone (voided) hand is not corrected.
func (h Hand) Corrected() bool { return h.Revision > 1 && !h.Void }

// NewHand is a hand to record.
type NewHand struct {
	TableID   int64
	SessionID int64
	// Number is the number the client expects the hand to get; another
	// hand recorded first makes it a conflict instead of a duplicate.
	Number int
	Facts  json.RawMessage
	// ClientID is the id an offline outbox gave the hand (optional). When
	// set it is the hand's idempotency key, whatever Idempotency-Key came
	// with it: the outbox retries under it.
	ClientID string
}

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

// The dates the ledger keeps: every evening a club can have played or
// plan, and nothing PostgreSQL's date or Go's YYYY-MM-DD cannot hold.
const (
	MinDate = "1900-01-01"
	MaxDate = "9999-12-31"
)

// ParseDate checks a YYYY-MM-DD date from MinDate to MaxDate.
func ParseDate(field, s string) (score.Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || s < MinDate || s > MaxDate { // YYYY-MM-DD compare as text
		return score.Date{}, Invalid(field, "must be a date YYYY-MM-DD from %s to %s, got %q", MinDate, MaxDate, s)
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
// the table's current state under the rule set of the session's terms
// (the table's when the session opened), and checks
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
		Rules:   s.Terms.Rules,
		State:   t.State,
		Facts:   facts,
	})
}

// ScoreDraft scores a hand without storing anything: the stateless score
// endpoint. The rules are resolved from preset and options.
func ScoreDraft(game, preset string, options json.RawMessage, seated []int64, date string, state, facts json.RawMessage) (score.Result, json.RawMessage, error) {
	rules, err := ResolveRules(game, preset, options)
	if err != nil {
		return score.Result{}, nil, err
	}
	d, err := ParseDate("date", date)
	if err != nil {
		return score.Result{}, nil, err
	}
	if err := CheckSeating("player_ids", seated); err != nil {
		return score.Result{}, nil, err
	}
	res, err := scoreWith(game, score.Hand{Seated: seated, Date: d, Rules: rules, State: state, Facts: facts})
	if ErrorCode(err) == EINTERNAL && len(state) > 0 {
		// Here the state comes from the client, not from the ledger.
		return score.Result{}, nil, Invalid("state", "is not a %s state this hand can follow: %v", game, err)
	}
	return res, rules, err
}

// How many players a session seats.
const (
	MinSeated = 2
	MaxSeated = 8
)

// CheckSeating refuses too few or too many players or a player seated twice.
func CheckSeating(field string, seating []int64) error {
	if len(seating) < MinSeated || len(seating) > MaxSeated {
		return Invalid(field, "a table seats %d to %d players, got %d", MinSeated, MaxSeated, len(seating))
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
	return CheckHandNumber("number", nh.Number)
}

// MaxHandNumber is the last number a table's hand can have (the number
// columns are PostgreSQL integers).
const MaxHandNumber = 1<<31 - 1

// CheckHandNumber refuses a hand number outside 1..MaxHandNumber.
func CheckHandNumber(field string, n int) error {
	if n < 1 || n > MaxHandNumber {
		return Invalid(field, "must be a hand's number, from 1 to %d, got %d", MaxHandNumber, n)
	}
	return nil
}

// RecordHand scores and stores one hand in one transaction: the hand, one
// entry per player, the running totals of table and session, the table's
// new state and hand count, the statistics, the Idempotency-Key and the
// change. It reads the table without a lock, decides, and stores the hand
// only if the table is still as read (a compare-and-set): hands of one
// table are numbered 1, 2, 3 … with no gap and no duplicate, and a request
// expecting another number is ECONFLICT naming the current one. The bool
// is true when an earlier identical request is replayed. The hand's texts
// come with the players' names (Names). A hand with a client id is keyed
// by that id (ClientKey), not by idem. This process writes one hand of a
// table at a time and decides the next hand of a table from what its last
// one left (handLanes).
func (s *Service) RecordHand(ctx context.Context, a Actor, nh NewHand, idem *Idempotency) (Hand, bool, error) {
	if err := nh.Validate(); err != nil {
		return Hand{}, false, err
	}
	if nh.ClientID != "" {
		idem = nh.ClientKey()
	}
	key := ""
	if idem != nil {
		key = idem.Key
	}
	reuse := true
	for attempt, round := 1, 1; ; round++ {
		if round > maxRounds {
			return Hand{}, false, Errorf(EUNAVAILABLE, "table %d changed %d times while hand %d was recorded; send it again", nh.TableID, round-1, nh.Number)
		}
		if reuse {
			if err := s.lanes.settle(ctx, nh.TableID); err != nil {
				return Hand{}, false, err
			}
		}
		snap, kept, err := s.lanes.snapshot(ctx, s.Hands, a.ClubID, nh, key, reuse, s.now())
		if err != nil {
			return Hand{}, false, err
		}
		reuse = false
		if ref, err := claimed(snap.Claim, idem, KindHand); err != nil || ref != 0 {
			return s.replayHand(ctx, a.ClubID, ref, err)
		}
		rec, err := nextHand(a, nh, snap, idem)
		if err == nil {
			err = s.tournamentHand(ctx, a.ClubID, snap, rec.Result)
		}
		if err != nil && kept {
			continue // a refusal is only ever answered from the store's read
		}
		if err != nil {
			return Hand{}, false, err
		}
		h, err := s.lanes.append(ctx, s.Hands, a.ClubID, snap, rec, s.now)
		if errors.Is(err, errMoved) {
			reuse = true
			continue
		}
		if !errors.Is(err, ErrStale) {
			return snap.Names.Hand(h), false, err
		}
		if attempt == maxAttempts {
			return Hand{}, false, Errorf(EUNAVAILABLE, "table %d changed %d times while hand %d was recorded; send it again", nh.TableID, attempt, nh.Number)
		}
		attempt++
		// Another write came first (or the key was used before): decide
		// again from the store's read.
	}
}

// replayHand answers a request whose Idempotency-Key stored hand ref (or
// is refused, err) with that hand.
func (s *Service) replayHand(ctx context.Context, clubID, ref int64, err error) (Hand, bool, error) {
	if err != nil {
		return Hand{}, false, err
	}
	h, err := s.Hands.HandByID(ctx, clubID, ref)
	if err != nil {
		return h, true, wrap(err, "replayHand: HandByID")
	}
	h, err = s.withNames(ctx, clubID, h)
	return h, true, err
}

// ClientKey is the idempotency of a hand with a client id: the id is the
// key, and what makes the hand this hand (its session, number and facts,
// however spelt) is the hash. The same id with the same hand replays it;
// with another hand it is refused, naming id.
func (nh NewHand) ClientKey() *Idempotency {
	raw, _ := json.Marshal(struct {
		SessionID int64           `json:"session_id"`
		Number    int             `json:"number"`
		Facts     json.RawMessage `json:"facts"`
	}{nh.SessionID, nh.Number, CanonicalJSON(nh.Facts)})
	sum := sha256.Sum256(raw)
	return &Idempotency{Key: "hand:" + nh.ClientID, Hash: sum[:], Field: "id"}
}

// maxAttempts bounds how often a hand is decided again after losing a
// race: the second read sees the winner's hand and answers 409, so only a
// table changing under the request again and again exhausts them.
const maxAttempts = 5

// maxRounds bounds how often a hand is decided at all: a refusal decided
// from the kept snapshot is decided again from the store's read, and a
// hand that waited while this process wrote its table is decided again
// from what that write left.
const maxRounds = 4 * maxAttempts

// nextHand decides whether nh is the table's next hand, from what was
// read, and scores it.
func nextHand(a Actor, nh NewHand, snap HandSnapshot, idem *Idempotency) (HandRecord, error) {
	t, sess := snap.Table, snap.Session
	if !snap.SessionFound || sess.TableID != t.ID {
		return HandRecord{}, Invalid("session_id", "session %d is not a session of table %d", nh.SessionID, t.ID)
	}
	if !sess.Open() {
		return HandRecord{}, Errorf(ECONFLICT, "session %d is closed; no more hands can be recorded in it", sess.ID)
	}
	if nh.Number != t.Hands+1 {
		return HandRecord{}, numberConflict(nh, t.Hands)
	}
	res, err := ScoreHand(t, sess, nh.Facts)
	if err != nil {
		return HandRecord{}, err
	}
	return HandRecord{
		Table: t, Session: sess, Number: nh.Number, Facts: nh.Facts, Result: res, RecordedBy: a.KeyID,
		Attendance: AttendanceOf(res, false), Idempotency: idem,
		Change: NewChange{Kind: ChangeHandRecorded, TableID: &t.ID, SessionID: &sess.ID, Number: &nh.Number,
			Data: map[string]any{"revision": 1}},
	}, nil
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

// FindHand returns hand number n of a table, its texts with names.
func (s *Service) FindHand(ctx context.Context, a Actor, tableID int64, n int) (Hand, error) {
	h, err := s.Hands.FindHand(ctx, a.ClubID, tableID, n)
	if err != nil {
		return h, wrap(err, "FindHand: FindHand")
	}
	return s.withNames(ctx, a.ClubID, h)
}

// HandFilter narrows a table's hands to one of its sessions (0: every
// session) and pages them by number.
type HandFilter struct {
	SessionID int64
	Page      Page // After is a hand's number
}

// Validate refuses a cursor that is no hand's number and a session id
// below 0.
func (f HandFilter) Validate() error {
	if f.Page.After < 0 || f.Page.After > MaxHandNumber {
		return Invalid("after", "must be a hand's number, from 0 to %d, got %d", MaxHandNumber, f.Page.After)
	}
	if f.SessionID < 0 {
		return Invalid("session_id", "must be a session's id, got %d", f.SessionID)
	}
	return nil
}

// ListHands returns a table's hands in the filter, in order: those
// numbered after f.Page.After, of the session f.SessionID when it is set.
// A session that is not the table's is ENOTFOUND.
func (s *Service) ListHands(ctx context.Context, a Actor, tableID int64, f HandFilter) ([]Hand, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if _, err := s.Tables.FindTable(ctx, a.ClubID, tableID); err != nil {
		return nil, wrap(err, "ListHands: FindTable")
	}
	if f.SessionID != 0 {
		sess, err := s.Tables.FindSession(ctx, a.ClubID, f.SessionID)
		if ErrorCode(err) == ENOTFOUND || err == nil && sess.TableID != tableID {
			return nil, Errorf(ENOTFOUND, "session %d of table %d not found", f.SessionID, tableID)
		}
		if err != nil {
			return nil, err
		}
	}
	list, err := s.Hands.ListHands(ctx, a.ClubID, tableID, f)
	if err != nil {
		return nil, wrap(err, "ListHands: ListHands")
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return nil, err
	}
	return n.Hands(list), nil
}

// HandRevisions returns every revision of a hand, the original first,
// their texts with names.
func (s *Service) HandRevisions(ctx context.Context, a Actor, tableID int64, number int) ([]Revision, error) {
	revs, err := s.Hands.HandRevisions(ctx, a.ClubID, tableID, number)
	if err != nil {
		return nil, wrap(err, "HandRevisions: HandRevisions")
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return nil, err
	}
	return n.Revisions(revs), nil
}

// ScoreDraft scores a hand without storing anything, as the package's
// ScoreDraft, and renders its texts with the names of the club's players
// among the ids the request gives.
func (s *Service) ScoreDraft(ctx context.Context, a Actor, game, preset string, options json.RawMessage, seated []int64, date string, state, facts json.RawMessage) (score.Result, error) {
	res, _, err := ScoreDraft(game, preset, options, seated, date, state, facts)
	if err != nil {
		return res, err
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return res, err
	}
	return n.Result(res), nil
}

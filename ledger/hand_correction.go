package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Correction asks for new facts of a past hand, or for voiding it.
type Correction struct {
	TableID int64
	Number  int
	// Revision is the revision the correction corrects (If-Match); a
	// correction of a revision that is no longer current is refused.
	Revision int
	Facts    json.RawMessage
	Void     bool
	Reason   string
}

// CorrectionResult is what a correction changed.
type CorrectionResult struct {
	Hand Hand `json:"hand"`
	// Rescored are the numbers of the later hands whose score or state
	// changed and got a new revision.
	Rescored []int `json:"rescored"`
	// Settlements are the closed sessions whose settlement got a new version.
	Settlements []int64 `json:"resettled_session_ids"`
}

// Revision is one version of a hand: revision 1 is the hand as recorded,
// every correction (of it or of an earlier hand) appends the next.
type Revision struct {
	Revision   int             `json:"revision"`
	Facts      json.RawMessage `json:"facts"`
	Result     score.Result    `json:"result"`
	Void       bool            `json:"void"`
	Reason     string          `json:"reason,omitempty"`
	CausedBy   int             `json:"caused_by,omitempty"` // the hand whose correction made it
	RecordedBy int64           `json:"recorded_by_key_id"`
	RecordedAt time.Time       `json:"recorded_at"`
}

// RescoreHand scores facts as hand h of session s from state, under the
// rule set h was played with: what a correction does to every later hand.
func RescoreHand(h Hand, s Session, state, facts json.RawMessage) (score.Result, error) {
	date, err := ParseDate("date", s.Date)
	if err != nil {
		return score.Result{}, err
	}
	return scoreWith(h.Game, score.Hand{
		Seated: s.Seating, Session: s.ID, Date: date, Rules: h.Rules, State: state, Facts: facts,
	})
}

// VoidResult is the result of a voided hand: every player of the hand
// scores 0, and the table's state is what it was before the hand, so the
// hand counts for no Bock round, tally or match. Who dealt and who played
// stay as they were: the hand was dealt and played, then annulled.
func VoidResult(previous score.Result, stateBefore json.RawMessage) score.Result {
	res := score.Result{
		Title:   "annulliert",
		Lines:   []score.Line{{Label: "Spiel annulliert", Op: score.OpEq, Value: score.Int(0)}},
		Events:  []score.Event{},
		State:   stateBefore,
		Dealer:  previous.Dealer,
		Players: previous.Players,
	}
	for _, p := range previous.Points {
		res.Points = append(res.Points, score.PlayerPoints{Player: p.Player})
	}
	return res
}

// SameOutcome reports whether two results give every player the same
// points and leave the same state (SameState: summaries aside): then
// nothing after them changes.
func SameOutcome(a, b score.Result) bool {
	if len(a.Points) != len(b.Points) {
		return false
	}
	for i := range a.Points {
		if a.Points[i].Player != b.Points[i].Player || a.Points[i].Points.Cmp(b.Points[i].Points) != 0 {
			return false
		}
	}
	return SameState(a.State, b.State)
}

// PointDiffs returns, per player, next minus previous points, leaving out
// players whose points did not change.
func PointDiffs(previous, next score.Result) []score.PlayerPoints {
	old := map[int64]score.Points{}
	for _, p := range previous.Points {
		old[p.Player] = p.Points
	}
	var out []score.PlayerPoints
	seen := map[int64]bool{}
	for _, p := range next.Points {
		seen[p.Player] = true
		if d := p.Points.Sub(old[p.Player]); !d.IsZero() {
			out = append(out, score.PlayerPoints{Player: p.Player, Points: d})
		}
	}
	for _, p := range previous.Points {
		if !seen[p.Player] && !p.Points.IsZero() {
			out = append(out, score.PlayerPoints{Player: p.Player, Points: p.Points.Neg()})
		}
	}
	return out
}

// Validate refuses a correction that names no revision (EPRECONDREQ: a
// stale correction could overwrite a newer one), gives no reason, or
// neither new facts nor a void.
func (c *Correction) Validate() error {
	if c.Revision < 1 {
		return RevisionRequired()
	}
	if err := CheckHandNumber("number", c.Number); err != nil {
		return err
	}
	var err error
	if c.Reason, err = TrimName("reason", c.Reason, MaxReasonLen); err != nil {
		return err
	}
	if !c.Void && len(c.Facts) == 0 {
		return Invalid("facts", "give the corrected facts, or void the hand")
	}
	return nil
}

// RevisionRequired is the refusal of a correction that names no revision.
func RevisionRequired() *Error {
	return &Error{Code: EPRECONDREQ, Message: "send If-Match with the hand's current revision (its ETag) so a stale correction cannot overwrite a newer one",
		Field: "If-Match", Rule: "is required"}
}

// CorrectHand records new facts for a past hand (or voids it) as a new
// revision, re-derives the table's state from that hand on, re-scores every
// later hand under the rule set it was played with, and appends a revision
// and difference entries for each hand whose score or state changed. It
// stops early once a re-scored hand leaves the state as it was. Closed
// sessions whose hands changed get a new settlement version; a hand of a
// closed session needs an admin. Nothing is updated or deleted but the
// running totals and the table's current state.
func (s *Service) CorrectHand(ctx context.Context, a Actor, c Correction, idem *Idempotency) (CorrectionResult, bool, error) {
	if err := c.Validate(); err != nil {
		return CorrectionResult{}, false, err
	}
	if err := s.mayCorrect(ctx, a, c); err != nil {
		return CorrectionResult{}, false, err
	}
	var out CorrectionResult
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindCorrection)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			out.Hand, err = tx.Hand(ctx, ref)
			return err
		}
		t, err := tx.LockTable(ctx, c.TableID)
		if err != nil {
			return wrap(err, "CorrectHand: LockTable")
		}
		if out, err = correct(ctx, tx, a, t, c); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindCorrection, out.Hand.ID)
	})
	if err != nil {
		return out, replayed, err
	}
	out.Hand, err = s.withNames(ctx, a.ClubID, out.Hand)
	return out, replayed, err
}

// mayCorrect refuses a non-admin the correction of a hand of a closed
// session before its Idempotency-Key is looked up, so a scorer who reuses
// an admin's key never gets the replay of the admin's correction. A hand
// that is not found is left to the flow to name; the flow checks the role
// again under the table's lock.
func (s *Service) mayCorrect(ctx context.Context, a Actor, c Correction) error {
	if a.Role.Includes(RoleAdmin) {
		return nil
	}
	h, err := s.Hands.FindHand(ctx, a.ClubID, c.TableID, c.Number)
	if ErrorCode(err) == ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	sess, err := s.Tables.FindSession(ctx, a.ClubID, h.SessionID)
	if err != nil {
		return wrap(err, "mayCorrect: FindSession")
	}
	if !sess.Open() {
		return closedSessionForbidden(c.Number)
	}
	return nil
}

// closedSessionForbidden is the refusal of a non-admin's correction of a
// hand of a closed session.
func closedSessionForbidden(number int) error {
	return Errorf(EFORBIDDEN, "hand %d belongs to a closed session: only an admin may correct it", number)
}

// correct does the work of CorrectHand on a locked table.
func correct(ctx context.Context, tx Tx, a Actor, t Table, c Correction) (CorrectionResult, error) {
	hands, stateBefore, err := correctionRange(ctx, tx, t, c)
	if err != nil {
		return CorrectionResult{}, err
	}
	target := hands[0]
	if c.Revision != target.Revision {
		return CorrectionResult{}, &Error{Code: EPRECONDITION,
			Message: fmt.Sprintf("hand %d is at revision %d, not %d: read it again before correcting it", c.Number, target.Revision, c.Revision),
			Extra:   map[string]any{"current_revision": target.Revision}}
	}
	sessions := sessionCache{tx: tx, seen: map[int64]Session{}}
	first, err := sessions.get(ctx, target.SessionID)
	if err != nil {
		return CorrectionResult{}, err
	}
	if !first.Open() && !a.Role.Includes(RoleAdmin) {
		return CorrectionResult{}, closedSessionForbidden(c.Number)
	}
	out := CorrectionResult{Rescored: []int{}, Settlements: []int64{}}
	changed, err := rescoreFrom(ctx, tx, a, c, hands, stateBefore, sessions, &out)
	if err != nil {
		return out, err
	}
	for _, id := range changed {
		sess := sessions.seen[id]
		if sess.Open() {
			continue
		}
		if err := settle(ctx, tx, a, sess); err != nil {
			return out, err
		}
		out.Settlements = append(out.Settlements, id)
	}
	out.Hand, err = tx.Hand(ctx, target.ID)
	return out, err
}

// correctionRange returns the corrected hand and every later one, and the
// state before the corrected hand (where re-scoring starts).
func correctionRange(ctx context.Context, tx Tx, t Table, c Correction) ([]Hand, json.RawMessage, error) {
	hands, err := tx.HandsAfter(ctx, t.ID, c.Number-2)
	if err != nil {
		return nil, nil, wrap(err, "correctionRange: HandsAfter")
	}
	if len(hands) == 0 || (c.Number > 1 && hands[0].Number != c.Number-1) || hands[len(hands)-1].Number < c.Number {
		return nil, nil, Errorf(ENOTFOUND, "hand %d of table %d not found", c.Number, t.ID)
	}
	stateBefore := json.RawMessage(`{}`)
	if hands[0].Number == c.Number-1 {
		stateBefore = hands[0].Result.State
		hands = hands[1:]
	}
	return hands, stateBefore, nil
}

// rescoreFrom appends the corrected hand's revision and re-scores the hands
// after it until one leaves the state as it was, storing the table's state
// when it reaches the last hand. It returns the sessions whose hands
// changed, in order.
func rescoreFrom(ctx context.Context, tx Tx, a Actor, c Correction, hands []Hand, stateBefore json.RawMessage,
	sessions sessionCache, out *CorrectionResult) ([]int64, error) {
	var changed []int64
	for i, h := range hands {
		sess, err := sessions.get(ctx, h.SessionID)
		if err != nil {
			return nil, err
		}
		rev, err := revise(h, sess, c, i == 0, stateBefore, a.KeyID)
		if err != nil {
			return nil, err
		}
		if i > 0 && SameOutcome(h.Result, rev.Result) {
			break // the same state from here on: nothing later changes
		}
		if err := tx.AppendRevision(ctx, rev); err != nil {
			return nil, wrap(err, "rescoreFrom: AppendRevision")
		}
		if !slices.Contains(changed, sess.ID) {
			changed = append(changed, sess.ID)
		}
		if i > 0 {
			out.Rescored = append(out.Rescored, h.Number)
		}
		stateBefore = rev.Result.State
		if i == len(hands)-1 {
			if err := tx.SetTableState(ctx, h.TableID, rev.Result.State); err != nil {
				return nil, wrap(err, "rescoreFrom: SetTableState")
			}
		}
	}
	return changed, nil
}

// revise is hand h's next revision from the state before it: the
// correction's facts (or void) for the corrected hand, its own facts
// re-scored for a later one.
func revise(h Hand, sess Session, c Correction, corrected bool, stateBefore json.RawMessage, by int64) (RevisionRecord, error) {
	rev := RevisionRecord{Hand: h, Session: sess, Revision: h.Revision + 1, Facts: h.Facts, Void: h.Void,
		Reason: fmt.Sprintf("neu berechnet nach Korrektur von Spiel %d", c.Number), CausedBy: c.Number, RecordedBy: by}
	if corrected {
		rev.Void, rev.Reason = c.Void, c.Reason
		if !c.Void {
			rev.Facts = c.Facts
		}
	}
	var err error
	rev.Result, err = rescore(h, sess, stateBefore, rev.Facts, rev.Void)
	if err != nil && !corrected {
		hint := fmt.Sprintf("Nach dieser Korrektur passt das spätere Spiel Nr. %d nicht mehr. Bitte die Korrektur prüfen.", h.Number)
		if own := AsError(err).Hint; own != "" {
			hint = fmt.Sprintf("Nach dieser Korrektur passt das spätere Spiel Nr. %d nicht mehr: %s", h.Number, own)
		}
		return rev, Refuse(fmt.Sprintf("hand %d", h.Number), hint, "would no longer be valid after this correction: %v", AsError(err).Rule)
	}
	if err != nil {
		return rev, err
	}
	rev.Diffs = PointDiffs(h.Result, rev.Result)
	rev.Attendance = AttendanceDiffs(AttendanceOf(h.Result, h.Void), AttendanceOf(rev.Result, rev.Void))
	rev.Change = NewChange{Kind: ChangeHandCorrected, TableID: &h.TableID, SessionID: &sess.ID, Number: &h.Number,
		Data: map[string]any{"revision": rev.Revision, "void": rev.Void, "caused_by": c.Number}}
	return rev, nil
}

// sessionCache reads each session of a correction once.
type sessionCache struct {
	tx   TableTx
	seen map[int64]Session
}

func (c sessionCache) get(ctx context.Context, id int64) (Session, error) {
	if s, ok := c.seen[id]; ok {
		return s, nil
	}
	s, err := c.tx.Session(ctx, id)
	if err == nil {
		c.seen[id] = s
	}
	return s, err
}

// rescore gives a hand's new result from the state before it.
func rescore(h Hand, sess Session, stateBefore, facts json.RawMessage, void bool) (score.Result, error) {
	if void {
		return VoidResult(h.Result, stateBefore), nil
	}
	return RescoreHand(h, sess, stateBefore, facts)
}

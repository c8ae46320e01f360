package ledger

import (
	"context"
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// NextHand is the table's state as the next hand will find it: the
// engine's preview from the table's state, with the seating, id, date and
// rule set (its terms) of sess when it is given (the table's open
// session), so a new seating shows who deals and sits out before the
// first hand; without a session under the table's current rules, those of
// its next evening. It changes nothing.
func NextHand(t Table, sess *Session) (json.RawMessage, error) {
	e, err := Engine("game", t.Game)
	if err != nil {
		return nil, err
	}
	h := score.Hand{Rules: t.Rules, State: t.State}
	if sess != nil {
		date, err := ParseDate("date", sess.Date)
		if err != nil {
			return nil, err
		}
		h.Seated, h.Session, h.Date, h.Rules = sess.Seating, sess.ID, date, sess.Terms.Rules
	}
	preview, err := e.Preview(h)
	if err != nil {
		return nil, Errorf(EINTERNAL, "the %s engine cannot preview table %d: %v", t.Game, t.ID, err)
	}
	return preview, nil
}

// withNextHand fills in a table's open session and next hand, and a new
// table's state (its next hand), texts with names. open is the table's
// open session, nil if none.
func withNextHand(t Table, open *Session, n Names) (Table, error) {
	if open != nil {
		t.OpenSessionID = &open.ID
	}
	next, err := NextHand(t, open)
	if err != nil {
		return t, err
	}
	t.NextHand = n.State(next)
	if fresh(t) {
		t.State = t.NextHand
	} else {
		t.State = n.State(t.State)
	}
	return t, nil
}

// fresh reports whether a table has no state yet: no hand was recorded.
func fresh(t Table) bool { return len(t.State) == 0 || string(t.State) == "{}" }

// shownState is a table's state as every answer shows it, in its game's
// shape: the state after its last hand or, before the first, the state
// the first hand will find (without a seating); texts with names.
func shownState(t Table, n Names) (json.RawMessage, error) {
	if !fresh(t) {
		return n.State(t.State), nil
	}
	next, err := NextHand(t, nil)
	if err != nil {
		return nil, err
	}
	return n.State(next), nil
}

// sessionNextHand fills in an open session's next hand, texts with names.
func sessionNextHand(t Table, sess Session, n Names) (Session, error) {
	if !sess.Open() {
		return sess, nil
	}
	next, err := NextHand(t, &sess)
	if err != nil {
		return sess, err
	}
	sess.NextHand = n.State(next)
	return sess, nil
}

// openSessions returns the club's open sessions by table (of one table
// when tableID > 0).
func (s *Service) openSessions(ctx context.Context, clubID, tableID int64) (map[int64]*Session, error) {
	open := true
	list, err := s.Tables.ListSessions(ctx, clubID, SessionFilter{TableID: tableID, Open: &open})
	if err != nil {
		return nil, wrap(err, "openSessions: ListSessions")
	}
	out := make(map[int64]*Session, len(list))
	for i := range list {
		out[list[i].TableID] = &list[i]
	}
	return out, nil
}

// withAhead adds to an open session's next hand the seats of the hands to
// come ("ahead": who deals, plays and sits out in each, the next hand
// first, one round of dealers), where the game's engine tells them
// (score.Rotator), so a phone offline records a whole round. The engines
// whose state does not remember the dealer are told who dealt the
// session's last hand that counts.
func (s *Service) withAhead(ctx context.Context, clubID int64, t Table, sess Session, next json.RawMessage) (json.RawMessage, error) {
	e, err := Engine("game", t.Game)
	if err != nil {
		return next, err
	}
	r, ok := e.(score.Rotator)
	if !ok || len(next) == 0 {
		return next, nil
	}
	last, err := s.lastDealer(ctx, clubID, t, sess.ID)
	if err != nil {
		return next, err
	}
	date, err := ParseDate("date", sess.Date)
	if err != nil {
		return next, err
	}
	ahead, err := r.Ahead(score.Hand{Seated: sess.Seating, Session: sess.ID, Date: date, Rules: sess.Terms.Rules, State: t.State}, last)
	if err != nil {
		return next, Errorf(EINTERNAL, "the %s engine cannot tell the hands ahead at table %d: %v", t.Game, t.ID, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(next, &m); err != nil {
		return next, Errorf(EINTERNAL, "the next hand of table %d is no object: %v", t.ID, err)
	}
	if m["ahead"], err = json.Marshal(ahead); err != nil {
		return next, err
	}
	return json.Marshal(m)
}

// lastDealer is who dealt the last hand of session that counts (not
// voided), 0 when it has none. It reads back over voided hands only.
func (s *Service) lastDealer(ctx context.Context, clubID int64, t Table, session int64) (int64, error) {
	for n := t.Hands; n > 0; n-- {
		h, err := s.Hands.FindHand(ctx, clubID, t.ID, n)
		if err != nil {
			return 0, wrap(err, "lastDealer: FindHand")
		}
		if h.SessionID != session {
			return 0, nil
		}
		if !h.Void {
			return h.Result.Dealer, nil
		}
	}
	return 0, nil
}

package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Session is one evening at a table.
type Session struct {
	ID       int64      `json:"id"`
	TableID  int64      `json:"table_id"`
	Date     string     `json:"date"` // YYYY-MM-DD in the club's time zone
	Seating  []int64    `json:"player_ids"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at,omitempty"`
	// NextHand is, while the session is open, the table's state as its
	// next hand will find it. Filled by the service's reads.
	NextHand json.RawMessage `json:"next_hand,omitempty"`
	// Terms are the table's settings the evening is played and settled
	// under, fixed when it opens.
	Terms Terms `json:"terms"`
}

// Open reports whether hands may still be recorded in the session.
func (s Session) Open() bool { return s.ClosedAt == nil }

// OpenSession opens an evening at a table with its seating. A table has at
// most one open session; date defaults to today in the club's time zone.
func (s *Service) OpenSession(ctx context.Context, a Actor, tableID int64, date string, seating []int64, idem *Idempotency) (Session, bool, error) {
	if err := CheckSeating("player_ids", seating); err != nil {
		return Session{}, false, err
	}
	if date != "" {
		if _, err := ParseDate("date", date); err != nil {
			return Session{}, false, err
		}
	}
	var sess Session
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindSession)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			sess, err = tx.Session(ctx, ref)
			return err
		}
		t, err := tx.LockTable(ctx, tableID)
		if err != nil {
			return wrap(err, "OpenSession: LockTable")
		}
		open, err := tx.OpenSessionOf(ctx, tableID)
		if err != nil {
			return wrap(err, "OpenSession: OpenSessionOf")
		}
		if open != 0 {
			return &Error{Code: ECONFLICT, Message: fmt.Sprintf("table %d already has an open session %d; close it first", tableID, open),
				Extra: map[string]any{"open_session_id": open}}
		}
		if err := seatable(ctx, tx, "player_ids", seating); err != nil {
			return err
		}
		if date == "" {
			club, err := tx.FindClub(ctx)
			if err != nil {
				return wrap(err, "OpenSession: FindClub")
			}
			date = Today(s.now(), club.TimeZone)
		}
		if sess, err = tx.InsertSession(ctx, tableID, date, seating, t.Terms()); err != nil {
			return wrap(err, "OpenSession: InsertSession")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionOpened, TableID: &tableID, SessionID: &sess.ID,
			Data: map[string]any{"date": sess.Date, "seating": sess.Seating}}); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindSession, sess.ID)
	})
	if err != nil || !sess.Open() {
		return sess, replayed, err
	}
	sess, err = s.withSessionNextHand(ctx, a.ClubID, sess)
	return sess, replayed, err
}

// CloseSession freezes a session, no more hands, and stores its
// settlement. Closing a closed session returns it unchanged, so a retried
// close is harmless. The table is locked first, as when recording a hand,
// so no hand can slip in while the evening is settled.
func (s *Service) CloseSession(ctx context.Context, a Actor, id int64) (Session, error) {
	var sess Session
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		var err error
		if sess, err = tx.Session(ctx, id); err != nil {
			return wrap(err, "CloseSession: Session")
		}
		t, err := tx.LockTable(ctx, sess.TableID)
		if err != nil {
			return wrap(err, "CloseSession: LockTable")
		}
		if sess, err = tx.Session(ctx, id); err != nil || !sess.Open() {
			return err
		}
		if err := tournamentClose(ctx, tx, t, sess); err != nil {
			return err
		}
		if sess, err = tx.CloseSession(ctx, id); err != nil {
			return wrap(err, "CloseSession: CloseSession")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionClosed, TableID: &sess.TableID, SessionID: &sess.ID}); err != nil {
			return wrap(err, "CloseSession: RecordChange")
		}
		return settle(ctx, tx, a, sess)
	})
	return sess, err
}

// FindSession returns a session of the actor's club; an open one with
// its next hand.
func (s *Service) FindSession(ctx context.Context, a Actor, id int64) (Session, error) {
	sess, err := s.Tables.FindSession(ctx, a.ClubID, id)
	if err != nil || !sess.Open() {
		return sess, err
	}
	return s.withSessionNextHand(ctx, a.ClubID, sess)
}

// withSessionNextHand fills in an open session's next hand.
func (s *Service) withSessionNextHand(ctx context.Context, clubID int64, sess Session) (Session, error) {
	t, err := s.Tables.FindTable(ctx, clubID, sess.TableID)
	if err != nil {
		return sess, wrap(err, "withSessionNextHand: FindTable")
	}
	n, err := s.names(ctx, clubID)
	if err != nil {
		return sess, err
	}
	if sess, err = sessionNextHand(t, sess, n); err != nil || !sess.Open() {
		return sess, err
	}
	sess.NextHand, err = s.withAhead(ctx, clubID, t, sess, sess.NextHand)
	return sess, err
}

// SessionFilter selects a club's sessions: of one table, of dates from
// and to (inclusive), open or closed; a page of them by id, oldest first.
// A Page.Limit of 0 is every session.
type SessionFilter struct {
	TableID  int64
	From, To string
	Open     *bool
	// Played leaves out the closed sessions without a hand: an evening
	// opened and closed with nothing played is no evening to list.
	Played bool
	Page   Page
}

// Validate checks the filter's dates and that it runs forward.
func (f SessionFilter) Validate() error {
	return StatsFilter{From: f.From, To: f.To}.Check()
}

// ListSessions returns the club's sessions in the filter, oldest first;
// the open ones with their next hand. A table that is not the club's is
// ENOTFOUND.
func (s *Service) ListSessions(ctx context.Context, a Actor, f SessionFilter) ([]Session, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if f.TableID > 0 {
		if _, err := s.Tables.FindTable(ctx, a.ClubID, f.TableID); err != nil {
			return nil, wrap(err, "ListSessions: FindTable")
		}
	}
	f.Played = true
	list, err := s.Tables.ListSessions(ctx, a.ClubID, f)
	if err != nil {
		return nil, wrap(err, "ListSessions: ListSessions")
	}
	for i, sess := range list {
		if !sess.Open() {
			continue
		}
		if list[i], err = s.withSessionNextHand(ctx, a.ClubID, sess); err != nil {
			return nil, err
		}
	}
	if list == nil {
		list = []Session{}
	}
	return list, nil
}

// SessionStandings returns every player's total of one evening, best first.
func (s *Service) SessionStandings(ctx context.Context, a Actor, id int64) ([]Standing, error) {
	if _, err := s.Tables.FindSession(ctx, a.ClubID, id); err != nil {
		return nil, wrap(err, "SessionStandings: FindSession")
	}
	list, err := s.Tables.SessionStandings(ctx, a.ClubID, id)
	return SortStandings(list), err
}

// seatable refuses a seating with someone who is not a player of the club
// or who has retired.
func seatable(ctx context.Context, tx Tx, field string, ids []int64) error {
	missing, err := tx.MissingPlayers(ctx, ids)
	if err != nil {
		return wrap(err, "seatable: MissingPlayers")
	}
	if len(missing) > 0 {
		return Invalid(field, "no player %v in this club", missing)
	}
	retired, err := tx.RetiredPlayers(ctx, ids)
	if err != nil {
		return wrap(err, "seatable: RetiredPlayers")
	}
	if len(retired) > 0 {
		return &Error{Code: EINVALID, Field: field, Rule: "a retired player is seated at no new evening",
			Message: fmt.Sprintf("player %v has retired; bring him back first", retired), Extra: map[string]any{"retired_player_ids": retired}}
	}
	return nil
}

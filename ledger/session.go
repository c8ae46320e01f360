package ledger

import (
	"context"
	"fmt"
)

// OpenSession opens an evening at a table with its seating. A table has at
// most one open session; date defaults to today in the club's time zone.
func (s *Service) OpenSession(ctx context.Context, a Actor, tableID int64, date string, seating []int64, idem *Idempotency) (Session, bool, error) {
	if err := CheckSeating("seating", seating); err != nil {
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
			return err
		}
		open, err := tx.OpenSessionOf(ctx, tableID)
		if err != nil {
			return err
		}
		if open != 0 {
			return &Error{Code: ECONFLICT, Message: fmt.Sprintf("table %d already has an open session %d; close it first", tableID, open),
				Extra: map[string]any{"open_session": open}}
		}
		missing, err := tx.MissingPlayers(ctx, seating)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return Invalid("seating", "no player %v in this club", missing)
		}
		if date == "" {
			club, err := tx.FindClub(ctx)
			if err != nil {
				return err
			}
			date = Today(s.now(), club.TimeZone)
		}
		if sess, err = tx.InsertSession(ctx, tableID, date, seating, t.Terms()); err != nil {
			return err
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionOpened, TableID: &tableID, SessionID: &sess.ID,
			Data: map[string]any{"date": sess.Date, "seating": sess.Seating}}); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindSession, sess.ID)
	})
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
			return err
		}
		if _, err := tx.LockTable(ctx, sess.TableID); err != nil {
			return err
		}
		if sess, err = tx.Session(ctx, id); err != nil || !sess.Open() {
			return err
		}
		if sess, err = tx.CloseSession(ctx, id); err != nil {
			return err
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionClosed, TableID: &sess.TableID, SessionID: &sess.ID}); err != nil {
			return err
		}
		return settle(ctx, tx, a, sess)
	})
	return sess, err
}

// FindSession returns a session of the actor's club.
func (s *Service) FindSession(ctx context.Context, a Actor, id int64) (Session, error) {
	return s.Tables.FindSession(ctx, a.ClubID, id)
}

// ListSessions returns a table's sessions, newest first.
func (s *Service) ListSessions(ctx context.Context, a Actor, tableID int64) ([]Session, error) {
	if _, err := s.Tables.FindTable(ctx, a.ClubID, tableID); err != nil {
		return nil, err
	}
	return s.Tables.ListSessions(ctx, a.ClubID, tableID)
}

// SessionStandings returns every player's total of one evening, best first.
func (s *Service) SessionStandings(ctx context.Context, a Actor, id int64) ([]Standing, error) {
	if _, err := s.Tables.FindSession(ctx, a.ClubID, id); err != nil {
		return nil, err
	}
	list, err := s.Tables.SessionStandings(ctx, a.ClubID, id)
	return SortStandings(list), err
}

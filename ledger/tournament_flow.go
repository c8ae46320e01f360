package ledger

import (
	"context"
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// CreateTournament creates a tournament evening over tables that play by
// the TSR (CheckTournamentTable). Its rounds are opened one by one with
// OpenRound.
func (s *Service) CreateTournament(ctx context.Context, a Actor, nt NewTournament, idem *Idempotency) (Tournament, bool, error) {
	if err := nt.Validate(); err != nil {
		return Tournament{}, false, err
	}
	var tr Tournament
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindTournament)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			tr, err = tx.Tournament(ctx, ref)
			return err
		}
		for i, id := range nt.Tables {
			field := fmt.Sprintf("table_ids[%d]", i)
			t, err := tx.Table(ctx, id)
			if ErrorCode(err) == ENOTFOUND {
				// Like a path naming another club's thing: not found.
				return &Error{Code: ENOTFOUND, Message: fmt.Sprintf("dieser Club hat keinen Tisch %d", id), Field: field, Rule: "must be a table of this club"}
			}
			if err != nil {
				return err
			}
			if err := CheckTournamentTable(field, t); err != nil {
				return err
			}
		}
		if nt.Date == "" {
			club, err := tx.FindClub(ctx)
			if err != nil {
				return wrap(err, "CreateTournament: FindClub")
			}
			nt.Date = Today(s.now(), club.TimeZone)
		}
		if tr, err = tx.InsertTournament(ctx, nt); err != nil {
			return wrap(err, "CreateTournament: InsertTournament")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeTournamentCreated,
			Data: map[string]any{"tournament": tr.ID, "name": tr.Name, "date": tr.Date, "hands_per_round": tr.HandsPerRound}}); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindTournament, tr.ID)
	})
	return tr, replayed, err
}

// OpenRound opens the tournament's next round with the organizer's
// seating per table (TSR 8.4): one session per table at the tournament's
// date. The round before must be complete at every table (its games and
// every Pflichtsolo played); its sessions still open are closed and
// settled here.
func (s *Service) OpenRound(ctx context.Context, a Actor, tournamentID int64, seatings []RoundSeating, idem *Idempotency) (Tournament, bool, error) {
	var tr Tournament
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindRound)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			tr, err = tx.Tournament(ctx, ref)
			return err
		}
		if tr, err = tx.LockTournament(ctx, tournamentID); err != nil {
			return wrap(err, "OpenRound: LockTournament")
		}
		if err := CheckSeatings(tr, seatings); err != nil {
			return err
		}
		for i, st := range seatings {
			if err := seatable(ctx, tx, fmt.Sprintf("seatings[%d].player_ids", i), st.Players); err != nil {
				return err
			}
		}
		if len(tr.Rounds) > 0 {
			if err := finishRound(ctx, tx, a, tr, tr.Rounds[len(tr.Rounds)-1]); err != nil {
				return err
			}
		}
		round, err := openSessions(ctx, tx, tr, seatings)
		if err != nil {
			return err
		}
		if err := tx.InsertRound(ctx, tr.ID, round); err != nil {
			return wrap(err, "OpenRound: InsertRound")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeRoundOpened,
			Data: map[string]any{"tournament": tr.ID, "round": round.Number, "tables": roundTablesData(round.Tables)}}); err != nil {
			return err
		}
		if tr, err = tx.Tournament(ctx, tr.ID); err != nil {
			return wrap(err, "OpenRound: Tournament")
		}
		return remember(ctx, tx, idem, KindRound, tr.ID)
	})
	return tr, replayed, err
}

// finishRound checks that a round is complete at every table and closes
// its sessions still open; an incomplete table is ECONFLICT naming what
// it still has to play.
func finishRound(ctx context.Context, tx Tx, a Actor, tr Tournament, r Round) error {
	var open []string
	for _, rt := range r.Tables {
		sess, err := tx.Session(ctx, rt.Session)
		if err != nil {
			return wrap(err, "finishRound: Session")
		}
		in, err := tx.SettleInput(ctx, sess)
		if err != nil {
			return wrap(err, "finishRound: SettleInput")
		}
		at := roundOf(tr, r, in)
		if !at.complete() {
			names := namesOf(in.Players)
			open = append(open, fmt.Sprintf("%s: %d von %d Spielen, Pflichtsolo offen: %s",
				in.Table.Name, at.games, tr.HandsPerRound, strings.Join(nameList(at.owed(), names), ", ")))
			continue
		}
		if sess.Open() {
			if err := closeSessionTx(ctx, tx, a, sess); err != nil {
				return err
			}
		}
	}
	if len(open) > 0 {
		return &Error{Code: ECONFLICT, Message: fmt.Sprintf("Runde %d ist noch nicht vorbei (TSR 8.5.1, 8.6): %s", r.Number, strings.Join(open, "; ")),
			Extra: map[string]any{"round": r.Number}}
	}
	return nil
}

// openSessions opens one session per seating, at the tournament's date.
func openSessions(ctx context.Context, tx Tx, tr Tournament, seatings []RoundSeating) (Round, error) {
	round := Round{Number: len(tr.Rounds) + 1}
	for _, st := range seatings {
		t, err := tx.LockTable(ctx, st.Table)
		if err != nil {
			return round, wrap(err, "openSessions: LockTable")
		}
		open, err := tx.OpenSessionOf(ctx, st.Table)
		if err != nil {
			return round, wrap(err, "openSessions: OpenSessionOf")
		}
		if open != 0 {
			return round, &Error{Code: ECONFLICT, Message: fmt.Sprintf("%s hat noch die offene Sitzung %d; schließe sie zuerst", t.Name, open),
				Extra: map[string]any{"open_session_id": open}}
		}
		sess, err := tx.InsertSession(ctx, st.Table, tr.Date, st.Players, t.Terms())
		if err != nil {
			return round, wrap(err, "openSessions: InsertSession")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionOpened, TableID: &sess.TableID, SessionID: &sess.ID,
			Data: map[string]any{"date": sess.Date, "seating": sess.Seating, "tournament": tr.ID, "round": round.Number}}); err != nil {
			return round, err
		}
		round.Tables = append(round.Tables, RoundTable{Table: st.Table, Session: sess.ID})
	}
	return round, nil
}

// closeSessionTx closes and settles an open session, as CloseSession does.
func closeSessionTx(ctx context.Context, tx Tx, a Actor, sess Session) error {
	if _, err := tx.LockTable(ctx, sess.TableID); err != nil {
		return wrap(err, "closeSessionTx: LockTable")
	}
	sess, err := tx.CloseSession(ctx, sess.ID)
	if err != nil {
		return wrap(err, "closeSessionTx: CloseSession")
	}
	if err := tx.RecordChange(ctx, NewChange{Kind: ChangeSessionClosed, TableID: &sess.TableID, SessionID: &sess.ID}); err != nil {
		return wrap(err, "closeSessionTx: RecordChange")
	}
	return settle(ctx, tx, a, sess)
}

// RoundTimeUp ends the playing time of the tournament's current round
// (TSR 8.5.1): outstanding games are struck, and at each table only the
// Pflichtsoli still owed are played, vorgeführt (TSR 8.6). Ending it again
// changes nothing.
func (s *Service) RoundTimeUp(ctx context.Context, a Actor, tournamentID int64, round int) (Tournament, error) {
	var tr Tournament
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		var err error
		if tr, err = tx.LockTournament(ctx, tournamentID); err != nil {
			return wrap(err, "RoundTimeUp: LockTournament")
		}
		if round < 1 || round > len(tr.Rounds) {
			return Errorf(ENOTFOUND, "das Turnier „%s“ hat keine Runde %d", tr.Name, round)
		}
		if round < len(tr.Rounds) {
			return Errorf(ECONFLICT, "Runde %d ist vorbei, Runde %d läuft", round, len(tr.Rounds))
		}
		if tr.Rounds[round-1].TimeUpAt != nil {
			return nil
		}
		for _, rt := range tr.Rounds[round-1].Tables {
			if _, err := tx.LockTable(ctx, rt.Table); err != nil {
				return wrap(err, "RoundTimeUp: LockTable")
			}
		}
		if err := tx.SetRoundTimeUp(ctx, tr.ID, round); err != nil {
			return wrap(err, "RoundTimeUp: SetRoundTimeUp")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeRoundTimeUp,
			Data: map[string]any{"tournament": tr.ID, "round": round}}); err != nil {
			return err
		}
		tr, err = tx.Tournament(ctx, tr.ID)
		return err
	})
	return tr, err
}

// tournamentHand applies the round's rules to a hand scored from snap
// (RecordHand): nothing for a session of no tournament. Ending a round's
// time bumps its tables' versions, so a hand decided before it is not
// stored after it.
func (s *Service) tournamentHand(ctx context.Context, clubID int64, snap HandSnapshot, res score.Result) error {
	t, sess := snap.Table, snap.Session
	if !tournamentPlay(t.Under(sess.Terms)) {
		return nil
	}
	sr, found, err := s.Tournaments.SessionRound(ctx, clubID, sess.ID)
	if err != nil || !found {
		return err
	}
	at := roundAt{round: sr.Round, table: t.Name, handsPerRound: sr.HandsPerRound, timeUp: sr.TimeUp, seating: sess.Seating}
	at.progress(t.State, sess.ID)
	return at.checkHand(res, func(id int64) string {
		if name, ok := snap.Names[id]; ok {
			return name
		}
		return fmt.Sprintf("Spieler %d", id)
	})
}

// tournamentClose refuses to close a session of a tournament round that
// is not complete: its games and Pflichtsoli are still to be played.
func tournamentClose(ctx context.Context, tx Tx, t Table, sess Session) error {
	if !tournamentPlay(t.Under(sess.Terms)) {
		return nil
	}
	sr, found, err := tx.SessionRound(ctx, sess.ID)
	if err != nil || !found {
		return err
	}
	at := roundAt{round: sr.Round, table: t.Name, handsPerRound: sr.HandsPerRound, timeUp: sr.TimeUp, seating: sess.Seating}
	at.progress(t.State, sess.ID)
	if at.complete() {
		return nil
	}
	return Errorf(ECONFLICT, "Runde %d an %s ist nicht vorbei: %d von %d Spielen, %d Pflichtsoli offen (TSR 8.5.1, 8.6)",
		sr.Round, t.Name, at.games, sr.HandsPerRound, len(at.owed()))
}

// roundTablesData is a round's tables as the round's change stores them:
// {"table", "session"}, byte for byte as they were first written. The
// feed's stored data keeps its names whatever RoundTable's JSON (the
// API's) calls them; the API renames them when it sends a change.
func roundTablesData(tables []RoundTable) []roundTableData {
	out := make([]roundTableData, len(tables))
	for i, rt := range tables {
		out[i] = roundTableData{Table: rt.Table, Session: rt.Session}
	}
	return out
}

// roundTableData is one table of a round in the round's stored change.
type roundTableData struct {
	Table   int64 `json:"table"`
	Session int64 `json:"session"`
}

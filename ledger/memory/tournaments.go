package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
)

// tournamentRow is a tournament with its tables' names resolved when read.
type tournamentRow struct {
	club int64
	ledger.Tournament
}

// FindTournament returns a tournament of the club.
func (s *Store) FindTournament(_ context.Context, clubID, id int64) (ledger.Tournament, error) {
	return read(s, func(d *data) (ledger.Tournament, error) { return d.tournament(clubID, id) })
}

// ListTournaments returns a page of the club's tournaments, newest first.
func (s *Store) ListTournaments(_ context.Context, clubID int64, p ledger.Page) ([]ledger.Tournament, error) {
	return read(s, func(d *data) ([]ledger.Tournament, error) {
		var out []ledger.Tournament
		for id, tr := range d.tournaments {
			if tr.club == clubID && (p.After == 0 || id < p.After) {
				t, _ := d.tournament(clubID, id)
				out = append(out, t)
			}
		}
		slices.SortFunc(out, func(a, b ledger.Tournament) int { return cmp.Compare(b.ID, a.ID) })
		return limited(out, p.Limit), nil
	})
}

// tournament returns a deep copy, the tables named as they are now.
func (d *data) tournament(clubID, id int64) (ledger.Tournament, error) {
	row, ok := d.tournaments[id]
	if !ok || row.club != clubID {
		return ledger.Tournament{}, notFound("tournament %d", id)
	}
	tr := row.Tournament
	tr.Tables = slices.Clone(tr.Tables)
	for i := range tr.Tables {
		tr.Tables[i].Name = d.tables[tr.Tables[i].Table].Name
	}
	tr.Rounds = make([]ledger.Round, len(row.Rounds))
	for i, r := range row.Rounds {
		r.Tables = slices.Clone(r.Tables)
		tr.Rounds[i] = r
	}
	return tr, nil
}

// InsertTournament stores a new tournament with its tables.
func (t *tx) InsertTournament(_ context.Context, nt ledger.NewTournament) (ledger.Tournament, error) {
	tr := ledger.Tournament{ID: t.next(), Name: nt.Name, Date: nt.Date, HandsPerRound: nt.HandsPerRound,
		Rounds: []ledger.Round{}, CreatedAt: t.now}
	for _, id := range nt.Tables {
		tr.Tables = append(tr.Tables, ledger.TournamentTable{Table: id})
	}
	put(t, t.d.tournaments, tr.ID, tournamentRow{club: t.club, Tournament: tr})
	return t.d.tournament(t.club, tr.ID)
}

// Tournament reads a tournament of the club.
func (t *tx) Tournament(_ context.Context, id int64) (ledger.Tournament, error) {
	return t.d.tournament(t.club, id)
}

// LockTournament reads a tournament; the store's lock serializes writers.
func (t *tx) LockTournament(_ context.Context, id int64) (ledger.Tournament, error) {
	return t.d.tournament(t.club, id)
}

// InsertRound appends a round to a tournament.
func (t *tx) InsertRound(_ context.Context, tournamentID int64, r ledger.Round) error {
	row, ok := t.d.tournaments[tournamentID]
	if !ok || row.club != t.club {
		return notFound("tournament %d", tournamentID)
	}
	r.OpenedAt = t.now
	r.Tables = slices.Clone(r.Tables)
	row.Rounds = append(slices.Clone(row.Rounds), r)
	put(t, t.d.tournaments, tournamentID, row)
	return nil
}

// SetRoundTimeUp marks a round's playing time as over now.
func (t *tx) SetRoundTimeUp(_ context.Context, tournamentID int64, round int) error {
	row, ok := t.d.tournaments[tournamentID]
	if !ok || row.club != t.club || round < 1 || round > len(row.Rounds) {
		return notFound("round %d of tournament %d", round, tournamentID)
	}
	row.Rounds = slices.Clone(row.Rounds)
	now := t.now
	row.Rounds[round-1].TimeUpAt = &now
	put(t, t.d.tournaments, tournamentID, row)
	return nil
}

// SessionRound returns the tournament round a session belongs to.
func (t *tx) SessionRound(_ context.Context, sessionID int64) (ledger.SessionRound, bool, error) {
	return t.d.sessionRound(t.club, sessionID)
}

// SessionRound returns the tournament round of a session.
func (s *Store) SessionRound(_ context.Context, clubID, sessionID int64) (ledger.SessionRound, bool, error) {
	type found struct {
		r  ledger.SessionRound
		ok bool
	}
	f, err := read(s, func(d *data) (found, error) {
		r, ok, err := d.sessionRound(clubID, sessionID)
		return found{r, ok}, err
	})
	return f.r, f.ok, err
}

func (d *data) sessionRound(clubID, sessionID int64) (ledger.SessionRound, bool, error) {
	for _, row := range d.tournaments {
		if row.club != clubID {
			continue
		}
		for _, r := range row.Rounds {
			for _, rt := range r.Tables {
				if rt.Session == sessionID {
					return ledger.SessionRound{Tournament: row.ID, Name: row.Name, HandsPerRound: row.HandsPerRound,
						Round: r.Number, TimeUp: r.TimeUpAt != nil}, true, nil
				}
			}
		}
	}
	return ledger.SessionRound{}, false, nil
}

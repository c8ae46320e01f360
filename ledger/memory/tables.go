package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
)

// FindTable returns a table of the club.
func (s *Store) FindTable(_ context.Context, clubID, id int64) (ledger.Table, error) {
	return read(s, func(d *data) (ledger.Table, error) { return d.table(clubID, id) })
}

// Table reads a table of the club.
func (t *tx) Table(_ context.Context, id int64) (ledger.Table, error) { return t.d.table(t.club, id) }

// LockTable reads a table and bumps its version; the store's lock already
// serializes writers.
func (t *tx) LockTable(_ context.Context, id int64) (ledger.Table, error) {
	tb, err := t.d.table(t.club, id)
	if err != nil {
		return tb, err
	}
	tb.Version++
	put(t, t.d.tables, id, tableRow{club: t.club, Table: tb})
	return tb, nil
}

func (d *data) table(clubID, id int64) (ledger.Table, error) {
	tb, ok := d.tables[id]
	if !ok || tb.club != clubID {
		return ledger.Table{}, notFound("table %d", id)
	}
	return tb.Table, nil
}

// ListTables returns a page of the club's tables by name, then id.
func (s *Store) ListTables(_ context.Context, clubID int64, p ledger.Page) ([]ledger.Table, error) {
	return read(s, func(d *data) ([]ledger.Table, error) {
		var out []ledger.Table
		for _, tb := range d.tables {
			if tb.club == clubID {
				out = append(out, tb.Table)
			}
		}
		return byNamePage(out, p, func(t ledger.Table) (string, int64) { return t.Name, t.ID }), nil
	})
}

// TableByName returns the club's table called name, if there is one.
func (t *tx) TableByName(_ context.Context, name string) (ledger.Table, bool, error) {
	for _, tb := range t.d.tables {
		if tb.club == t.club && tb.Name == name {
			return tb.Table, true, nil
		}
	}
	return ledger.Table{}, false, nil
}

// InsertTable stores a new table.
func (t *tx) InsertTable(_ context.Context, nt ledger.NewTable, rules json.RawMessage, preset string) (ledger.Table, error) {
	tb := ledger.Table{ID: t.next(), Name: nt.Name, Game: nt.Game, Preset: preset, Options: nt.Options, Rules: rules,
		Stake: nt.Stake, SettleMode: nt.SettleMode, MatchLossCents: nt.MatchLossCents, State: json.RawMessage(`{}`), CreatedAt: t.now}
	put(t, t.d.tables, tb.ID, tableRow{club: t.club, Table: tb})
	return tb, nil
}

// UpdateTable stores a table's name and settings.
func (t *tx) UpdateTable(_ context.Context, tb ledger.Table) error {
	row, ok := t.d.tables[tb.ID]
	if !ok || row.club != t.club {
		return notFound("table %d", tb.ID)
	}
	row.Name, row.Options, row.Rules, row.Stake, row.SettleMode, row.MatchLossCents =
		tb.Name, tb.Options, tb.Rules, tb.Stake, tb.SettleMode, tb.MatchLossCents
	put(t, t.d.tables, tb.ID, row)
	return nil
}

// SetTableState stores a table's state after its last hand.
func (t *tx) SetTableState(_ context.Context, tableID int64, state json.RawMessage) error {
	tb, ok := t.d.tables[tableID]
	if !ok || tb.club != t.club {
		return notFound("table %d", tableID)
	}
	tb.State = state
	put(t, t.d.tables, tableID, tb)
	return nil
}

// TableStandings returns every player's total at a table.
func (s *Store) TableStandings(_ context.Context, clubID, tableID int64) ([]ledger.Standing, error) {
	return read(s, func(d *data) ([]ledger.Standing, error) { return d.standings(d.tableTotals, clubID, tableID), nil })
}

// SessionStandings returns every player's total of one evening.
func (s *Store) SessionStandings(_ context.Context, clubID, sessionID int64) ([]ledger.Standing, error) {
	return read(s, func(d *data) ([]ledger.Standing, error) { return d.standings(d.sessTotals, clubID, sessionID), nil })
}

func (d *data) standings(totals map[totalKey]total, clubID, owner int64) []ledger.Standing {
	out := []ledger.Standing{}
	for k, tot := range totals {
		p, ok := d.players[k.player]
		if k.owner != owner || !ok || p.club != clubID {
			continue
		}
		out = append(out, ledger.Standing{Player: k.player, Name: p.Name, Points: tot.points,
			Hands: tot.played, SatOut: tot.satOut, Entries: tot.hands})
	}
	return out
}

// FindSession returns a session of the club.
func (s *Store) FindSession(_ context.Context, clubID, id int64) (ledger.Session, error) {
	return read(s, func(d *data) (ledger.Session, error) { return d.session(clubID, id) })
}

// Session returns a session of the club.
func (t *tx) Session(_ context.Context, id int64) (ledger.Session, error) {
	return t.d.session(t.club, id)
}

func (d *data) session(clubID, id int64) (ledger.Session, error) {
	s, ok := d.sessions[id]
	if !ok || s.club != clubID {
		return ledger.Session{}, notFound("session %d", id)
	}
	return s.Session, nil
}

// ListSessions returns the club's sessions in the filter, oldest first.
func (s *Store) ListSessions(_ context.Context, clubID int64, f ledger.SessionFilter) ([]ledger.Session, error) {
	return read(s, func(d *data) ([]ledger.Session, error) {
		list := d.sessionsWhere(clubID, func(x ledger.Session) bool {
			return x.ID > f.Page.After && (f.TableID == 0 || x.TableID == f.TableID) &&
				(f.From == "" || x.Date >= f.From) && (f.To == "" || x.Date <= f.To) &&
				(f.Open == nil || x.Open() == *f.Open) &&
				(!f.Played || x.Open() || d.hasHands(clubID, x.ID))
		}, 1)
		if f.Page.Limit > 0 && len(list) > f.Page.Limit {
			list = list[:f.Page.Limit]
		}
		return list, nil
	})
}

// SessionsOn returns the club's sessions of a date, oldest first.
func (s *Store) SessionsOn(_ context.Context, clubID int64, date string) ([]ledger.Session, error) {
	return read(s, func(d *data) ([]ledger.Session, error) {
		return d.sessionsWhere(clubID, func(x ledger.Session) bool { return x.Date == date }, 1), nil
	})
}

// sessionsWhere lists the club's sessions that match, by id (order 1) or
// newest first (order -1).
func (d *data) sessionsWhere(clubID int64, match func(ledger.Session) bool, order int) []ledger.Session {
	var out []ledger.Session
	for _, s := range d.sessions {
		if s.club == clubID && match(s.Session) {
			out = append(out, s.Session)
		}
	}
	slices.SortFunc(out, func(a, b ledger.Session) int { return order * cmp.Compare(a.ID, b.ID) })
	return out
}

// OpenSessionOf returns the id of the table's open session, 0 if none.
func (t *tx) OpenSessionOf(_ context.Context, tableID int64) (int64, error) {
	for _, s := range t.d.sessions {
		if s.club == t.club && s.TableID == tableID && s.Open() {
			return s.ID, nil
		}
	}
	return 0, nil
}

// InsertSession stores a new open session.
func (t *tx) InsertSession(_ context.Context, tableID int64, date string, seating []int64, terms ledger.Terms) (ledger.Session, error) {
	s := ledger.Session{ID: t.next(), TableID: tableID, Date: date, Seating: slices.Clone(seating), OpenedAt: t.now, Terms: terms}
	put(t, t.d.sessions, s.ID, sessionRow{club: t.club, Session: s})
	return s, nil
}

// CloseSession marks a session closed now.
func (t *tx) CloseSession(_ context.Context, id int64) (ledger.Session, error) {
	s, ok := t.d.sessions[id]
	if !ok || s.club != t.club {
		return ledger.Session{}, notFound("session %d", id)
	}
	now := t.now
	s.ClosedAt = &now
	put(t, t.d.sessions, id, s)
	return s.Session, nil
}

// hasHands reports whether a session of the club has a hand.
func (d *data) hasHands(clubID, sessionID int64) bool {
	for _, h := range d.hands {
		if h.club == clubID && h.SessionID == sessionID {
			return true
		}
	}
	return false
}

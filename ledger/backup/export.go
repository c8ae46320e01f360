package backup

import (
	"context"
	"fmt"
	"io"
)

// ExportStore is the store Export reads a club from.
type ExportStore interface {
	// ExportTx runs fn on one consistent snapshot of the club: hands
	// recorded meanwhile are either wholly in it or not at all. A missing
	// club is ENOTFOUND.
	ExportTx(ctx context.Context, clubID int64, fn func(ExportTx) error) error
}

// ExportTx reads one club from a snapshot. Times are in UTC, and every
// list comes from a cursor that reads the store a page at a time, in the
// order its method names; the cursors may be read in turns.
type ExportTx interface {
	Club(ctx context.Context) (Club, error)
	// Keys are every API key of the club, by id (a club has few).
	Keys(ctx context.Context) ([]Key, error)
	Players(ctx context.Context) (Cursor[Player], error)
	Tables(ctx context.Context) (Cursor[Table], error)
	// Sessions are ordered by table and id.
	Sessions(ctx context.Context) (Cursor[Session], error)
	// Hands are ordered by table and number, as recorded (revision 1).
	Hands(ctx context.Context) (Cursor[Hand], error)
	// Revisions are ordered by their hand's table and number, then by
	// revision.
	Revisions(ctx context.Context) (Cursor[Revision], error)
	// Settlements are ordered by their session's table, session and
	// version.
	Settlements(ctx context.Context) (Cursor[Settlement], error)
	// Transfers are ordered as their settlements, then by id, each with
	// its payment.
	Transfers(ctx context.Context) (Cursor[Transfer], error)
	// Tournaments are ordered by id.
	Tournaments(ctx context.Context) (Cursor[Tournament], error)
	// TournamentRounds are ordered by tournament and number.
	TournamentRounds(ctx context.Context) (Cursor[TournamentRound], error)
	// SeasonRules are ordered by name and version.
	SeasonRules(ctx context.Context) (Cursor[SeasonRules], error)
	// OldListImports are ordered by id.
	OldListImports(ctx context.Context) (Cursor[OldListImport], error)
	// ImportedEvenings are ordered by import and id, each with its lines
	// by player.
	ImportedEvenings(ctx context.Context) (Cursor[ImportedEvening], error)
	KittyBookings(ctx context.Context) (Cursor[KittyBooking], error)
	// Changes are ordered by seq.
	Changes(ctx context.Context) (Cursor[Change], error)
}

// Cursor is a list read from the store a page at a time.
type Cursor[T any] interface {
	// Next returns the next item, or ok false after the last.
	Next(ctx context.Context) (item T, ok bool, err error)
}

// Export writes a club's whole ledger to w as a document, reading the
// store a page at a time: its memory does not grow with the club.
func Export(ctx context.Context, store ExportStore, clubID int64, w io.Writer) (Summary, error) {
	var x *exporter
	err := store.ExportTx(ctx, clubID, func(tx ExportTx) error {
		x = &exporter{tx: tx, w: NewWriter(w), written: map[int64]bool{}}
		return x.run(ctx)
	})
	if err != nil {
		return Summary{}, err
	}
	return x.summary, nil
}

// exporter walks the store's cursors in step and writes the records in
// the document's order.
type exporter struct {
	tx      ExportTx
	w       *Writer
	keys    map[int64]Key
	written map[int64]bool // the keys already written
	summary Summary

	sessions    *peeker[Session]
	hands       *peeker[Hand]
	revisions   *peeker[Revision]
	settlements *peeker[Settlement]
	transfers   *peeker[Transfer]
}

func (x *exporter) run(ctx context.Context) error {
	club, err := x.tx.Club(ctx)
	if err != nil {
		return err
	}
	x.summary.Club = club
	if err := x.w.Write(Record{Club: &club}); err != nil {
		return err
	}
	keys, err := x.tx.Keys(ctx)
	if err != nil {
		return err
	}
	x.keys = make(map[int64]Key, len(keys))
	for _, k := range keys {
		x.keys[k.ID] = k
	}
	for _, step := range []func(context.Context) error{x.players, x.tables, x.tournaments, x.seasons, x.kittyBookings, x.changes} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return x.w.Close()
}

// key writes the key id names, before the first record that names it.
func (x *exporter) key(id int64) error {
	if x.written[id] {
		return nil
	}
	k, ok := x.keys[id]
	if !ok {
		return fmt.Errorf("API key %d is named as a recorder but is not a key of the club", id)
	}
	x.written[id] = true
	return x.w.Write(Record{Key: &k})
}

func (x *exporter) players(ctx context.Context) error {
	return each(ctx, x.tx.Players, func(p Player) error {
		x.summary.Players++
		return x.w.Write(Record{Player: &p})
	})
}

// tables writes each table with its sessions, each session with its hands
// and settlement versions: five cursors read in step.
func (x *exporter) tables(ctx context.Context) error {
	var err error
	if x.sessions, err = peek(ctx, x.tx.Sessions); err != nil {
		return err
	}
	if x.hands, err = peek(ctx, x.tx.Hands); err != nil {
		return err
	}
	if x.revisions, err = peek(ctx, x.tx.Revisions); err != nil {
		return err
	}
	if x.settlements, err = peek(ctx, x.tx.Settlements); err != nil {
		return err
	}
	if x.transfers, err = peek(ctx, x.tx.Transfers); err != nil {
		return err
	}
	err = each(ctx, x.tx.Tables, func(t Table) error {
		x.summary.Tables++
		if err := x.w.Write(Record{Table: &t}); err != nil {
			return err
		}
		return x.sessionsOf(ctx, t.ID)
	})
	if err != nil {
		return err
	}
	// Every cursor must be used up: a row left over belongs to no table or
	// session in the order the document needs.
	for _, c := range []struct {
		what string
		p    interface {
			done(context.Context) (bool, error)
		}
	}{{"session", x.sessions}, {"hand", x.hands}, {"revision", x.revisions}, {"settlement", x.settlements}, {"transfer", x.transfers}} {
		if done, err := c.p.done(ctx); err != nil || !done {
			return fmt.Errorf("a %s is out of its table's or session's order (%v); run stichbuch verify", c.what, err)
		}
	}
	return nil
}

// sessionsOf writes the sessions of table with what belongs to each.
func (x *exporter) sessionsOf(ctx context.Context, table int64) error {
	return x.sessions.while(ctx, func(s Session) bool { return s.TableID == table }, func(s Session) error {
		x.summary.Sessions++
		if err := x.w.Write(Record{Session: &s}); err != nil {
			return err
		}
		err := x.hands.while(ctx, func(h Hand) bool { return h.TableID == table && h.SessionID == s.ID }, func(h Hand) error {
			return x.hand(ctx, h)
		})
		if err != nil {
			return err
		}
		return x.settlements.while(ctx, func(st Settlement) bool { return st.SessionID == s.ID }, func(st Settlement) error {
			x.summary.Settlements++
			if err := x.w.Write(Record{Settlement: &st}); err != nil {
				return err
			}
			return x.transfers.while(ctx, func(t Transfer) bool { return t.SettlementID == st.ID }, func(t Transfer) error {
				if t.Payment != nil {
					if err := x.key(t.Payment.RecordedBy); err != nil {
						return err
					}
				}
				return x.w.Write(Record{Transfer: &t})
			})
		})
	})
}

// hand writes a hand and its revisions.
func (x *exporter) hand(ctx context.Context, h Hand) error {
	x.summary.Hands++
	if err := x.key(h.RecordedBy); err != nil {
		return err
	}
	if err := x.w.Write(Record{Hand: &h}); err != nil {
		return err
	}
	return x.revisions.while(ctx, func(r Revision) bool { return r.HandID == h.ID }, func(r Revision) error {
		x.summary.Revisions++
		if err := x.key(r.RecordedBy); err != nil {
			return err
		}
		return x.w.Write(Record{Revision: &r})
	})
}

// tournaments writes each tournament followed by its rounds: two cursors
// read in step.
func (x *exporter) tournaments(ctx context.Context) error {
	rounds, err := peek(ctx, x.tx.TournamentRounds)
	if err != nil {
		return err
	}
	err = each(ctx, x.tx.Tournaments, func(t Tournament) error {
		x.summary.Tournaments++
		if err := x.w.Write(Record{Tournament: &t}); err != nil {
			return err
		}
		return rounds.while(ctx, func(r TournamentRound) bool { return r.TournamentID == t.ID }, func(r TournamentRound) error {
			return x.w.Write(Record{Round: &r})
		})
	})
	if err != nil {
		return err
	}
	if done, err := rounds.done(ctx); err != nil || !done {
		return fmt.Errorf("a tournament round is out of its tournament's order (%v); run stichbuch verify", err)
	}
	return nil
}

func (x *exporter) kittyBookings(ctx context.Context) error {
	return each(ctx, x.tx.KittyBookings, func(b KittyBooking) error {
		x.summary.KittyBookings++
		if err := x.key(b.RecordedBy); err != nil {
			return err
		}
		return x.w.Write(Record{KittyBooking: &b})
	})
}

func (x *exporter) changes(ctx context.Context) error {
	return each(ctx, x.tx.Changes, func(c Change) error { return x.w.Write(Record{Change: &c}) })
}

// each calls fn for every item of the cursor open makes.
func each[T any](ctx context.Context, open func(context.Context) (Cursor[T], error), fn func(T) error) error {
	c, err := open(ctx)
	if err != nil {
		return err
	}
	for {
		item, ok, err := c.Next(ctx)
		if err != nil || !ok {
			return err
		}
		if err := fn(item); err != nil {
			return err
		}
	}
}

// peeker reads a cursor one item ahead.
type peeker[T any] struct {
	c      Cursor[T]
	next   T
	ok     bool
	loaded bool
}

func peek[T any](ctx context.Context, open func(context.Context) (Cursor[T], error)) (*peeker[T], error) {
	c, err := open(ctx)
	return &peeker[T]{c: c}, err
}

// while calls fn for the items from here on as long as they match.
func (p *peeker[T]) while(ctx context.Context, match func(T) bool, fn func(T) error) error {
	for {
		if !p.loaded {
			var err error
			if p.next, p.ok, err = p.c.Next(ctx); err != nil {
				return err
			}
			p.loaded = true
		}
		if !p.ok || !match(p.next) {
			return nil
		}
		p.loaded = false
		if err := fn(p.next); err != nil {
			return err
		}
	}
}

// done reports whether the cursor has no item left.
func (p *peeker[T]) done(ctx context.Context) (bool, error) {
	err := p.while(ctx, func(T) bool { return false }, nil)
	return !p.ok, err
}

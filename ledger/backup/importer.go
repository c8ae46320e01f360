package backup

import (
	"fmt"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// importer takes a document's records in order. It remembers what later
// records may name (keys, players, tables, sessions, tournaments: a club
// has few of each), and otherwise only the table, the session and the
// hand it is in:
// a hand is checked when its revisions are complete, a session's money
// when its settlement versions are, a table's count and state when its
// last session is done.
type importer struct {
	tx    ImportTx
	now   time.Time // when the document's keys are revoked
	line  int       // the line of the record taken last
	stage stage
	club  Club

	keys        map[int64]bool
	players     map[int64]string // by id, the names
	playerNames map[string]bool
	tables      map[int64]tableRef
	tableNames  map[string]bool
	sessions    map[int64]sessionRef
	tournaments map[int64]*tournamentRun
	lastChange  int64

	table      *tableRun
	session    *sessionRun
	hand       *handRun
	tournament *tournamentRun
	seasons    *seasonRun

	batch   Batch
	summary Summary

	chainKey chain.Key // the installation's
	foreign  bool      // chain anew what chainKey cannot check
	rekeyed  int       // hands and revisions chained anew
}

// stage is the section of the document the importer is in; sections come
// in this order.
type stage int

const (
	stageClub stage = iota
	stagePlayers
	stageTables
	stageTournaments
	stageSeasons
	stageKitty
	stageChanges
)

var stageNames = [...]string{"club", "players", "tables", "tournaments", "seasons", "kitty bookings", "changes"}

// tableRef is what later records need of a table: its name, game and rule
// set (a tournament plays at tables of the TSR), and its hand count.
type tableRef struct {
	t     ledger.Table
	hands int
}

// sessionRef is what later records need of a session: its table, date,
// seating, whether it is closed, and the tournament round it is, if any.
type sessionRef struct {
	table      int64
	date       string
	seating    []int64
	closed     bool
	tournament int64
	round      int
}

// take checks one record and queues it for the store.
func (im *importer) take(rec Record) error {
	if rec.Club != nil {
		if im.club.ID != 0 {
			return im.invalid("club", "the document holds one club")
		}
		return im.takeClub(*rec.Club)
	}
	if im.club.ID == 0 {
		return im.invalid("document", "the club must come right after the format line")
	}
	switch {
	case rec.Key != nil:
		return im.takeKey(*rec.Key)
	case rec.Player != nil:
		return im.enter(stagePlayers, func() error { return im.takePlayer(*rec.Player) })
	case rec.Table != nil:
		return im.enter(stageTables, func() error { return im.takeTable(*rec.Table) })
	case rec.Session != nil:
		return im.takeSession(*rec.Session)
	case rec.Hand != nil:
		return im.takeHand(*rec.Hand)
	case rec.Revision != nil:
		return im.takeRevision(*rec.Revision)
	case rec.Settlement != nil:
		return im.takeSettlement(*rec.Settlement)
	case rec.Transfer != nil:
		return im.takeTransfer(*rec.Transfer)
	case rec.Tournament != nil:
		return im.enter(stageTournaments, func() error { return im.takeTournament(*rec.Tournament) })
	case rec.Round != nil:
		return im.takeRound(*rec.Round)
	case rec.SeasonRules != nil:
		return im.enter(stageSeasons, func() error { return im.takeSeasonRules(*rec.SeasonRules) })
	case rec.OldListImport != nil:
		return im.enter(stageSeasons, func() error { return im.takeOldListImport(*rec.OldListImport) })
	case rec.ImportedEvening != nil:
		return im.enter(stageSeasons, func() error { return im.takeImportedEvening(*rec.ImportedEvening) })
	case rec.KittyBooking != nil:
		return im.enter(stageKitty, func() error { return im.takeKittyBooking(*rec.KittyBooking) })
	case rec.Change != nil:
		return im.enter(stageChanges, func() error { return im.takeChange(*rec.Change) })
	}
	return im.invalid("document", "a record of no known kind")
}

// enter moves on to section s, never back, closing the tables when it
// leaves them, and takes the record there.
func (im *importer) enter(s stage, take func() error) error {
	if s < im.stage {
		return im.invalid("document", "a line of the %s after the %s: the sections come in the order club, players, tables, tournaments, seasons, kitty bookings, changes",
			stageNames[s], stageNames[im.stage])
	}
	if s > stageTables && im.stage <= stageTables {
		if err := im.closeTable(); err != nil {
			return err
		}
	}
	if s > stageSeasons && im.stage == stageSeasons {
		if err := im.closeOldListImport(); err != nil {
			return err
		}
	}
	im.stage = s
	return take()
}

// invalid refuses the record at the current line, naming field.
func (im *importer) invalid(field, format string, args ...any) error {
	return lineError(im.line, field, fmt.Sprintf(format, args...))
}

// within refuses the record at the current line with a validator's
// error, its field named within the record's kind.
func (im *importer) within(kind string, err error) error {
	if err == nil {
		return nil
	}
	e := ledger.AsError(err)
	if e.Field == "" {
		return lineError(im.line, kind, e.Message)
	}
	return lineError(im.line, kind+"."+e.Field, e.Rule)
}

// key refuses a reference to an API key the document has not listed yet.
func (im *importer) key(field string, id int64) error {
	if !im.keys[id] {
		return im.invalid(field, "API key %d is not listed before it", id)
	}
	return nil
}

// player refuses a reference to a player not in the document; nil is the
// kitty.
func (im *importer) player(field string, id *int64) error {
	if id != nil {
		if _, ok := im.players[*id]; !ok {
			return im.invalid(field, "player %d is not in the document", *id)
		}
	}
	return nil
}

// add counts rows queued for the store.
func (im *importer) add(rows int) { im.batch.rows += rows }

// closeTable finishes the table being read: its last session, and its
// hand count and state, which must follow from its hands.
func (im *importer) closeTable() error {
	if im.table == nil {
		return nil
	}
	if err := im.closeSession(); err != nil {
		return err
	}
	tr := im.table
	im.table = nil
	t := tr.t
	if t.Hands != tr.hands {
		return ledger.Errorf(ledger.EINVALID, "table %d %q says %d hands, the document holds %d", t.ID, t.Name, t.Hands, tr.hands)
	}
	if !ledger.SameState(t.State, tr.state) {
		return ledger.Errorf(ledger.EINVALID, "table %d %q: its state %s is not the state after its last hand %s", t.ID, t.Name, shortJSON(t.State), shortJSON(tr.state))
	}
	return nil
}

// closeSession finishes the session being read: its last hand, and its
// settlement versions, re-computed.
func (im *importer) closeSession() error {
	if im.session == nil {
		return nil
	}
	if err := im.closeHand(); err != nil {
		return err
	}
	sr := im.session
	im.session = nil
	return im.resettle(sr)
}

// closeHand finishes the hand being read: re-scored with its revisions,
// queued with its entries.
func (im *importer) closeHand() error {
	if im.hand == nil {
		return nil
	}
	hr := im.hand
	im.hand = nil
	versions, err := im.table.rescore(hr, im.session.s)
	if err != nil {
		return err
	}
	entries, err := hr.entries()
	if err != nil {
		return ledger.Errorf(ledger.EINVALID, "table %d, hand %d: %v", hr.h.TableID, hr.h.Number, err)
	}
	// The chain last: content that does not re-derive is refused for
	// what differs; content that does (a forger can re-score) must still
	// carry this installation's hashes.
	link, revLinks, err := im.chainHand(hr, im.table.t.Game, im.session.s)
	if err != nil {
		return err
	}
	im.session.hands = append(im.session.hands, versions)
	im.batch.Hands = append(im.batch.Hands, HandRow{Hand: hr.h, Game: im.table.t.Game, Rules: im.session.s.Terms.Rules,
		Revisions: hr.revs, Entries: entries, Link: link, RevisionLinks: revLinks})
	im.add(1 + len(hr.revs) + len(entries))
	return nil
}

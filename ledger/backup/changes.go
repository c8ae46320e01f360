package backup

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// changeShape is what a change of each kind names and the members of its
// data, as the flows write them: the event streams send the data to the
// clubs' apps as it is stored. The optional members come all together or
// not at all (a session opened for a tournament round names the round).
var changeShape = map[ledger.ChangeKind]struct {
	hand, session, table bool // names a hand (table, session, number); a session (table, session); a table
	data                 []string
	optional             []string
}{
	ledger.ChangeHandRecorded:      {hand: true, data: []string{"revision"}},
	ledger.ChangeHandCorrected:     {hand: true, data: []string{"caused_by", "revision", "void"}},
	ledger.ChangeSessionOpened:     {session: true, data: []string{"date", "seating"}, optional: []string{"round", "tournament"}},
	ledger.ChangeSessionClosed:     {session: true},
	ledger.ChangeSettlement:        {session: true, data: []string{"kitty_cents", "version"}},
	ledger.ChangeTransferPaid:      {session: true, data: []string{"cents", "transfer"}},
	ledger.ChangeTransferUnpaid:    {session: true, data: []string{"cents", "transfer"}},
	ledger.ChangeKittyBooking:      {data: []string{"booking", "cents"}},
	ledger.ChangePlayerUpdated:     {data: []string{"name", "player_id", "retired", "was"}, optional: []string{"guest"}},
	ledger.ChangeTableUpdated:      {table: true, data: []string{"changed"}},
	ledger.ChangeTournamentCreated: {data: []string{"date", "hands_per_round", "name", "tournament"}},
	ledger.ChangeRoundOpened:       {data: []string{"round", "tables", "tournament"}},
	ledger.ChangeRoundTimeUp:       {data: []string{"round", "tournament"}},
}

// changeData holds the members of every kind's data.
type changeData struct {
	Revision   *int    `json:"revision"`
	Void       *bool   `json:"void"`
	CausedBy   *int    `json:"caused_by"`
	Date       *string `json:"date"`
	Seating    []int64 `json:"seating"`
	Version    *int    `json:"version"`
	KittyCents *int64  `json:"kitty_cents"`
	Booking    *int64  `json:"booking"`
	Transfer   *int64  `json:"transfer"`
	Cents      *int64  `json:"cents"`

	Tournament    *int64            `json:"tournament"`
	Round         *int              `json:"round"`
	Name          *string           `json:"name"`
	HandsPerRound *int              `json:"hands_per_round"`
	Tables        []changeRoundSeat `json:"tables"`
	Changed       []string          `json:"changed"`

	PlayerID *int64  `json:"player_id"`
	Was      *string `json:"was"`
	Retired  *bool   `json:"retired"`
	Guest    *bool   `json:"guest"`
}

// changeRoundSeat is a table of a round as a round's change names it.
type changeRoundSeat struct {
	Table   int64 `json:"table"`
	Session int64 `json:"session"`
}

// takeChange checks a change of the feed: in order, of a known kind,
// naming what its kind names and what the document holds, with the data
// its kind's flow writes.
func (im *importer) takeChange(c Change) error {
	if c.Seq <= im.lastChange || c.Seq > im.club.ChangeSeq {
		return im.invalid("change.seq", "change %d is out of order or past the club's change_seq %d", c.Seq, im.club.ChangeSeq)
	}
	im.lastChange = c.Seq
	shape, ok := changeShape[ledger.ChangeKind(c.Kind)]
	if !ok {
		kinds := slices.Sorted(maps.Keys(changeShape))
		return im.invalid("change.kind", "is %q, not a kind of change (%v)", c.Kind, kinds)
	}
	named := shape.hand || shape.session
	if (c.TableID != nil) != (named || shape.table) || (c.SessionID != nil) != named || (c.Number != nil) != shape.hand {
		return im.invalid("change", "a %s change names %s", c.Kind, map[[3]bool]string{
			{true, false, false}: "a table, a session and a hand's number", {false, true, false}: "a table and a session",
			{false, false, true}: "a table", {false, false, false}: "no table, session or hand",
		}[[3]bool{shape.hand, shape.session, shape.table}])
	}
	if c.TableID != nil {
		if _, ok := im.tables[*c.TableID]; !ok {
			return im.invalid("change.table_id", "table %d is not in the document", *c.TableID)
		}
	}
	if named {
		hands := im.tables[*c.TableID].hands
		if s, ok := im.sessions[*c.SessionID]; !ok || s.table != *c.TableID {
			return im.invalid("change.session_id", "session %d is not a session of table %d in the document", *c.SessionID, *c.TableID)
		}
		if c.Number != nil && (*c.Number < 1 || *c.Number > hands) {
			return im.invalid("change.number", "table %d has no hand %d", *c.TableID, *c.Number)
		}
	}
	if err := im.changeData(c, shape.data, shape.optional); err != nil {
		return err
	}
	im.batch.Changes = append(im.batch.Changes, c)
	im.add(1)
	return nil
}

// changeData checks a change's data: exactly the members want (and
// perhaps all of optional), each of its type and in its range, naming
// what the document holds.
func (im *importer) changeData(c Change, want, optional []string) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(c.Data, &members); err != nil || members == nil {
		return im.invalid("change.data", "must be a JSON object")
	}
	got := slices.Sorted(maps.Keys(members))
	if !slices.Equal(got, slices.Sorted(slices.Values(want))) && (optional == nil || !slices.Equal(got, slices.Sorted(slices.Values(slices.Concat(want, optional))))) {
		return im.invalid("change.data", "a %s change holds %s, not %s", c.Kind, strings.Join(want, ", "), strings.Join(got, ", "))
	}
	for _, name := range got {
		if string(members[name]) == "null" {
			return im.invalid("change.data."+name, "must not be null: no flow writes a null")
		}
	}
	var d changeData
	if err := score.DecodeStrict("", c.Data, &d); err != nil {
		return im.within("change.data", err)
	}
	if err := im.changeTournament(c, d); err != nil {
		return err
	}
	if err := im.changePlayer(d); err != nil {
		return err
	}
	if err := im.changeTable(d); err != nil {
		return err
	}
	positive := func(name string, v *int64) error {
		if v != nil && *v <= 0 {
			return im.invalid("change.data."+name, "must be positive")
		}
		return nil
	}
	for _, err := range []error{
		positive("revision", int64p(d.Revision)), positive("caused_by", int64p(d.CausedBy)),
		positive("version", int64p(d.Version)), positive("booking", d.Booking), positive("transfer", d.Transfer),
	} {
		if err != nil {
			return err
		}
	}
	if d.Date != nil {
		if _, err := ledger.ParseDate("date", *d.Date); err != nil {
			return im.within("change.data", err)
		}
	}
	if d.Seating != nil {
		if err := ledger.CheckSeating("seating", d.Seating); err != nil {
			return im.within("change.data", err)
		}
	}
	if d.Cents != nil && ledger.ChangeKind(c.Kind) == ledger.ChangeKittyBooking {
		return im.within("change.data", ledger.CheckKittyCents(*d.Cents))
	}
	return positive("cents", d.Cents)
}

func int64p(v *int) *int64 {
	if v == nil {
		return nil
	}
	x := int64(*v)
	return &x
}

// changePlayer checks a player_updated change's data: a player of the
// document, names a player may have.
func (im *importer) changePlayer(d changeData) error {
	if d.PlayerID == nil {
		return nil
	}
	if _, ok := im.players[*d.PlayerID]; !ok {
		return im.invalid("change.data.player_id", "player %d is not in the document", *d.PlayerID)
	}
	for field, name := range map[string]*string{"name": d.Name, "was": d.Was} {
		if err := ledger.CheckName(field, *name, ledger.MaxPlayerNameLen); err != nil {
			return im.within("change.data", err)
		}
	}
	return nil
}

// changeTable checks a table_updated change's data: the settings that
// changed, each one a table's setting, at least one.
func (im *importer) changeTable(d changeData) error {
	if d.Changed == nil {
		return nil
	}
	if len(d.Changed) == 0 {
		return im.invalid("change.data.changed", "must name what changed")
	}
	for i, name := range d.Changed {
		if !slices.Contains(ledger.TableSettings, name) {
			return im.invalid(fmt.Sprintf("change.data.changed[%d]", i), "is %q, not one of a table's settings %v", name, ledger.TableSettings)
		}
	}
	return nil
}

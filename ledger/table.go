package ledger

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Table is a standing group playing one game under one rule set, with the
// game state that carries across hands and evenings.
type Table struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Game   string `json:"game"`
	Preset string `json:"preset"`
	// Options are the overrides as given; Rules the resolved rule set.
	Options json.RawMessage `json:"options"`
	Rules   json.RawMessage `json:"rules"`
	// Stake is the money per point in cents, exact (half a cent is common).
	Stake score.Points `json:"stake_cents_per_point"`
	// SettleMode is how the evening's money changes hands.
	SettleMode SettleMode `json:"settle_mode"`
	// MatchLossCents is what each loser of a Klaberjass match pays.
	MatchLossCents int64 `json:"match_loss_cents"`
	Hands          int   `json:"hands"`
	// State is what the last hand left (a new table's is its NextHand).
	State json.RawMessage `json:"state"`
	// OpenSessionID is the session hands are recorded in now, if any.
	OpenSessionID *int64 `json:"open_session_id"`
	// NextHand is the state as the next hand will find it (the engine's
	// preview): with the open session's seating and date when there is
	// one. Filled by the service's reads.
	NextHand json.RawMessage `json:"next_hand,omitempty"`
	// LastSeating is the seating of the evening of the table's last hand,
	// in seating order: what the next evening's seating starts from.
	// Filled by FindTable; absent before the first hand.
	LastSeating []int64   `json:"last_seating_ids,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	// Version counts the writes that change what the next hand is scored
	// from; recording a hand expects the version it was decided from.
	Version int64 `json:"-"`
	// ChainHead is the hash of the table's last hand, read with Version:
	// what the store chains the next hand to. The flows hand it back to
	// the store unread.
	ChainHead []byte `json:"-"`
}

// NewTable is a table to create.
type NewTable struct {
	Name           string
	Game           string
	Preset         string
	Options        json.RawMessage
	Stake          score.Points
	SettleMode     SettleMode
	MatchLossCents int64
}

// AfterHand is the table as a stored hand leaves it: the hand's number as
// its count, the hand's state, the hand's hash as the chain's head, and
// the next version. Every store applies it to the table's row in the
// hand's transaction (the postgres store in SQL), and the hand path keeps
// it as the table's snapshot (handLanes).
func (t Table) AfterHand(h Hand) Table {
	t.Hands, t.State, t.ChainHead, t.Version = h.Number, h.Result.State, h.Hash, t.Version+1
	return t
}

// Standing is one player's total at a table or in a session.
type Standing struct {
	Player int64        `json:"player_id"`
	Name   string       `json:"name"`
	Points score.Points `json:"points"`
	// Hands counts the hands he played, SatOut those he sat out (a redeal
	// and a voided hand count for neither).
	Hands  int `json:"hands"`
	SatOut int `json:"sat_out"`
	// Entries counts the hands with an entry of his, whatever they were:
	// what a settlement reports as his hands.
	Entries int `json:"-"`
}

// MaxMatchLossCents bounds what each loser of a Klaberjass match pays.
const MaxMatchLossCents = 1_000_000

// Validate trims the name, fills in the defaults (transfers, no options)
// and refuses what a table may not be; it returns the resolved rule set
// and the preset it names.
func (nt *NewTable) Validate() (rules json.RawMessage, preset string, err error) {
	if nt.Name, err = TrimName("name", nt.Name, MaxTableNameLen); err != nil {
		return nil, "", err
	}
	if nt.SettleMode == "" {
		nt.SettleMode = SettleTransfers
	}
	if err := checkMoneyTerms(nt.Stake, nt.SettleMode, nt.MatchLossCents); err != nil {
		return nil, "", err
	}
	if rules, err = ResolveRules(nt.Game, nt.Preset, nt.Options); err != nil {
		return nil, "", err
	}
	if len(nt.Options) == 0 {
		nt.Options = json.RawMessage(`{}`)
	}
	var named struct {
		Preset string `json:"preset"`
	}
	_ = json.Unmarshal(rules, &named)
	return rules, named.Preset, nil
}

// CreateTable creates a table with its resolved rule set; table names are
// unique per club. The table comes back as FindTable reads it.
func (s *Service) CreateTable(ctx context.Context, a Actor, nt NewTable, idem *Idempotency) (Table, bool, error) {
	rules, preset, err := nt.Validate()
	if err != nil {
		return Table{}, false, err
	}
	var t Table
	var replayed bool
	err = s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindTable)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			t, err = tx.Table(ctx, ref)
			return err
		}
		if err := tableNameFree(ctx, tx, nt.Name); err != nil {
			return err
		}
		if t, err = tx.InsertTable(ctx, nt, rules, preset); err != nil {
			return wrap(err, "CreateTable: InsertTable")
		}
		return remember(ctx, tx, idem, KindTable, t.ID)
	})
	if err != nil {
		return t, replayed, err
	}
	t, err = s.FindTable(ctx, a, t.ID)
	return t, replayed, err
}

// FindTable returns a table of the actor's club with its open session and
// its next hand, texts with the players' names.
func (s *Service) FindTable(ctx context.Context, a Actor, id int64) (Table, error) {
	t, err := s.Tables.FindTable(ctx, a.ClubID, id)
	if err != nil {
		return t, wrap(err, "FindTable: FindTable")
	}
	open, err := s.openSessions(ctx, a.ClubID, id)
	if err != nil {
		return t, err
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return t, err
	}
	if t, err = withNextHand(t, open[id], n); err != nil {
		return t, err
	}
	if open[id] != nil {
		if t.NextHand, err = s.withAhead(ctx, a.ClubID, t, *open[id], t.NextHand); err != nil {
			return t, err
		}
	}
	t.LastSeating, err = s.lastSeating(ctx, a.ClubID, t)
	return t, err
}

// lastSeating is the seating of the evening of a table's last hand, nil
// before the first.
func (s *Service) lastSeating(ctx context.Context, clubID int64, t Table) ([]int64, error) {
	if t.Hands == 0 {
		return nil, nil
	}
	h, err := s.Hands.FindHand(ctx, clubID, t.ID, t.Hands)
	if err != nil {
		return nil, wrap(err, "lastSeating: FindHand")
	}
	sess, err := s.Tables.FindSession(ctx, clubID, h.SessionID)
	if err != nil {
		return nil, wrap(err, "lastSeating: FindSession")
	}
	return sess.Seating, nil
}

// TableStandings returns every player's total at a table, best first.
func (s *Service) TableStandings(ctx context.Context, a Actor, tableID int64) ([]Standing, error) {
	if _, err := s.Tables.FindTable(ctx, a.ClubID, tableID); err != nil {
		return nil, wrap(err, "TableStandings: FindTable")
	}
	list, err := s.Tables.TableStandings(ctx, a.ClubID, tableID)
	return SortStandings(list), err
}

// SortStandings orders standings exactly: most points first, then by name.
func SortStandings(list []Standing) []Standing {
	if list == nil {
		list = []Standing{}
	}
	slices.SortFunc(list, func(x, y Standing) int {
		if c := y.Points.Cmp(x.Points); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	return list
}

// ListTables returns a page of the club's tables by name (those after the
// table p.After; a table key's own table alone, on the first page), each
// with its open session and its next hand, texts with the players' names.
func (s *Service) ListTables(ctx context.Context, a Actor, p Page) ([]Table, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	list, err := s.tablesOf(ctx, a, p)
	if err != nil {
		return list, err
	}
	open, err := s.openSessions(ctx, a.ClubID, 0)
	if err != nil {
		return nil, err
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return nil, err
	}
	for i, t := range list {
		if list[i], err = withNextHand(t, open[t.ID], n); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// tablesOf reads a page of the tables the actor reaches: the club's, or a
// table key's own table, which is the whole of its list.
func (s *Service) tablesOf(ctx context.Context, a Actor, p Page) ([]Table, error) {
	if a.TableID == 0 {
		return s.Tables.ListTables(ctx, a.ClubID, p)
	}
	if p.After != 0 {
		return []Table{}, nil
	}
	t, err := s.Tables.FindTable(ctx, a.ClubID, a.TableID)
	return []Table{t}, err
}

// TableSettings are what UpdateTable may change, by their names in the
// API and the feed.
var TableSettings = []string{"name", "options", "stake_cents_per_point", "settle_mode", "match_loss_cents"}

// TableUpdate is what may change of a table; nil leaves it as it is.
// Options replace the table's option overrides as a whole.
type TableUpdate struct {
	Name           *string
	Options        json.RawMessage
	Stake          *score.Points
	SettleMode     *SettleMode
	MatchLossCents *int64
}

// UpdateTable changes a table's name and settings (admin). The settings
// apply from the table's next evening on: an open evening keeps the terms
// it opened with, and every hand keeps the rule set it was played under;
// the carried state (Bock queue, tallies, dice) stays. Names are unique
// in the club; options are checked as a new table's. An update that
// changes nothing stores nothing; a change is audited in the feed.
func (s *Service) UpdateTable(ctx context.Context, a Actor, id int64, u TableUpdate) (Table, error) {
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		t, err := tx.Table(ctx, id)
		if err != nil {
			return wrap(err, "UpdateTable: Table")
		}
		next, changed, err := u.apply(t)
		if err != nil || len(changed) == 0 {
			return err
		}
		if next.Name != t.Name {
			if err := tableNameFree(ctx, tx, next.Name); err != nil {
				return err
			}
		}
		if _, err := tx.LockTable(ctx, id); err != nil {
			return wrap(err, "UpdateTable: LockTable")
		}
		if err := tx.UpdateTable(ctx, next); err != nil {
			return wrap(err, "UpdateTable: UpdateTable")
		}
		return tx.RecordChange(ctx, NewChange{Kind: ChangeTableUpdated, TableID: &id, Data: map[string]any{"changed": changed}})
	})
	if err != nil {
		return Table{}, err
	}
	return s.FindTable(ctx, a, id)
}

// apply returns the table with the update's settings, validated as a new
// table's, and the names of the settings that changed.
func (u TableUpdate) apply(t Table) (Table, []string, error) {
	nt := NewTable{Name: t.Name, Game: t.Game, Preset: t.Preset, Options: t.Options, Stake: t.Stake,
		SettleMode: t.SettleMode, MatchLossCents: t.MatchLossCents}
	if u.Name != nil {
		nt.Name = *u.Name
	}
	if u.Options != nil {
		nt.Options = u.Options
	}
	if u.Stake != nil {
		nt.Stake = *u.Stake
	}
	if u.SettleMode != nil {
		nt.SettleMode = *u.SettleMode
	}
	if u.MatchLossCents != nil {
		nt.MatchLossCents = *u.MatchLossCents
	}
	rules, _, err := nt.Validate()
	if err != nil {
		return t, nil, err
	}
	next := t
	next.Name, next.Options, next.Rules, next.Stake, next.SettleMode, next.MatchLossCents =
		nt.Name, nt.Options, rules, nt.Stake, nt.SettleMode, nt.MatchLossCents
	var changed []string
	for _, c := range []struct {
		name string
		same bool
	}{
		{"name", next.Name == t.Name},
		{"options", SameJSON(next.Options, t.Options)},
		{"stake_cents_per_point", next.Stake.Cmp(t.Stake) == 0},
		{"settle_mode", next.SettleMode == t.SettleMode},
		{"match_loss_cents", next.MatchLossCents == t.MatchLossCents},
	} {
		if !c.same {
			changed = append(changed, c.name)
		}
	}
	return next, changed, nil
}

// tableNameFree refuses a table name another table of the club has.
func tableNameFree(ctx context.Context, tx Tx, name string) error {
	other, taken, err := tx.TableByName(ctx, name)
	if err != nil || !taken {
		return err
	}
	return &Error{Code: ECONFLICT, Message: "a table of this club is already called " + name, Field: "name",
		Rule: "table names are unique within a club", Extra: map[string]any{"existing_id": other.ID}}
}

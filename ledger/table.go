package ledger

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

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
		other, taken, err := tx.TableByName(ctx, nt.Name)
		if err != nil {
			return err
		}
		if taken {
			return &Error{Code: ECONFLICT, Message: "a table of this club is already called " + nt.Name, Field: "name",
				Rule: "table names are unique within a club", Extra: map[string]any{"existing_id": other.ID}}
		}
		if t, err = tx.InsertTable(ctx, nt, rules, preset); err != nil {
			return err
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
		return t, err
	}
	open, err := s.openSessions(ctx, a.ClubID, id)
	if err != nil {
		return t, err
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return t, err
	}
	return withNextHand(t, open[id], n)
}

// TableStandings returns every player's total at a table, best first.
func (s *Service) TableStandings(ctx context.Context, a Actor, tableID int64) ([]Standing, error) {
	if _, err := s.Tables.FindTable(ctx, a.ClubID, tableID); err != nil {
		return nil, err
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

// ListTables returns the club's tables by name, each with its open
// session and its next hand, texts with the players' names.
func (s *Service) ListTables(ctx context.Context, a Actor) ([]Table, error) {
	list, err := s.Tables.ListTables(ctx, a.ClubID)
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

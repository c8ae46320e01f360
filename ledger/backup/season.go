package backup

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/oldlists"
	"github.com/stichbuch/stichbuch/ledger/score"
	"github.com/stichbuch/stichbuch/ledger/season"
)

// The season's records (issue 30): a club's season rules, every version,
// and its imports of old lists, each followed by its imported evenings.
// They come after the tournaments, before the kitty bookings.

// SeasonRules is one version of a season's rules.
type SeasonRules struct {
	Name      string          `json:"name"`
	Version   int             `json:"version"`
	Rules     json.RawMessage `json:"rules"`
	CreatedAt time.Time       `json:"created_at"`
}

// OldListImport is one import of old lists: the file's hash and name and
// how many evenings follow it.
type OldListImport struct {
	ID            int64     `json:"id"`
	ContentSHA256 string    `json:"content_sha256"`
	FileName      string    `json:"file_name"`
	Evenings      int       `json:"evenings"`
	CreatedAt     time.Time `json:"created_at"`
}

// ImportedEvening is one evening of an import: points and hands per
// player, no facts.
type ImportedEvening struct {
	ID       int64          `json:"id"`
	ImportID int64          `json:"import_id"`
	Game     string         `json:"game"`
	Date     string         `json:"date"`
	Lines    []ImportedLine `json:"lines"`
}

// ImportedLine is a player's line of an imported evening.
type ImportedLine struct {
	PlayerID int64        `json:"player_id"`
	Hands    int          `json:"hands"`
	Points   score.Points `json:"points"`
}

// seasons writes the season rules, then each import with its evenings.
func (x *exporter) seasons(ctx context.Context) error {
	if err := each(ctx, x.tx.SeasonRules, func(r SeasonRules) error { return x.w.Write(Record{SeasonRules: &r}) }); err != nil {
		return err
	}
	evenings, err := peek(ctx, x.tx.ImportedEvenings)
	if err != nil {
		return err
	}
	err = each(ctx, x.tx.OldListImports, func(im OldListImport) error {
		if err := x.w.Write(Record{OldListImport: &im}); err != nil {
			return err
		}
		return evenings.while(ctx, func(e ImportedEvening) bool { return e.ImportID == im.ID }, func(e ImportedEvening) error {
			x.summary.ImportedEvenings++
			return x.w.Write(Record{ImportedEvening: &e})
		})
	})
	if err != nil {
		return err
	}
	if done, err := evenings.done(ctx); err != nil || !done {
		return fmt.Errorf("an imported evening is out of its import's order (%v); run stichbuch verify", err)
	}
	return nil
}

// seasonRun is what the importer remembers of the season's records: the
// last version of each name, and the import being read.
type seasonRun struct {
	versions map[string]int
	imports  map[int64]bool
	evenings map[int64]bool
	current  *OldListImport
	read     int // evenings of the current import read
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (im *importer) seasonState() *seasonRun {
	if im.seasons == nil {
		im.seasons = &seasonRun{versions: map[string]int{}, imports: map[int64]bool{}, evenings: map[int64]bool{}}
	}
	return im.seasons
}

// takeSeasonRules checks a version of a season's rules: versions of a
// name come in order from 1, and the rules are ones the ledger accepts.
func (im *importer) takeSeasonRules(r SeasonRules) error {
	st := im.seasonState()
	var rules season.Rules
	if err := score.DecodeStrict("rules", r.Rules, &rules); err != nil {
		return im.within("season_rules", err)
	}
	if err := (ledger.NewSeasonRules{Name: r.Name, Rules: rules}).Validate(); err != nil {
		return im.within("season_rules", err)
	}
	if r.Version != st.versions[r.Name]+1 {
		return im.invalid("season_rules.version", "season %q: version %d follows version %d", r.Name, r.Version, st.versions[r.Name])
	}
	st.versions[r.Name] = r.Version
	im.batch.SeasonRules = append(im.batch.SeasonRules, r)
	im.add(1)
	return nil
}

// takeOldListImport checks an import: the evenings it announces must all
// follow it.
func (im *importer) takeOldListImport(o OldListImport) error {
	st := im.seasonState()
	if err := im.closeOldListImport(); err != nil {
		return err
	}
	switch {
	case o.ID <= 0 || st.imports[o.ID]:
		return im.invalid("old_list_import.id", "import %d is not positive or listed twice", o.ID)
	case !sha256Hex.MatchString(o.ContentSHA256):
		return im.invalid("old_list_import.content_sha256", "must be a SHA-256 in lower-case hex")
	case len(o.FileName) > ledger.MaxImportFileName:
		return im.invalid("old_list_import.file_name", "must be at most %d bytes", ledger.MaxImportFileName)
	case o.Evenings < 1 || o.Evenings > oldlists.MaxEvenings:
		return im.invalid("old_list_import.evenings", "must be 1 to %d", oldlists.MaxEvenings)
	}
	st.imports[o.ID], st.current, st.read = true, &o, 0
	im.batch.OldListImports = append(im.batch.OldListImports, o)
	im.add(1)
	return nil
}

// closeOldListImport checks that the import read last had its evenings.
func (im *importer) closeOldListImport() error {
	st := im.seasonState()
	if st.current != nil && st.read != st.current.Evenings {
		return im.invalid("old_list_import.evenings", "import %d announces %d evenings, the document holds %d", st.current.ID, st.current.Evenings, st.read)
	}
	st.current = nil
	return nil
}

// takeImportedEvening checks an evening of the import read last.
func (im *importer) takeImportedEvening(e ImportedEvening) error {
	st := im.seasonState()
	if st.current == nil || e.ImportID != st.current.ID {
		return im.invalid("imported_evening.import_id", "must be the import right before it")
	}
	if e.ID <= 0 || st.evenings[e.ID] {
		return im.invalid("imported_evening.id", "evening %d is not positive or listed twice", e.ID)
	}
	if _, ok := games.Lookup(e.Game); !ok {
		return im.invalid("imported_evening.game", "%q is not a game of stichbuch", e.Game)
	}
	if _, err := time.Parse(time.DateOnly, e.Date); err != nil {
		return im.invalid("imported_evening.date", "must be a date YYYY-MM-DD")
	}
	if len(e.Lines) == 0 {
		return im.invalid("imported_evening.lines", "must hold a player's line")
	}
	var seen []int64
	for i, l := range e.Lines {
		field := fmt.Sprintf("imported_evening.lines[%d]", i)
		id := l.PlayerID
		if err := im.player(field+".player_id", &id); err != nil {
			return err
		}
		if slices.Contains(seen, id) {
			return im.invalid(field+".player_id", "player %d has two lines", id)
		}
		seen = append(seen, id)
		if l.Hands < 1 || l.Hands > oldlists.MaxHands {
			return im.invalid(field+".hands", "must be 1 to %d", oldlists.MaxHands)
		}
		lim := big.NewRat(int64(oldlists.MaxHands)*oldlists.MaxPoints, 1)
		p := big.NewRat(l.Points.Num(), l.Points.Den())
		if p.Cmp(lim) > 0 || p.Cmp(new(big.Rat).Neg(lim)) < 0 {
			return im.invalid(field+".points", "must be within ±%s", lim.RatString())
		}
	}
	if st.read++; st.read > st.current.Evenings {
		return im.invalid("imported_evening", "import %d announces %d evenings", st.current.ID, st.current.Evenings)
	}
	st.evenings[e.ID] = true
	im.batch.ImportedEvenings = append(im.batch.ImportedEvenings, e)
	im.add(1 + len(e.Lines))
	im.summary.ImportedEvenings++
	return nil
}

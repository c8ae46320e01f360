package ledger

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/oldlists"
)

// The old lists' import: a club's evenings from before stichbuch, read by
// ledger/oldlists, matched to the club's players by name (new names become
// new players), and stored as imported evenings: points and hands per
// player, no facts. The same file twice stores once (its SHA-256); a file
// with any error stores nothing; a dry run stores nothing and shows what
// would be stored.

// MaxImportFileName bounds an import's file name (the column's CHECK).
const MaxImportFileName = 200

// OldListImport asks to import a file of old lists.
type OldListImport struct {
	FileName string
	Content  []byte
	DryRun   bool
}

// ImportPlayer is a name of the file and the player it is (0: a new one).
type ImportPlayer struct {
	Name     string `json:"name"`
	PlayerID int64  `json:"player_id"`
	Evenings int    `json:"evenings"`
}

// ImportPreview is what an import stores or would store.
type ImportPreview struct {
	FileName string `json:"file_name"`
	Hash     string `json:"content_sha256"`
	Shape    string `json:"shape"`
	Encoding string `json:"encoding"`
	DryRun   bool   `json:"dry_run"`
	// Stored: this request stored the evenings; AlreadyImported: the same
	// file was imported before (ImportID), nothing stored again.
	Stored          bool           `json:"stored"`
	AlreadyImported bool           `json:"already_imported"`
	ImportID        int64          `json:"import_id"`
	Evenings        int            `json:"evenings"`
	Lines           int            `json:"lines"`
	Hands           int            `json:"hands"`
	From            string         `json:"from"`
	To              string         `json:"to"`
	Players         []ImportPlayer `json:"players"`     // matched by name
	NewPlayers      []ImportPlayer `json:"new_players"` // to create
}

// ImportBatch is what the store writes of an import, in one transaction.
type ImportBatch struct {
	Hash, FileName string
	// NewPlayers are created first; Players maps every name of the
	// lines to an existing player (new ones are added by the store).
	NewPlayers []string
	Players    map[string]int64
	Evenings   []oldlists.Evening
}

// ImportStore writes imports.
type ImportStore interface {
	// FindImport returns the import of a file's hash (found false: none).
	FindImport(ctx context.Context, clubID int64, hash string) (id int64, found bool, err error)
	// StoreImport writes the batch whole, or nothing, unless an import of
	// the same hash exists (existed: its id is returned).
	StoreImport(ctx context.Context, clubID int64, b ImportBatch) (id int64, existed bool, err error)
}

// gameOf tells a game's registry name from an old list's name for it: the
// registry's ("schwarze_dame") or its German one ("Schwarze Dame").
func gameOf(name string) string {
	for _, g := range games.Names() {
		e, _ := games.Lookup(g)
		if strings.EqualFold(name, g) || strings.EqualFold(name, e.DisplayName()) {
			return g
		}
	}
	return ""
}

// ImportOldLists reads a file of old lists and stores its evenings (or,
// on a dry run, shows what it would store).
func (s *Service) ImportOldLists(ctx context.Context, a Actor, in OldListImport) (ImportPreview, error) {
	pv := ImportPreview{FileName: in.FileName, DryRun: in.DryRun, Players: []ImportPlayer{}, NewPlayers: []ImportPlayer{}}
	if len(in.FileName) > MaxImportFileName {
		return pv, Invalid("file_name", "must be at most %d bytes", MaxImportFileName)
	}
	if len(in.Content) == 0 {
		return pv, Invalid("content_base64", "must hold the file")
	}
	f, err := oldlists.Read(in.Content, gameOf, s.now())
	if es := (oldlists.Errors{}); errors.As(err, &es) {
		e := Invalid("content_base64", "%s", es[0].Error())
		e.Message = es.Error()
		list := make([]map[string]any, len(es))
		for i, x := range es {
			list[i] = map[string]any{"line": x.Line, "column": x.Column, "message": x.Error()}
		}
		e.Extra = map[string]any{"lines": list}
		return pv, e
	}
	if err != nil {
		return pv, wrap(err, "ImportOldLists: read")
	}
	pv.Hash, pv.Shape, pv.Encoding, pv.Evenings = f.Hash, string(f.Shape), f.Encoding, len(f.Evenings)
	id, found, err := s.Imports.FindImport(ctx, a.ClubID, f.Hash)
	if err != nil {
		return pv, wrap(err, "ImportOldLists: FindImport")
	}
	pv.AlreadyImported, pv.ImportID = found, id
	existing, err := s.Players.ListPlayers(ctx, a.ClubID, Page{})
	if err != nil {
		return pv, wrap(err, "ImportOldLists: ListPlayers")
	}
	byName := map[string]Player{}
	for _, p := range existing {
		byName[strings.ToLower(p.Name)] = p
	}
	batch := ImportBatch{Hash: f.Hash, FileName: in.FileName, Players: map[string]int64{}, Evenings: f.Evenings}
	count := map[string]int{}
	var names []string
	spelling := map[string]string{} // one spelling per name, as players' names are matched: the club's, else the file's first
	for _, p := range existing {
		spelling[strings.ToLower(p.Name)] = p.Name
	}
	for _, ev := range f.Evenings {
		if pv.From == "" || ev.Date < pv.From {
			pv.From = ev.Date
		}
		pv.To = max(pv.To, ev.Date)
		for i, l := range ev.Lines {
			if sp, ok := spelling[strings.ToLower(l.Name)]; ok {
				l.Name = sp
			} else {
				spelling[strings.ToLower(l.Name)] = l.Name
			}
			ev.Lines[i].Name = l.Name
			pv.Lines++
			pv.Hands += l.Hands
			if count[l.Name] == 0 {
				names = append(names, l.Name)
			}
			count[l.Name]++
		}
	}
	for _, name := range names {
		if _, err := TrimName("name", name, MaxPlayerNameLen); err != nil {
			return pv, Invalid("content_base64", "der Name „%s“ ist kein Spielername: %s", name, AsError(err).Rule)
		}
		if p, ok := byName[strings.ToLower(name)]; ok {
			batch.Players[name] = p.ID
			pv.Players = append(pv.Players, ImportPlayer{Name: name, PlayerID: p.ID, Evenings: count[name]})
			continue
		}
		batch.NewPlayers = append(batch.NewPlayers, name)
		pv.NewPlayers = append(pv.NewPlayers, ImportPlayer{Name: name, Evenings: count[name]})
	}
	if in.DryRun || found {
		return pv, nil
	}
	id, existed, err := s.Imports.StoreImport(ctx, a.ClubID, batch)
	if err != nil {
		return pv, wrap(err, "ImportOldLists: StoreImport")
	}
	pv.ImportID, pv.AlreadyImported, pv.Stored = id, existed, !existed
	return pv, nil
}

// ImportedPoints is num/den of an imported line's points, for the store
// (a file's points are bounded far inside int64).
func ImportedPoints(p *big.Rat) (num, den int64, err error) {
	if !p.Num().IsInt64() || !p.Denom().IsInt64() {
		return 0, 0, fmt.Errorf("points %s leave int64", p.RatString())
	}
	return p.Num().Int64(), p.Denom().Int64(), nil
}

package postgres

// The clubs' season rules and a season's evenings: the rollups of the
// settled sessions, the live sessions' hands, the imported evenings.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/score"
)

const selectSeasonRules = `SELECT name, version, rules, created_at FROM season_rules`

func scanSeasonRules(row pgx.CollectableRow) (ledger.SeasonRules, error) {
	var r ledger.SeasonRules
	var raw []byte
	if err := row.Scan(&r.Name, &r.Version, &raw, &r.CreatedAt); err != nil {
		return r, err
	}
	return r, json.Unmarshal(raw, &r.Rules)
}

// AppendSeasonRules stores the next version of the named rules unless
// the latest has the same rules (jsonb equality), in one statement; two
// racing writers of one name meet at the primary key (a conflict).
func (s *Store) AppendSeasonRules(ctx context.Context, clubID int64, name string, rules json.RawMessage) (ledger.SeasonRules, bool, error) {
	rows, err := s.pool.Query(ctx, `
		WITH latest AS (
			SELECT version, rules FROM season_rules WHERE club_id = $1 AND name = $2
			ORDER BY version DESC LIMIT 1
		), ins AS (
			INSERT INTO season_rules (club_id, name, version, rules)
			SELECT $1, $2, coalesce((SELECT version FROM latest), 0) + 1, $3::jsonb
			WHERE NOT EXISTS (SELECT 1 FROM latest WHERE rules = $3::jsonb)
			RETURNING name, version, rules, created_at
		)
		SELECT name, version, rules, created_at, true FROM ins
		UNION ALL
		SELECT name, version, rules, created_at, false FROM season_rules
		WHERE club_id = $1 AND name = $2 AND version = (SELECT version FROM latest) AND rules = $3::jsonb`,
		clubID, name, string(rules))
	if err != nil {
		return ledger.SeasonRules{}, false, mapError(err)
	}
	var created bool
	r, err := pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (ledger.SeasonRules, error) {
		var r ledger.SeasonRules
		var raw []byte
		if err := row.Scan(&r.Name, &r.Version, &raw, &r.CreatedAt, &created); err != nil {
			return r, err
		}
		return r, json.Unmarshal(raw, &r.Rules)
	})
	return r, created, mapError(err)
}

// FindSeasonRules returns a version of the named rules (0: the latest).
func (s *Store) FindSeasonRules(ctx context.Context, clubID int64, name string, version int) (ledger.SeasonRules, error) {
	rows, err := s.pool.Query(ctx, selectSeasonRules+`
		WHERE club_id = $1 AND name = $2 AND ($3 = 0 OR version = $3)
		ORDER BY version DESC LIMIT 1`, clubID, name, version)
	if err != nil {
		return ledger.SeasonRules{}, mapError(err)
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanSeasonRules)
	return r, mapError(err)
}

// ListSeasonRules returns every season's latest version, by name.
func (s *Store) ListSeasonRules(ctx context.Context, clubID int64) ([]ledger.SeasonRules, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT DISTINCT ON (name) name, version, rules, created_at FROM season_rules
		WHERE club_id = $1 ORDER BY name, version DESC`, clubID)
	if err != nil {
		return nil, mapError(err)
	}
	out, err := pgx.CollectRows(rows, scanSeasonRules)
	return out, mapError(err)
}

// SeasonRecords reads the period's evenings in one round trip: the
// settled sessions' rollups (stat_sessions_by_date), the live sessions'
// hands and the imported evenings' lines.
func (s *Store) SeasonRecords(ctx context.Context, clubID int64, f ledger.SeasonFilter) (ledger.SeasonRecords, error) {
	var rec ledger.SeasonRecords
	b := &pgx.Batch{}
	queueContext(b, clubID, ledger.StatsFilter{From: f.From, To: f.To}, &rec.StatsContext)
	b.Queue(`
		SELECT session_id, table_id, player_id, game, to_char(date, 'YYYY-MM-DD'), hands, num, den
		FROM stat_sessions WHERE club_id = $1 AND date BETWEEN $2 AND $3 AND hands > 0 AND game = ANY($4)`,
		clubID, f.From, f.To, f.Games).Query(func(rows pgx.Rows) error {
		var r ledger.SessionRoll
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&r.Session, &r.Table, &r.Player, &r.Game, &r.Date, &r.Hands, &num, &den}, func() error {
			r.Points = score.Frac(num, den)
			rec.Sessions = append(rec.Sessions, r)
			return nil
		})
		return err
	})
	b.Queue(`
		SELECT e.evening_id, l.player_id, e.game, to_char(e.date, 'YYYY-MM-DD'), l.hands, l.num, l.den
		FROM imported_evenings e JOIN imported_lines l USING (club_id, evening_id)
		WHERE e.club_id = $1 AND e.date BETWEEN $2 AND $3 AND e.game = ANY($4)`, clubID, f.From, f.To, f.Games).Query(func(rows pgx.Rows) error {
		var l ledger.ImportedLine
		var num, den int64
		_, err := pgx.ForEachRow(rows, []any{&l.Evening, &l.Player, &l.Game, &l.Date, &l.Hands, &num, &den}, func() error {
			l.Points = big.NewRat(num, den)
			rec.Imported = append(rec.Imported, l)
			return nil
		})
		return err
	})
	return rec, mapError(send(ctx, s.pool, b))
}

// FindImport returns the import of a file's hash.
func (s *Store) FindImport(ctx context.Context, clubID int64, hash string) (int64, bool, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `SELECT import_id FROM imports WHERE club_id = $1 AND content_hash = $2`, clubID, hash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, mapError(err)
}

// StoreImport writes an import in one transaction: its new players, the
// import, its evenings and their lines (by COPY). A file imported
// meanwhile (the hash's unique key, checked first under the club's
// import lock) stores nothing and answers the earlier import.
func (s *Store) StoreImport(ctx context.Context, clubID int64, b ledger.ImportBatch) (int64, bool, error) {
	var id int64
	var existed bool
	err := s.tx(ctx, func(t pgx.Tx) error {
		if _, err := t.Exec(ctx, `SELECT pg_advisory_xact_lock(30, $1::int)`, clubID%(1<<31)); err != nil {
			return err
		}
		err := t.QueryRow(ctx, `SELECT import_id FROM imports WHERE club_id = $1 AND content_hash = $2`, clubID, b.Hash).Scan(&id)
		if err == nil {
			existed = true
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		players := maps.Clone(b.Players)
		for _, name := range b.NewPlayers {
			var pid int64
			if err := t.QueryRow(ctx, `INSERT INTO players (club_id, name) VALUES ($1, $2) RETURNING player_id`, clubID, name).Scan(&pid); err != nil {
				return err
			}
			players[name] = pid
		}
		if err := t.QueryRow(ctx, `
			INSERT INTO imports (club_id, content_hash, file_name, evenings) VALUES ($1, $2, $3, $4)
			RETURNING import_id`, clubID, b.Hash, b.FileName, len(b.Evenings)).Scan(&id); err != nil {
			return err
		}
		dates, games := make([]string, len(b.Evenings)), make([]string, len(b.Evenings))
		for i, ev := range b.Evenings {
			dates[i], games[i] = ev.Date, ev.Game
		}
		rows, err := t.Query(ctx, `
			INSERT INTO imported_evenings (club_id, import_id, game, date)
			SELECT $1, $2, g, d::date FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(g, d, n) ORDER BY n
			RETURNING evening_id`, clubID, id, games, dates)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		if len(ids) != len(b.Evenings) {
			return fmt.Errorf("imported %d evenings, want %d", len(ids), len(b.Evenings))
		}
		slices.Sort(ids) // identity values in insertion order
		var lines [][]any
		for i, ev := range b.Evenings {
			for _, l := range ev.Lines {
				num, den, err := ledger.ImportedPoints(l.Points)
				if err != nil {
					return err
				}
				lines = append(lines, []any{clubID, ids[i], players[l.Name], l.Hands, num, den})
			}
		}
		_, err = t.CopyFrom(ctx, pgx.Identifier{"imported_lines"}, []string{"club_id", "evening_id", "player_id", "hands", "num", "den"},
			pgx.CopyFromRows(lines))
		return err
	})
	return id, existed, mapError(err)
}

// SeasonRules reads every version of the season rules by name and version.
func (e exportTx) SeasonRules(ctx context.Context) (backup.Cursor[backup.SeasonRules], error) {
	return openCursor(ctx, e, "export_season_rules", `
		SELECT name, version, rules, created_at FROM season_rules WHERE club_id = $1 ORDER BY name, version`,
		func(r pgx.CollectableRow) (backup.SeasonRules, error) {
			var s backup.SeasonRules
			var raw []byte
			err := r.Scan(&s.Name, &s.Version, &raw, &s.CreatedAt)
			s.Rules, s.CreatedAt = raw, s.CreatedAt.UTC()
			return s, err
		})
}

// OldListImports reads the imports by id.
func (e exportTx) OldListImports(ctx context.Context) (backup.Cursor[backup.OldListImport], error) {
	return openCursor(ctx, e, "export_imports", `
		SELECT import_id, content_hash, file_name, evenings, created_at FROM imports WHERE club_id = $1 ORDER BY import_id`,
		func(r pgx.CollectableRow) (backup.OldListImport, error) {
			var o backup.OldListImport
			err := r.Scan(&o.ID, &o.ContentSHA256, &o.FileName, &o.Evenings, &o.CreatedAt)
			o.CreatedAt = o.CreatedAt.UTC()
			return o, err
		})
}

// ImportedEvenings reads the imported evenings by import and id, each
// with its lines by player.
func (e exportTx) ImportedEvenings(ctx context.Context) (backup.Cursor[backup.ImportedEvening], error) {
	return openCursor(ctx, e, "export_imported_evenings", `
		SELECT v.evening_id, v.import_id, v.game, to_char(v.date, 'YYYY-MM-DD'),
		       ARRAY(SELECT l.player_id FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id ORDER BY l.player_id),
		       ARRAY(SELECT l.hands FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id ORDER BY l.player_id),
		       ARRAY(SELECT l.num FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id ORDER BY l.player_id),
		       ARRAY(SELECT l.den FROM imported_lines l WHERE l.club_id = v.club_id AND l.evening_id = v.evening_id ORDER BY l.player_id)
		FROM imported_evenings v WHERE v.club_id = $1 ORDER BY v.import_id, v.evening_id`,
		func(r pgx.CollectableRow) (backup.ImportedEvening, error) {
			var ev backup.ImportedEvening
			var players, nums, dens []int64
			var hands []int32
			if err := r.Scan(&ev.ID, &ev.ImportID, &ev.Game, &ev.Date, &players, &hands, &nums, &dens); err != nil {
				return ev, err
			}
			ev.Lines = make([]backup.ImportedLine, len(players))
			for i := range players {
				ev.Lines[i] = backup.ImportedLine{PlayerID: players[i], Hands: int(hands[i]), Points: score.Frac(nums[i], dens[i])}
			}
			return ev, nil
		})
}

// queueSeasons queues the inserts of a batch's season rules, imports and
// imported evenings with their lines.
func queueSeasons(q *pgx.Batch, club int64, b *backup.Batch) {
	for _, r := range b.SeasonRules {
		q.Queue(`INSERT INTO season_rules (club_id, name, version, rules, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)`,
			club, r.Name, r.Version, string(r.Rules), r.CreatedAt)
	}
	for _, o := range b.OldListImports {
		q.Queue(`
			INSERT INTO imports (club_id, import_id, content_hash, file_name, evenings, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, o.ID, o.ContentSHA256, o.FileName, o.Evenings, o.CreatedAt)
	}
	for _, ev := range b.ImportedEvenings {
		q.Queue(`
			INSERT INTO imported_evenings (club_id, evening_id, import_id, game, date) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5)`, club, ev.ID, ev.ImportID, ev.Game, ev.Date)
		players, hands, nums, dens := make([]int64, len(ev.Lines)), make([]int32, len(ev.Lines)), make([]int64, len(ev.Lines)), make([]int64, len(ev.Lines))
		for i, l := range ev.Lines {
			players[i], hands[i], nums[i], dens[i] = l.PlayerID, int32(l.Hands), l.Points.Num(), l.Points.Den()
		}
		q.Queue(`
			INSERT INTO imported_lines (club_id, evening_id, player_id, hands, num, den)
			SELECT $1, $2, p, h, n, d FROM unnest($3::bigint[], $4::int[], $5::bigint[], $6::bigint[]) AS u(p, h, n, d)`,
			club, ev.ID, players, hands, nums, dens)
	}
}

package postgres

import (
	"bytes"
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger/chain"
)

// SealLegacy seals, with key, the rows of the trigger era (no key id) of
// every club that has some and no seal yet, in one transaction, and
// returns the clubs it sealed. serve calls it at every start; after the
// first start with a key it finds nothing to seal. It seals what it finds:
// what was changed before is for the trigger-era checks of verify to find.
func SealLegacy(ctx context.Context, pool *pgxpool.Pool, key chain.Key) ([]int64, error) {
	var sealed []int64
	err := pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE chain_seals IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `
			SELECT club_id FROM (SELECT club_id FROM hands WHERE chain_key IS NULL
			                     UNION SELECT club_id FROM hand_revisions WHERE chain_key IS NULL) l
			WHERE NOT EXISTS (SELECT 1 FROM chain_seals s WHERE s.club_id = l.club_id)
			ORDER BY club_id`)
		if err != nil {
			return err
		}
		clubs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		for _, club := range clubs {
			d, err := legacyDigest(ctx, tx, club)
			if err != nil {
				return err
			}
			seal, err := key.Seal(club, d.Hands, d.Revisions, d.Sum())
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO chain_seals (club_id, hands, revisions, seal, chain_key) VALUES ($1, $2, $3, $4, $5)`,
				club, d.Hands, d.Revisions, seal, key.ID()); err != nil {
				return err
			}
		}
		sealed = clubs
		return nil
	})
	return sealed, err
}

// legacyDigest streams a club's rows of the trigger era into their digest.
func legacyDigest(ctx context.Context, q pgx.Tx, club int64) (*chain.LegacyDigest, error) {
	d := chain.NewLegacyDigest()
	var sum []byte
	rows, err := q.Query(ctx, `SELECT hash FROM hands WHERE club_id = $1 AND chain_key IS NULL ORDER BY hand_id`, club)
	if err != nil {
		return nil, err
	}
	if _, err := pgx.ForEachRow(rows, []any{&sum}, func() error { d.Hand(sum); return nil }); err != nil {
		return nil, err
	}
	rows, err = q.Query(ctx, `SELECT hash FROM hand_revisions WHERE club_id = $1 AND chain_key IS NULL ORDER BY revision_id`, club)
	if err != nil {
		return nil, err
	}
	if _, err := pgx.ForEachRow(rows, []any{&sum}, func() error { d.Revision(sum); return nil }); err != nil {
		return nil, err
	}
	return d, nil
}

// verifySeals checks that every club's rows of the trigger era are the ones
// its seal covers, and that a club without a seal has none.
func verifySeals(ctx context.Context, q pgx.Tx, key chain.Key) (string, error) {
	type seal struct {
		club, hands, revisions int64
		sum, key               []byte
	}
	rows, err := q.Query(ctx, `
		SELECT c.club_id, coalesce(s.hands, -1), coalesce(s.revisions, -1), s.seal, s.chain_key
		FROM (SELECT club_id FROM hands WHERE chain_key IS NULL
		      UNION SELECT club_id FROM hand_revisions WHERE chain_key IS NULL
		      UNION SELECT club_id FROM chain_seals) c
		LEFT JOIN chain_seals s USING (club_id)
		ORDER BY c.club_id`)
	if err != nil {
		return "", err
	}
	seals, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (seal, error) {
		var s seal
		return s, r.Scan(&s.club, &s.hands, &s.revisions, &s.sum, &s.key)
	})
	if err != nil {
		return "", err
	}
	for _, s := range seals {
		d, err := legacyDigest(ctx, q, s.club)
		if err != nil {
			return "", err
		}
		what := fmt.Sprintf("club %d: ", s.club)
		switch {
		case s.sum == nil:
			return what + fmt.Sprintf("%d hands and %d revisions of the trigger era (no key id) are not sealed; "+
				"stichbuch serve seals them at its start, with the chain key", d.Hands, d.Revisions), nil
		case !bytes.Equal(s.key, key.ID()):
			return what + fmt.Sprintf("its rows of the trigger era were sealed with another chain key (id %x)", s.key), nil
		}
		want, err := key.Seal(s.club, d.Hands, d.Revisions, d.Sum())
		if err != nil {
			return "", err
		}
		if !chain.Equal(want, s.sum) {
			return what + fmt.Sprintf("its rows of the trigger era are not the ones sealed (%d hands and %d revisions sealed, %d and %d now, or their hashes changed)",
				s.hands, s.revisions, d.Hands, d.Revisions), nil
		}
	}
	return "", nil
}

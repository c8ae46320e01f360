package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/pressly/goose/v3"

	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
)

// handTexts are a hand's facts, result and state after as a row holds
// them: in its JSON columns (a revision, a hand stored before migration
// 17), or packed in its body (handpack).
type handTexts struct {
	facts, result, state, body []byte
}

// unpack fills the texts from the body, when the row has one.
func (t *handTexts) unpack() error {
	if t.body == nil {
		return nil
	}
	var err error
	t.facts, t.result, t.state, err = handpack.Unpack(t.body)
	return err
}

// packedHands is migration 17, in Go: hands gain body, which new hands
// pack their texts into (handpack) and leave the JSON columns NULL; a
// hand stored before keeps its JSON. About 1,300 bytes per hand less.
// Down writes the packed hands' texts back into the JSON columns (the
// schema's own step, as 00015's; SQL cannot unpack them) and drops body.
var packedHands = goose.NewGoMigration(17, &goose.GoFunc{RunTx: packedHandsUp}, &goose.GoFunc{RunTx: packedHandsDown})

func packedHandsUp(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `
		ALTER TABLE hands ALTER COLUMN facts DROP NOT NULL, ALTER COLUMN result DROP NOT NULL,
		                  ALTER COLUMN state_after DROP NOT NULL, ADD COLUMN body bytea;
		ALTER TABLE hands ADD CONSTRAINT hands_texts CHECK (CASE WHEN body IS NULL
			THEN facts IS NOT NULL AND result IS NOT NULL AND state_after IS NOT NULL
			ELSE facts IS NULL AND result IS NULL AND state_after IS NULL END);
		COMMENT ON COLUMN hands.body IS 'facts, result and state after, packed (ledger/postgres/handpack); NULL where the JSON columns hold them'`)
	return err
}

func packedHandsDown(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `
		ALTER TABLE hands DROP CONSTRAINT hands_texts;
		ALTER TABLE hands DISABLE TRIGGER hands_append_only`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT club_id, hand_id, body FROM hands WHERE body IS NOT NULL`)
	if err != nil {
		return err
	}
	type packed struct {
		club, hand int64
		t          handTexts
	}
	var all []packed
	for rows.Next() {
		var p packed
		if err := rows.Scan(&p.club, &p.hand, &p.t.body); err != nil {
			rows.Close()
			return err
		}
		if err := p.t.unpack(); err != nil {
			rows.Close()
			return fmt.Errorf("hand %d: %w", p.hand, err)
		}
		all = append(all, p)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, p := range all {
		if _, err := tx.ExecContext(ctx, `UPDATE hands SET facts = $3, result = $4, state_after = $5, body = NULL WHERE club_id = $1 AND hand_id = $2`,
			p.club, p.hand, string(p.t.facts), string(p.t.result), string(p.t.state)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `
		ALTER TABLE hands ENABLE TRIGGER hands_append_only;
		ALTER TABLE hands DROP COLUMN body, ALTER COLUMN facts SET NOT NULL, ALTER COLUMN result SET NOT NULL,
		                  ALTER COLUMN state_after SET NOT NULL`)
	return err
}

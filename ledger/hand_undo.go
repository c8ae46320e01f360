package ledger

import (
	"context"
	"encoding/json"
	"fmt"
)

// UndoReason is the reason an undone hand's void revision carries.
const UndoReason = "Spiel zurückgenommen"

// UndoResult is an undone hand and the table's next hand after it.
type UndoResult struct {
	Hand Hand `json:"hand"`
	// NextHand is the table's state as the next hand will find it now.
	NextHand json.RawMessage `json:"next_hand"`
}

// UndoHand takes back the last hand that counts at a table while its
// session is open: a void revision with UndoReason, the table's state
// back to what it was before the hand. It is idempotent by the hand's
// number: a hand already void is answered as it is, replayed. A hand
// with a counting hand after it, or of a closed session, is ECONFLICT
// (correct it instead).
func (s *Service) UndoHand(ctx context.Context, a Actor, tableID int64, number int) (UndoResult, bool, error) {
	if err := CheckHandNumber("number", number); err != nil {
		return UndoResult{}, false, err
	}
	var out UndoResult
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		t, err := tx.LockTable(ctx, tableID)
		if err != nil {
			return wrap(err, "UndoHand: LockTable")
		}
		hands, err := tx.HandsAfter(ctx, t.ID, number-1)
		if err != nil {
			return wrap(err, "UndoHand: HandsAfter")
		}
		if len(hands) == 0 || hands[0].Number != number {
			return Errorf(ENOTFOUND, "hand %d of table %d not found", number, t.ID)
		}
		target := hands[0]
		if target.Void {
			replayed, out.Hand = true, target
			return nil
		}
		if err := mayUndo(ctx, tx, target, hands[1:]); err != nil {
			return err
		}
		res, err := correct(ctx, tx, a, t, Correction{TableID: t.ID, Number: number, Revision: target.Revision, Void: true, Reason: UndoReason})
		out.Hand = res.Hand
		return err
	})
	if err != nil {
		return out, replayed, err
	}
	t, err := s.FindTable(ctx, a, tableID)
	if err != nil {
		return out, replayed, err
	}
	out.NextHand = t.NextHand
	out.Hand, err = s.withNames(ctx, a.ClubID, out.Hand)
	return out, replayed, err
}

// mayUndo refuses the undo of a hand with a counting hand after it or of a
// closed session.
func mayUndo(ctx context.Context, tx Tx, target Hand, later []Hand) error {
	for i := len(later) - 1; i >= 0; i-- {
		if !later[i].Void {
			return &Error{Code: ECONFLICT, Field: "number", Rule: "only the last hand that counts can be undone",
				Message: fmt.Sprintf("hand %d is not the last hand that counts (hand %d is): undo that one first, or correct hand %d", target.Number, later[i].Number, target.Number),
				Extra:   map[string]any{"last_hand": later[i].Number}}
		}
	}
	sess, err := tx.Session(ctx, target.SessionID)
	if err != nil {
		return wrap(err, "mayUndo: Session")
	}
	if !sess.Open() {
		return &Error{Code: ECONFLICT, Field: "number", Rule: "only a hand of an open session can be undone",
			Message: fmt.Sprintf("hand %d belongs to session %d, which is closed: correct it instead", target.Number, sess.ID)}
	}
	return nil
}

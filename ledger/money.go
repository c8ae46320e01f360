package ledger

import (
	"context"
	"fmt"
	"time"
)

// The money after the evening: settlement versions and the payments that
// settle them. A payment is a fact that never goes away; a new settlement
// version (after a correction) settles what is still open once every
// payment made so far is counted, refunds included.

// settle stores a closed session's next settlement version, computed from
// its hands as they are now and from the payments already made: version 1
// when it closes, the next after a correction changed it. The session's
// statistics are rolled up from the same hands.
func settle(ctx context.Context, tx Tx, a Actor, sess Session) error {
	version, err := tx.SettlementVersion(ctx, sess.ID)
	if err != nil {
		return fmt.Errorf("reading session %d's settlement version: %w", sess.ID, err)
	}
	in, err := tx.SettleInput(ctx, sess)
	if err != nil {
		return fmt.Errorf("reading what session %d is settled from: %w", sess.ID, err)
	}
	st, err := SettleVersion(in, version+1)
	if err != nil {
		return err
	}
	err = tx.StoreSettlement(ctx, SettlementRecord{
		Settlement: st, RecordedBy: a.KeyID,
		Change: NewChange{Kind: ChangeSettlement, TableID: &st.TableID, SessionID: &st.SessionID,
			Data: map[string]any{"version": st.Version, "kitty_cents": st.KittyCents}},
	})
	if err != nil {
		return fmt.Errorf("storing version %d of session %d's settlement: %w", st.Version, sess.ID, err)
	}
	err = tx.StoreRollup(ctx, RollUpSettled(sess, in.Hands, st))
	return wrap(err, "storing the rollups of session %d", sess.ID)
}

// SettleVersion computes version `version` of a closed session's
// settlement from its input as loaded (SettleInput's ZeroSum and Names are
// filled in here): what a close or a correction stores, and what an import
// re-computes to check a stored version.
func SettleVersion(in SettleInput, version int) (Settlement, error) {
	if err := in.complete(); err != nil {
		return Settlement{}, err
	}
	st, err := Settle(in)
	if err != nil {
		return Settlement{}, err
	}
	st.Version, st.Final = version, true
	return st, nil
}

// FindSettlement returns a session's settlement: the stored latest version
// of a closed session, with every player's payments and what is still
// open, or the provisional figures of an open one.
func (s *Service) FindSettlement(ctx context.Context, a Actor, sessionID int64) (Settlement, error) {
	sess, err := s.Tables.FindSession(ctx, a.ClubID, sessionID)
	if err != nil {
		return Settlement{}, wrap(err, "FindSettlement: FindSession")
	}
	_, st, err := s.settlementOf(ctx, a.ClubID, sess)
	return st, err
}

// settlementOf loads a session's settlement input and its settlement:
// computed while it is open, the stored latest version with its payments
// once closed. The payouts' texts come with the seated players' names.
func (s *Service) settlementOf(ctx context.Context, clubID int64, sess Session) (SettleInput, Settlement, error) {
	in, err := s.Money.SettleInput(ctx, clubID, sess)
	if err != nil {
		return in, Settlement{}, wrap(err, "settlementOf: SettleInput")
	}
	if err := in.complete(); err != nil {
		return in, Settlement{}, err
	}
	var st Settlement
	if sess.Open() {
		st, err = Settle(in)
	} else {
		st, err = s.Money.StoredSettlement(ctx, clubID, sess)
		st.applyPayments(in.Payments)
	}
	return in, Names(in.Names).Settlement(st), err
}

// MarkTransferPaid records that a transfer of the session's current
// settlement version was paid; marking it again changes nothing. A transfer
// of a replaced version is ECONFLICT naming the current version: what was
// paid on it before counts in the current version's transfers.
func (s *Service) MarkTransferPaid(ctx context.Context, a Actor, transferID int64) (Transfer, error) {
	var t Transfer
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		var err error
		if t, err = tx.Transfer(ctx, transferID); err != nil {
			return wrap(err, "MarkTransferPaid: Transfer")
		}
		sess, err := tx.Session(ctx, t.SessionID)
		if err != nil {
			return wrap(err, "MarkTransferPaid: Session")
		}
		// The table's lock orders the payment with a correction's new version.
		if _, err := tx.LockTable(ctx, sess.TableID); err != nil {
			return wrap(err, "MarkTransferPaid: LockTable")
		}
		if t, err = tx.Transfer(ctx, transferID); err != nil {
			return wrap(err, "MarkTransferPaid: Transfer")
		}
		if t.Paid {
			return nil
		}
		if !t.Current {
			current, err := tx.SettlementVersion(ctx, t.SessionID)
			if err != nil {
				return wrap(err, "MarkTransferPaid: SettlementVersion")
			}
			return &Error{Code: ECONFLICT,
				Message: fmt.Sprintf("transfer %d belongs to version %d of the settlement of session %d, which version %d replaced; pay the transfers of version %d", transferID, t.Version, t.SessionID, current, current),
				Extra:   map[string]any{"current_version": current}}
		}
		if t, err = tx.RecordPayment(ctx, transferID, a.KeyID); err != nil {
			return wrap(err, "MarkTransferPaid: RecordPayment")
		}
		return tx.RecordChange(ctx, NewChange{Kind: ChangeTransferPaid, TableID: &sess.TableID, SessionID: &sess.ID,
			Data: map[string]any{"transfer": t.ID, "cents": t.Cents}})
	})
	return t, err
}

// UndoWindow is how long the key that marked a payment may undo it; an
// admin key may undo a payment any time.
const UndoWindow = 10 * time.Minute

// UndoPayment undoes a payment marked by mistake: a new fact beside the
// payment, which stays in the audit trail; the transfer is open again and
// may be paid again. Only the transfer's standing payment of the
// session's current settlement version is undone, by the key that marked
// it within UndoWindow or by an admin key; undoing an unpaid transfer
// changes nothing.
func (s *Service) UndoPayment(ctx context.Context, a Actor, transferID int64) (Transfer, error) {
	var t Transfer
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		var err error
		if t, err = tx.Transfer(ctx, transferID); err != nil {
			return wrap(err, "UndoPayment: Transfer")
		}
		sess, err := tx.Session(ctx, t.SessionID)
		if err != nil {
			return wrap(err, "UndoPayment: Session")
		}
		if _, err := tx.LockTable(ctx, sess.TableID); err != nil {
			return wrap(err, "UndoPayment: LockTable")
		}
		if t, err = tx.Transfer(ctx, transferID); err != nil {
			return wrap(err, "UndoPayment: Transfer")
		}
		if !t.Paid {
			return nil
		}
		if !t.Current {
			return Errorf(ECONFLICT, "transfer %d belongs to version %d of the settlement of session %d, which a later version replaced counting its payment; its payment stays", transferID, t.Version, t.SessionID).
				WithHint("Diese Zahlung gehört zu einer älteren Abrechnung und ist in der neuen schon verrechnet. Sie kann nicht mehr zurückgenommen werden.")
		}
		own := t.PaidBy != nil && *t.PaidBy == a.KeyID && t.PaidAt != nil && s.now().Sub(*t.PaidAt) <= UndoWindow
		if a.Role != RoleAdmin && !own {
			return Errorf(EFORBIDDEN, "only the key that marked the payment may undo it, within %v; an admin key may any time", UndoWindow).
				WithHint("Eine Zahlung zurücknehmen kann nur das Gerät, das sie eingetragen hat, und nur in den ersten 10 Minuten. Danach bitte jemanden fragen, der den Club verwaltet.")
		}
		if t, err = tx.UndoPayment(ctx, transferID, a.KeyID); err != nil {
			return wrap(err, "UndoPayment: UndoPayment")
		}
		return tx.RecordChange(ctx, NewChange{Kind: ChangeTransferUnpaid, TableID: &sess.TableID, SessionID: &sess.ID,
			Data: map[string]any{"transfer": t.ID, "cents": t.Cents}})
	})
	return t, err
}

// TransferStatus narrows a list of transfers to the open or the paid ones.
type TransferStatus string

// The transfer statuses a list can ask for; "" is both.
const (
	// TransfersOpen are the unpaid transfers of current settlement versions.
	TransfersOpen TransferStatus = "open"
	// TransfersPaid are the paid transfers, of any version.
	TransfersPaid TransferStatus = "paid"
)

// TransferFilter narrows the club's transfers; every field is optional.
// Transfers of a replaced version that were never paid are not listed:
// nobody owes them.
type TransferFilter struct {
	Status    TransferStatus
	PlayerID  int64  // from or to this player
	SessionID int64  // of this session
	From, To  string // session dates, inclusive
	Page      Page   // by transfer id
}

// Validate checks the filter's status and dates.
func (f TransferFilter) Validate() error {
	if f.Status != "" && f.Status != TransfersOpen && f.Status != TransfersPaid {
		return Invalid("status", "must be open or paid, got %q", f.Status)
	}
	return StatsFilter{From: f.From, To: f.To}.Check()
}

// ListTransfers returns the club's transfers in the filter, oldest first.
func (s *Service) ListTransfers(ctx context.Context, a Actor, f TransferFilter) ([]Transfer, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	list, err := s.Money.ListTransfers(ctx, a.ClubID, f)
	if list == nil {
		list = []Transfer{}
	}
	return list, err
}

// Balance is a player's money across every evening.
type Balance struct {
	Player int64  `json:"player_id"`
	Name   string `json:"name"`
	// OwesCents and OwedCents are his open transfers: what he is still to
	// pay and to receive.
	OwesCents int64 `json:"owes_cents"`
	OwedCents int64 `json:"owed_cents"`
	// PaidCents and ReceivedCents are what he paid and received to date.
	PaidCents     int64 `json:"paid_cents"`
	ReceivedCents int64 `json:"received_cents"`
	// Open lists his open transfers, oldest first.
	Open []Transfer `json:"open"`
}

// PlayerBalance returns a player's money across every evening.
func (s *Service) PlayerBalance(ctx context.Context, a Actor, playerID int64) (Balance, error) {
	p, err := s.Players.FindPlayer(ctx, a.ClubID, playerID)
	if err != nil {
		return Balance{}, wrap(err, "PlayerBalance: FindPlayer")
	}
	b := Balance{Player: playerID, Name: p.Name}
	paid, err := s.Money.ListTransfers(ctx, a.ClubID, TransferFilter{Status: TransfersPaid, PlayerID: playerID})
	if err != nil {
		return b, wrap(err, "PlayerBalance: ListTransfers")
	}
	if b.Open, err = s.Money.ListTransfers(ctx, a.ClubID, TransferFilter{Status: TransfersOpen, PlayerID: playerID}); err != nil {
		return b, err
	}
	if b.Open == nil {
		b.Open = []Transfer{}
	}
	for _, t := range paid {
		b.PaidCents, b.ReceivedCents = b.PaidCents+t.centsFrom(playerID), b.ReceivedCents+t.centsTo(playerID)
	}
	for _, t := range b.Open {
		b.OwesCents, b.OwedCents = b.OwesCents+t.centsFrom(playerID), b.OwedCents+t.centsTo(playerID)
	}
	return b, nil
}

// centsFrom is what the transfer takes from player, 0 if not from him.
func (t Transfer) centsFrom(player int64) int64 {
	if t.From != nil && *t.From == player {
		return t.Cents
	}
	return 0
}

// centsTo is what the transfer gives player, 0 if not to him.
func (t Transfer) centsTo(player int64) int64 {
	if t.To != nil && *t.To == player {
		return t.Cents
	}
	return 0
}

// GermanDate writes a YYYY-MM-DD date as Germans do: 19.11.2026.
func GermanDate(iso string) string {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return iso
	}
	return t.Format("02.01.2006")
}

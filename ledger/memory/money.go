package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
)

// SettleInput loads what a session's settlement is computed from.
func (s *Store) SettleInput(_ context.Context, clubID int64, sess ledger.Session) (ledger.SettleInput, error) {
	return read(s, func(d *data) (ledger.SettleInput, error) { return d.settleInput(clubID, sess) })
}

// SettleInput loads what a session's settlement is computed from.
func (t *tx) SettleInput(_ context.Context, sess ledger.Session) (ledger.SettleInput, error) {
	return t.d.settleInput(t.club, sess)
}

func (d *data) settleInput(clubID int64, sess ledger.Session) (ledger.SettleInput, error) {
	in := ledger.SettleInput{Session: sess, Standings: d.standings(d.sessTotals, clubID, sess.ID)}
	var err error
	if in.Table, err = d.table(clubID, sess.TableID); err != nil {
		return in, err
	}
	for _, id := range sess.Seating {
		in.Players = append(in.Players, d.players[id].Player)
	}
	for _, h := range d.handsAfter(clubID, sess.TableID, 0, -1) {
		if h.SessionID == sess.ID {
			in.Hands = append(in.Hands, h)
		}
	}
	for _, t := range d.transfersWhere(clubID, func(t ledger.Transfer) bool { return t.SessionID == sess.ID && t.Paid }) {
		in.Payments = append(in.Payments, ledger.Payment{From: t.From, To: t.To, Cents: t.Cents})
	}
	return in, nil
}

// SettlementVersion is a session's latest settlement version.
func (t *tx) SettlementVersion(_ context.Context, sessionID int64) (int, error) {
	st, _ := t.d.latestSettlement(t.club, sessionID)
	return st.Version, nil
}

func (d *data) latestSettlement(clubID, sessionID int64) (settlementRow, bool) {
	ids := d.versions[sessionID]
	if len(ids) == 0 {
		return settlementRow{}, false
	}
	st := d.settlements[ids[len(ids)-1]]
	return st, st.club == clubID
}

// StoreSettlement stores a settlement version with its transfers and its
// change.
func (t *tx) StoreSettlement(ctx context.Context, r ledger.SettlementRecord) error {
	st := r.Settlement
	row := settlementRow{club: t.club, id: t.next(), Settlement: st}
	row.Transfers = nil
	created := t.now
	row.CreatedAt = &created
	put(t, t.d.settlements, row.id, row)
	appendTo(t, t.d.versions, st.SessionID, row.id)
	for _, tr := range st.Transfers {
		tr.ID = t.next()
		put(t, t.d.transfers, tr.ID, transferRow{club: t.club, settlement: row.id, Transfer: tr})
	}
	return t.RecordChange(ctx, r.Change)
}

// StoredSettlement reads a closed session's latest settlement version.
func (s *Store) StoredSettlement(_ context.Context, clubID int64, sess ledger.Session) (ledger.Settlement, error) {
	return read(s, func(d *data) (ledger.Settlement, error) {
		row, ok := d.latestSettlement(clubID, sess.ID)
		if !ok {
			return ledger.Settlement{}, notFound("settlement of session %d", sess.ID)
		}
		st := row.Settlement
		st.Transfers = d.transfersWhere(clubID, func(t ledger.Transfer) bool { return t.SessionID == sess.ID && t.Version == st.Version })
		return st, nil
	})
}

// transfersWhere lists the club's transfers that match, by id, with their
// version, paid state and date.
func (d *data) transfersWhere(clubID int64, match func(ledger.Transfer) bool) []ledger.Transfer {
	out := []ledger.Transfer{}
	for _, row := range d.transfers {
		if row.club != clubID {
			continue
		}
		t := row.Transfer
		set := d.settlements[row.settlement]
		latest, _ := d.latestSettlement(clubID, t.SessionID)
		t.Version, t.Current, t.Date = set.Version, set.Version == latest.Version, d.sessions[t.SessionID].Date
		if at, ok := d.payments[t.ID]; ok {
			by := d.paidBy[t.ID]
			t.Paid, t.PaidAt, t.PaidBy = true, &at, &by
		}
		if match(t) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b ledger.Transfer) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Transfer reads a transfer of the club.
func (t *tx) Transfer(_ context.Context, id int64) (ledger.Transfer, error) {
	list := t.d.transfersWhere(t.club, func(x ledger.Transfer) bool { return x.ID == id })
	if len(list) == 0 {
		return ledger.Transfer{}, notFound("transfer %d", id)
	}
	return list[0], nil
}

// RecordPayment records that a transfer was paid.
func (t *tx) RecordPayment(ctx context.Context, transferID, recordedBy int64) (ledger.Transfer, error) {
	if _, paid := t.d.payments[transferID]; paid {
		return ledger.Transfer{}, ledger.Errorf(ledger.ECONFLICT, "already exists (transfer_payments_pkey)")
	}
	put(t, t.d.payments, transferID, t.now)
	put(t, t.d.paidBy, transferID, recordedBy)
	return t.Transfer(ctx, transferID)
}

// UndoPayment forgets a transfer's standing payment (the memory store
// keeps no audit trail; PostgreSQL keeps the payment and the undo).
func (t *tx) UndoPayment(ctx context.Context, transferID, _ int64) (ledger.Transfer, error) {
	del(t, t.d.payments, transferID)
	del(t, t.d.paidBy, transferID)
	return t.Transfer(ctx, transferID)
}

// OpenDebts returns the unpaid transfers of other sessions' latest
// settlements that concern any of players.
func (s *Store) OpenDebts(_ context.Context, clubID, sessionID int64, players []int64) ([]ledger.Transfer, error) {
	return read(s, func(d *data) ([]ledger.Transfer, error) {
		return d.transfersWhere(clubID, func(t ledger.Transfer) bool {
			return t.SessionID != sessionID && !t.Paid && t.Current && (concerns(t, players))
		}), nil
	})
}

func concerns(t ledger.Transfer, players []int64) bool {
	return (t.From != nil && slices.Contains(players, *t.From)) || (t.To != nil && slices.Contains(players, *t.To))
}

// ListTransfers returns the club's transfers in the filter, by id.
func (s *Store) ListTransfers(_ context.Context, clubID int64, f ledger.TransferFilter) ([]ledger.Transfer, error) {
	return read(s, func(d *data) ([]ledger.Transfer, error) {
		list := d.transfersWhere(clubID, func(t ledger.Transfer) bool {
			status := (f.Status == ledger.TransfersOpen && !t.Paid && t.Current) || (f.Status == ledger.TransfersPaid && t.Paid) ||
				(f.Status == "" && (t.Paid || t.Current))
			return status && t.ID > f.Page.After && (f.PlayerID == 0 || concerns(t, []int64{f.PlayerID})) &&
				(f.SessionID == 0 || t.SessionID == f.SessionID) && (f.From == "" || t.Date >= f.From) && (f.To == "" || t.Date <= f.To)
		})
		if f.Page.Limit > 0 && len(list) > f.Page.Limit {
			list = list[:f.Page.Limit]
		}
		return list, nil
	})
}

// KittyMovements returns the kitty's cash movements and its open transfers.
func (s *Store) KittyMovements(_ context.Context, clubID int64) ([]ledger.KittyMovement, []ledger.KittyMovement, error) {
	type result struct{ cash, receivable []ledger.KittyMovement }
	r, err := read(s, func(d *data) (result, error) {
		var out result
		for _, t := range d.transfersWhere(clubID, func(t ledger.Transfer) bool { return t.From == nil || t.To == nil }) {
			m := ledger.KittyMovement{Cents: t.Cents, Kind: ledger.KittyPayment, Player: t.From, SessionID: &t.SessionID, TransferID: &t.ID}
			if t.From == nil {
				m.Cents, m.Player = -t.Cents, t.To
			}
			switch {
			case t.Paid:
				m.At = *t.PaidAt
				out.cash = append(out.cash, m)
			case t.Current:
				m.Kind, m.At = ledger.KittyOpen, d.settlements[d.transfers[t.ID].settlement].CreatedAt.UTC()
				out.receivable = append(out.receivable, m)
			}
		}
		for _, b := range d.kitty {
			if b.club == clubID && b.Kind == ledger.KittyManual {
				out.cash = append(out.cash, ledger.KittyMovement{Cents: b.Cents, Kind: b.Kind, Note: b.Note, BookingID: &b.ID, At: b.CreatedAt})
			}
		}
		slices.SortStableFunc(out.cash, func(a, b ledger.KittyMovement) int { return b.At.Compare(a.At) })
		return out, nil
	})
	return r.cash, r.receivable, err
}

// ListKittyBookings returns a page of the club's kitty bookings by id.
func (s *Store) ListKittyBookings(_ context.Context, clubID int64, p ledger.Page) ([]ledger.KittyBooking, error) {
	return read(s, func(d *data) ([]ledger.KittyBooking, error) {
		var out []ledger.KittyBooking
		for _, b := range d.kitty {
			if b.club == clubID && b.ID > p.After {
				out = append(out, b.KittyBooking)
			}
		}
		slices.SortFunc(out, func(a, b ledger.KittyBooking) int { return cmp.Compare(a.ID, b.ID) })
		return limited(out, p.Limit), nil
	})
}

// InsertKittyBooking stores a kitty booking.
func (t *tx) InsertKittyBooking(_ context.Context, nb ledger.NewKittyBooking) (ledger.KittyBooking, error) {
	b := ledger.KittyBooking{ID: t.next(), Cents: nb.Cents, Kind: nb.Kind, Note: nb.Note, SessionID: nb.SessionID, CreatedAt: t.now}
	put(t, t.d.kitty, b.ID, kittyRow{club: t.club, KittyBooking: b})
	return b, nil
}

// KittyBooking reads a kitty booking of the club.
func (t *tx) KittyBooking(_ context.Context, id int64) (ledger.KittyBooking, error) {
	b, ok := t.d.kitty[id]
	if !ok || b.club != t.club {
		return ledger.KittyBooking{}, notFound("kitty booking %d", id)
	}
	return b.KittyBooking, nil
}

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
	return in, nil
}

// SettlementVersion is a session's latest settlement version and what its
// settlements booked in the kitty.
func (t *tx) SettlementVersion(_ context.Context, sessionID int64) (int, int64, error) {
	version := 0
	if st, ok := t.d.latestSettlement(t.club, sessionID); ok {
		version = st.Version
	}
	var booked int64
	for _, b := range t.d.kitty {
		if b.club == t.club && b.SessionID != nil && *b.SessionID == sessionID && b.Kind == ledger.KittySettlement {
			booked += b.Cents
		}
	}
	return version, booked, nil
}

func (d *data) latestSettlement(clubID, sessionID int64) (settlementRow, bool) {
	var latest settlementRow
	found := false
	for _, st := range d.settlements {
		if st.club == clubID && st.SessionID == sessionID && (!found || st.Version > latest.Version) {
			latest, found = st, true
		}
	}
	return latest, found
}

// StoreSettlement stores a settlement version with its transfers, money
// rows, change and kitty booking.
func (t *tx) StoreSettlement(ctx context.Context, r ledger.SettlementRecord) error {
	st := r.Settlement
	row := settlementRow{club: t.club, id: t.d.next(), Settlement: st}
	row.Transfers = nil
	created := t.now
	row.CreatedAt = &created
	t.d.settlements[row.id] = row
	t.d.statMoney[st.SessionID] = st
	for _, tr := range st.Transfers {
		tr.ID = t.d.next()
		t.d.transfers[tr.ID] = transferRow{club: t.club, settlement: row.id, Transfer: tr}
	}
	if err := t.RecordChange(ctx, r.Change); err != nil {
		return err
	}
	if r.KittyCents == 0 {
		return nil
	}
	_, err := t.InsertKittyBooking(ctx, ledger.NewKittyBooking{Cents: r.KittyCents, Kind: ledger.KittySettlement, Note: r.KittyNote,
		SessionID: &st.SessionID, RecordedBy: r.RecordedBy})
	return err
}

// StoredSettlement reads a closed session's latest settlement version.
func (s *Store) StoredSettlement(_ context.Context, clubID int64, sess ledger.Session) (ledger.Settlement, error) {
	return read(s, func(d *data) (ledger.Settlement, error) {
		row, ok := d.latestSettlement(clubID, sess.ID)
		if !ok {
			return ledger.Settlement{}, notFound("settlement of session %d", sess.ID)
		}
		st := row.Settlement
		st.Transfers = d.transfersWhere(func(t transferRow) bool { return t.club == clubID && t.settlement == row.id })
		return st, nil
	})
}

// transfersWhere lists the transfers that match with their paid state, by id.
func (d *data) transfersWhere(match func(transferRow) bool) []ledger.Transfer {
	out := []ledger.Transfer{}
	for _, t := range d.transfers {
		if !match(t) {
			continue
		}
		tr := t.Transfer
		if at, ok := d.payments[tr.ID]; ok {
			tr.Paid, tr.PaidAt = true, &at
		}
		out = append(out, tr)
	}
	slices.SortFunc(out, func(a, b ledger.Transfer) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// MarkTransferPaid records a transfer's payment once.
func (t *tx) MarkTransferPaid(_ context.Context, transferID, _ int64) (ledger.Transfer, bool, error) {
	tr, ok := t.d.transfers[transferID]
	if !ok || tr.club != t.club {
		return ledger.Transfer{}, false, nil
	}
	if _, paid := t.d.payments[transferID]; !paid {
		t.d.payments[transferID] = t.now
	}
	list := t.d.transfersWhere(func(x transferRow) bool { return x.ID == transferID })
	return list[0], true, nil
}

// OpenDebts returns the unpaid transfers of other sessions' latest
// settlements that concern any of players.
func (s *Store) OpenDebts(_ context.Context, clubID, sessionID int64, players []int64) ([]ledger.Transfer, error) {
	return read(s, func(d *data) ([]ledger.Transfer, error) {
		concerns := func(p *int64) bool { return p != nil && slices.Contains(players, *p) }
		return d.transfersWhere(func(t transferRow) bool {
			latest, _ := d.latestSettlement(clubID, t.SessionID)
			_, paid := d.payments[t.ID]
			return t.club == clubID && t.SessionID != sessionID && !paid && (concerns(t.From) || concerns(t.To)) && t.settlement == latest.id
		}), nil
	})
}

// KittyBookings returns the kitty's bookings, newest first.
func (s *Store) KittyBookings(_ context.Context, clubID int64) ([]ledger.KittyBooking, error) {
	return read(s, func(d *data) ([]ledger.KittyBooking, error) {
		var out []ledger.KittyBooking
		for _, b := range d.kitty {
			if b.club == clubID {
				out = append(out, b.KittyBooking)
			}
		}
		slices.SortFunc(out, func(a, b ledger.KittyBooking) int { return cmp.Compare(b.ID, a.ID) })
		return out, nil
	})
}

// InsertKittyBooking stores a kitty booking.
func (t *tx) InsertKittyBooking(_ context.Context, nb ledger.NewKittyBooking) (ledger.KittyBooking, error) {
	b := ledger.KittyBooking{ID: t.d.next(), Cents: nb.Cents, Kind: nb.Kind, Note: nb.Note, SessionID: nb.SessionID, CreatedAt: t.now}
	t.d.kitty[b.ID] = kittyRow{club: t.club, KittyBooking: b}
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

package memory

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// FindHand returns hand number n of a table.
func (s *Store) FindHand(_ context.Context, clubID, tableID int64, n int) (ledger.Hand, error) {
	return read(s, func(d *data) (ledger.Hand, error) {
		h, ok := d.handByNumber(clubID, tableID, n)
		if !ok {
			return ledger.Hand{}, notFound("hand %d of table %d", n, tableID)
		}
		return h.Hand, nil
	})
}

func (d *data) handByNumber(clubID, tableID int64, n int) (handRow, bool) {
	h, ok := d.hands[d.handNumbers[tableNumber{tableID, n}]]
	return h, ok && h.club == clubID
}

// ListHands returns a table's hands in the filter, in order.
func (s *Store) ListHands(_ context.Context, clubID, tableID int64, f ledger.HandFilter) ([]ledger.Hand, error) {
	return read(s, func(d *data) ([]ledger.Hand, error) {
		var out []ledger.Hand
		for _, h := range d.handsAfter(clubID, tableID, int(f.Page.After), -1) {
			if f.Page.Limit > 0 && len(out) == f.Page.Limit {
				break
			}
			if f.SessionID == 0 || h.SessionID == f.SessionID {
				out = append(out, h)
			}
		}
		return out, nil
	})
}

// HandsAfter returns a table's hands numbered after `after`, in order.
func (t *tx) HandsAfter(_ context.Context, tableID int64, after int) ([]ledger.Hand, error) {
	return t.d.handsAfter(t.club, tableID, after, -1), nil
}

func (d *data) handsAfter(clubID, tableID int64, after, limit int) []ledger.Hand {
	var out []ledger.Hand
	for n := max(after, 0) + 1; limit < 0 || len(out) < limit; n++ {
		h, ok := d.handByNumber(clubID, tableID, n)
		if !ok {
			break
		}
		out = append(out, h.Hand)
	}
	return out
}

// HandRevisions returns every revision of a hand, the original first.
func (s *Store) HandRevisions(_ context.Context, clubID, tableID int64, n int) ([]ledger.Revision, error) {
	return read(s, func(d *data) ([]ledger.Revision, error) {
		h, ok := d.handByNumber(clubID, tableID, n)
		if !ok {
			return nil, notFound("hand %d of table %d", n, tableID)
		}
		return slices.Clone(h.revisions), nil
	})
}

// HandSnapshot reads the table, the session and the key.
func (s *Store) HandSnapshot(_ context.Context, clubID, tableID, sessionID int64, key string) (ledger.HandSnapshot, error) {
	return read(s, func(d *data) (ledger.HandSnapshot, error) {
		var snap ledger.HandSnapshot
		var err error
		if snap.Table, err = d.table(clubID, tableID); err != nil {
			return snap, err
		}
		sess, err := d.session(clubID, sessionID)
		snap.Session, snap.SessionFound = sess, err == nil
		snap.Names = ledger.Names{}
		for _, id := range sess.Seating {
			snap.Names[id] = d.players[id].Name
		}
		snap.Claim = d.idempotency[idemKey{clubID, key}]
		return snap, nil
	})
}

// HandByID reads a hand of the club by its id.
func (s *Store) HandByID(_ context.Context, clubID, id int64) (ledger.Hand, error) {
	return read(s, func(d *data) (ledger.Hand, error) {
		h, ok := d.hands[id]
		if !ok || h.club != clubID {
			return ledger.Hand{}, notFound("hand %d", id)
		}
		return h.Hand, nil
	})
}

// AppendHand stores a new hand if the table is still at the version read.
func (s *Store) AppendHand(ctx context.Context, clubID int64, r ledger.HandRecord) (ledger.Hand, error) {
	var h ledger.Hand
	err := s.InTx(ctx, clubID, func(ltx ledger.Tx) error {
		t := ltx.(*tx)
		tb, err := t.d.table(clubID, r.Table.ID)
		if err != nil {
			return err
		}
		if tb.Version != r.Table.Version {
			return ledger.ErrStale
		}
		if r.Idempotency != nil {
			if _, taken := t.d.idempotency[idemKey{clubID, r.Idempotency.Key}]; taken {
				return ledger.ErrStale
			}
		}
		h, err = t.appendHand(ctx, r)
		return err
	})
	return h, err
}

// Hand reads a hand of the club by its id.
func (t *tx) Hand(_ context.Context, id int64) (ledger.Hand, error) {
	h, ok := t.d.hands[id]
	if !ok || h.club != t.club {
		return ledger.Hand{}, notFound("hand %d", id)
	}
	return h.Hand, nil
}

// appendHand stores a new hand with everything that goes with it.
func (t *tx) appendHand(ctx context.Context, r ledger.HandRecord) (ledger.Hand, error) {
	if _, taken := t.d.handNumbers[tableNumber{r.Table.ID, r.Number}]; taken {
		return ledger.Hand{}, ledger.Errorf(ledger.ECONFLICT, "already exists (hands_club_id_table_id_number_key)")
	}
	h := ledger.Hand{ID: t.next(), TableID: r.Table.ID, SessionID: r.Session.ID, Number: r.Number, Game: r.Table.Game,
		Rules: r.Session.Terms.Rules, Facts: r.Facts, Result: r.Result, RecordedBy: r.RecordedBy, RecordedAt: t.now, Revision: 1,
		SessionNumber: 1}
	for n := r.Number - 1; n > 0; n-- { // a session's hands are numbered on end to end
		prev, ok := t.d.handByNumber(t.club, r.Table.ID, n)
		if !ok || prev.SessionID != r.Session.ID {
			break
		}
		h.SessionNumber++
	}
	first := ledger.Revision{Revision: 1, Facts: h.Facts, Result: h.Result, RecordedBy: h.RecordedBy, RecordedAt: t.now}
	put(t, t.d.hands, h.ID, handRow{club: t.club, Hand: h, revisions: []ledger.Revision{first}})
	put(t, t.d.handNumbers, tableNumber{h.TableID, h.Number}, h.ID)
	for _, p := range r.Result.Points {
		t.addTotal(t.d.tableTotals, h.TableID, p, 1)
		t.addTotal(t.d.sessTotals, h.SessionID, p, 1)
	}
	t.addAttendance(h.TableID, h.SessionID, r.Attendance)
	tb := t.d.tables[h.TableID]
	tb.Table = tb.Table.AfterHand(h)
	put(t, t.d.tables, h.TableID, tb)
	put(t, t.d.statOpen, r.Session.ID, true)
	if r.Idempotency != nil {
		if err := t.Remember(ctx, r.Idempotency, ledger.KindHand, h.ID); err != nil {
			return ledger.Hand{}, err
		}
	}
	return h, t.RecordChange(ctx, r.Change)
}

// addTotal adds a player's points to a running total, counting hands.
func (t *tx) addTotal(totals map[totalKey]total, owner int64, p score.PlayerPoints, hands int) {
	k := totalKey{owner, p.Player}
	tot := totals[k]
	tot.points, tot.hands = tot.points.Add(p.Points), tot.hands+hands
	put(t, totals, k, tot)
}

// addAttendance moves the hands played and sat out of a table's and a
// session's totals.
func (t *tx) addAttendance(tableID, sessionID int64, list []ledger.Attendance) {
	for _, a := range list {
		for _, k := range []struct {
			totals map[totalKey]total
			owner  int64
		}{{t.d.tableTotals, tableID}, {t.d.sessTotals, sessionID}} {
			key := totalKey{k.owner, a.Player}
			tot := k.totals[key]
			tot.played, tot.satOut = tot.played+a.Played, tot.satOut+a.SatOut
			put(t, k.totals, key, tot)
		}
	}
}

// AppendRevision stores a hand's next revision and moves the totals.
func (t *tx) AppendRevision(ctx context.Context, r ledger.RevisionRecord) error {
	h, ok := t.d.hands[r.Hand.ID]
	if !ok || h.club != t.club {
		return notFound("hand %d", r.Hand.ID)
	}
	if r.Revision != len(h.revisions)+1 {
		return ledger.Errorf(ledger.ECONFLICT, "already exists (hand_revisions_club_id_hand_id_revision_key)")
	}
	rev := ledger.Revision{Revision: r.Revision, Facts: r.Facts, Result: r.Result, Void: r.Void, Reason: r.Reason,
		CausedBy: r.CausedBy, RecordedBy: r.RecordedBy, RecordedAt: t.now}
	h.revisions = append(slices.Clip(h.revisions), rev)
	h.Facts, h.Result, h.Revision, h.Void, h.Reason = r.Facts, r.Result, r.Revision, r.Void, r.Reason
	put(t, t.d.hands, h.ID, h)
	for _, p := range r.Diffs {
		t.addTotal(t.d.tableTotals, h.TableID, p, 0)
		t.addTotal(t.d.sessTotals, r.Session.ID, p, 0)
	}
	t.addAttendance(h.TableID, r.Session.ID, r.Attendance)
	return t.RecordChange(ctx, r.Change)
}

func marshal(v map[string]any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage(`{}`), nil
	}
	return json.Marshal(v)
}

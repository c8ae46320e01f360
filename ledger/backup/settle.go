package backup

import (
	"fmt"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// sessionRun is the session being read: its hands as re-scored and its
// settlement versions with their transfers, until its money is checked.
type sessionRun struct {
	s           Session
	hands       []handVersions
	settlements []*settlementRun
}

// settlementRun is a settlement version with its transfers.
type settlementRun struct {
	st        Settlement
	transfers []Transfer
}

// resettle re-computes every settlement version of a closed session in
// order with ledger.SettleVersion, from the session's re-scored hands as
// they were when the version was made and the payments made before it
// (on the transfers of earlier versions), and refuses the session,
// naming the version, when the document's body or transfers differ from
// what the ledger computes. The bodies the ledger computed are stored.
//
// Version 1 was made when the session closed, from the versions of its
// hands then current; every later version by a correction, in the same
// transaction as the revisions it appended to the session's hands, so
// those revisions carry the version's creation time exactly. A revision
// whose time is no version's was made while the session was open.
func (im *importer) resettle(sr *sessionRun) error {
	s := sr.s
	if s.ClosedAt == nil {
		return nil // takeSettlement refused any version of an open session
	}
	if len(sr.settlements) == 0 {
		return ledger.Errorf(ledger.EINVALID, "session %d is closed, yet the document holds no settlement of it", s.ID)
	}
	counts, err := countedFrom(sr)
	if err != nil {
		return err
	}
	var payments []ledger.Payment
	for k, run := range sr.settlements {
		version := k + 1
		st, err := ledger.SettleVersion(im.settleInput(sr, counts, version, payments), version)
		if err != nil {
			return ledger.Errorf(ledger.EINVALID, "session %d, settlement version %d: the ledger cannot compute it: %v", s.ID, version, err)
		}
		body, err := ledger.SettlementBody(st)
		if err != nil {
			return err
		}
		if diff := jsonDifference(run.st.Body, body); diff != "" {
			return ledger.Errorf(ledger.EINVALID, "session %d, settlement version %d: the document's settlement differs from what the ledger computes from the re-scored hands and the payments made before it: %s",
				s.ID, version, diff)
		}
		if err := sameTransfers(s.ID, version, run.transfers, st.Transfers); err != nil {
			return err
		}
		for _, t := range run.transfers {
			if t.Payment != nil {
				payments = append(payments, ledger.Payment{From: t.From, To: t.To, Cents: t.Cents})
			}
		}
		row := SettlementRow{Settlement: run.st, Transfers: run.transfers}
		row.Body = body
		im.batch.Settlements = append(im.batch.Settlements, row)
		im.add(1 + 2*len(run.transfers))
	}
	return nil
}

// countedFrom returns, for each hand of the session and each of its
// versions, the settlement version from which on it counts: 1 for the
// versions recorded before the session closed, k for a revision made with
// version k. It refuses revisions that no version's order explains and a
// later version that no revision of the session's hands made.
func countedFrom(sr *sessionRun) ([][]int, error) {
	made := make(map[int64]int, len(sr.settlements)) // by creation time in ns
	for k, run := range sr.settlements[1:] {
		made[run.st.CreatedAt.UnixNano()] = k + 2
	}
	seen := map[int]bool{}
	out := make([][]int, len(sr.hands))
	for i, h := range sr.hands {
		from := make([]int, len(h.versions))
		for j, v := range h.versions {
			from[j] = max(1, made[v.recordedAt.UnixNano()])
			if j == 0 {
				from[j] = 1
			}
			if j > 0 && (from[j] < from[j-1] || (from[j] > 1 && from[j] == from[j-1])) {
				return nil, ledger.Errorf(ledger.EINVALID,
					"session %d, hand %d, revision %d: its recording time places it before the revision before it, in the order of the settlement versions",
					sr.s.ID, h.number, v.revision)
			}
			seen[from[j]] = true
		}
		out[i] = from
	}
	for k := 2; k <= len(sr.settlements); k++ {
		if !seen[k] {
			return nil, ledger.Errorf(ledger.EINVALID,
				"session %d, settlement version %d: no revision of the session's hands was recorded with it, so no correction made it", sr.s.ID, k)
		}
	}
	return out, nil
}

// settleInput is what version `version` of the session's settlement was
// computed from: the table, the seated players, the standings and hands
// as they were then, and the payments made before it.
func (im *importer) settleInput(sr *sessionRun, counts [][]int, version int, payments []ledger.Payment) ledger.SettleInput {
	t := im.table.t
	s := sr.s
	in := ledger.SettleInput{
		Session: ledger.Session{ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating, OpenedAt: s.OpenedAt, ClosedAt: s.ClosedAt,
			Terms: s.Terms.ledger()},
		Table: ledger.Table{ID: t.ID, Name: t.Name, Game: t.Game, Preset: t.Preset, Options: t.Options, Rules: t.Rules, Stake: t.Stake,
			SettleMode: ledger.SettleMode(t.SettleMode), MatchLossCents: t.MatchLossCents},
		Payments: payments,
	}
	for _, id := range s.Seating {
		in.Players = append(in.Players, ledger.Player{ID: id, Name: im.players[id]})
	}
	points := map[int64]score.Points{}
	hands := map[int64]int{}
	var order []int64
	for i, h := range sr.hands {
		current := h.versions[0]
		for j, v := range h.versions {
			if counts[i][j] <= version {
				current = v
			}
		}
		// A player's hands count where the hand as recorded scored him,
		// as the running totals do.
		for _, p := range h.versions[0].result.Points {
			if _, ok := hands[p.Player]; !ok {
				order = append(order, p.Player)
			}
			hands[p.Player]++
		}
		for _, p := range current.result.Points {
			points[p.Player] = points[p.Player].Add(p.Points)
		}
		in.Hands = append(in.Hands, ledger.Hand{Number: h.number, Result: current.result})
	}
	for _, id := range order {
		in.Standings = append(in.Standings, ledger.Standing{Player: id, Name: im.players[id], Points: points[id], Entries: hands[id]})
	}
	return in
}

// sameTransfers refuses a version whose transfers are not the ones the
// ledger computes, in the same order.
func sameTransfers(session int64, version int, doc []Transfer, computed []ledger.Transfer) error {
	if len(doc) != len(computed) {
		return ledger.Errorf(ledger.EINVALID, "session %d, settlement version %d: the document lists %d transfers, the ledger computes %d",
			session, version, len(doc), len(computed))
	}
	for i, t := range doc {
		c := computed[i]
		if idOr(t.From, 0) != idOr(c.From, 0) || idOr(t.To, 0) != idOr(c.To, 0) || t.Cents != c.Cents {
			return ledger.Errorf(ledger.EINVALID, "session %d, settlement version %d, transfer %d: the document says %s, the ledger computes %s",
				session, version, t.ID, transferText(t.From, t.To, t.Cents), transferText(c.From, c.To, c.Cents))
		}
	}
	return nil
}

func transferText(from, to *int64, cents int64) string {
	who := func(p *int64) string {
		if p == nil {
			return "the kitty"
		}
		return fmt.Sprintf("player %d", *p)
	}
	return fmt.Sprintf("%d cents from %s to %s", cents, who(from), who(to))
}

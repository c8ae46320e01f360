package ledger

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/stichbuch/stichbuch/ledger/money"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// SettleMode is how a table's evening changes hands.
type SettleMode string

// The settle-up modes.
const (
	// SettleTransfers: players pay each other, in the fewest transfers.
	SettleTransfers SettleMode = "transfers"
	// SettleKitty: everyone settles his net with the club's kitty.
	SettleKitty SettleMode = "kitty"
	// SettleLosersToKitty: only minus balances are paid, into the kitty;
	// the winners' plus stays with the club (a common club habit).
	SettleLosersToKitty SettleMode = "losers_to_kitty"
)

// Valid reports whether m is one of the settle-up modes.
func (m SettleMode) Valid() bool {
	return m == SettleTransfers || m == SettleKitty || m == SettleLosersToKitty
}

// Validate refuses an unknown mode, naming field.
func (m SettleMode) Validate(field string) error {
	if !m.Valid() {
		return Invalid(field, "must be transfers, kitty or losers_to_kitty, got %q", m)
	}
	return nil
}

// Settlement is the money of one session: each player's points turned into
// cents, the payouts that are not points, and the transfers that settle it.
// A closed session's settlement is stored and never changes; a correction
// adds a new version.
type Settlement struct {
	SessionID int64        `json:"session_id"`
	TableID   int64        `json:"table_id"`
	Version   int          `json:"version"` // 0 while the session is open (provisional)
	Final     bool         `json:"final"`
	Date      string       `json:"date"`
	Game      string       `json:"game"`
	Stake     score.Points `json:"stake_cents_per_point"`
	Mode      SettleMode   `json:"settle_mode"`
	// Rules is the table's rule set the evening was played under.
	Rules json.RawMessage `json:"rules"`
	// MatchLossCents is what each loser of a Klaberjass match pays.
	MatchLossCents int64         `json:"match_loss_cents"`
	Players        []PlayerMoney `json:"players"`
	Payouts        []Payout      `json:"payouts"`
	Transfers      []Transfer    `json:"transfers"`
	// KittyCents is what the evening puts into the club's kitty (negative:
	// takes out of it); KittyOpenCents what of it is still unpaid.
	KittyCents     int64      `json:"kitty_cents"`
	KittyOpenCents int64      `json:"kitty_open_cents"`
	CreatedAt      *time.Time `json:"created_at,omitempty"`
}

// PlayerMoney is one player's money of the evening.
type PlayerMoney struct {
	Player int64        `json:"player_id"`
	Name   string       `json:"name"`
	Points score.Points `json:"points"`
	Hands  int          `json:"hands"` // hands played this evening
	// PointsCents is points x stake, rounded by largest remainder so the
	// evening's money sums to exactly what the points say.
	PointsCents int64 `json:"points_cents"`
	// PayoutCents is payouts received minus payouts paid.
	PayoutCents int64 `json:"payout_cents"`
	NetCents    int64 `json:"net_cents"`
	// BetweenPlayersCents and WithKittyCents split what the player is to
	// receive (+) or pay (-) by whom he settles it with; their sum is
	// SettleCents: NetCents, but for a winner at a losers_to_kitty table,
	// whose plus stays with the club.
	BetweenPlayersCents int64 `json:"between_players_cents"`
	WithKittyCents      int64 `json:"with_kitty_cents"`
	SettleCents         int64 `json:"settle_cents"`
	// PaidCents and ReceivedCents are the payments he made and got for
	// this evening, in any settlement version; OpenCents is what is still
	// to settle: SettleCents + PaidCents - ReceivedCents (+ he is still to
	// receive it, - he still owes it).
	PaidCents     int64 `json:"paid_cents"`
	ReceivedCents int64 `json:"received_cents"`
	OpenCents     int64 `json:"open_cents"`
}

// Payout is money a hand's event moves that is not points: a Schwarze Sau
// threshold payment, a lost Klaberjass match. To nil is the kitty.
type Payout struct {
	Hand  int    `json:"hand"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	From  int64  `json:"from_player_id"`
	To    *int64 `json:"to_player_id"`
	Cents int64  `json:"cents"`
}

// Transfer is one payment that settles the evening. A nil From or To is the
// club's kitty. Stored transfers have an ID and can be marked paid, while
// their settlement version is the session's current one.
type Transfer struct {
	ID        int64      `json:"id,omitempty"`
	SessionID int64      `json:"session_id"`
	From      *int64     `json:"from_player_id"`
	To        *int64     `json:"to_player_id"`
	Cents     int64      `json:"cents"`
	Paid      bool       `json:"paid"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	// PaidBy is the key that marked the standing payment (who may undo it
	// for a while).
	PaidBy *int64 `json:"paid_by_key_id,omitempty"`
	// Version is the settlement version the transfer belongs to; Current
	// whether that is the session's latest (a replaced version's transfer
	// cannot be paid any more, but its payment stays and counts).
	Version int    `json:"version,omitempty"`
	Current bool   `json:"current"`
	Date    string `json:"date,omitempty"` // the session's date
}

// withKitty reports whether the transfer is settled with the kitty.
func (t Transfer) withKitty() bool { return t.From == nil || t.To == nil }

// Payment is a payment made for a session: a transfer marked paid.
type Payment struct {
	From  *int64
	To    *int64
	Cents int64
}

// SettleInput is what a settlement is computed from.
type SettleInput struct {
	Session Session
	Table   Table
	// Players are the seated players in seating order.
	Players   []Player
	Standings []Standing // the session's totals
	Hands     []Hand     // the session's hands, in order, for their events
	// Payments are the payments made for the session so far, in any
	// settlement version: a new version settles what is still open.
	Payments []Payment
	// ZeroSum and Names follow from the above (complete fills them in).
	ZeroSum bool
	Names   map[int64]string
}

// complete fills in what follows from the loaded parts: whether the game
// is zero-sum and the players' names.
func (in *SettleInput) complete() error {
	e, err := Engine("game", in.Table.Game)
	if err != nil {
		return err
	}
	in.ZeroSum = e.ZeroSum()
	in.Names = make(map[int64]string, len(in.Players))
	for _, p := range in.Players {
		in.Names[p.ID] = p.Name
	}
	return nil
}

// Settle computes a session's settlement. The money from points sums to
// exactly what the points say (zero in the zero-sum games); payouts are
// whole cents split evenly; the transfers settle every player's net.
//
// Money that is zero-sum among players (points of a zero-sum game, payouts
// to players) moves between players in the transfers mode; money that is
// not (points of Schwarze Sau, payouts to the kitty) is settled with the
// kitty in every mode.
func Settle(in SettleInput) (Settlement, error) {
	st := Settlement{
		SessionID: in.Session.ID, TableID: in.Table.ID, Date: in.Session.Date, Game: in.Table.Game,
		Stake: in.Session.Terms.Stake, Mode: in.Session.Terms.SettleMode, MatchLossCents: in.Session.Terms.MatchLossCents,
		Rules:   in.Session.Terms.Rules,
		Payouts: []Payout{}, Transfers: []Transfer{},
	}
	if !st.Mode.Valid() {
		st.Mode = SettleTransfers
	}
	players := in.Session.Seating
	points := make(map[int64]score.Points, len(players))
	hands := make(map[int64]int, len(players))
	for _, s := range in.Standings {
		points[s.Player], hands[s.Player] = s.Points, s.Entries
	}
	exact := make([]score.Points, len(players))
	for i, id := range players {
		exact[i] = money.CentsOf(points[id], in.Session.Terms.Stake)
	}
	cents := money.Allocate(exact)

	st.Payouts = payouts(in.Hands, in.Session.Terms.MatchLossCents)
	toPlayers := map[int64]int64{} // zero-sum among players
	toKitty := map[int64]int64{}   // settled with the kitty
	for i, id := range players {
		if in.ZeroSum {
			toPlayers[id] += cents[i]
		} else {
			toKitty[id] += cents[i]
		}
	}
	payoutNet := map[int64]int64{}
	for _, p := range st.Payouts {
		payoutNet[p.From] -= p.Cents
		if p.To == nil {
			toKitty[p.From] -= p.Cents
			continue
		}
		payoutNet[*p.To] += p.Cents
		toPlayers[p.From] -= p.Cents
		toPlayers[*p.To] += p.Cents
	}
	for i, id := range players {
		net := cents[i] + payoutNet[id]
		pm := PlayerMoney{
			Player: id, Name: in.Names[id], Points: points[id], Hands: hands[id],
			PointsCents: cents[i], PayoutCents: payoutNet[id], NetCents: net,
		}
		switch st.Mode {
		case SettleTransfers:
			pm.BetweenPlayersCents, pm.WithKittyCents = toPlayers[id], toKitty[id]
		case SettleKitty:
			pm.WithKittyCents = net
		case SettleLosersToKitty:
			pm.WithKittyCents = min(net, 0)
		}
		pm.SettleCents = pm.BetweenPlayersCents + pm.WithKittyCents
		st.KittyCents -= pm.WithKittyCents
		st.Players = append(st.Players, pm)
	}
	st.applyPayments(in.Payments)
	var err error
	if st.Transfers, err = st.openTransfers(in.Payments); err != nil {
		return Settlement{}, err
	}
	for i := range st.Transfers {
		st.Transfers[i].SessionID = in.Session.ID
	}
	return st, nil
}

// payouts reads the money-moving events of the hands: Schwarze Sau's
// threshold payments and lost Klaberjass matches (each loser pays
// matchLoss, shared by the match's winners).
func payouts(hands []Hand, matchLoss int64) []Payout {
	out := []Payout{}
	for _, h := range hands {
		var winners []int64
		for _, ev := range h.Result.Events {
			if ev.Type == score.EventMatchWon {
				winners = ev.Players
			}
		}
		for _, ev := range h.Result.Events {
			switch ev.Type {
			case score.EventPayout:
				for _, payer := range ev.Players {
					out = append(out, split(h.Number, ev, payer, ev.Amount, ev.Recipients)...)
				}
			case score.EventMatchLost:
				if matchLoss == 0 {
					continue
				}
				for _, loser := range ev.Players {
					out = append(out, split(h.Number, ev, loser, matchLoss, winners)...)
				}
			}
		}
	}
	return out
}

// split is one payer's payment of cents, to the kitty when there are no
// recipients, else shared evenly among them.
func split(hand int, ev score.Event, payer, cents int64, recipients []int64) []Payout {
	if cents <= 0 {
		return nil
	}
	if len(recipients) == 0 {
		return []Payout{{Hand: hand, Type: string(ev.Type), Text: ev.Text, From: payer, Cents: cents}}
	}
	var out []Payout
	for i, part := range money.Split(cents, len(recipients)) {
		if part == 0 {
			continue
		}
		to := recipients[i]
		out = append(out, Payout{Hand: hand, Type: string(ev.Type), Text: ev.Text, From: payer, To: &to, Cents: part})
	}
	return out
}

// applyPayments fills in each player's paid, received and open cents from
// the payments made for the session.
func (st *Settlement) applyPayments(payments []Payment) {
	paid, received := map[int64]int64{}, map[int64]int64{}
	for _, p := range payments {
		if p.From != nil {
			paid[*p.From] += p.Cents
		}
		if p.To != nil {
			received[*p.To] += p.Cents
		}
	}
	st.KittyOpenCents = st.KittyCents
	for i := range st.Players {
		pm := &st.Players[i]
		pm.PaidCents, pm.ReceivedCents = paid[pm.Player], received[pm.Player]
		pm.OpenCents = pm.SettleCents + pm.PaidCents - pm.ReceivedCents
	}
	for _, p := range payments {
		switch {
		case p.To == nil:
			st.KittyOpenCents -= p.Cents
		case p.From == nil:
			st.KittyOpenCents += p.Cents
		}
	}
}

// openTransfers settles what is still open: between players with the
// fewest transfers, with the kitty one transfer per player. What a player
// paid too much comes back the same way it went: from the kitty, or from
// the players who received it.
func (st *Settlement) openTransfers(payments []Payment) ([]Transfer, error) {
	between, kitty := map[int64]int64{}, map[int64]int64{}
	for _, pm := range st.Players {
		between[pm.Player], kitty[pm.Player] = pm.BetweenPlayersCents, pm.WithKittyCents
	}
	for _, p := range payments {
		t := Transfer{From: p.From, To: p.To}
		open := between
		if t.withKitty() {
			open = kitty
		}
		if p.From != nil {
			open[*p.From] += p.Cents
		}
		if p.To != nil {
			open[*p.To] -= p.Cents
		}
	}
	for id, c := range between {
		if c == 0 {
			delete(between, id)
		}
	}
	moves, err := money.FewestTransfers(between)
	if err != nil {
		return nil, fmt.Errorf("settling session %d: %w", st.SessionID, err)
	}
	out := make([]Transfer, 0, len(moves)+len(st.Players))
	for _, m := range moves {
		from, to := m.From, m.To
		out = append(out, Transfer{From: &from, To: &to, Cents: m.Cents})
	}
	for _, pm := range st.Players {
		out = append(out, kittyTransfer(pm.Player, kitty[pm.Player])...)
	}
	return out, nil
}

// kittyTransfer settles balance cents of a player with the kitty: a minus
// is paid into it, a plus paid out of it.
func kittyTransfer(player, balance int64) []Transfer {
	id := player
	switch {
	case balance < 0:
		return []Transfer{{From: &id, Cents: -balance}}
	case balance > 0:
		return []Transfer{{To: &id, Cents: balance}}
	}
	return nil
}

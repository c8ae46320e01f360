package ledger

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/stichbuch/stichbuch/ledger/money"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Settle-up modes: how a table's evening changes hands.
const (
	// SettleTransfers: players pay each other, in the fewest transfers.
	SettleTransfers = "transfers"
	// SettleKitty: everyone settles his net with the club's kitty.
	SettleKitty = "kitty"
	// SettleLosersToKitty: only minus balances are paid, into the kitty;
	// the winners' plus stays with the club (a common club habit).
	SettleLosersToKitty = "losers_to_kitty"
)

// ValidSettleMode reports whether mode is one of the settle-up modes.
func ValidSettleMode(mode string) bool {
	return mode == SettleTransfers || mode == SettleKitty || mode == SettleLosersToKitty
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
	Mode      string       `json:"settle_mode"`
	// Rules is the table's rule set the evening was played under.
	Rules json.RawMessage `json:"rules"`
	// MatchLossCents is what each loser of a Klaberjass match pays.
	MatchLossCents int64         `json:"match_loss_cents"`
	Players        []PlayerMoney `json:"players"`
	Payouts        []Payout      `json:"payouts"`
	Transfers      []Transfer    `json:"transfers"`
	// KittyCents is what the evening puts into the club's kitty (negative:
	// takes out of it).
	KittyCents int64      `json:"kitty_cents"`
	CreatedAt  *time.Time `json:"created_at,omitempty"`
}

// PlayerMoney is one player's money of the evening.
type PlayerMoney struct {
	Player int64        `json:"player"`
	Name   string       `json:"name"`
	Points score.Points `json:"points"`
	Hands  int          `json:"hands"` // hands played this evening
	// PointsCents is points x stake, rounded by largest remainder so the
	// evening's money sums to exactly what the points say.
	PointsCents int64 `json:"points_cents"`
	// PayoutCents is payouts received minus payouts paid.
	PayoutCents int64 `json:"payout_cents"`
	NetCents    int64 `json:"net_cents"`
}

// Payout is money a hand's event moves that is not points: a Schwarze Sau
// threshold payment, a lost Klaberjass match. To nil is the kitty.
type Payout struct {
	Hand  int    `json:"hand"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	From  int64  `json:"from"`
	To    *int64 `json:"to"`
	Cents int64  `json:"cents"`
}

// Transfer is one payment that settles the evening. A nil From or To is the
// club's kitty. Stored transfers have an ID and can be marked paid.
type Transfer struct {
	ID        int64      `json:"id,omitempty"`
	SessionID int64      `json:"session_id"`
	From      *int64     `json:"from"`
	To        *int64     `json:"to"`
	Cents     int64      `json:"cents"`
	Paid      bool       `json:"paid"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
}

// SettleInput is what a settlement is computed from.
type SettleInput struct {
	Session   Session
	Table     Table
	ZeroSum   bool
	Names     map[int64]string
	Standings []Standing // the session's totals
	Hands     []Hand     // the session's hands, in order, for their events
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
		Stake: in.Table.Stake, Mode: in.Table.SettleMode, MatchLossCents: in.Table.MatchLossCents, Rules: in.Table.Rules,
		Payouts: []Payout{}, Transfers: []Transfer{},
	}
	if !ValidSettleMode(st.Mode) {
		st.Mode = SettleTransfers
	}
	players := in.Session.Seating
	points := make(map[int64]score.Points, len(players))
	hands := make(map[int64]int, len(players))
	for _, s := range in.Standings {
		points[s.Player], hands[s.Player] = s.Points, s.Hands
	}
	exact := make([]score.Points, len(players))
	for i, id := range players {
		exact[i] = money.CentsOf(points[id], in.Table.Stake)
	}
	cents := money.Allocate(exact)

	st.Payouts = payouts(in.Hands, in.Table.MatchLossCents)
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
		st.Players = append(st.Players, PlayerMoney{
			Player: id, Name: in.Names[id], Points: points[id], Hands: hands[id],
			PointsCents: cents[i], PayoutCents: payoutNet[id], NetCents: net,
		})
	}

	var err error
	switch st.Mode {
	case SettleTransfers:
		st.Transfers, err = settleByTransfers(players, toPlayers, toKitty)
	case SettleKitty:
		st.Transfers = settleWithKitty(st.Players, false)
	case SettleLosersToKitty:
		st.Transfers = settleWithKitty(st.Players, true)
	}
	if err != nil {
		return Settlement{}, err
	}
	for i := range st.Transfers {
		t := &st.Transfers[i]
		t.SessionID = in.Session.ID
		switch {
		case t.To == nil:
			st.KittyCents += t.Cents
		case t.From == nil:
			st.KittyCents -= t.Cents
		}
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

func settleByTransfers(players []int64, toPlayers, toKitty map[int64]int64) ([]Transfer, error) {
	balances := map[int64]int64{}
	for id, c := range toPlayers {
		if c != 0 {
			balances[id] = c
		}
	}
	moves, err := money.FewestTransfers(balances)
	if err != nil {
		return nil, fmt.Errorf("settling session: %w", err)
	}
	out := make([]Transfer, 0, len(moves)+len(toKitty))
	for _, m := range moves {
		from, to := m.From, m.To
		out = append(out, Transfer{From: &from, To: &to, Cents: m.Cents})
	}
	for _, id := range players {
		out = append(out, kittyTransfer(id, toKitty[id])...)
	}
	return out, nil
}

// settleWithKitty settles each player's net with the kitty; with
// losersOnly, plus balances are not paid out.
func settleWithKitty(players []PlayerMoney, losersOnly bool) []Transfer {
	out := []Transfer{}
	for _, p := range players {
		if losersOnly && p.NetCents > 0 {
			continue
		}
		out = append(out, kittyTransfer(p.Player, p.NetCents)...)
	}
	return out
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

// Kitty is the club's kitty: its balance is the sum of its bookings.
type Kitty struct {
	BalanceCents int64          `json:"balance_cents"`
	Bookings     []KittyBooking `json:"bookings"`
}

// KittyBooking is one append-only movement of the kitty: a settlement's
// payments or a manual booking ("Grillabend", -8000).
type KittyBooking struct {
	ID        int64     `json:"id"`
	Cents     int64     `json:"cents"`
	Kind      string    `json:"kind"` // settlement or manual
	Note      string    `json:"note"`
	SessionID *int64    `json:"session_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

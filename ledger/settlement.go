package ledger

import (
	"context"
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
	Session Session
	Table   Table
	// Players are the seated players in seating order.
	Players   []Player
	Standings []Standing // the session's totals
	Hands     []Hand     // the session's hands, in order, for their events
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
		Stake: in.Table.Stake, Mode: in.Table.SettleMode, MatchLossCents: in.Table.MatchLossCents, Rules: in.Table.Rules,
		Payouts: []Payout{}, Transfers: []Transfer{},
	}
	if !st.Mode.Valid() {
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

// settle stores a closed session's next settlement version, computed from
// its hands as they are now: version 1 when it closes, the next after a
// correction changed it. The kitty is booked what the version changes in
// it, and the session's statistics are rolled up.
func settle(ctx context.Context, tx Tx, a Actor, sess Session) error {
	version, booked, err := tx.SettlementVersion(ctx, sess.ID)
	if err != nil {
		return err
	}
	in, err := tx.SettleInput(ctx, sess)
	if err != nil {
		return err
	}
	if err := in.complete(); err != nil {
		return err
	}
	st, err := Settle(in)
	if err != nil {
		return err
	}
	st.Version, st.Final = version+1, true
	note := fmt.Sprintf("Abrechnung vom %s (Sitzung %d)", GermanDate(st.Date), st.SessionID)
	if st.Version > 1 {
		note = fmt.Sprintf("Korrektur der Abrechnung vom %s (Sitzung %d, Fassung %d)", GermanDate(st.Date), st.SessionID, st.Version)
	}
	err = tx.StoreSettlement(ctx, SettlementRecord{
		Settlement: st, KittyCents: st.KittyCents - booked, KittyNote: note, RecordedBy: a.KeyID,
		Change: NewChange{Kind: ChangeSettlement, TableID: &st.TableID, SessionID: &st.SessionID,
			Data: map[string]any{"version": st.Version, "kitty_cents": st.KittyCents}},
	})
	if err != nil {
		return err
	}
	return rollUpSession(ctx, tx, sess.ID)
}

// FindSettlement returns a session's settlement: the stored latest version
// of a closed session (with each transfer's paid state), or the
// provisional figures of an open one.
func (s *Service) FindSettlement(ctx context.Context, a Actor, sessionID int64) (Settlement, error) {
	sess, err := s.Tables.FindSession(ctx, a.ClubID, sessionID)
	if err != nil {
		return Settlement{}, err
	}
	if !sess.Open() {
		return s.Money.StoredSettlement(ctx, a.ClubID, sess)
	}
	_, st, err := s.settlementOf(ctx, a.ClubID, sess)
	return st, err
}

// MarkTransferPaid records that a transfer was paid. Marking it again
// changes nothing.
func (s *Service) MarkTransferPaid(ctx context.Context, a Actor, transferID int64) (Transfer, error) {
	var t Transfer
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		var ok bool
		var err error
		if t, ok, err = tx.MarkTransferPaid(ctx, transferID, a.KeyID); err != nil {
			return err
		}
		if !ok {
			return Errorf(ENOTFOUND, "transfer %d not found", transferID)
		}
		return nil
	})
	return t, err
}

// Kitty returns the club's kitty: its balance and its bookings, newest first.
func (s *Service) Kitty(ctx context.Context, a Actor) (Kitty, error) {
	list, err := s.Money.KittyBookings(ctx, a.ClubID)
	if err != nil {
		return Kitty{}, err
	}
	k := Kitty{Bookings: list}
	if k.Bookings == nil {
		k.Bookings = []KittyBooking{}
	}
	for _, b := range list {
		k.BalanceCents += b.Cents
	}
	return k, nil
}

// MaxKittyBookingCents bounds a manual kitty booking either way.
const MaxKittyBookingCents = 100_000_000

// BookKitty adds a manual booking to the club's kitty ("Grillabend", -8000).
func (s *Service) BookKitty(ctx context.Context, a Actor, cents int64, note string, idem *Idempotency) (KittyBooking, bool, error) {
	if cents == 0 || cents > MaxKittyBookingCents || cents < -MaxKittyBookingCents {
		return KittyBooking{}, false, Invalid("cents", "must be non-zero and at most 1.000.000,00 € either way")
	}
	if err := CheckName("note", note, MaxNoteLen); err != nil {
		return KittyBooking{}, false, err
	}
	var b KittyBooking
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindKittyBooking)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			b, err = tx.KittyBooking(ctx, ref)
			return err
		}
		if b, err = tx.InsertKittyBooking(ctx, NewKittyBooking{Cents: cents, Kind: KittyManual, Note: note, RecordedBy: a.KeyID}); err != nil {
			return err
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeKittyBooking, Data: map[string]any{"booking": b.ID, "cents": cents}}); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindKittyBooking, b.ID)
	})
	return b, replayed, err
}

// The kinds of kitty booking.
const (
	KittySettlement = "settlement" // what a settlement version puts in or takes out
	KittyManual     = "manual"     // a treasurer's booking
)

// GermanDate writes a YYYY-MM-DD date as Germans do: 19.11.2026.
func GermanDate(iso string) string {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return iso
	}
	return t.Format("02.01.2006")
}

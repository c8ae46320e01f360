package ledger

import (
	"encoding/json"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// A settlement's stored form is the body a settlements row holds and a
// backup document carries. It keeps the member names settlements were
// first stored under ("player", "from", "to"), whatever the API calls them
// (Settlement's own JSON: "player_id", "from_player_id", "to_player_id"):
// stored history is append-only and never rewritten, and documents
// exported before still import. The stored structs mirror the API types
// field by field, so each converts to the other; a field added to one must
// be added to the other (TestSettlementBodyMirrorsSettlement).

// storedSettlement is Settlement as stored.
type storedSettlement struct {
	SessionID      int64            `json:"session_id"`
	TableID        int64            `json:"table_id"`
	Version        int              `json:"version"`
	Final          bool             `json:"final"`
	Date           string           `json:"date"`
	Game           string           `json:"game"`
	Stake          score.Points     `json:"stake_cents_per_point"`
	Mode           SettleMode       `json:"settle_mode"`
	Rules          json.RawMessage  `json:"rules"`
	MatchLossCents int64            `json:"match_loss_cents"`
	Players        []storedMoney    `json:"players"`
	Payouts        []storedPayout   `json:"payouts"`
	Transfers      []storedTransfer `json:"transfers"`
	KittyCents     int64            `json:"kitty_cents"`
	KittyOpenCents int64            `json:"kitty_open_cents"`
	CreatedAt      *time.Time       `json:"created_at,omitempty"`
}

// storedMoney is PlayerMoney as stored.
type storedMoney struct {
	Player              int64        `json:"player"`
	Name                string       `json:"name"`
	Points              score.Points `json:"points"`
	Hands               int          `json:"hands"`
	PointsCents         int64        `json:"points_cents"`
	PayoutCents         int64        `json:"payout_cents"`
	NetCents            int64        `json:"net_cents"`
	BetweenPlayersCents int64        `json:"between_players_cents"`
	WithKittyCents      int64        `json:"with_kitty_cents"`
	SettleCents         int64        `json:"settle_cents"`
	PaidCents           int64        `json:"paid_cents"`
	ReceivedCents       int64        `json:"received_cents"`
	OpenCents           int64        `json:"open_cents"`
}

// storedPayout is Payout as stored.
type storedPayout struct {
	Hand  int    `json:"hand"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	From  int64  `json:"from"`
	To    *int64 `json:"to"`
	Cents int64  `json:"cents"`
}

// storedTransfer is Transfer as stored.
type storedTransfer struct {
	ID        int64      `json:"id,omitempty"`
	SessionID int64      `json:"session_id"`
	From      *int64     `json:"from"`
	To        *int64     `json:"to"`
	Cents     int64      `json:"cents"`
	Paid      bool       `json:"paid"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	PaidBy    *int64     `json:"paid_by,omitempty"` // read with the payment; a stored body has none
	Version   int        `json:"version,omitempty"`
	Current   bool       `json:"current"`
	Date      string     `json:"date,omitempty"`
}

// SettlementBody returns the settlement's stored form: what a settlements
// row and a backup document hold.
func SettlementBody(st Settlement) ([]byte, error) {
	s := storedSettlement{
		SessionID: st.SessionID, TableID: st.TableID, Version: st.Version, Final: st.Final,
		Date: st.Date, Game: st.Game, Stake: st.Stake, Mode: st.Mode, Rules: st.Rules,
		MatchLossCents: st.MatchLossCents, KittyCents: st.KittyCents, KittyOpenCents: st.KittyOpenCents,
		CreatedAt: st.CreatedAt,
	}
	s.Players = convertEach[PlayerMoney, storedMoney](st.Players, func(p PlayerMoney) storedMoney { return storedMoney(p) })
	s.Payouts = convertEach[Payout, storedPayout](st.Payouts, func(p Payout) storedPayout { return storedPayout(p) })
	s.Transfers = convertEach[Transfer, storedTransfer](st.Transfers, func(t Transfer) storedTransfer { return storedTransfer(t) })
	return json.Marshal(s)
}

// ParseSettlementBody reads a settlement's stored form (SettlementBody's).
func ParseSettlementBody(body []byte) (Settlement, error) {
	var s storedSettlement
	if err := json.Unmarshal(body, &s); err != nil {
		return Settlement{}, err
	}
	st := Settlement{
		SessionID: s.SessionID, TableID: s.TableID, Version: s.Version, Final: s.Final,
		Date: s.Date, Game: s.Game, Stake: s.Stake, Mode: s.Mode, Rules: s.Rules,
		MatchLossCents: s.MatchLossCents, KittyCents: s.KittyCents, KittyOpenCents: s.KittyOpenCents,
		CreatedAt: s.CreatedAt,
	}
	st.Players = convertEach[storedMoney, PlayerMoney](s.Players, func(p storedMoney) PlayerMoney { return PlayerMoney(p) })
	st.Payouts = convertEach[storedPayout, Payout](s.Payouts, func(p storedPayout) Payout { return Payout(p) })
	st.Transfers = convertEach[storedTransfer, Transfer](s.Transfers, func(t storedTransfer) Transfer { return Transfer(t) })
	return st, nil
}

// convertEach converts every element of a slice; nil stays nil (a body's
// null stays null).
func convertEach[A, B any](in []A, f func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

package schwarzesau

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// State is what the table remembers across hands and sessions: each
// player's tally of minus points since the last payout.
type State struct {
	// Tallies are the minus points since the last payout, as positive
	// numbers, for every player who has played at this table.
	Tallies map[int64]score.Points `json:"tallies"`
	// ToLimit is, per player, how many more minus points the tally may
	// take before it exceeds Limit (a tally exactly at the limit pays
	// nothing; anything beyond pays).
	ToLimit map[int64]score.Points `json:"to_limit"`
	// Limit is threshold_base + Day of the last hand's date.
	Limit         int64      `json:"limit"`
	ThresholdBase int64      `json:"threshold_base"`
	Date          score.Date `json:"date"`
	// Round counts the runs of tallies; it starts at 1 and grows by one
	// with every payout.
	Round int `json:"round"`
	// Hands counts the hands scored in the current round.
	Hands int `json:"hands"`
	// Payouts counts how often each player has paid at this table.
	Payouts    map[int64]int `json:"payouts"`
	LastPayout *Payout       `json:"last_payout,omitempty"`
	Summary    string        `json:"summary"`
}

// Payout records the last time tallies exceeded the limit.
type Payout struct {
	Session int64      `json:"session"`
	Date    score.Date `json:"date"`
	Limit   int64      `json:"limit"`
	// Payers are the players whose tallies exceeded the limit, with the
	// tallies they had.
	Payers  []int64                `json:"payers"`
	Tallies map[int64]score.Points `json:"tallies"`
	// Cents is what each payer pays.
	Cents  int64  `json:"cents"`
	Target string `json:"target"`
	// Recipients share the payout when Target is "players".
	Recipients []int64 `json:"recipients,omitempty"`
}

// decodeState reads the stored state; empty, "null" and "{}" are the
// initial state. Tallies out of range mean a corrupt store.
func decodeState(raw json.RawMessage) (State, error) {
	st := State{Round: 1}
	if len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		if err := json.Unmarshal(raw, &st); err != nil {
			return State{}, fmt.Errorf("schwarze_sau: stored state unreadable: %w", err)
		}
	}
	if st.Tallies == nil {
		st.Tallies = map[int64]score.Points{}
	}
	if st.Payouts == nil {
		st.Payouts = map[int64]int{}
	}
	st.Round = max(st.Round, 1)
	for id, t := range st.Tallies {
		if t.Sign() < 0 || t.Den() > 2 || t.Cmp(score.Int(maxTally)) > 0 {
			return State{}, fmt.Errorf("schwarze_sau: stored tally of player %d out of range: %s", id, t)
		}
	}
	return st, nil
}

// addHand adds the hand's minus points to the tallies; every player of the
// hand gets a tally.
func (st *State) addHand(minus map[int64]score.Points, players []int64) {
	for _, id := range players {
		st.Tallies[id] = st.Tallies[id].Add(minus[id])
	}
	st.Hands++
}

// settle pays out every tally above the limit of the hand's date and
// restarts all tallies at 0. It returns the payout event, if any.
func (st *State) settle(r Rules, h score.Hand, handPlayers []int64) (score.Event, bool) {
	limit := r.ThresholdBase + int64(h.Date.Day)
	var over []int64
	for id, t := range st.Tallies {
		if t.Cmp(score.Int(limit)) > 0 {
			over = append(over, id)
		}
	}
	if len(over) == 0 {
		return score.Event{}, false
	}
	payers := score.InSeatingOrder(over, h.Seated)
	p := &Payout{
		Session: h.Session, Date: h.Date, Limit: limit, Payers: payers,
		Tallies: map[int64]score.Points{}, Cents: r.PayoutCents, Target: TargetKitty,
	}
	for _, id := range payers {
		p.Tallies[id] = st.Tallies[id]
		st.Payouts[id]++
	}
	if r.PayoutTarget == TargetPlayers {
		p.Recipients = without(handPlayers, payers)
		if len(p.Recipients) > 0 {
			p.Target = TargetPlayers
		}
	}
	for id := range st.Tallies {
		st.Tallies[id] = score.Int(0)
	}
	st.LastPayout = p
	st.Round++
	st.Hands = 0
	return score.Event{Type: score.EventPayout, Text: p.text(r.ThresholdBase), Players: payers, Recipients: p.Recipients, Amount: p.Cents}, true
}

// text is the German sentence of the payout event.
func (p *Payout) text(base int64) string {
	names := make([]string, len(p.Payers))
	for i, id := range p.Payers {
		names[i] = fmt.Sprintf("%s (%s Minuspunkte)", score.PlayerRef(id), formatPoints(p.Tallies[id]))
	}
	verb, pays := "überschreitet", "zahlt"
	if len(p.Payers) > 1 {
		verb, pays = "überschreiten", "zahlen je"
	}
	to := "in die Kasse"
	if p.Target == TargetPlayers {
		to = "an " + score.PlayerList(p.Recipients) + " (geteilt)"
	}
	return fmt.Sprintf("%s %s die Grenze %d (%d + %d.) und %s %s %s. Alle Stände beginnen wieder bei 0.",
		score.JoinGerman(names), verb, p.Limit, base, p.Date.Day, pays, formatCents(p.Cents), to)
}

// finish sets the limit of the hand's date, each player's distance to it
// and the summary.
func (st *State) finish(r Rules, h score.Hand) {
	st.at(r, h.Date, h.Seated)
}

// at sets the limit of date under rules r, each player's distance to it
// and the summary, naming the players in the order of seated. A zero date
// (no session yet) has no day: its limit is threshold_base alone.
func (st *State) at(r Rules, date score.Date, seated []int64) {
	st.ThresholdBase = r.ThresholdBase
	st.Date = date
	st.Limit = r.ThresholdBase + int64(date.Day)
	st.ToLimit = make(map[int64]score.Points, len(st.Tallies))
	ids := make([]int64, 0, len(st.Tallies))
	for id, t := range st.Tallies {
		st.ToLimit[id] = score.Int(st.Limit).Sub(t)
		ids = append(ids, id)
	}
	parts := make([]string, 0, len(ids))
	for _, id := range score.InSeatingOrder(ids, seated) {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", score.PlayerRef(id), formatPoints(st.Tallies[id]), distance(st.ToLimit[id])))
	}
	games := "Spiele"
	if st.Hands == 1 {
		games = "Spiel"
	}
	limit := fmt.Sprintf("Grenze %d (%d + %d.)", st.Limit, r.ThresholdBase, date.Day)
	if date.Day == 0 {
		limit = fmt.Sprintf("Grenze %d + Tag des Abends", r.ThresholdBase)
	}
	st.Summary = fmt.Sprintf("Durchgang %d, %d %s; %s", st.Round, st.Hands, games, limit)
	if len(parts) > 0 {
		st.Summary += ": " + strings.Join(parts, ", ")
	}
}

// distance says how far a tally is from the limit: "noch 1481,5", or
// "18 über der Grenze" for a tally a preview finds above an earlier day's
// limit (it pays with the next hand).
func distance(toLimit score.Points) string {
	if toLimit.Sign() < 0 {
		return formatPoints(toLimit.Neg()) + " über der Grenze"
	}
	return "noch " + formatPoints(toLimit)
}

// without returns ids minus the ones in drop, keeping the order.
func without(ids, drop []int64) []int64 {
	var out []int64
	for _, id := range ids {
		if !slices.Contains(drop, id) {
			out = append(out, id)
		}
	}
	return out
}

// formatPoints writes whole points and halves the German way: "23", "22,5".
func formatPoints(p score.Points) string {
	if p.Den() != 2 {
		return p.String()
	}
	whole := p.Num() / 2 // truncates toward zero
	sign := ""
	if p.Sign() < 0 && whole == 0 {
		sign = "-"
	}
	return sign + strconv.FormatInt(whole, 10) + ",5"
}

// formatCents writes an amount of cents as euros: "5,00 €".
func formatCents(c int64) string {
	return fmt.Sprintf("%d,%02d €", c/100, c%100)
}

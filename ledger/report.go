package ledger

import (
	"context"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Report is the treasurer's view of one evening: the score sheet as on
// paper, the standings, the money and how it is settled, and the debts
// still open from earlier evenings of the same players.
type Report struct {
	Club       Club         `json:"club"`
	Table      Table        `json:"table"`
	Session    Session      `json:"session"`
	Players    []Player     `json:"players"` // in seating order
	Hands      []ReportHand `json:"hands"`
	Standings  []Standing   `json:"standings"`
	Settlement Settlement   `json:"settlement"`
	// OpenDebts are unpaid transfers of earlier evenings that concern the
	// players of this one.
	OpenDebts []Transfer `json:"open_debts"`
}

// ReportHand is one row of the score sheet.
type ReportHand struct {
	Number int    `json:"number"`
	Dealer int64  `json:"dealer,omitempty"`
	Title  string `json:"title"`
	// Points and Running follow Report.Players: each player's points of
	// this hand and running total after it.
	Points  []score.Points `json:"points"`
	Running []score.Points `json:"running"`
	// Bock marks a hand played as a Bock game.
	Bock   bool          `json:"bock"`
	Events []score.Event `json:"events"`
}

// EveningReport joins every session of a club on one date, per player.
type EveningReport struct {
	Club     Club            `json:"club"`
	Date     string          `json:"date"`
	Sessions []EveningTable  `json:"sessions"`
	Players  []EveningPlayer `json:"players"`
	// KittyCents is what the evening puts into the club's kitty.
	KittyCents int64 `json:"kitty_cents"`
}

// EveningTable is one session of the evening with its settlement.
type EveningTable struct {
	Table      Table      `json:"table"`
	Session    Session    `json:"session"`
	Settlement Settlement `json:"settlement"`
}

// EveningPlayer is one player's evening over all tables.
type EveningPlayer struct {
	Player   int64  `json:"player"`
	Name     string `json:"name"`
	Sessions int    `json:"sessions"`
	Hands    int    `json:"hands"`
	NetCents int64  `json:"net_cents"`
}

// BuildReport assembles a session's report from its parts: the running
// totals are summed exactly from the hands.
func BuildReport(club Club, table Table, session Session, players []Player, hands []Hand, standings []Standing, st Settlement, debts []Transfer) Report {
	r := Report{Club: club, Table: table, Session: session, Players: players, Standings: standings, Settlement: st, OpenDebts: debts}
	if r.Standings == nil {
		r.Standings = []Standing{}
	}
	if r.OpenDebts == nil {
		r.OpenDebts = []Transfer{}
	}
	index := make(map[int64]int, len(players))
	for i, p := range players {
		index[p.ID] = i
	}
	running := make([]score.Points, len(players))
	for _, h := range hands {
		row := ReportHand{Number: h.Number, Dealer: h.Result.Dealer, Title: h.Result.Title, Points: make([]score.Points, len(players)), Events: h.Result.Events}
		for _, pp := range h.Result.Points {
			i, ok := index[pp.Player]
			if !ok {
				continue
			}
			row.Points[i] = pp.Points
			running[i] = running[i].Add(pp.Points)
		}
		row.Running = append([]score.Points(nil), running...)
		for _, ev := range h.Result.Events {
			if ev.Type == score.EventBockGame {
				row.Bock = true
			}
		}
		if row.Events == nil {
			row.Events = []score.Event{}
		}
		r.Hands = append(r.Hands, row)
	}
	if r.Hands == nil {
		r.Hands = []ReportHand{}
	}
	return r
}

// BuildEveningReport sums the evening's sessions per player.
func BuildEveningReport(club Club, date string, parts []EveningTable) EveningReport {
	r := EveningReport{Club: club, Date: date, Sessions: parts, Players: []EveningPlayer{}}
	if r.Sessions == nil {
		r.Sessions = []EveningTable{}
	}
	index := map[int64]int{}
	for _, part := range parts {
		r.KittyCents += part.Settlement.KittyCents
		for _, pm := range part.Settlement.Players {
			i, ok := index[pm.Player]
			if !ok {
				i = len(r.Players)
				index[pm.Player] = i
				r.Players = append(r.Players, EveningPlayer{Player: pm.Player, Name: pm.Name})
			}
			r.Players[i].Sessions++
			r.Players[i].Hands += pm.Hands
			r.Players[i].NetCents += pm.NetCents
		}
	}
	return r
}

// Report assembles a session's report: score sheet, standings, money,
// transfers and the open debts of its players.
func (s *Service) Report(ctx context.Context, a Actor, sessionID int64) (Report, error) {
	sess, err := s.Tables.FindSession(ctx, a.ClubID, sessionID)
	if err != nil {
		return Report{}, err
	}
	club, err := s.Clubs.FindClub(ctx, a.ClubID)
	if err != nil {
		return Report{}, err
	}
	in, st, err := s.settlementOf(ctx, a.ClubID, sess)
	if err != nil {
		return Report{}, err
	}
	debts, err := s.Money.OpenDebts(ctx, a.ClubID, sess.ID, sess.Seating)
	if err != nil {
		return Report{}, err
	}
	return BuildReport(club, in.Table, sess, in.Players, in.Hands, SortStandings(in.Standings), st, debts), nil
}

// EveningReport joins every session of the club on date, per player.
func (s *Service) EveningReport(ctx context.Context, a Actor, date string) (EveningReport, error) {
	if _, err := ParseDate("date", date); err != nil {
		return EveningReport{}, err
	}
	club, err := s.Clubs.FindClub(ctx, a.ClubID)
	if err != nil {
		return EveningReport{}, err
	}
	sessions, err := s.Tables.SessionsOn(ctx, a.ClubID, date)
	if err != nil {
		return EveningReport{}, err
	}
	var parts []EveningTable
	for _, sess := range sessions {
		in, st, err := s.settlementOf(ctx, a.ClubID, sess)
		if err != nil {
			return EveningReport{}, err
		}
		parts = append(parts, EveningTable{Table: in.Table, Session: sess, Settlement: st})
	}
	return BuildEveningReport(club, date, parts), nil
}

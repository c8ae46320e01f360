package ledger

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Report is the treasurer's view of one evening: the score sheet as on
// paper, the standings, the money and how it is settled (the settlement's
// version, and per player what is paid and what is still open), and the
// debts still open from earlier evenings of the same players. Its texts
// name players by their names.
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
	// Sheet says what the game's state means on the score sheet, for a
	// game whose engine tells (score.Sheeter); nil for the others.
	Sheet *ReportSheet `json:"sheet,omitempty"`
}

// ReportSheet is what a game's state adds to the score sheet.
type ReportSheet struct {
	// Heading heads each player's figure in a hand's row ("Würfel",
	// "Stand"); Summary is what holds for the whole sheet, after the last
	// hand ("Minuspunkte bis zur Grenze 1521 …").
	Heading string `json:"heading"`
	Summary string `json:"summary,omitempty"`
	// Scored says the game keeps no points: the players are ranked and
	// charted by Progress (Klaberjass: 6 a match, plus the die).
	Scored bool `json:"scored"`
	// Progress and Matches follow Players: how far each came this
	// evening, and the matches he won this evening.
	Progress []score.Points `json:"progress"`
	Matches  []int          `json:"matches"`
}

// ReportHand is one row of the score sheet.
type ReportHand struct {
	Number int    `json:"number"`
	Dealer int64  `json:"dealer_id,omitempty"`
	Title  string `json:"title"`
	// Points and Running follow Report.Players: each player's points of
	// this hand and running total after it.
	Points  []score.Points `json:"points"`
	Running []score.Points `json:"running"`
	// SatOut are the seated players who did not play the hand (a
	// Doppelkopf table of five, a fourth at Klaberjass).
	SatOut []int64 `json:"sat_out_player_ids"`
	// Bock marks a hand played as a Bock game.
	Bock   bool          `json:"bock"`
	Events []score.Event `json:"events"`
	// Revision is the hand's current revision (1 as recorded); Void and
	// Reason say whether it is voided and why it was last revised.
	Revision int    `json:"revision"`
	Void     bool   `json:"void"`
	Reason   string `json:"reason,omitempty"`
	// Figures are the sheet's figures after the hand (Report.Sheet), and
	// Notes what the state after it begins; Progress follows Players
	// where the sheet is scored.
	Figures  []score.Figure `json:"figures,omitempty"`
	Notes    []string       `json:"notes,omitempty"`
	Progress []score.Points `json:"progress,omitempty"`
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
	Player   int64  `json:"player_id"`
	Name     string `json:"name"`
	Sessions int    `json:"sessions"`
	Hands    int    `json:"hands"`
	NetCents int64  `json:"net_cents"`
}

// BuildReport assembles a session's report from its parts: the running
// totals are summed exactly from the hands; a hand's players who are
// seated but not among its players (score.Result.Players, or its points
// where an older hand names none) sat it out.
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
	r.Hands = make([]ReportHand, 0, len(hands))
	for _, h := range hands {
		row := ReportHand{Number: h.Number, Dealer: h.Result.Dealer, Title: h.Result.Title, Points: make([]score.Points, len(players)),
			Events: h.Result.Events, Revision: max(h.Revision, 1), Void: h.Void, Reason: h.Reason, SatOut: satOut(players, h.Result)}
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
	return r
}

// satOut lists the seated players who did not play a hand, in seating
// order: those not among its players, or, where the result names none,
// those without points.
func satOut(players []Player, res score.Result) []int64 {
	played := res.Players
	if len(played) == 0 {
		for _, pp := range res.Points {
			played = append(played, pp.Player)
		}
	}
	out := []int64{}
	if len(played) == 0 {
		return out
	}
	for _, p := range players {
		if !slices.Contains(played, p.ID) {
			out = append(out, p.ID)
		}
	}
	return out
}

// AddSheet adds what the game's state means on the score sheet: each
// hand's figures and notes from the state after it, the summary of the
// last, and for a scored sheet every player's progress this evening (the
// difference to the state before the evening's first hand), by which the
// standings are then ranked. hands are the report's hands, in order.
func (r *Report) AddSheet(e score.Sheeter, rules, before json.RawMessage, hands []Hand) error {
	base, err := e.Sheet(rules, before)
	if err != nil {
		return err
	}
	sheet := &ReportSheet{Heading: base.Heading, Scored: base.Scored, Progress: make([]score.Points, len(r.Players)), Matches: make([]int, len(r.Players))}
	start := progressOf(r.Players, base)
	for k, h := range hands {
		sh, err := e.Sheet(h.Rules, h.Result.State)
		if err != nil {
			return err
		}
		row := &r.Hands[k]
		row.Figures, row.Notes = sh.Figures, sh.Notes
		sheet.Heading, sheet.Summary, sheet.Scored = sh.Heading, sh.Summary, sh.Scored
		if sh.Scored {
			row.Progress = progressOf(r.Players, sh)
			for i := range row.Progress {
				row.Progress[i] = row.Progress[i].Sub(start[i])
			}
			sheet.Progress = row.Progress
		}
		for _, ev := range h.Result.Events {
			if ev.Type != score.EventMatchWon {
				continue
			}
			for i, p := range r.Players {
				if slices.Contains(ev.Players, p.ID) {
					sheet.Matches[i]++
				}
			}
		}
	}
	r.Sheet = sheet
	if sheet.Scored {
		r.rankByProgress()
	}
	return nil
}

// progressOf is each player's Progress in a sheet, 0 for one it lacks.
func progressOf(players []Player, sh score.Sheet) []score.Points {
	out := make([]score.Points, len(players))
	for i, p := range players {
		for _, f := range sh.Figures {
			if f.Player == p.ID {
				out[i] = f.Progress
			}
		}
	}
	return out
}

// rankByProgress orders the standings by the evening's progress, best
// first (ties keep their order).
func (r *Report) rankByProgress() {
	progress := map[int64]score.Points{}
	for i, p := range r.Players {
		progress[p.ID] = r.Sheet.Progress[i]
	}
	slices.SortStableFunc(r.Standings, func(a, b Standing) int { return progress[b.Player].Cmp(progress[a.Player]) })
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
// transfers and the open debts of its players, every text with the
// players' names. For a game whose engine reads its state for a score
// sheet (score.Sheeter) the report carries the sheet, read from the state
// before the evening's first hand on.
func (s *Service) Report(ctx context.Context, a Actor, sessionID int64) (Report, error) {
	sess, err := s.Tables.FindSession(ctx, a.ClubID, sessionID)
	if err != nil {
		return Report{}, wrap(err, "Report: FindSession")
	}
	club, err := s.Clubs.FindClub(ctx, a.ClubID)
	if err != nil {
		return Report{}, wrap(err, "Report: FindClub")
	}
	in, st, err := s.settlementOf(ctx, a.ClubID, sess)
	if err != nil {
		return Report{}, err
	}
	debts, err := s.Money.OpenDebts(ctx, a.ClubID, sess.ID, sess.Seating)
	if err != nil {
		return Report{}, wrap(err, "Report: OpenDebts")
	}
	names := Names(in.Names)
	hands := names.Hands(in.Hands)
	r := BuildReport(club, in.Table, sess, in.Players, hands, SortStandings(in.Standings), st, debts)
	if r.Table.State, err = shownState(r.Table, names); err != nil {
		return Report{}, err
	}
	e, err := Engine("game", in.Table.Game)
	if err != nil {
		return Report{}, err
	}
	sheeter, ok := e.(score.Sheeter)
	if !ok {
		return r, nil
	}
	before, err := s.stateBefore(ctx, a.ClubID, in.Table.ID, hands)
	if err != nil {
		return Report{}, err
	}
	if err := r.AddSheet(sheeter, in.Session.Terms.Rules, before, hands); err != nil {
		return Report{}, Errorf(EINTERNAL, "reading the score sheet of session %d: %v", sess.ID, err)
	}
	r.Sheet.Summary = names.Text(r.Sheet.Summary)
	for i := range r.Hands {
		for j, note := range r.Hands[i].Notes {
			r.Hands[i].Notes[j] = names.Text(note)
		}
		for j := range r.Hands[i].Figures {
			r.Hands[i].Figures[j].Text = names.Text(r.Hands[i].Figures[j].Text)
		}
	}
	return r, nil
}

// stateBefore is the table's state before the first of hands: after the
// hand before it, or empty before the table's first hand (and for an
// evening without hands).
func (s *Service) stateBefore(ctx context.Context, clubID, tableID int64, hands []Hand) (json.RawMessage, error) {
	if len(hands) == 0 || hands[0].Number <= 1 {
		return json.RawMessage(`{}`), nil
	}
	prev, err := s.Hands.FindHand(ctx, clubID, tableID, hands[0].Number-1)
	if err != nil {
		return nil, wrap(err, "stateBefore: FindHand")
	}
	return prev.Result.State, nil
}

// EveningReport joins every session of the club on date, per player.
func (s *Service) EveningReport(ctx context.Context, a Actor, date string) (EveningReport, error) {
	if _, err := ParseDate("date", date); err != nil {
		return EveningReport{}, err
	}
	club, err := s.Clubs.FindClub(ctx, a.ClubID)
	if err != nil {
		return EveningReport{}, wrap(err, "EveningReport: FindClub")
	}
	sessions, err := s.Tables.SessionsOn(ctx, a.ClubID, date)
	if err != nil {
		return EveningReport{}, wrap(err, "EveningReport: SessionsOn")
	}
	var parts []EveningTable
	for _, sess := range sessions {
		in, st, err := s.settlementOf(ctx, a.ClubID, sess)
		if err != nil {
			return EveningReport{}, err
		}
		if in.Table.State, err = shownState(in.Table, Names(in.Names)); err != nil {
			return EveningReport{}, err
		}
		parts = append(parts, EveningTable{Table: in.Table, Session: sess, Settlement: st})
	}
	return BuildEveningReport(club, date, parts), nil
}

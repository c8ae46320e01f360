package report

import (
	"fmt"
	"io"

	"github.com/stichbuch/stichbuch/ledger"
)

// RankingHTML writes a tournament evening's ranking as one printable,
// self-contained HTML page in German: the tournament, its date and rounds,
// then per player his place, his points over the evening and per round
// (with his table), his games, Pflichtsoli (how many of them vorgeführt)
// and Lustsoli. Equal points share a place. Every text is HTML-escaped.
// On error, w may hold part of the page.
func RankingHTML(w io.Writer, r ledger.Ranking) error {
	return pages.ExecuteTemplate(w, "ranking.html.tmpl", newTournamentRankingView(r))
}

// tournamentRankingView is everything ranking.html.tmpl shows, formatted.
type tournamentRankingView struct {
	Club, Name, Date, Rounds string
	Provisional              bool
	RoundHeads               []string
	Entries                  []rankingEntryView
}

// rankingEntryView is one line of the ranking.
type rankingEntryView struct {
	Place       int
	Shared      bool // the place is shared with another player
	Name        string
	Points      string
	Neg         bool
	Rounds      []roundCell
	Games       int
	Pflichtsoli string
	Lustsoli    int
}

// roundCell is a player's points of one round and the table he played at.
type roundCell struct {
	Points, Table string
	Neg           bool
}

func newTournamentRankingView(r ledger.Ranking) tournamentRankingView {
	v := tournamentRankingView{Club: r.Club, Name: r.Name, Date: formatDate(r.Date), Provisional: !r.Complete,
		Rounds: fmt.Sprintf("%d %s zu je %d Spielen", r.Rounds, map[bool]string{true: "Runde", false: "Runden"}[r.Rounds == 1], r.HandsPerRound)}
	for i := 1; i <= r.Rounds; i++ {
		v.RoundHeads = append(v.RoundHeads, fmt.Sprintf("Runde %d", i))
	}
	places := map[int]int{}
	for _, e := range r.Entries {
		places[e.Place]++
	}
	for _, e := range r.Entries {
		ev := rankingEntryView{Place: e.Place, Shared: places[e.Place] > 1, Name: e.Name, Points: formatPoints(e.Points), Neg: e.Points.Sign() < 0,
			Games: e.Games, Pflichtsoli: fmt.Sprint(e.Pflichtsoli), Lustsoli: e.Lustsoli, Rounds: make([]roundCell, r.Rounds)}
		if e.Vorgefuehrt > 0 {
			ev.Pflichtsoli += fmt.Sprintf(" (%d vorgeführt)", e.Vorgefuehrt)
		}
		for _, rr := range e.Rounds {
			if rr.Round >= 1 && rr.Round <= r.Rounds {
				ev.Rounds[rr.Round-1] = roundCell{Points: formatPoints(rr.Points), Neg: rr.Points.Sign() < 0, Table: rr.TableName}
			}
		}
		v.Entries = append(v.Entries, ev)
	}
	return v
}

package ledger

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Spielliste is one table's list of a round as TSR 7.3 keeps it: every
// game right after it ends, with each player's points and running total.
type Spielliste struct {
	Tournament int64           `json:"tournament_id"`
	Name       string          `json:"name"`
	Date       string          `json:"date"`
	Round      int             `json:"round"`
	Table      TournamentTable `json:"table"`
	Session    int64           `json:"session_id"`
	// Players are positions 1 to 4: position 1 deals first, position 4
	// keeps the list (TSR 3.1.1, 8.4.1). Points follow this order.
	Players []TournamentPlayer `json:"players"`
	Rows    []SpiellisteRow    `json:"rows"`
	Totals  []score.Points     `json:"totals"`
	Status  TableStatus        `json:"status"`
}

// SpiellisteRow is one hand of a Spielliste.
type SpiellisteRow struct {
	// Hand is the hand's number at the table; Game its number among the
	// round's games (0: a redeal or a voided hand, which count for none).
	Hand   int   `json:"hand"`
	Game   int   `json:"game"`
	Dealer int64 `json:"dealer_id"`
	// Aufspiel leads to the first trick: the soloist of a Pflichtsolo (TSR
	// 4.2.2), else the dealer's left neighbour (TSR 5.1.1).
	Aufspiel int64  `json:"aufspiel_player_id,omitempty"`
	Title    string `json:"title"`
	// Kind is normal, pflichtsolo (its own column, TSR 4.2.4), lustsolo
	// (noted with the normal games, TSR 4.3.2), redeal or void.
	Kind        string `json:"kind"`
	Vorgefuehrt bool   `json:"vorgefuehrt"`
	// Value is the game's value: what each player of a two-against-two
	// game and each opponent of a soloist wins or loses (TSR 7.2).
	Value   score.Points   `json:"value"`
	Points  []score.Points `json:"points"`
	Running []score.Points `json:"running"`
	// Plus are the positions (1 to 4) with plus points, as the list marks
	// them (TSR 7.3.3 Nr. 3).
	Plus []int `json:"plus"`
	// SumZero and EvenOdd are the list's checks, TSR 7.3.3 Nr. 1 (the
	// points sum to 0) and Nr. 2 (the four running totals are all even or
	// all odd).
	SumZero bool `json:"sum_zero"`
	EvenOdd bool `json:"even_odd"`
}

// Ranking is the evening's ranking across every table and round.
type Ranking struct {
	Club          string `json:"club"`
	Tournament    int64  `json:"tournament_id"`
	Name          string `json:"name"`
	Date          string `json:"date"`
	HandsPerRound int    `json:"hands_per_round"`
	Rounds        int    `json:"rounds"`
	// Complete is true when every round is complete at every table.
	Complete bool           `json:"complete"`
	Entries  []RankingEntry `json:"ranking"`
}

// RankingEntry is one player's evening: the sum of his points in every
// round, ranked; equal sums share a place.
type RankingEntry struct {
	Place       int            `json:"place"`
	Player      int64          `json:"player_id"`
	Name        string         `json:"name"`
	Points      score.Points   `json:"points"`
	Rounds      []RankingRound `json:"rounds"`
	Games       int            `json:"games"`
	Pflichtsoli int            `json:"pflichtsoli"`
	Vorgefuehrt int            `json:"vorgefuehrt"`
	Lustsoli    int            `json:"lustsoli"`
}

// RankingRound is a player's points in one round, at his table.
type RankingRound struct {
	Round     int          `json:"round"`
	Table     int64        `json:"table_id"`
	TableName string       `json:"table_name"`
	Points    score.Points `json:"points"`
}

// tableRound is one table's session of a round, loaded.
type tableRound struct {
	round Round
	in    SettleInput
}

// FindTournament returns a tournament with, per round and table, the
// seating and where the table stands.
func (s *Service) FindTournament(ctx context.Context, a Actor, id int64) (Tournament, error) {
	tr, parts, err := s.loadTournament(ctx, a.ClubID, id)
	if err != nil {
		return tr, err
	}
	k := 0
	for i := range tr.Rounds {
		for j := range tr.Rounds[i].Tables {
			p := parts[k]
			k++
			names := namesOf(p.in.Players)
			tr.Rounds[i].Tables[j].Seating = named(p.in.Session.Seating, names)
			tr.Rounds[i].Tables[j].Status = roundOf(tr, p.round, p.in).status(names, !p.in.Session.Open())
		}
	}
	return tr, nil
}

// ListTournaments returns a page of the club's tournaments, newest first:
// those older than the tournament p.After when it is not 0.
func (s *Service) ListTournaments(ctx context.Context, a Actor, p Page) ([]Tournament, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	list, err := s.Tournaments.ListTournaments(ctx, a.ClubID, p)
	if list == nil {
		list = []Tournament{}
	}
	return list, err
}

// loadTournament reads a tournament and every session of its rounds, in
// round and table order.
func (s *Service) loadTournament(ctx context.Context, clubID, id int64) (Tournament, []tableRound, error) {
	tr, err := s.Tournaments.FindTournament(ctx, clubID, id)
	if err != nil {
		return tr, nil, wrap(err, "loadTournament: FindTournament")
	}
	var parts []tableRound
	for _, r := range tr.Rounds {
		for _, rt := range r.Tables {
			sess, err := s.Tables.FindSession(ctx, clubID, rt.Session)
			if err != nil {
				return tr, nil, wrap(err, "loadTournament: FindSession")
			}
			in, err := s.Money.SettleInput(ctx, clubID, sess)
			if err != nil {
				return tr, nil, wrap(err, "loadTournament: SettleInput")
			}
			parts = append(parts, tableRound{round: r, in: in})
		}
	}
	return tr, parts, nil
}

// roundOf is a loaded table's round with where it stands after its
// session's last hand.
func roundOf(tr Tournament, r Round, in SettleInput) roundAt {
	at := roundAt{round: r.Number, table: in.Table.Name, handsPerRound: tr.HandsPerRound, timeUp: r.TimeUpAt != nil, seating: in.Session.Seating}
	var state json.RawMessage
	if n := len(in.Hands); n > 0 {
		state = in.Hands[n-1].Result.State
	}
	at.progress(state, in.Session.ID)
	return at
}

// Spiellisten returns the Spielliste of a table of the tournament for
// each round (of one round when round > 0).
func (s *Service) Spiellisten(ctx context.Context, a Actor, id, tableID int64, round int) ([]Spielliste, error) {
	tr, parts, err := s.loadTournament(ctx, a.ClubID, id)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(tr.Tables, func(t TournamentTable) bool { return t.Table == tableID })
	if i < 0 {
		return nil, Invalid("table_id", "Tisch %d gehört nicht zum Turnier „%s“", tableID, tr.Name)
	}
	if round > len(tr.Rounds) {
		return nil, Errorf(ENOTFOUND, "das Turnier „%s“ hat keine Runde %d", tr.Name, round)
	}
	out := []Spielliste{}
	for _, p := range parts {
		if p.in.Session.TableID == tableID && (round == 0 || p.round.Number == round) {
			out = append(out, BuildSpielliste(tr, tr.Tables[i], p.round, p.in))
		}
	}
	return out, nil
}

// BuildSpielliste writes a table's round as its Spielliste.
func BuildSpielliste(tr Tournament, table TournamentTable, r Round, in SettleInput) Spielliste {
	names := namesOf(in.Players)
	seating := in.Session.Seating
	l := Spielliste{Tournament: tr.ID, Name: tr.Name, Date: tr.Date, Round: r.Number, Table: table, Session: in.Session.ID,
		Players: named(seating, names), Rows: []SpiellisteRow{}, Totals: make([]score.Points, len(seating))}
	games := 0
	for _, h := range in.Hands {
		row := spiellisteRow(names.Hand(h), seating, l.Totals)
		if row.Kind != "redeal" && row.Kind != "void" {
			games++
			row.Game = games
		}
		l.Totals = row.Running
		l.Rows = append(l.Rows, row)
	}
	l.Status = *roundOf(tr, r, in).status(names, !in.Session.Open())
	return l
}

// spiellisteRow is a hand's row after the running totals before it.
func spiellisteRow(h Hand, seating []int64, before []score.Points) SpiellisteRow {
	k := kindOf(h.Result)
	row := SpiellisteRow{Hand: h.Number, Dealer: h.Result.Dealer, Aufspiel: k.aufspiel, Title: h.Result.Title, Kind: "normal",
		Vorgefuehrt: k.vorgefuehrt, Points: make([]score.Points, len(seating)), Running: slices.Clone(before), Plus: []int{}}
	switch {
	case h.Void:
		row.Kind = "void"
	case k.redeal:
		row.Kind = "redeal"
	case k.pflicht:
		row.Kind = "pflichtsolo"
	case k.lust:
		row.Kind = "lustsolo"
	}
	var sum score.Points
	for _, pp := range h.Result.Points {
		i := slices.Index(seating, pp.Player)
		if i < 0 {
			continue
		}
		row.Points[i] = pp.Points
		row.Running[i] = row.Running[i].Add(pp.Points)
		sum = sum.Add(pp.Points)
		if pp.Points.Sign() > 0 {
			row.Plus = append(row.Plus, i+1)
		}
	}
	slices.Sort(row.Plus)
	row.Value = handValue(h.Result)
	row.SumZero = sum.IsZero()
	row.EvenOdd = sameParity(row.Running)
	return row
}

// handValue is the smallest amount any player of the hand won or lost:
// the value of a two-against-two game, and of a solo what each opponent
// pays or gets (the soloist moves three times that, TSR 7.2.4).
func handValue(res score.Result) score.Points {
	var v score.Points
	first := true
	for _, pp := range res.Points {
		if !slices.Contains(res.Players, pp.Player) {
			continue
		}
		a := pp.Points
		if a.Sign() < 0 {
			a = a.Neg()
		}
		if first || a.Cmp(v) < 0 {
			v, first = a, false
		}
	}
	return v
}

// sameParity: whole numbers, all even or all odd (TSR 7.3.3 Nr. 2).
func sameParity(ps []score.Points) bool {
	for _, p := range ps {
		if !p.IsInt() || (p.Num()-ps[0].Num())%2 != 0 {
			return false
		}
	}
	return true
}

// Ranking ranks every player of the tournament by the sum of his points
// over all rounds (TSR 7.2 values as the Spiellisten carry them).
func (s *Service) Ranking(ctx context.Context, a Actor, id int64) (Ranking, error) {
	tr, parts, err := s.loadTournament(ctx, a.ClubID, id)
	if err != nil {
		return Ranking{}, err
	}
	club, err := s.Clubs.FindClub(ctx, a.ClubID)
	if err != nil {
		return Ranking{}, wrap(err, "Ranking: FindClub")
	}
	return buildRanking(club, tr, parts), nil
}

// buildRanking sums the rounds per player and ranks them: most points
// first; the TSR breaks no tie, so equal sums share a place (listed by
// name).
func buildRanking(club Club, tr Tournament, parts []tableRound) Ranking {
	rk := Ranking{Club: club.Name, Tournament: tr.ID, Name: tr.Name, Date: tr.Date, HandsPerRound: tr.HandsPerRound,
		Rounds: len(tr.Rounds), Complete: len(parts) > 0, Entries: []RankingEntry{}}
	index := map[int64]int{}
	for _, p := range parts {
		rk.Complete = rk.Complete && roundOf(tr, p.round, p.in).complete()
		names := namesOf(p.in.Players)
		for _, id := range p.in.Session.Seating {
			i, ok := index[id]
			if !ok {
				i = len(rk.Entries)
				index[id] = i
				rk.Entries = append(rk.Entries, RankingEntry{Player: id, Name: nameOf(id, names), Rounds: []RankingRound{}})
			}
			e := &rk.Entries[i]
			rr := RankingRound{Round: p.round.Number, Table: p.in.Table.ID, TableName: p.in.Table.Name}
			for _, h := range p.in.Hands {
				addHand(e, &rr, h, id)
			}
			e.Points = e.Points.Add(rr.Points)
			e.Rounds = append(e.Rounds, rr)
		}
	}
	rankEntries(rk.Entries)
	return rk
}

// addHand counts one hand for player id.
func addHand(e *RankingEntry, rr *RankingRound, h Hand, id int64) {
	for _, pp := range h.Result.Points {
		if pp.Player == id {
			rr.Points = rr.Points.Add(pp.Points)
		}
	}
	k := kindOf(h.Result)
	if h.Void || k.redeal || !slices.Contains(h.Result.Players, id) {
		return
	}
	e.Games++
	if k.soloist != id {
		return
	}
	switch {
	case k.pflicht && k.vorgefuehrt:
		e.Pflichtsoli++
		e.Vorgefuehrt++
	case k.pflicht:
		e.Pflichtsoli++
	case k.lust:
		e.Lustsoli++
	}
}

// rankEntries sorts by points, most first, then by name, and gives equal
// points the same place (1, 2, 2, 4).
func rankEntries(es []RankingEntry) {
	slices.SortFunc(es, func(x, y RankingEntry) int {
		if c := y.Points.Cmp(x.Points); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	for i := range es {
		es[i].Place = i + 1
		if i > 0 && es[i].Points.Cmp(es[i-1].Points) == 0 {
			es[i].Place = es[i-1].Place
		}
	}
}

// nameList names players.
func nameList(ids []int64, names map[int64]string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, nameOf(id, names))
	}
	return out
}

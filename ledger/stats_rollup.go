package ledger

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// The statistics' write side: a hand's rows (StatsOf), written in the
// hand's transaction, and a session's rollups (RollUp), written once when
// its settlement is stored and rebuilt when a correction changes it. An
// open evening's figures are read live from its hand rows and rolled up
// at query time, by the same RollUp.

// Outcomes of a hand for one player.
const (
	Won    int16 = 1
	Lost   int16 = -1
	NoOne  int16 = 0 // nobody won, or sat out
	noSide int16 = -1
)

// HandStat is one player's part of a hand: one row of the statistics.
type HandStat struct {
	Player  int64
	Points  score.Points
	Outcome int16 // Won, Lost or NoOne
	// Present: in Result.Points (else only counted in Result.Stats).
	Present bool
	// SatOut: not playing, not present or in none of Result.Parties.
	SatOut bool
	Party  int16 // index into Result.Parties, -1 for none
	Keys   []string
	Counts []int64
}

// StatsOf extracts the players' parts of a hand from its result.
func StatsOf(res score.Result) []HandStat {
	partyOf := map[int64]int16{}
	for i, party := range res.Parties {
		for _, id := range party {
			partyOf[id] = int16(i)
		}
	}
	out := make([]HandStat, 0, len(res.Points))
	index := map[int64]int{}
	add := func(id int64, p score.Points) *HandStat {
		hs := HandStat{Player: id, Points: p, Party: noSide, Present: true}
		if party, ok := partyOf[id]; ok {
			hs.Party = party
		}
		hs.SatOut = len(res.Parties) > 0 && hs.Party < 0
		if !hs.SatOut {
			switch {
			case slices.Contains(res.Winners, id):
				hs.Outcome = Won
			case len(res.Winners) > 0:
				hs.Outcome = Lost
			}
		}
		index[id] = len(out)
		out = append(out, hs)
		return &out[len(out)-1]
	}
	for _, p := range res.Points {
		if _, ok := index[p.Player]; !ok {
			add(p.Player, p.Points)
		}
	}
	for _, st := range res.Stats {
		if st.Count == 0 {
			continue
		}
		var hs *HandStat
		if i, ok := index[st.Player]; ok {
			hs = &out[i]
		} else {
			// A player counted but without points (the payer of a payout
			// who did not play the hand): his counters on a row of a hand
			// he did not play.
			hs = add(st.Player, score.Points{})
			hs.Present, hs.SatOut, hs.Outcome = false, true, NoOne
		}
		if k := slices.Index(hs.Keys, st.Key); k >= 0 {
			hs.Counts[k] += st.Count
			continue
		}
		hs.Keys = append(hs.Keys, st.Key)
		hs.Counts = append(hs.Counts, st.Count)
	}
	return out
}

// StatRow is one stored HandStat with the place of its hand.
type StatRow struct {
	Hand, Session, Table int64
	Game, Date           string
	Number               int
	HandStat
}

// SessionRoll is one player's rollup of one session.
type SessionRoll struct {
	Session, Table, Player int64
	Game, Date             string
	Hands, Won, Lost       int
	SatOut                 int
	Points                 score.Points
	Streak                 StreakSummary
}

// CounterRoll is one player's count of one key in one session.
type CounterRoll struct {
	Session, Table, Player int64
	Game, Date, Key        string
	Count                  int64
}

// PairRoll is a pair's rollup of one session, from Player's side.
type PairRoll struct {
	Session, Table, Player, Other int64
	Game, Date                    string
	Hands, Partner, PartnerWon    int
	PartnerLost, Against          int
	WonAgainst, LostAgainst       int
	Points, OtherPoints           score.Points
}

// Rollup is the rollups of some sessions.
type Rollup struct {
	Sessions []SessionRoll
	Counters []CounterRoll
	Pairs    []PairRoll
}

// RollUp computes the rollups of hand rows given in session and hand order.
func RollUp(rows []StatRow) Rollup {
	r := roller{
		sessions: map[pairKey]*SessionRoll{},
		counters: map[counterKey]*CounterRoll{},
		pairs:    map[pairKey]*PairRoll{},
	}
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && rows[end].Hand == rows[start].Hand {
			end++
		}
		r.hand(rows[start:end])
		start = end
	}
	return r.rollup()
}

type pairKey struct{ session, player, other int64 }

type counterKey struct {
	session, player int64
	key             string
}

// roller adds hands up into rollups.
type roller struct {
	sessions map[pairKey]*SessionRoll
	counters map[counterKey]*CounterRoll
	pairs    map[pairKey]*PairRoll
}

// hand adds the rows of one hand.
func (r roller) hand(hand []StatRow) {
	for _, x := range hand {
		r.session(x)
		for k, key := range x.Keys {
			c := r.counters[counterKey{x.Session, x.Player, key}]
			if c == nil {
				c = &CounterRoll{Session: x.Session, Table: x.Table, Player: x.Player, Game: x.Game, Date: x.Date, Key: key}
				r.counters[counterKey{x.Session, x.Player, key}] = c
			}
			c.Count += x.Counts[k]
		}
		if x.SatOut {
			continue
		}
		for _, y := range hand {
			if !y.SatOut && y.Player != x.Player {
				r.pair(x, y)
			}
		}
	}
}

func (r roller) session(x StatRow) {
	s := r.sessions[pairKey{x.Session, x.Player, 0}]
	if s == nil {
		s = &SessionRoll{Session: x.Session, Table: x.Table, Player: x.Player, Game: x.Game, Date: x.Date}
		r.sessions[pairKey{x.Session, x.Player, 0}] = s
	}
	switch {
	case !x.SatOut:
		s.Hands++
	case x.Present:
		s.SatOut++
	}
	s.Points = s.Points.Add(x.Points)
	switch x.Outcome {
	case Won:
		s.Won++
	case Lost:
		s.Lost++
	}
	s.Streak = s.Streak.Then(StreakOf([]int{int(x.Outcome)}))
}

// pair adds one hand of x and y, both playing, to x's side of the pair.
func (r roller) pair(x, y StatRow) {
	p := r.pairs[pairKey{x.Session, x.Player, y.Player}]
	if p == nil {
		p = &PairRoll{Session: x.Session, Table: x.Table, Player: x.Player, Other: y.Player, Game: x.Game, Date: x.Date}
		r.pairs[pairKey{x.Session, x.Player, y.Player}] = p
	}
	p.Hands++
	p.Points = p.Points.Add(x.Points)
	p.OtherPoints = p.OtherPoints.Add(y.Points)
	if x.Party >= 0 && x.Party == y.Party {
		p.Partner++
		if x.Outcome == Won && y.Outcome == Won {
			p.PartnerWon++
		}
		if x.Outcome == Lost && y.Outcome == Lost {
			p.PartnerLost++
		}
		return
	}
	p.Against++
	if x.Outcome == Won && y.Outcome != Won {
		p.WonAgainst++
	}
	if y.Outcome == Won && x.Outcome != Won {
		p.LostAgainst++
	}
}

// rollup lists what was added up, in a stable order.
func (r roller) rollup() Rollup {
	var out Rollup
	for _, s := range r.sessions {
		out.Sessions = append(out.Sessions, *s)
	}
	for _, c := range r.counters {
		out.Counters = append(out.Counters, *c)
	}
	for _, p := range r.pairs {
		out.Pairs = append(out.Pairs, *p)
	}
	slices.SortFunc(out.Sessions, func(a, b SessionRoll) int {
		return cmp.Or(strings.Compare(a.Date, b.Date), cmp.Compare(a.Session, b.Session), cmp.Compare(a.Player, b.Player))
	})
	slices.SortFunc(out.Counters, func(a, b CounterRoll) int {
		return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Player, b.Player), strings.Compare(a.Key, b.Key))
	})
	slices.SortFunc(out.Pairs, func(a, b PairRoll) int {
		return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Player, b.Player), cmp.Compare(a.Other, b.Other))
	})
	return out
}

// rollUpSession replaces a settled session's rollups with those of its
// hand rows.
func rollUpSession(ctx context.Context, tx StatsTx, sessionID int64) error {
	rows, err := tx.SessionStatRows(ctx, sessionID)
	if err != nil {
		return err
	}
	return tx.ReplaceRollup(ctx, sessionID, RollUp(rows))
}

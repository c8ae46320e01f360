package ledger

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// The statistics' write side, and its one rule: a session's figures are
// the rollup of its hands (RollUpHands). While a session is open, or
// closed without a settlement, they are rolled up from its hands when
// read (it is "live"); once it is settled they are stored, with the money
// of its latest settlement, whenever its settlement is stored (closing,
// correcting) and when a club's statistics are rebuilt (RebuildStats: an
// import). The store only writes and reads the rows (StatsTx).

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

// RollUpHands is the statistics' one rollup: the rollups of hands given
// in session and number order (void hands count for nothing), each
// session's rows dated by dates.
func RollUpHands(hands []Hand, dates map[int64]string) Rollup {
	return RollUp(statRowsOf(hands, dates))
}

// statRowsOf are the statistics rows of hands (in their order, each
// hand's by player) with their sessions' dates; a void hand has none.
func statRowsOf(hands []Hand, dates map[int64]string) []StatRow {
	var out []StatRow
	for _, h := range hands {
		if h.Void {
			continue
		}
		stats := StatsOf(h.Result)
		slices.SortFunc(stats, func(a, b HandStat) int { return cmp.Compare(a.Player, b.Player) })
		for _, hs := range stats {
			out = append(out, StatRow{Hand: h.ID, Session: h.SessionID, Table: h.TableID, Game: h.Game,
				Date: dates[h.SessionID], Number: h.Number, HandStat: hs})
		}
	}
	return out
}

// StatSession is what a session's statistics are made from.
type StatSession struct {
	Session Session
	// Hands are its hands as their current revisions, in order.
	Hands []Hand
	// Settlement is its latest settlement version, nil without one.
	Settlement *Settlement
}

// Settled reports whether the session's statistics are stored rollups:
// it is closed and has a settlement. Any other session with hands is
// read live from its hands.
func (ss StatSession) Settled() bool { return !ss.Session.Open() && ss.Settlement != nil }

// SessionRollup is what a settled session's statistics hold: the rollups
// of its hands and the money of its latest settlement.
type SessionRollup struct {
	SessionID int64
	Rollup    Rollup
	Money     Settlement
}

// RollUpSettled is the statistics of a session settled with st.
func RollUpSettled(sess Session, hands []Hand, st Settlement) SessionRollup {
	return SessionRollup{SessionID: sess.ID, Rollup: RollUpHands(hands, map[int64]string{sess.ID: sess.Date}), Money: st}
}

// RollUpSession brings a session's statistics in line with its hands and
// its latest settlement: a settled session's rollups are stored, any
// other session with hands is listed among those read live.
func RollUpSession(ctx context.Context, tx StatsTx, sessionID int64) error {
	ss, err := tx.StatSession(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("reading session %d for its statistics: %w", sessionID, err)
	}
	if !ss.Settled() {
		if len(ss.Hands) == 0 {
			return nil
		}
		return wrap(tx.MarkLive(ctx, sessionID), "listing session %d among the live ones", sessionID)
	}
	err = tx.StoreRollup(ctx, RollUpSettled(ss.Session, ss.Hands, *ss.Settlement))
	return wrap(err, "storing the rollups of session %d", sessionID)
}

// rebuildPage is how many sessions RebuildStats reads the ids of at once.
const rebuildPage = 1000

// RebuildStats recomputes a club's statistics in the transaction tx, from
// its hands (their current revisions) and its sessions' latest
// settlements, by the rule RollUpSession applies to each session: for an
// import, and for hands recorded before the statistics existed.
func RebuildStats(ctx context.Context, tx StatsTx) error {
	if err := tx.ClearStats(ctx); err != nil {
		return fmt.Errorf("clearing the statistics: %w", err)
	}
	for after := int64(0); ; {
		ids, err := tx.StatSessions(ctx, after, rebuildPage)
		if err != nil {
			return fmt.Errorf("listing the sessions after %d: %w", after, err)
		}
		for _, id := range ids {
			if err := RollUpSession(ctx, tx, id); err != nil {
				return err
			}
		}
		if len(ids) < rebuildPage {
			return nil
		}
		after = ids[len(ids)-1]
	}
}

package backup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// tableRun is the table being read and where its chain of hands stands.
type tableRun struct {
	t     Table // its rule set resolved from its preset and options
	hands int   // hands read so far
	open  int64 // its open session, 0 if none
	// state is the state after the previous hand's current version; before
	// the states after each of its versions.
	state  json.RawMessage
	before []json.RawMessage
	// chain is the hash of the previous hand, in the document and as
	// stored.
	chain heads
}

// handRun is the hand being read, with its revisions so far.
type handRun struct {
	h    Hand
	revs []Revision
}

// version is one version of a hand as re-scored: what a settlement of its
// session is computed from.
type version struct {
	revision   int
	recordedAt time.Time
	result     score.Result
}

// handVersions are a hand's versions, revision 1 first.
type handVersions struct {
	number   int
	versions []version
}

// stored is one version of a hand as the document stores it.
type stored struct {
	revision   int
	facts      json.RawMessage
	result     json.RawMessage
	stateAfter json.RawMessage
	void       bool
	recordedAt time.Time
}

// stored returns the hand's versions as the document has them.
func (hr *handRun) stored() []stored {
	h := hr.h
	out := []stored{{revision: 1, facts: h.Facts, result: h.Result, stateAfter: h.StateAfter, recordedAt: h.RecordedAt}}
	for _, r := range hr.revs {
		out = append(out, stored{revision: r.Revision, facts: r.Facts, result: r.Result, stateAfter: r.StateAfter, void: r.Void, recordedAt: r.RecordedAt})
	}
	return out
}

// rescore replays hand hr of session s through the table's engine, under
// the session's rule set (its terms), with its seating, id and date, and
// refuses it, naming table and hand, when a version no longer scores or
// its points or its state after differ from the stored ones:
//
//   - The hands' current versions (the last revision, or the hand as
//     recorded) are replayed as one chain: the first hand from the empty
//     state {} (as the store keeps it), every later one from the state
//     after the previous replayed hand. A voided version scores 0 for every
//     player of the version before it and leaves the state as it was.
//   - Every earlier version of a hand was scored from the version of the
//     hand before it that was current then, so it must re-score from the
//     state after one of that hand's versions.
//
// Only points and state are compared, and states but for their summaries
// (ledger.SameState): a title, a breakdown line, an event text or a
// state's summary worded differently by a newer engine (one that names
// players by reference where an older one wrote "Spieler 3") does not
// refuse a ledger whose numbers still follow. The money is computed from the re-scored results,
// never from the stored ones.
func (tr *tableRun) rescore(hr *handRun, s Session) (handVersions, error) {
	h := hr.h
	refuse := func(v stored, format string, args ...any) error {
		which := fmt.Sprintf("hand %d", h.Number)
		if v.revision > 1 {
			which += fmt.Sprintf(" (revision %d)", v.revision)
		}
		return ledger.Errorf(ledger.EINVALID, "re-scoring table %d %q, %s: %s", h.TableID, tr.t.Name, which, fmt.Sprintf(format, args...))
	}
	candidates := tr.before
	if len(candidates) == 0 {
		candidates = []json.RawMessage{json.RawMessage(`{}`)}
	}
	all := hr.stored()
	out := handVersions{number: h.Number}
	var after []json.RawMessage
	var previous *score.Result
	for i, v := range all {
		var res score.Result
		var err error
		if i == len(all)-1 {
			if res, err = tr.rescoreVersion(h, s, v, tr.state, previous); err != nil {
				return out, refuse(v, "%v", err)
			}
		} else if res, err = tr.rescoreFromAny(h, s, v, candidates, previous); err != nil {
			return out, refuse(v, "%v (from the state after any version of the hand before it)", err)
		}
		out.versions = append(out.versions, version{revision: v.revision, recordedAt: v.recordedAt, result: res})
		previous = &out.versions[len(out.versions)-1].result
		after = append(after, v.stateAfter)
	}
	tr.state, tr.before = previous.State, after
	return out, nil
}

// rescoreFromAny re-scores version v of hand h from each of candidates in
// turn and returns the result of the first that re-scores to the stored
// version, or the first candidate's error.
func (tr *tableRun) rescoreFromAny(h Hand, s Session, v stored, candidates []json.RawMessage, previous *score.Result) (score.Result, error) {
	var first error
	for _, c := range candidates {
		res, err := tr.rescoreVersion(h, s, v, c, previous)
		if err == nil {
			return res, nil
		}
		if first == nil {
			first = err
		}
	}
	return score.Result{}, first
}

// rescoreVersion re-scores version v of hand h in session s from state and
// returns the result, or why it differs from the stored version. previous
// is the re-scored version before v, nil for revision 1.
func (tr *tableRun) rescoreVersion(h Hand, s Session, v stored, state json.RawMessage, previous *score.Result) (score.Result, error) {
	points, err := storedPoints(v.result)
	if err != nil {
		return score.Result{}, err
	}
	var res score.Result
	switch {
	case v.void && previous == nil:
		return score.Result{}, fmt.Errorf("the hand as recorded cannot be void")
	case v.void:
		res = ledger.VoidResult(*previous, state)
		if !samePlayerPoints(points, res.Points) {
			return score.Result{}, fmt.Errorf("it is void, yet scores %s", playerPointsText(points))
		}
		if !ledger.SameState(v.stateAfter, state) {
			return score.Result{}, fmt.Errorf("it is void, yet the state after it %s is not the state before it %s", shortJSON(v.stateAfter), shortJSON(state))
		}
		return res, nil
	}
	res, err = ledger.ScoreHand(ledger.Table{ID: tr.t.ID, Game: tr.t.Game, State: state},
		ledger.Session{ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating, Terms: s.Terms.ledger()}, v.facts)
	if err != nil {
		return score.Result{}, fmt.Errorf("its facts no longer score: %v", err)
	}
	if !samePlayerPoints(points, res.Points) {
		return score.Result{}, fmt.Errorf("the stored points %s differ from the re-scored points %s", playerPointsText(points), playerPointsText(res.Points))
	}
	if !ledger.SameState(v.stateAfter, res.State) {
		return score.Result{}, fmt.Errorf("the stored state after the hand differs from the re-scored state: stored %s, re-scored %s", shortJSON(v.stateAfter), shortJSON(res.State))
	}
	return res, nil
}

// storedPoints reads the points of a stored result.
func storedPoints(raw json.RawMessage) ([]score.PlayerPoints, error) {
	var r struct {
		Points []score.PlayerPoints `json:"points"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("result unreadable: %w", err)
	}
	return r.Points, nil
}

// Entry is one entry a hand's history makes: revision 1's points, and for
// each later revision the difference to the revision before.
type Entry struct {
	Revision int
	Player   int64
	Points   score.Points
}

// entries returns the entries the store keeps for the hand: one per player
// of the hand as recorded, then per revision one per player whose points
// changed, carrying the difference (as a correction appends them).
func (hr *handRun) entries() ([]Entry, error) {
	var out []Entry
	var previous score.Result
	for _, v := range hr.stored() {
		points, err := storedPoints(v.result)
		if err != nil {
			return nil, fmt.Errorf("revision %d: %w", v.revision, err)
		}
		next := score.Result{Points: points}
		diffs := points
		if v.revision > 1 {
			diffs = ledger.PointDiffs(previous, next)
		}
		for _, p := range diffs {
			out = append(out, Entry{Revision: v.revision, Player: p.Player, Points: p.Points})
		}
		previous = next
	}
	return out, nil
}

func samePlayerPoints(a, b []score.PlayerPoints) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Player != b[i].Player || a[i].Points.Cmp(b[i].Points) != 0 {
			return false
		}
	}
	return true
}

func playerPointsText(ps []score.PlayerPoints) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "player %d: %s", p.Player, p.Points)
	}
	b.WriteByte(']')
	return b.String()
}

func shortJSON(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	const max = 300
	if b.Len() > max {
		return b.String()[:max] + "…"
	}
	return b.String()
}

package backup

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Rescore replays every table's hands in order through the table's engine,
// each under the rule set stored with it, with its session's seating, id
// and date, and refuses the document, naming table and hand, when a hand
// no longer scores or its points or its state after differ from the stored
// ones:
//
//   - The hands' current versions (the last revision, or the hand as
//     recorded) are replayed as one chain: the first hand from the empty
//     state {} (as the store keeps it), every later one from the state
//     after the previous replayed hand. A voided version scores 0 for every
//     player and leaves the state as it was before it.
//   - Every earlier version of a hand was scored from the version of the
//     hand before it that was current then, so it must re-score from the
//     state after one of that hand's versions.
//   - A table's state must be the state after its last hand.
//
// Only points and state are compared, and states but for their summaries
// (ledger.SameState): a title, a breakdown line, an event text or a
// state's summary worded differently by a newer engine (one that names
// players by reference where an older one wrote "Spieler 3") does not
// refuse a ledger whose numbers still follow. The document must have passed Check.
func (d *Document) Rescore() error {
	sessions := make(map[int64]Session, len(d.Sessions))
	for _, s := range d.Sessions {
		sessions[s.ID] = s
	}
	names := make(map[int64]string, len(d.Tables))
	for _, t := range d.Tables {
		names[t.ID] = t.Name
	}
	states := make(map[int64]json.RawMessage, len(d.Tables))
	// before holds, per table, the states after every version of the
	// previous hand: where any earlier version of the next hand started.
	before := make(map[int64][]json.RawMessage, len(d.Tables))
	for _, h := range d.Hands {
		s, ok := sessions[h.SessionID]
		if !ok {
			return ledger.Errorf(ledger.EINVALID, "table %d, hand %d: session %d is not in the document", h.TableID, h.Number, h.SessionID)
		}
		state, ok := states[h.TableID]
		if !ok {
			state = json.RawMessage(`{}`)
		}
		candidates := before[h.TableID]
		if len(candidates) == 0 {
			candidates = []json.RawMessage{json.RawMessage(`{}`)}
		}
		next, after, err := rescoreHand(h, s, state, candidates, names[h.TableID])
		if err != nil {
			return err
		}
		states[h.TableID], before[h.TableID] = next, after
	}
	for _, t := range d.Tables {
		want, ok := states[t.ID]
		if !ok {
			want = json.RawMessage(`{}`)
		}
		if !ledger.SameState(t.State, want) {
			return ledger.Errorf(ledger.EINVALID, "table %d %q: its state %s is not the state after its last hand %s", t.ID, t.Name, shortJSON(t.State), shortJSON(want))
		}
	}
	return nil
}

// rescoreHand re-scores every version of hand h of session s at the table
// called name: its current version from state, every earlier one from one
// of candidates. It returns the state after the current version and the
// states after each version, or a refusal naming the version.
func rescoreHand(h Hand, s Session, state json.RawMessage, candidates []json.RawMessage, name string) (json.RawMessage, []json.RawMessage, error) {
	refuse := func(v handVersion, format string, args ...any) error {
		which := fmt.Sprintf("hand %d", h.Number)
		if v.revision > 1 {
			which += fmt.Sprintf(" (revision %d)", v.revision)
		}
		return ledger.Errorf(ledger.EINVALID, "re-scoring table %d %q, %s: %s", h.TableID, name, which, fmt.Sprintf(format, args...))
	}
	versions := h.versions()
	var next json.RawMessage
	var after []json.RawMessage
	for i, v := range versions {
		if i == len(versions)-1 {
			var err error
			if next, err = rescoreVersion(h, s, v, state); err != nil {
				return nil, nil, refuse(v, "%v", err)
			}
		} else if err := rescoreFromAny(h, s, v, candidates); err != nil {
			return nil, nil, refuse(v, "%v (from the state after any version of the hand before it)", err)
		}
		after = append(after, v.stateAfter)
	}
	return next, after, nil
}

// rescoreFromAny re-scores version v of hand h from each of candidates in
// turn and returns nil once one re-scores to the stored version, or the
// first candidate's error.
func rescoreFromAny(h Hand, s Session, v handVersion, candidates []json.RawMessage) error {
	var first error
	for _, c := range candidates {
		_, err := rescoreVersion(h, s, v, c)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// rescoreVersion re-scores version v of hand h in session s from state and returns
// the state after it, or why it differs from the stored version.
func rescoreVersion(h Hand, s Session, v handVersion, state json.RawMessage) (json.RawMessage, error) {
	stored, err := storedPoints(v.result)
	if err != nil {
		return nil, err
	}
	if v.void {
		for _, p := range stored {
			if !p.Points.IsZero() {
				return nil, fmt.Errorf("it is void, yet scores %s", playerPointsText(stored))
			}
		}
		if !ledger.SameState(v.stateAfter, state) {
			return nil, fmt.Errorf("it is void, yet the state after it %s is not the state before it %s", shortJSON(v.stateAfter), shortJSON(state))
		}
		return state, nil
	}
	res, err := ledger.ScoreHand(ledger.Table{ID: h.TableID, Game: h.Game, Rules: h.Rules, State: state},
		ledger.Session{ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating}, v.facts)
	if err != nil {
		return nil, fmt.Errorf("its facts no longer score: %v", err)
	}
	if !samePlayerPoints(stored, res.Points) {
		return nil, fmt.Errorf("the stored points %s differ from the re-scored points %s", playerPointsText(stored), playerPointsText(res.Points))
	}
	if !ledger.SameState(v.stateAfter, res.State) {
		return nil, fmt.Errorf("the stored state after the hand differs from the re-scored state: stored %s, re-scored %s", shortJSON(v.stateAfter), shortJSON(res.State))
	}
	return res.State, nil
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

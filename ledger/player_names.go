package ledger

import (
	"context"
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Names are the club's players' names by id: what renders the player
// references engines write into their texts (score.PlayerRef) wherever
// people read them. Stored results keep the references, so a renamed
// player reads right everywhere; structured fields keep the ids.
type Names map[int64]string

// names loads the names of the club's players, in one query per request.
func (s *Service) names(ctx context.Context, clubID int64) (Names, error) {
	players, err := s.Players.ListPlayers(ctx, clubID, Page{})
	if err != nil {
		return nil, wrap(err, "names: ListPlayers")
	}
	return namesOf(players), nil
}

// namesOf indexes players' names by id.
func namesOf(players []Player) Names {
	n := make(Names, len(players))
	for _, p := range players {
		n[p.ID] = p.Name
	}
	return n
}

// Text renders the player references in a text.
func (n Names) Text(text string) string { return score.RenderPlayers(text, n) }

// State renders the player references in a state's strings (its summary).
func (n Names) State(state json.RawMessage) json.RawMessage {
	return score.RenderPlayersJSON(state, n)
}

// Result renders the texts of a result: title, lines, events and state.
func (n Names) Result(r score.Result) score.Result { return r.WithNames(n) }

// Hand renders the texts of a hand's result.
func (n Names) Hand(h Hand) Hand {
	h.Result = n.Result(h.Result)
	return h
}

// Hands renders the texts of every hand, in a new slice.
func (n Names) Hands(hands []Hand) []Hand {
	out := make([]Hand, len(hands))
	for i, h := range hands {
		out[i] = n.Hand(h)
	}
	return out
}

// Revisions renders the texts of every revision's result, in a new slice.
func (n Names) Revisions(revs []Revision) []Revision {
	out := make([]Revision, len(revs))
	for i, r := range revs {
		r.Result = n.Result(r.Result)
		out[i] = r
	}
	return out
}

// Settlement renders the texts of a settlement's payouts.
func (n Names) Settlement(st Settlement) Settlement {
	if st.Payouts != nil {
		payouts := make([]Payout, len(st.Payouts))
		for i, p := range st.Payouts {
			p.Text = n.Text(p.Text)
			payouts[i] = p
		}
		st.Payouts = payouts
	}
	return st
}

// withNames renders a hand for the actor's club: one query for the names.
func (s *Service) withNames(ctx context.Context, clubID int64, h Hand) (Hand, error) {
	n, err := s.names(ctx, clubID)
	if err != nil {
		return h, err
	}
	return n.Hand(h), nil
}

// SameState reports whether two states of a table are the same but for
// their summaries: a summary is a text for people, worded by the engine
// (a newer engine names players by reference where an older one wrote
// "Spieler 3"), and says nothing the rest of the state does not.
func SameState(a, b json.RawMessage) bool {
	if SameJSON(a, b) {
		return true
	}
	return SameJSON(withoutSummary(a), withoutSummary(b))
}

// withoutSummary is a state object without its "summary" member; any
// other JSON is returned as is.
func withoutSummary(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	delete(m, "summary")
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// RenderHint renders the player references in a problem's hint with the
// names of the actor's club, so the players read names, never ids. A hint
// without a reference costs no query; if the names cannot be read, the
// references read "Spieler N".
func (s *Service) RenderHint(ctx context.Context, a Actor, hint string) string {
	if !score.HasPlayerRefs(hint) {
		return hint
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		n = nil
	}
	return n.Text(hint)
}

package ledger

import (
	"encoding/json"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Correction asks for new facts of a past hand, or for voiding it.
type Correction struct {
	TableID int64
	Number  int
	// Revision is the revision the correction corrects (If-Match); a
	// correction of a revision that is no longer current is refused.
	Revision int
	Facts    json.RawMessage
	Void     bool
	Reason   string
}

// CorrectionResult is what a correction changed.
type CorrectionResult struct {
	Hand Hand `json:"hand"`
	// Rescored are the numbers of the later hands whose score or state
	// changed and got a new revision.
	Rescored []int `json:"rescored"`
	// Settlements are the closed sessions whose settlement got a new version.
	Settlements []int64 `json:"settlements"`
}

// Revision is one version of a hand: revision 1 is the hand as recorded,
// every correction (of it or of an earlier hand) appends the next.
type Revision struct {
	Revision   int             `json:"revision"`
	Facts      json.RawMessage `json:"facts"`
	Result     score.Result    `json:"result"`
	Void       bool            `json:"void"`
	Reason     string          `json:"reason,omitempty"`
	CausedBy   int             `json:"caused_by,omitempty"` // the hand whose correction made it
	RecordedBy int64           `json:"recorded_by"`
	RecordedAt time.Time       `json:"recorded_at"`
}

// Change is one entry of a club's change feed, numbered gap-free in commit
// order.
type Change struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	TableID   *int64          `json:"table_id,omitempty"`
	SessionID *int64          `json:"session_id,omitempty"`
	Number    *int            `json:"number,omitempty"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// The kinds of change in the feed.
const (
	ChangeHandRecorded  = "hand_recorded"
	ChangeHandCorrected = "hand_corrected"
	ChangeSessionOpened = "session_opened"
	ChangeSessionClosed = "session_closed"
	ChangeSettlement    = "settlement"
	ChangeKittyBooking  = "kitty_booking"
)

// Notifier tells subscribers that a club has new changes, whichever
// instance of the service wrote them. A subscriber reads the feed itself;
// a notification only says "look again".
type Notifier interface {
	Subscribe(clubID int64) (changes <-chan int64, cancel func())
}

// RescoreHand scores facts as hand h of session s from state, under the
// rule set h was played with: what a correction does to every later hand.
func RescoreHand(h Hand, s Session, state, facts json.RawMessage) (score.Result, error) {
	date, err := ParseDate("date", s.Date)
	if err != nil {
		return score.Result{}, err
	}
	return scoreWith(h.Game, score.Hand{
		Seated: s.Seating, Session: s.ID, Date: date, Rules: h.Rules, State: state, Facts: facts,
	})
}

// VoidResult is the result of a voided hand: every player of the hand
// scores 0, and the table's state is what it was before the hand, so the
// hand counts for no Bock round, tally or match. Who dealt and who played
// stay as they were: the hand was dealt and played, then annulled.
func VoidResult(previous score.Result, stateBefore json.RawMessage) score.Result {
	res := score.Result{
		Title:   "annulliert",
		Lines:   []score.Line{{Label: "Spiel annulliert", Op: score.OpEq, Value: score.Int(0)}},
		Events:  []score.Event{},
		State:   stateBefore,
		Dealer:  previous.Dealer,
		Players: previous.Players,
	}
	for _, p := range previous.Points {
		res.Points = append(res.Points, score.PlayerPoints{Player: p.Player})
	}
	return res
}

// SameOutcome reports whether two results give every player the same
// points and leave the same state: then nothing after them changes.
func SameOutcome(a, b score.Result) bool {
	if len(a.Points) != len(b.Points) {
		return false
	}
	for i := range a.Points {
		if a.Points[i].Player != b.Points[i].Player || a.Points[i].Points.Cmp(b.Points[i].Points) != 0 {
			return false
		}
	}
	return SameJSON(a.State, b.State)
}

// PointDiffs returns, per player, next minus previous points, leaving out
// players whose points did not change.
func PointDiffs(previous, next score.Result) []score.PlayerPoints {
	old := map[int64]score.Points{}
	for _, p := range previous.Points {
		old[p.Player] = p.Points
	}
	var out []score.PlayerPoints
	seen := map[int64]bool{}
	for _, p := range next.Points {
		seen[p.Player] = true
		if d := p.Points.Sub(old[p.Player]); !d.IsZero() {
			out = append(out, score.PlayerPoints{Player: p.Player, Points: d})
		}
	}
	for _, p := range previous.Points {
		if !seen[p.Player] && !p.Points.IsZero() {
			out = append(out, score.PlayerPoints{Player: p.Player, Points: p.Points.Neg()})
		}
	}
	return out
}

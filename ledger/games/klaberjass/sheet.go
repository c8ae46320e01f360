package klaberjass

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

var _ score.Sheeter = Engine{}

// Sheet reads the dice and matches of a table's state for a score sheet:
// every hand scores 0 points, so the figures are the game. Each player of
// the match shows his side's die after the hand; the winners of a match
// the hand finished show 6 ("6, Partie"), everyone's die being back at 0
// in the state. A player's Progress is 6 for every match he has won at
// the table plus his die, so the evening's difference ranks and charts
// the players by matches, then dice. The summary is the state's.
func (Engine) Sheet(_, state json.RawMessage) (score.Sheet, error) {
	st, err := decodeState(state)
	if err != nil {
		return score.Sheet{}, err
	}
	sh := score.Sheet{Heading: "Würfel", Figures: []score.Figure{}, Summary: st.Summary, Scored: true}
	finished := st.Hands == 0 && len(st.LastWinners) > 0
	var ids []int64
	for _, s := range st.Sides {
		for _, id := range s.Players {
			f := score.Figure{Player: id, Value: score.Int(int64(s.Die)),
				Progress: score.Int(int64(dieGoal*st.MatchesWon[id] + s.Die))}
			if finished && slices.Contains(st.LastWinners, id) {
				f.Value, f.Text = score.Int(dieGoal), fmt.Sprintf("%d, Partie", dieGoal)
			}
			sh.Figures = append(sh.Figures, f)
			ids = append(ids, id)
		}
	}
	// Players who won matches at the table but are not of this match keep
	// their progress.
	for id, won := range st.MatchesWon {
		if !slices.Contains(ids, id) {
			sh.Figures = append(sh.Figures, score.Figure{Player: id, Value: score.Int(0), Progress: score.Int(int64(dieGoal * won))})
		}
	}
	slices.SortFunc(sh.Figures, func(a, b score.Figure) int { return int(a.Player - b.Player) })
	if finished {
		sh.Notes = []string{fmt.Sprintf("Partie %d beginnt, alle Würfel auf 0", st.Match)}
	}
	return sh, nil
}

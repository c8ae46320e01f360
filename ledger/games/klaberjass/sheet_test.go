package klaberjass

import (
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestSheetShowsDiceAndMatches: the sheet shows each player's die, 6 for
// the winners of a match the hand finished, and progress 6 a match plus
// the die, so a report ranks by matches and dice.
func TestSheetShowsDiceAndMatches(t *testing.T) {
	during := State{Match: 2, Hands: 3, Sides: []SideState{{Players: []int64{1, 3}, Die: 4}, {Players: []int64{2, 4}, Die: 2}},
		MatchesWon: map[int64]int{1: 1, 3: 1}}
	sh := sheetOf(t, during)
	if sh.Heading != "Würfel" || !sh.Scored || len(sh.Notes) != 0 {
		t.Errorf("sheet %+v", sh)
	}
	want := map[int64][2]int64{1: {4, 10}, 2: {2, 2}, 3: {4, 10}, 4: {2, 2}}
	for _, f := range sh.Figures {
		if w := want[f.Player]; f.Value.Num() != w[0] || f.Progress.Num() != w[1] {
			t.Errorf("player %d: die %s, progress %s; want %d, %d", f.Player, f.Value, f.Progress, w[0], w[1])
		}
	}
	won := State{Match: 3, Hands: 0, Sides: []SideState{{Players: []int64{1, 3}}, {Players: []int64{2, 4}}},
		MatchesWon: map[int64]int{1: 2, 3: 2}, LastWinners: []int64{1, 3}}
	sh = sheetOf(t, won)
	for _, f := range sh.Figures {
		if (f.Player == 1 || f.Player == 3) && (f.Value.Num() != 6 || f.Text != "6, Partie" || f.Progress.Num() != 12) {
			t.Errorf("winner %+v, want 6, Partie, progress 12", f)
		}
	}
	if len(sh.Notes) != 1 {
		t.Errorf("notes %q, want the new match", sh.Notes)
	}
}

func sheetOf(t *testing.T, st State) score.Sheet {
	t.Helper()
	raw, _ := json.Marshal(st)
	sh, err := Engine{}.Sheet(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

package doppelkopf

import (
	"errors"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestKoenigssolo: a Königssolo (the Könige the only trumps) is a house
// rule the table switches on; off (as in both presets) it is refused with
// a German hint. On, it is an announced solo: the soloist plays alone and
// gets three times the value, and with the Kreuz-Bube and the Karo-Ass no
// trumps there is no Karlchen and no Fuchs.
func TestKoenigssolo(t *testing.T) {
	const solo = `{"game":"koenigssolo","re":{"players":[2],"augen":130}}`
	_, err := testHand{facts: solo}.score(t)
	var v *score.Violation
	if !errors.As(err, &v) || v.Field != "facts.game" || v.Hint == "" {
		t.Fatalf("a Königssolo without the option: %v, want a refusal of facts.game with a hint", err)
	}
	on := testHand{options: `{"koenigssolo":true}`, facts: solo}
	res := on.mustScore(t)
	if res.Title != "Königssolo von {{player:2}} gewonnen" {
		t.Errorf("title %q", res.Title)
	}
	want := map[int64]string{1: "-1", 2: "3", 3: "-1", 4: "-1"}
	for _, p := range res.Points {
		if p.Points.String() != want[p.Player] {
			t.Errorf("player %d: %s, want %s", p.Player, p.Points, want[p.Player])
		}
	}
	on.options = `{"koenigssolo":true,"sonderpunkte_in_solo":true}`
	for _, f := range []string{
		`{"game":"koenigssolo","re":{"players":[2],"augen":130,"karlchen":true}}`,
		`{"game":"koenigssolo","re":{"players":[2],"augen":130,"fuchs_gefangen":1}}`,
	} {
		on.facts = f
		if _, err := on.score(t); err == nil {
			t.Errorf("%s: accepted, want no Karlchen or Fuchs in a Königssolo", f)
		}
	}
}

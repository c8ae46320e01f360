package doppelkopf

import (
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Tournament play (option turnier): the rules of the TSR that concern one
// table's Spielrunde. The package documentation states them with their
// paragraphs; the rules of the whole tournament (games per round, when a
// round is over, when a Vorführung is due, the ranking) are the ledger's.

// The kinds of an announced solo in tournament play (facts.solo_kind).
const (
	// SoloPflicht is a Pflichtsolo: every player owes one per Spielrunde
	// (TSR 4.2.3, 8.6).
	SoloPflicht = "pflicht"
	// SoloLust is a Lustsolo: any further solo (TSR 4.3.1).
	SoloLust = "lust"
)

// Statistics keys of tournament play; given only under option turnier.
const (
	// StatPflichtsolo: the soloist of a Pflichtsolo.
	StatPflichtsolo = "pflichtsolo"
	// StatVorgefuehrt: the soloist of a Pflichtsolo that was vorgeführt
	// (given with StatPflichtsolo).
	StatVorgefuehrt = "pflichtsolo_vorgefuehrt"
	// StatLustsolo: the soloist of a Lustsolo.
	StatLustsolo = "lustsolo"
	// StatAufspiel: the player who leads to the first trick of a played
	// hand (TSR 4.2.2, 5.1.1).
	StatAufspiel = "aufspiel"
)

// tableOfFour is the size of a tournament table (TSR 8.3.1).
const tableOfFour = 4

// firstDealer is who deals the next hand: in tournament play the first
// hand of a session (a new Spielrunde) is dealt by position 1, the first
// seated player (TSR 3.3.1, 8.4.1); otherwise the state's next dealer.
func firstDealer(st *State, r Rules, session int64, seated []int64) int64 {
	if r.Turnier && st.Session != session && len(seated) > 0 {
		return seated[0]
	}
	return st.nextDealer(seated)
}

// played are the players who played their Pflichtsolo in the session.
func (st *State) played(session int64) []int64 {
	if st.Session != session {
		return nil
	}
	return st.Pflichtsoli
}

// Vorgefuehrt returns the player who is vorgeführt when a Vorführung is
// due (TSR 4.2.3): of the seated players who still owe their Pflichtsolo
// (not in played), the one who sits next to the dealer's left, the dealer
// himself last. False when nobody owes one.
func Vorgefuehrt(seated []int64, dealer int64, played []int64) (int64, bool) {
	d := max(slices.Index(seated, dealer), 0)
	for k := 1; k <= len(seated); k++ {
		id := seated[(d+k)%len(seated)]
		if !slices.Contains(played, id) {
			return id, true
		}
	}
	return 0, false
}

// checkTurnier checks the facts of tournament play against the state of
// the session and fills in the hand's solo kind: solo_kind and
// vorgefuehrt only under option turnier, only for an announced solo, which
// must then name its kind; one Pflichtsolo per player and session, a
// Lustsolo only after it; a vorgeführt Pflichtsolo by the player TSR 4.2.3
// names.
func checkTurnier(hd *hand, f Facts, r Rules, st *State, session int64, seated []int64) error {
	if !r.Turnier {
		if f.SoloKind != "" {
			return score.Invalid("facts.solo_kind", "Pflichtsolo and Lustsolo are tournament play (option turnier is off)")
		}
		if f.Vorgefuehrt {
			return score.Invalid("facts.vorgefuehrt", "a Vorführung is tournament play (option turnier is off)")
		}
		return nil
	}
	if len(seated) != tableOfFour {
		return score.Invalid("seated", "tournament play is at tables of four (TSR 8.3.1), got %d seated", len(seated))
	}
	if f.SoloKind != "" && f.SoloKind != SoloPflicht && f.SoloKind != SoloLust {
		return score.Invalid("facts.solo_kind", "must be %q or %q, got %q", SoloPflicht, SoloLust, f.SoloKind)
	}
	if f.Vorgefuehrt && f.SoloKind != SoloPflicht {
		return score.Invalid("facts.vorgefuehrt", "only a Pflichtsolo is vorgeführt (TSR 4.2.3): give solo_kind pflicht")
	}
	if err := checkSoloKind(hd, f.SoloKind); err != nil {
		return err
	}
	played := st.played(session)
	switch {
	case f.SoloKind == SoloPflicht && slices.Contains(played, hd.lead):
		return score.Invalid("facts.solo_kind", "player %d already played his Pflichtsolo in this session; a further solo is a Lustsolo (TSR 4.2.3, 4.3.1)", hd.lead)
	case f.SoloKind == SoloLust && !slices.Contains(played, hd.lead):
		return score.Invalid("facts.solo_kind", "player %d has not played his Pflichtsolo in this session; a Lustsolo may only follow it (TSR 4.3.1)", hd.lead)
	}
	if f.Vorgefuehrt {
		if want, _ := Vorgefuehrt(seated, hd.dealer, played); want != hd.lead {
			return score.Invalid("facts.vorgefuehrt", "player %d is vorgeführt, not player %d: of those who still owe their Pflichtsolo he sits next to the left of dealer %d (TSR 4.2.3)", want, hd.lead, hd.dealer)
		}
	}
	hd.soloKind, hd.vorgefuehrt = f.SoloKind, f.Vorgefuehrt
	return nil
}

// checkSoloKind: an announced solo names its kind; nothing else has one. A
// stille Hochzeit and a Hochzeit without partner are scored as solos but
// replace no Pflichtsolo and are noted with the normal games (TSR 4.4.3 b,
// 4.4.5).
func checkSoloKind(hd *hand, kind string) error {
	switch {
	case hd.declaredSolo && kind == "":
		return score.Invalid("facts.solo_kind", "in tournament play an announced solo is a Pflichtsolo or a Lustsolo (TSR 4.1.4): give %q or %q", SoloPflicht, SoloLust)
	case !hd.declaredSolo && kind != "" && hd.solo:
		return score.Invalid("facts.solo_kind", "a %s is scored as a solo but replaces no Pflichtsolo and is noted with the normal games (TSR 4.4.3 b, 4.4.5): leave solo_kind out", gameTitle(*hd))
	case !hd.declaredSolo && kind != "":
		return score.Invalid("facts.solo_kind", "only an announced solo is a Pflichtsolo or a Lustsolo, not a %s", hd.game)
	}
	return nil
}

// aufspiel is who leads to the first trick: the soloist of a Pflichtsolo
// (TSR 4.2.2), else the dealer's left neighbour among the hand's players,
// who began the Vorbehaltsabfrage (TSR 4.1.2, 5.1.1; a Lustsolo too, TSR
// 4.3.1).
func aufspiel(hd hand) int64 {
	if hd.soloKind == SoloPflicht {
		return hd.lead
	}
	d := slices.Index(hd.active, hd.dealer)
	return hd.active[(d+1)%len(hd.active)]
}

// addTurnierStats adds the statistics keys of tournament play to a played
// hand's result.
func addTurnierStats(res *score.Result, hd hand, r Rules) {
	if !r.Turnier {
		return
	}
	add := func(id int64, key string) {
		res.Stats = append(res.Stats, score.Stat{Player: id, Key: key, Count: 1})
	}
	switch hd.soloKind {
	case SoloPflicht:
		add(hd.lead, StatPflichtsolo)
		if hd.vorgefuehrt {
			add(hd.lead, StatVorgefuehrt)
		}
	case SoloLust:
		add(hd.lead, StatLustsolo)
	}
	add(aufspiel(hd), StatAufspiel)
	score.SortStats(res.Stats, hd.active)
}

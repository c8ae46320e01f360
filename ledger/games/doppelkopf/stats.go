package doppelkopf

import (
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Statistics keys; the package documentation lists when each is given. A
// key that counts an event is spelt as the event type.
const (
	keySoloPlayed    = "solo_played"
	keySoloWon       = "solo_won"
	keyReSaid        = "re_said"
	keyReSaidWon     = "re_said_won"
	keyKontraSaid    = "kontra_said"
	keyKontraSaidWon = "kontra_said_won"
	keyAbsageSaid    = "absage_said"
	keyAbsageWon     = "absage_won"
	keyBockGame      = string(score.EventBockGame)
	keyHochzeit      = "hochzeit"
	keyArmut         = "armut"
	keySchweinchen   = "schweinchen"
	keyRedeal        = string(score.EventRedeal)
)

// soloKind is a solo's game type and, for a Farbsolo, its suit.
type soloKind struct{ game, suit string }

// soloKeys holds "solo_played_<type>" and "solo_won_<type>" for every kind
// of solo, built once so that scoring a solo allocates no key.
var soloKeys = func() map[soloKind][2]string {
	m := map[soloKind][2]string{}
	put := func(k soloKind, typ string) {
		m[k] = [2]string{keySoloPlayed + "_" + typ, keySoloWon + "_" + typ}
	}
	for _, s := range suitNames {
		put(soloKind{GameFarbsolo, s}, GameFarbsolo+"_"+s)
	}
	for _, g := range []string{GameKoehler, GameDamensolo, GameBubensolo, GameFleischloser, GameKoenigssolo, GameStilleHochzeit, GameHochzeit} {
		put(soloKind{g, ""}, g)
	}
	return m
}()

// playedStats lists the statistics of a played hand won by w (noParty when
// nobody reached his goal), bock when it was a Bock game.
func playedStats(hd hand, w party, bock bool) []score.Stat {
	stats := make([]score.Stat, 0, 16)
	add := func(id int64, key string, n int64) {
		stats = append(stats, score.Stat{Player: id, Key: key, Count: n})
	}
	if hd.solo {
		k := soloKeys[soloKind{hd.game, hd.suit}]
		add(hd.lead, keySoloPlayed, 1)
		add(hd.lead, k[0], 1)
		if w == reParty {
			add(hd.lead, keySoloWon, 1)
			add(hd.lead, k[1], 1)
		}
	}
	switch hd.game {
	case GameHochzeit:
		add(hd.lead, keyHochzeit, 1)
	case GameArmut:
		add(hd.lead, keyArmut, 1)
	}
	for _, p := range [...]party{reParty, kontraParty} {
		s := hd.side(p)
		if s.level < levelAnnounced {
			continue
		}
		said, won := keyReSaid, keyReSaidWon
		if p == kontraParty {
			said, won = keyKontraSaid, keyKontraSaidWon
		}
		for _, id := range s.players {
			add(id, said, 1)
			if w == p {
				add(id, won, 1)
			}
			if s.level >= levelKeine90 {
				add(id, keyAbsageSaid, int64(s.level-levelAnnounced))
				if w == p {
					add(id, keyAbsageWon, 1)
				}
			}
		}
	}
	if bock {
		for _, id := range hd.active {
			add(id, keyBockGame, 1)
		}
	}
	if hd.hasSchwein {
		add(hd.schwein, keySchweinchen, 1)
	}
	score.SortStats(stats, hd.active)
	return stats
}

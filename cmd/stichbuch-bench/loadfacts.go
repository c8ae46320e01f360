package main

import (
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/games/klaberjass"
	"github.com/stichbuch/stichbuch/ledger/games/saukopf"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzedame"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzesau"
)

// --- realistic hands -----------------------------------------------------------

// loadFacts are valid hands of each game, by its registry name (--games
// mix plays every registered game, one table each in turn), written for
// the seated players P1..P4 (as in api/games_test.go); a table plays them
// in turn, over and over. They stay valid whatever state the table has
// reached.
var loadFacts = map[string][]string{
	// An evening's Doppelkopf: normal games won and lost, announcements,
	// Füchse and Doppelköpfe, a Hochzeit, an Armut, solos and a Schmeißen.
	doppelkopf.Name: {
		`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90"}}`,
		`{"game":"normal","re":{"players":[P2,P4],"augen":100}}`,
		`{"game":"normal","re":{"players":[P1,P2],"augen":150}}`,
		`{"game":"normal","re":{"players":[P3,P4],"augen":121,"fuchs_gefangen":1}}`,
		`{"game":"damensolo","re":{"players":[P4],"augen":130}}`,
		`{"game":"normal","re":{"players":[P1,P4],"augen":100,"announced":"re"},"kontra":{"announced":"kontra"}}`,
		`{"game":"normal","re":{"players":[P2,P3],"augen":205,"announced":"re","doppelkopf":1}}`,
		`{"game":"hochzeit","re":{"players":[P2,P4],"augen":170}}`,
		`{"game":"normal","herzstich":true,"re":{"players":[P1,P3],"augen":90}}`,
		`{"game":"armut","re":{"players":[P3,P1],"augen":110}}`,
		`{"game":"schmeissen"}`,
		`{"game":"farbsolo","suit":"kreuz","re":{"players":[P3],"augen":100}}`,
		`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90","fuchs_gefangen":1},"kontra":{"announced":"none","doppelkopf":1}}`,
		`{"game":"normal","re":{"players":[P2,P4],"augen":60}}`,
	},
	saukopf.Name: rotations(
		// A Herz-Keiler lost with 55 Augen, ohne 2, one Huftritt.
		`{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"spieler":P1,"bid":61,"contract":"keiler","trump_suit":"herz","huftritte":1,"augen":55,"tricks":4,"laufende":{"holder":P1,"count":2}}`,
		// A Sauerei with the Eichel-Sau called, won with 85.
		`{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"bid":70,"spieler":P1,"contract":"sauerei","called_sau":"eichel","mitspieler":P3,"augen":85,"tricks":5,"laufende":{"holder":P2,"count":1}}`,
		// A Dreihaxer ohne Trog, P4 sitting out.
		`{"variant":"dreihaxer","players":[P1,P2,P3],"dealer":P3,"trog":"ohne","open_augen":10,"bid":61,"spieler":P1,"contract":"keiler","trump_suit":"eichel","augen":50,"tricks":4,"laufende":{"holder":P2,"count":1}}`,
	),
	schwarzesau.Name: rotations(
		`{"players":[{"player":P1,"card_points":60,"tricks":5,"pik_dame":true},{"player":P2,"card_points":30,"tricks":3},{"player":P3,"card_points":30,"tricks":2},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4,"doublings":[{"call":"Kontra","player":P1},{"call":"Re","player":P2},{"call":"Sub","player":P3},{"call":"Hirsch","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":26,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":50,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"doublings":[{"call":"Kontra","player":P2},{"call":"Re","player":P3},{"call":"Sub","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":0,"tricks":0},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":120,"tricks":10,"pik_dame":true},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4}`,
		`{"players":[{"player":P1,"card_points":5,"tricks":1},{"player":P2,"card_points":45,"tricks":3,"pik_dame":true},{"player":P3,"card_points":40,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P1}`,
		`{"players":[{"player":P1,"card_points":48,"tricks":4,"pik_dame":true},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":42,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P2,"doublings":[{"call":"Kontra","player":P3},{"call":"Re","player":P1}]}`,
		`{"players":[{"player":P1,"card_points":45,"tricks":3},{"player":P2,"card_points":35,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`,
	),
	klaberjass.Name: klaberjassMatches(),
	schwarzedame.Name: rotations(
		`{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14],"pik_dame":true},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":1,"hearts":[11,12]}]}`,
		`{"dealer":P1,"players":[{"player":P1,"tricks":2,"hearts":[]},{"player":P2,"tricks":6,"hearts":[2,3,4,5,6,14]},{"player":P3,"tricks":1,"hearts":[7]},{"player":P4,"tricks":4,"hearts":[8,9,10,11,12,13],"pik_dame":true}]}`,
	),
}

// rotations returns each hand as written and with the seats turned by one,
// two and three places, so every player deals, plays and loses in turn.
func rotations(hands ...string) []string {
	var out []string
	for k := range 4 {
		var pairs []string
		for i := 1; i <= 4; i++ {
			pairs = append(pairs, fmt.Sprintf("P%d", i), fmt.Sprintf("P%d", (i-1+k)%4+1))
		}
		r := strings.NewReplacer(pairs...)
		for _, h := range hands {
			out = append(out, r.Replace(h))
		}
	}
	return out
}

// klaberjassMatches is two whole four-player matches (P1/P3 against P2/P4,
// every hand dealt by the next dealer): the dice return to 0:0, so the
// cycle repeats cleanly (the klaberjass package's TestWholeFourPlayerMatch).
func klaberjassMatches() []string {
	hands := []struct{ trumpWins, kontra bool }{
		{true, false}, {true, true}, {false, false}, {true, false},
		{false, false}, {false, true}, {true, false}, {false, false},
	}
	var out []string
	dealer := 4
	for _, h := range hands {
		trump := dealer%4 + 1
		opponent := trump%4 + 1
		winner, loser := trump, opponent
		if !h.trumpWins {
			winner, loser = opponent, trump
		}
		out = append(out, fmt.Sprintf(`{"dealer":P%d,"trump_player":P%d,"trump_suit":"karo","kontra":%t,"card_points":[{"player":P%d,"points":100},{"player":P%d,"points":52}],"last_trick":P%d}`,
			dealer, trump, h.kontra, winner, loser, winner))
		dealer = dealer%4 + 1
	}
	return out
}

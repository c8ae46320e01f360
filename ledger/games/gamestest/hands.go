package gamestest

import "fmt"

// BockEvening is a Doppelkopf evening of twelve hands at a table of four
// (P1..P4 seated in this order) under the house rules, the dealer and the
// players left to the table state. Its sheet, computed by hand:
//
//	 #  dealer  hand                                           value          P1   P2   P3   P4  Bock left/queued
//	 1  1       Re 1+2 150:90                                   1            +1   +1   -1   -1   0/0
//	 2  2       Re 1+3 120:120, Kontra wins, 1+gegen d. Alten   2            -1   +3   -3   +1   4/0  (Spaltarsch)
//	 3  3       Bock 1: Re 2+3 "re" 160:80, (1+1)x2 x Bock      8            -9  +11   +5   -7   3/0
//	 4  4       Damensolo P4 130, won 1, x3, no Bock            3|1         -10  +10   +4   -4   3/0
//	 5  1       Schmeißen, 0, same dealer                       0           -10  +10   +4   -4   3/0
//	 6  1       Bock 2: Re 1+4 "re" 100 vs "kontra": (1+1)x2x2xBock 16  -26  +26  +20  -20   2/1  (Re+Kontra)
//	 7  2       Bock 3: Re 1+2 200:40 + Fuchs: (1+2+1) x Bock   8           -18  +34  +12  -28   1/1
//	 8  3       Bock 4: Re 3+4 121: 1 x Bock                    2           -20  +32  +14  -26   4/0  (next round)
//	 9  4       Bock 1: Re 1+3 90:150, Herzstich: 2 x Bock      4           -24  +36  +10  -22   3/1  (Herzstich)
//	10  1       Bock 2: Hochzeit 2+4 170:70: 2 x Bock           4           -28  +40   +6  -18   2/1
//	11  2       Bock 3: Armut 3+1 110:130: 2 x Bock             4           -32  +44   +2  -14   1/1
//	12  3       Kreuz-Solo P3 100 lost: 1+1+Solo verloren, x3   9|3         -29  +47   -7  -11   1/1
//
// Hand 2 is 120:120 (Spaltarsch), which opens the first Bock round.
var BockEvening = [12]string{
	`{"game":"normal","re":{"players":[P1,P2],"augen":150}}`,
	`{"game":"normal","re":{"players":[P1,P3],"augen":120}}`,
	`{"game":"normal","re":{"players":[P2,P3],"augen":160,"announced":"re"}}`,
	`{"game":"damensolo","re":{"players":[P4],"augen":130}}`,
	`{"game":"schmeissen"}`,
	`{"game":"normal","re":{"players":[P1,P4],"augen":100,"announced":"re"},"kontra":{"announced":"kontra"}}`,
	`{"game":"normal","re":{"players":[P1,P2],"augen":200,"fuchs_gefangen":1}}`,
	`{"game":"normal","re":{"players":[P3,P4],"augen":121}}`,
	`{"game":"normal","herzstich":true,"re":{"players":[P1,P3],"augen":90}}`,
	`{"game":"hochzeit","re":{"players":[P2,P4],"augen":170}}`,
	`{"game":"armut","re":{"players":[P3,P1],"augen":110}}`,
	`{"game":"farbsolo","suit":"kreuz","re":{"players":[P3],"augen":100}}`,
}

// LostKeiler is a Saukopf Vierer of P1..P4 dealt by P4: a Herz-Keiler of
// P1 lost with 55 Augen, ohne 2 and one Huftritt, (5 + 2) x 2 = 14 into
// the bowl: 14/3 for each winner (-42 and 14 each with verlorenes_solo
// jeder_einzeln).
const LostKeiler = `{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"spieler":P1,"bid":61,"contract":"keiler","trump_suit":"herz","huftritte":1,"augen":55,"tricks":4,"laufende":{"holder":P1,"count":2}}`

// LostDreihaxer is a Saukopf Dreihaxer ohne Trog of P1..P3 dealt by P3:
// an Eichel-Keiler of P1 lost with 50 Augen, 5 into the bowl, 5/2 for each
// winner.
const LostDreihaxer = `{"variant":"dreihaxer","players":[P1,P2,P3],"dealer":P3,"trog":"ohne","open_augen":10,"bid":61,"spieler":P1,"contract":"keiler","trump_suit":"eichel","augen":50,"tricks":4,"laufende":{"holder":P2,"count":1}}`

// SchwarzeSauMarch9 and SchwarzeSauApril2 are two Schwarze Sau evenings of
// one table under the standard rules (threshold 1500 + day): three hands
// on 9 March 2025 with P1..P4 seated, then five on 2 April with P5 joining.
// Minus points and tallies (P1..P5) after each hand, computed by hand:
//
//	9 March, limit 1509
//	 1  Hirsch x16: P1 took the Sau with the highest 60; P4 no trick   P1 -960        960 0 0 0
//	 2  x8, P2 took the Sau, highest 50, all took a trick: halved      P2 -200        960 200 0 0
//	 3  Durchmarsch by P3: 120 for each other player                   P1 P2 P4 -120  1080 320 0 120
//	2 April, limit 1502
//	 4  three players, Kontra x2, halved: 45 x 2 / 2                   P1 -45         1125 320 0 120 0
//	 5  x8 halved: 47 x 8 / 2                                          P1 -188        1313 320 0 120 0
//	 6  x1 halved: 45/2                                                P2 -45/2       1313 685/2 0 120 0
//	 7  x4, the dealer P2 without a trick: 48 x 4; P1 reaches 1505     P1 -192        0 0 0 0 0 (P1 pays 5,00 €)
//	 8  after the reset: halved 41/2 for P3                            P3 -41/2       0 0 41/2 0 0
var (
	SchwarzeSauMarch9 = [3]string{
		`{"players":[{"player":P1,"card_points":60,"tricks":5,"pik_dame":true},{"player":P2,"card_points":30,"tricks":3},{"player":P3,"card_points":30,"tricks":2},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4,
		   "doublings":[{"call":"Kontra","player":P1},{"call":"Re","player":P2},{"call":"Sub","player":P3},{"call":"Hirsch","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":26,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":50,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,
		   "doublings":[{"call":"Kontra","player":P2},{"call":"Re","player":P3},{"call":"Sub","player":P4}]}`,
		`{"players":[{"player":P1,"card_points":0,"tricks":0},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":120,"tricks":10,"pik_dame":true},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4}`,
	}
	SchwarzeSauApril2 = [5]string{
		`{"players":[{"player":P1,"card_points":45,"tricks":3,"pik_dame":true},{"player":P2,"card_points":40,"tricks":3},{"player":P5,"card_points":25,"tricks":3}],"dealer":P5,
		   "stock":{"card_points":10,"tricks":1},"doublings":[{"call":"Kontra","player":P5}]}`,
		`{"players":[{"player":P1,"card_points":47,"tricks":3,"pik_dame":true},{"player":P3,"card_points":33,"tricks":3},{"player":P4,"card_points":10,"tricks":1},{"player":P5,"card_points":30,"tricks":3}],"dealer":P4,
		   "doublings":[{"call":"Kontra","player":P3},{"call":"Re","player":P5},{"call":"Sub","player":P1}]}`,
		`{"players":[{"player":P1,"card_points":5,"tricks":1},{"player":P2,"card_points":45,"tricks":3,"pik_dame":true},{"player":P3,"card_points":40,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P1}`,
		`{"players":[{"player":P1,"card_points":48,"tricks":4,"pik_dame":true},{"player":P2,"card_points":0,"tricks":0},{"player":P3,"card_points":42,"tricks":3},{"player":P4,"card_points":30,"tricks":3}],"dealer":P2,
		   "doublings":[{"call":"Kontra","player":P3},{"call":"Re","player":P1}]}`,
		`{"players":[{"player":P1,"card_points":41,"tricks":3},{"player":P2,"card_points":36,"tricks":3},{"player":P3,"card_points":33,"tricks":3,"pik_dame":true},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`,
	}
)

// KlaberjassHand is a Klaberjass hand of P1..P4 (seated in this order)
// dealt by P<dealer>: the next player plays Karo trump and either wins
// (100 + last trick against 52) or loses (52 against 100 + last trick),
// with or without Kontra.
func KlaberjassHand(dealer int, trumpWins, kontra bool) string {
	trump := dealer%4 + 1
	opponent := trump%4 + 1
	winner, loser := trump, opponent
	if !trumpWins {
		winner, loser = opponent, trump
	}
	return fmt.Sprintf(`{"dealer":P%d,"trump_player":P%d,"trump_suit":"karo","kontra":%t,"card_points":[{"player":P%d,"points":100},{"player":P%d,"points":52}],"last_trick":P%d}`,
		dealer, trump, kontra, winner, loser, winner)
}

package saukopf

import (
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// TestInvalid refuses broken hands, each naming the field.
func TestInvalid(t *testing.T) {
	const lauf = `{"holder":1,"count":1}`
	const vier = `"variant":"vierer","players":[1,2,3,4],"dealer":4`
	const mit3 = `"variant":"dreihaxer","players":[1,2,3],"dealer":3`
	tests := []struct {
		name  string
		facts string
		field string
	}{
		// Decoding.
		{"empty", ``, "facts"},
		{"not an object", `[1,2]`, "facts"},
		{"trailing data", exampleB + `{}`, "facts"},
		{"unknown field", `{"variant":"vierer","kontra":true}`, "facts.kontra"},
		{"augen not an integer", strings.Replace(exampleB, `"augen":95`, `"augen":"95"`, 1), "facts.augen"},
		{"augen overflow", strings.Replace(exampleB, `"augen":95`, `"augen":99999999999999999999`, 1), "facts.augen"},
		// The table.
		{"no variant", `{"players":[1,2,3,4],"dealer":4}`, "facts.variant"},
		{"unknown variant", `{"variant":"fuenfer","players":[1,2,3,4],"dealer":4}`, "facts.variant"},
		{"three players in a Vierer", `{"variant":"vierer","players":[1,2,3],"dealer":3}`, "facts.players"},
		{"four players in a Dreihaxer", `{"variant":"dreihaxer","players":[1,2,3,4],"dealer":3}`, "facts.players"},
		{"player not seated", strings.Replace(exampleB, `[1,2,3,4]`, `[1,2,9,4]`, 1), "facts.players[2]"},
		{"player twice", strings.Replace(exampleB, `[1,2,3,4]`, `[1,2,3,2]`, 1), "facts.players[3]"},
		{"dealer not seated", strings.Replace(exampleB, `"dealer":1`, `"dealer":7`, 1), "facts.dealer"},
		{"trog in a Vierer", strings.Replace(exampleB, `"dealer":1`, `"dealer":1,"trog":"mit"`, 1), "facts.trog"},
		{"open cards in a Vierer", strings.Replace(exampleB, `"dealer":1`, `"dealer":1,"open_augen":0`, 1), "facts.open_augen"},
		// The bid.
		{"bid 60", keiler("60", 70, 5, lauf), "facts.bid"},
		{"bid 121", keiler("121", 70, 5, lauf), "facts.bid"},
		{"bid fraction", keiler("70.5", 70, 5, lauf), "facts.bid"},
		{"bid exponent", keiler("7e1", 70, 5, lauf), "facts.bid"},
		{"bid word", keiler(`"schwarzz"`, 70, 5, lauf), "facts.bid"},
		{"bid bool", keiler(`true`, 70, 5, lauf), "facts.bid"},
		{"bid object", keiler(`{"augen":70}`, 70, 5, lauf), "facts.bid"},
		// The Spieler and the contract.
		{"no Spieler", strings.Replace(exampleB, `"spieler":2,`, ``, 1), "facts.spieler"},
		{"Spieler not playing", strings.Replace(exampleB, `"spieler":2`, `"spieler":5`, 1), "facts.spieler"},
		{"no contract", solo(`"bid":61`, 70, 5, lauf), "facts.contract"},
		{"unknown contract", solo(`"bid":61,"contract":"wenz"`, 70, 5, lauf), "facts.contract"},
		{"Herz-Sau called", solo(`"bid":61,"contract":"sauerei","called_sau":"herz","mitspieler":3`, 70, 5, lauf), "facts.called_sau"},
		{"no Sau called", solo(`"bid":61,"contract":"sauerei","mitspieler":3`, 70, 5, lauf), "facts.called_sau"},
		{"unknown Sau called", solo(`"bid":61,"contract":"sauerei","called_sau":"pik","mitspieler":3`, 70, 5, lauf), "facts.called_sau"},
		{"no Mitspieler", solo(`"bid":61,"contract":"sauerei","called_sau":"gras"`, 70, 5, lauf), "facts.mitspieler"},
		{"own Mitspieler", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","mitspieler":1`, 70, 5, lauf), "facts.mitspieler"},
		{"Mitspieler not playing", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","mitspieler":5`, 70, 5, lauf), "facts.mitspieler"},
		{"unrein with Mitspieler", solo(`"bid":61,"contract":"sauerei","called_sau":"gras","unrein":true,"mitspieler":3`, 70, 5, lauf), "facts.mitspieler"},
		{"Mitspieler in a solo", solo(`"bid":61,"contract":"eber","mitspieler":3`, 70, 5, lauf), "facts.mitspieler"},
		{"called Sau in a solo", solo(`"bid":61,"contract":"eber","called_sau":"gras"`, 70, 5, lauf), "facts.called_sau"},
		{"unrein solo", solo(`"bid":61,"contract":"eber","unrein":true`, 70, 5, lauf), "facts.unrein"},
		{"Keiler without suit", solo(`"bid":61,"contract":"keiler"`, 70, 5, lauf), "facts.trump_suit"},
		{"Keiler with bad suit", solo(`"bid":61,"contract":"keiler","trump_suit":"pik"`, 70, 5, lauf), "facts.trump_suit"},
		{"trump suit in an Eber", solo(`"bid":61,"contract":"eber","trump_suit":"gras"`, 70, 5, lauf), "facts.trump_suit"},
		{"Knorpel without card", solo(`"bid":61,"contract":"knorpel","knorpel_holder":2`, 70, 5, ""), "facts.knorpel_card"},
		{"Knorpel bad card", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_bube","knorpel_holder":2`, 70, 5, ""), "facts.knorpel_card"},
		{"Knorpel without holder", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_7"`, 70, 5, ""), "facts.knorpel_holder"},
		{"Knorpel held by the Spieler", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_7","knorpel_holder":1`, 70, 5, ""), "facts.knorpel_holder"},
		{"Knorpel holder not playing", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_7","knorpel_holder":5`, 70, 5, ""), "facts.knorpel_holder"},
		{"Knorpel card in a Keiler", solo(`"bid":61,"contract":"keiler","trump_suit":"gras","knorpel_card":"gras_7"`, 70, 5, lauf), "facts.knorpel_card"},
		{"Knorpel holder in a Keiler", solo(`"bid":61,"contract":"keiler","trump_suit":"gras","knorpel_holder":2`, 70, 5, lauf), "facts.knorpel_holder"},
		// Augen and tricks.
		{"no Augen", `{` + vier + `,"bid":61,"spieler":1,"contract":"eber","tricks":5,"laufende":{"holder":1,"count":1}}`, "facts.augen"},
		{"no tricks", `{` + vier + `,"bid":61,"spieler":1,"contract":"eber","augen":70,"laufende":{"holder":1,"count":1}}`, "facts.tricks"},
		{"Augen 121", keiler("61", 121, 8, lauf), "facts.augen"},
		{"Augen negative", keiler("61", -2, 0, lauf), "facts.augen"},
		{"tricks 9", keiler("61", 70, 9, lauf), "facts.tricks"},
		{"tricks negative", keiler("61", 70, -1, lauf), "facts.tricks"},
		{"Augen without a trick", keiler("61", 10, 0, lauf), "facts.augen"},
		{"every trick without every Auge", keiler("61", 100, 8, lauf), "facts.augen"},
		{"exactly 1 Auge", keiler("61", 1, 1, lauf), "facts.augen"},
		{"all but 1 Auge", keiler("61", 119, 7, lauf), "facts.augen"},
		// Laufende.
		{"no Laufende", keiler("61", 70, 5, ""), "facts.laufende"},
		{"Laufende without holder", keiler("61", 70, 5, `{"count":1}`), "facts.laufende.holder"},
		{"Laufende holder not playing", keiler("61", 70, 5, `{"holder":5,"count":1}`), "facts.laufende.holder"},
		{"Laufende 0", keiler("61", 70, 5, `{"holder":1,"count":0}`), "facts.laufende.count"},
		{"Keiler 15 Laufende", keiler("61", 70, 5, `{"holder":2,"count":15}`), "facts.laufende.count"},
		{"solo Spieler 9 Laufende", keiler("61", 70, 5, `{"holder":1,"count":9}`), "facts.laufende.count"},
		{"Eber 5 Laufende", solo(`"bid":61,"contract":"eber"`, 70, 5, `{"holder":2,"count":5}`), "facts.laufende.count"},
		{"Wutz 5 Laufende", solo(`"bid":61,"contract":"wutz"`, 70, 5, `{"holder":2,"count":5}`), "facts.laufende.count"},
		{"Ferkelparade 13 Laufende", solo(`"bid":61,"contract":"ferkelparade"`, 70, 5, `{"holder":2,"count":13}`), "facts.laufende.count"},
		{"Knorpel 2 Laufende", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_7","knorpel_holder":2`, 70, 5, `{"holder":2,"count":2}`), "facts.laufende.count"},
		{"Knorpel Laufende elsewhere", solo(`"bid":61,"contract":"knorpel","knorpel_card":"gras_7","knorpel_holder":2`, 70, 5, `{"holder":3,"count":1}`), "facts.laufende.holder"},
		{"Schwarte Laufende", solo(`"bid":61,"contract":"schwarte"`, 120, 8, `{"holder":1,"count":1}`), "facts.laufende"},
		{"Mastschwein 15 Laufende", solo(`"bid":61,"contract":"mastschwein"`, 0, 0, `{"holder":2,"count":15}`), "facts.laufende.count"},
		// Huftritt, Stallgeruch, Saukopf, Hauer.
		{"11 Huftritte", solo(`"bid":61,"contract":"eber","huftritte":11`, 70, 5, lauf), "facts.huftritte"},
		{"negative Huftritte", solo(`"bid":61,"contract":"eber","huftritte":-1`, 70, 5, lauf), "facts.huftritte"},
		{"Stallgeruch at 74", sauerei("74", 80, 5, lauf, `"stallgeruch":true`), "facts.stallgeruch"},
		{"Stallgeruch in a Keiler", solo(`"bid":80,"contract":"keiler","trump_suit":"gras","stallgeruch":true`, 90, 5, lauf), "facts.stallgeruch"},
		{"Stallgeruch unrein", solo(`"bid":80,"contract":"sauerei","called_sau":"gras","unrein":true,"stallgeruch":true`, 90, 5, lauf), "facts.stallgeruch"},
		{"Saukopf in a Keiler", solo(`"bid":61,"contract":"keiler","trump_suit":"gras","saukopf":{"trumped_by":1,"herz_sau_of":2}`, 70, 5, lauf), "facts.saukopf"},
		{"Hauer in a Keiler", solo(`"bid":61,"contract":"keiler","trump_suit":"gras","hauer":1`, 70, 5, lauf), "facts.hauer"},
		{"Hauer not playing", sauerei("61", 70, 5, lauf, `"hauer":5`), "facts.hauer"},
		{"Saukopf between partners", sauerei("61", 70, 5, lauf, `"saukopf":{"trumped_by":1,"herz_sau_of":3}`), "facts.saukopf"},
		{"Saukopf on own Sau", sauerei("61", 70, 5, lauf, `"saukopf":{"trumped_by":2,"herz_sau_of":2}`), "facts.saukopf.herz_sau_of"},
		{"Saukopf without trumper", sauerei("61", 70, 5, lauf, `"saukopf":{"herz_sau_of":2}`), "facts.saukopf.trumped_by"},
		{"Saukopf without owner", sauerei("61", 70, 5, lauf, `"saukopf":{"trumped_by":2}`), "facts.saukopf.herz_sau_of"},
		{"Saukopf trumper not playing", sauerei("61", 70, 5, lauf, `"saukopf":{"trumped_by":5,"herz_sau_of":2}`), "facts.saukopf.trumped_by"},
		{"Saukopf owner not playing", sauerei("61", 70, 5, lauf, `"saukopf":{"trumped_by":2,"herz_sau_of":5}`), "facts.saukopf.herz_sau_of"},
		{"per_player with a bid", `{` + vier + `,"bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5,"per_player":[]}`, "facts.per_player"},
		// Dreihaxer.
		{"Dreihaxer without bid", `{` + mit3 + `,"trog":"mit"}`, "facts.bid"},
		{"Dreihaxer Sauerei", `{` + mit3 + `,"trog":"mit","bid":61,"spieler":1,"contract":"sauerei","called_sau":"gras","mitspieler":2,"augen":70,"tricks":5}`, "facts.contract"},
		{"Dreihaxer without Trog", `{` + mit3 + `,"bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.trog"},
		{"Dreihaxer bad Trog", `{` + mit3 + `,"trog":"halb","bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.trog"},
		{"ohne Trog without open Augen", `{` + mit3 + `,"trog":"ohne","bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.open_augen"},
		{"open Augen 9", `{` + mit3 + `,"trog":"ohne","open_augen":9,"bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.open_augen"},
		{"open Augen 23", `{` + mit3 + `,"trog":"ohne","open_augen":23,"bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.open_augen"},
		{"open Augen mit Trog", `{` + mit3 + `,"trog":"mit","open_augen":0,"bid":61,"spieler":1,"contract":"eber","augen":70,"tricks":5}`, "facts.open_augen"},
		{"mit Trog without a trick", threeHand(`"trog":"mit"`, "61", 0, 0, lauf), "facts.tricks"},
		{"mit Trog 12 tricks", threeHand(`"trog":"mit"`, "61", 120, 12, lauf), "facts.tricks"},
		{"ohne Trog 11 tricks", threeHand(`"trog":"ohne","open_augen":0`, "61", 120, 11, lauf), "facts.tricks"},
		{"ohne Trog Augen above those in play", threeHand(`"trog":"ohne","open_augen":10`, "61", 111, 9, lauf), "facts.augen"},
		{"ohne Trog all tricks, not all Augen", threeHand(`"trog":"ohne","open_augen":10`, "61", 100, 10, lauf), "facts.augen"},
		{"Trog only, impossible Augen", threeHand(`"trog":"mit"`, "61", 9, 1, lauf), "facts.augen"},
		{"Dreihaxer Spieler 13 Laufende", threeHand(`"trog":"mit"`, "61", 70, 6, `{"holder":1,"count":13}`), "facts.laufende.count"},
		// Wilde Sauerei.
		{"wild Huftritt", wild(`"huftritte":1,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.huftritte"},
		{"wild Stallgeruch", wild(`"stallgeruch":true,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.stallgeruch"},
		{"wild contract", wild(`"contract":"sauerei","laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.contract"},
		{"wild Spieler", wild(`"spieler":1,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.spieler"},
		{"wild am Spieß", wild(`"am_spiess":true,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.am_spiess"},
		{"wild party Augen", wild(`"augen":65,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.augen"},
		{"wild three takes", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:45/3", "3:20/2"), "facts.per_player"},
		{"wild no takes", `{` + vier + `,"laufende":{"holder":1,"count":1}}`, "facts.per_player"},
		{"wild Augen sum", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:10/2"), "facts.per_player[].augen"},
		{"wild tricks sum", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/1"), "facts.per_player[].tricks"},
		{"wild player twice", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "2:10/1", "4:20/2"), "facts.per_player[2].player"},
		{"wild player not playing", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "5:10/1", "4:20/2"), "facts.per_player[2].player"},
		{"wild 121 Augen", wild(`"laufende":{"holder":1,"count":1}`, "1:121/3", "2:0/2", "3:0/1", "4:0/2"), "facts.per_player[0].augen"},
		{"wild 9 tricks", wild(`"laufende":{"holder":1,"count":1}`, "1:55/9", "2:35/0", "3:10/0", "4:20/0"), "facts.per_player[0].tricks"},
		{"wild Augen without a trick", wild(`"laufende":{"holder":1,"count":1}`, "1:55/4", "2:35/2", "3:10/0", "4:20/2"), "facts.per_player[2].augen"},
		{"wild 1 Auge", wild(`"laufende":{"holder":1,"count":1}`, "1:55/3", "2:44/2", "3:1/1", "4:20/2"), "facts.per_player[2].augen"},
		{"wild missing Augen", `{` + vier + `,"per_player":[{"player":1,"tricks":8},{"player":2,"augen":0,"tricks":0},{"player":3,"augen":0,"tricks":0},{"player":4,"augen":0,"tricks":0}],"laufende":{"holder":1,"count":1}}`, "facts.per_player[0].augen"},
		{"wild missing tricks", `{` + vier + `,"per_player":[{"player":1,"augen":120},{"player":2,"augen":0,"tricks":0},{"player":3,"augen":0,"tricks":0},{"player":4,"augen":0,"tricks":0}],"laufende":{"holder":1,"count":1}}`, "facts.per_player[0].tricks"},
		{"wild no Laufende", wild(``, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.laufende"},
		{"wild Saukopf between partners", wild(`"laufende":{"holder":1,"count":1},"saukopf":{"trumped_by":1,"herz_sau_of":3}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.saukopf"},
		{"wild 15 Laufende", wild(`"laufende":{"holder":1,"count":15}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"), "facts.laufende.count"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scoreWith(t, tc.facts, "")
			gamestest.WantViolation(t, err, tc.field)
		})
	}
}

// TestValidBoundaries accepts the edges the validator must not refuse.
func TestValidBoundaries(t *testing.T) {
	for name, facts := range map[string]string{
		"bid 120":                 keiler("120", 120, 7, `{"holder":1,"count":1}`),
		"Wutz 4 Laufende":         solo(`"bid":61,"contract":"wutz"`, 70, 5, `{"holder":2,"count":4}`),
		"Ferkelparade 12":         solo(`"bid":61,"contract":"ferkelparade"`, 70, 5, `{"holder":2,"count":12}`),
		"solo Spieler 8":          keiler("61", 120, 8, `{"holder":1,"count":8}`),
		"10 Huftritte":            solo(`"bid":61,"contract":"eber","huftritte":10`, 70, 5, `{"holder":1,"count":4}`),
		"Stallgeruch at 75":       sauerei("75", 80, 5, `{"holder":1,"count":1}`, `"stallgeruch":true`),
		"Dreihaxer Spieler 12":    threeHand(`"trog":"mit"`, "61", 120, 11, `{"holder":1,"count":12}`),
		"open Augen 22":           threeHand(`"trog":"ohne","open_augen":22`, "61", 98, 10, `{"holder":1,"count":1}`),
		"Trog only 22 Augen":      threeHand(`"trog":"mit"`, "61", 22, 1, `{"holder":2,"count":1}`),
		"bid null is wild":        wild(`"bid":null,"laufende":{"holder":1,"count":1}`, "1:55/3", "2:35/2", "3:10/1", "4:20/2"),
		"dealer sits out":         strings.Replace(exampleB, `"dealer":1`, `"dealer":5`, 1),
		"Mastschwein no Laufende": solo(`"bid":61,"contract":"mastschwein"`, 0, 0, ""),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := scoreWith(t, facts, ""); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}

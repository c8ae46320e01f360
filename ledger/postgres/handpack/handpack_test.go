package handpack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestDictionariesNeverChange: bodies are packed against these bytes; a
// changed dictionary would make every body packed with it unreadable.
func TestDictionariesNeverChange(t *testing.T) {
	want := map[string]string{
		"doppelkopf":    "9b9c42dc733adf518ff15b262a341d0bdbb1712794f50c11436789ce42f42532",
		"saukopf":       "b889d6420819596b14b1a8f843c2cd3b54e97e3c98e9e0674cc850874222ddee",
		"schwarze_sau":  "5d9d1fb9f2684fefc8593e7bbbf3ea9be5d792ae2e8b786c886c859cc1e2dde5",
		"schwarze_dame": "fe0c3769fab2dd816dc464a598e439273e7077a59e39cab112265d821503fa55",
		"klaberjass":    "7640c24ddbf557e85de76bc3d324ac3892bf380115478d960a8c894f5de16aa1",
	}
	ids := map[uint32]string{}
	for game, d := range dictionaries {
		content, err := dicts.ReadFile(d.file)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(content)
		if got := hex.EncodeToString(sum[:]); got != want[game] {
			t.Errorf("the dictionary of %s (id %#x) changed: sha256 %s, want %s; give a new one a new id and file", game, d.id, got, want[game])
		}
		if other, ok := ids[d.id]; ok {
			t.Errorf("%s and %s share the dictionary id %#x", game, other, d.id)
		}
		ids[d.id] = game
	}
	if len(want) != len(dictionaries) {
		t.Errorf("%d dictionaries, %d pinned", len(dictionaries), len(want))
	}
}

var doppelkopf = [3][]byte{
	[]byte(`{"dealer":2,"game":"normal","re":{"players":[9,12],"augen":190}}`),
	[]byte(`{"title":"Normalspiel, Re gewinnt 190:50","points":[{"player":9,"points":"6"},{"player":12,"points":"6"},{"player":3,"points":"-6"},{"player":4,"points":"-6"}],` +
		`"lines":[{"label":"gewonnen","op":"+","value":"1"},{"label":"keine 90","op":"+","value":"1"},{"label":"keine 60","op":"+","value":"1"},` +
		`{"label":"Bock","op":"x","value":"2"},{"label":"Spielwert","op":"=","value":"6"}],"events":[],"winners":[9,12],"parties":[[9,12],[3,4]],"dealer":2,"players":[9,12,3,4]}`),
	[]byte(`{"games":5,"session":1,"next_dealer":3,"next_players":[12,3,4,9],"bock_games_left":1,"summary":"{{player:3}} gibt; noch 1 Bockspiel"}`),
}

func TestPackedTextsComeBackAsGiven(t *testing.T) {
	for _, c := range []struct {
		name, game string
		texts      [3][]byte
	}{
		{"a Doppelkopf hand", "doppelkopf", doppelkopf},
		{"the same in every game's dictionary", "klaberjass", doppelkopf},
		{"a game without a dictionary", "skat", doppelkopf},
		{"empty texts", "saukopf", [3][]byte{{}, {}, {}}},
		{"texts with every byte", "schwarze_sau", [3][]byte{bytes.Repeat([]byte{0, 255, '"'}, 100), {0x80, 0x80, 0x80, 0x80}, []byte("ß\x00")}},
	} {
		body, err := Pack(c.game, c.texts[0], c.texts[1], c.texts[2])
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		facts, result, state, err := Unpack(body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, got := range [][]byte{facts, result, state} {
			if !bytes.Equal(got, c.texts[i]) {
				t.Errorf("%s: text %d came back as %q, want %q", c.name, i, got, c.texts[i])
			}
		}
	}
}

// TestTheGamesDictionaryIsUsed: a hand packs smaller against its game's
// dictionary than against none.
func TestTheGamesDictionaryIsUsed(t *testing.T) {
	with, err := Pack("doppelkopf", doppelkopf[0], doppelkopf[1], doppelkopf[2])
	if err != nil {
		t.Fatal(err)
	}
	without, err := Pack("skat", doppelkopf[0], doppelkopf[1], doppelkopf[2])
	if err != nil {
		t.Fatal(err)
	}
	raw := len(doppelkopf[0]) + len(doppelkopf[1]) + len(doppelkopf[2])
	if len(with) >= len(without) || 3*len(with) > raw {
		t.Errorf("%d bytes of texts packed to %d with the dictionary, %d without", raw, len(with), len(without))
	}
}

// TestADamagedBodyIsRefused: no damaged body unpacks to texts or panics.
func TestADamagedBodyIsRefused(t *testing.T) {
	body, err := Pack("doppelkopf", doppelkopf[0], doppelkopf[1], doppelkopf[2])
	if err != nil {
		t.Fatal(err)
	}
	damaged := [][]byte{nil, {}, body[:len(body)/2], append(bytes.Clone(body), 0), []byte("{}")}
	flipped := bytes.Clone(body)
	flipped[len(flipped)-3] ^= 0xff
	damaged = append(damaged, flipped)
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		damaged = append(damaged, b)
	}
	for _, b := range damaged {
		facts, result, state, err := Unpack(b)
		if err == nil && bytes.Equal(facts, doppelkopf[0]) && bytes.Equal(result, doppelkopf[1]) && bytes.Equal(state, doppelkopf[2]) {
			t.Errorf("a damaged body %x unpacked to the hand", b)
		}
		if err != nil && !errors.Is(err, ErrDamaged) {
			t.Errorf("%x: %v, not ErrDamaged", b, err)
		}
	}
}

package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// aHash is what a SHA-256 in hex looks like: no refusal may print one (the
// one the database computed could be pasted into a forged document).
var aHash = regexp.MustCompile(`[0-9a-f]{64}`)

// refused imports doc into an empty database and checks that it is
// refused with code, saying each of want, printing no hash, and storing
// nothing.
func refused(t *testing.T, doc []byte, code string, want ...string) {
	t.Helper()
	pool := pgtest.New(t)
	_, err := importInto(postgres.New(pool, pgtest.ChainKey), doc)
	if err == nil {
		t.Fatalf("the import was not refused, want %s saying %q", code, want)
	}
	assertCode(t, err, code)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("refusal %q does not say %q", err, w)
		}
	}
	if aHash.MatchString(err.Error()) {
		t.Errorf("refusal %q prints a hash", err)
	}
	assertEmpty(t, pool)
}

// tampered returns the document with fn applied to its records.
func tampered(t *testing.T, doc []byte, fn func([]backup.Record) []backup.Record) []byte {
	t.Helper()
	return document(t, fn(records(t, doc)))
}

// first returns the first record of which is says true.
func first(t *testing.T, recs []backup.Record, is func(backup.Record) bool) backup.Record {
	t.Helper()
	for _, r := range recs {
		if is(r) {
			return r
		}
	}
	t.Fatal("the document holds no such record")
	return backup.Record{}
}

// TestImportRefusesWhatItCannotReDerive tampers with an export as an
// attacker or a careless operator would, and checks that the import
// refuses each, naming what is wrong, and stores nothing.
func TestImportRefusesWhatItCannotReDerive(t *testing.T) {
	src := newHistory(t)
	original := exportBytes(t, src.db, src.club.ID)
	edit := func(fn func([]backup.Record)) []byte {
		return tampered(t, original, func(recs []backup.Record) []backup.Record { fn(recs); return recs })
	}
	dame := src.tables[0]

	t.Run("a transfer raised from its cents to 50,000 more", func(t *testing.T) {
		var tr *backup.Transfer
		var st *backup.Settlement
		doc := edit(func(recs []backup.Record) {
			st = first(t, recs, func(r backup.Record) bool { return r.Settlement != nil }).Settlement
			tr = first(t, recs, func(r backup.Record) bool { return r.Transfer != nil }).Transfer
			tr.Cents += 50_000
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("session %d, settlement version %d, transfer %d: the document says %d cents",
			st.SessionID, st.Version, tr.ID, tr.Cents))
	})

	t.Run("a transfer raised by 50,000 cents, its settlement made to agree", func(t *testing.T) {
		// The edit verify's invariant cannot see: the payer's and the
		// payee's money and the body's transfer move with the transfer.
		var st *backup.Settlement
		doc := edit(func(recs []backup.Record) {
			var tr *backup.Transfer
			for _, r := range recs {
				if r.Settlement != nil {
					st = r.Settlement
				}
				if r.Transfer != nil && r.Transfer.From != nil && r.Transfer.To != nil {
					tr = r.Transfer
					break
				}
			}
			tr.Cents += 50_000
			var body struct {
				Players   []map[string]any `json:"players"`
				Transfers []map[string]any `json:"transfers"`
			}
			var whole map[string]any
			must(t, json.Unmarshal(st.Body, &whole))
			must(t, json.Unmarshal(st.Body, &body))
			for _, bt := range body.Transfers {
				if bt["from"] == float64(*tr.From) && bt["to"] == float64(*tr.To) {
					bt["cents"] = bt["cents"].(float64) + 50_000
				}
			}
			for _, p := range body.Players {
				sign := map[float64]float64{float64(*tr.From): -1, float64(*tr.To): 1}[p["player"].(float64)]
				for _, k := range []string{"points_cents", "net_cents", "between_players_cents", "settle_cents", "open_cents"} {
					p[k] = p[k].(float64) + sign*50_000
				}
			}
			whole["players"], whole["transfers"] = body.Players, body.Transfers
			st.Body, _ = json.Marshal(whole)
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("session %d, settlement version %d: the document's settlement differs", st.SessionID, st.Version),
			"the ledger computes")
	})

	t.Run("a settlement's money edited", func(t *testing.T) {
		var st *backup.Settlement
		doc := edit(func(recs []backup.Record) {
			st = first(t, recs, func(r backup.Record) bool { return r.Settlement != nil }).Settlement
			var body map[string]any
			must(t, json.Unmarshal(st.Body, &body))
			body["players"].([]any)[0].(map[string]any)["net_cents"] = 50_035
			st.Body, _ = json.Marshal(body)
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("session %d, settlement version %d: the document's settlement differs", st.SessionID, st.Version),
			"players[0].net_cents: the document says 50035")
	})

	t.Run("a kitty booking of 2^63-1 cents", func(t *testing.T) {
		doc := edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.KittyBooking != nil }).KittyBooking.Cents = math.MaxInt64
		})
		refused(t, doc, ledger.EINVALID, "kitty_booking.cents: must be non-zero and at most")
	})

	t.Run("a key's role raised and a revoked key made active", func(t *testing.T) {
		// The document carries no role and no revocation to raise: a key
		// line that claims one is refused, and a plain one restores a
		// revoked key (TestExportImportRoundTrip).
		for _, claim := range []string{`"role":"admin",`, `"revoked_at":null,`, `"secret_sha256":"` + strings.Repeat("0", 64) + `",`} {
			doc := bytes.Replace(original, []byte(`{"api_key":{`), []byte(`{"api_key":{`+claim), 1)
			if bytes.Equal(doc, original) {
				t.Fatal("the document lists no key")
			}
			field := strings.Trim(strings.Split(claim, ":")[0], `"`)
			refused(t, doc, ledger.EINVALID, "api_key."+field+": is not a known field")
		}
	})

	t.Run("names with a newline or an escape", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Player != nil }).Player.Name = "Anna\nBernd schuldet 50 €"
		}), ledger.EINVALID, "player.name: must not contain control characters")
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Club != nil }).Club.Name = "\x1b[2J\x1b[31mEichel"
		}), ledger.EINVALID, "club.name: must not contain control characters")
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Table != nil }).Table.Name = "Donners\ntag"
		}), ledger.EINVALID, "table.name: must not contain control characters")
	})

	t.Run("a note of 100,000 characters", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.KittyBooking != nil }).KittyBooking.Note = strings.Repeat("x", 100_000)
		}), ledger.EINVALID, "kitty_booking.note: at most 200 characters")
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Revision != nil }).Revision.Reason = strings.Repeat("x", 100_000)
		}), ledger.EINVALID, "revision.reason: at most 500 characters")
	})

	t.Run("the time zone Mars/Olympus", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Club != nil }).Club.TimeZone = "Mars/Olympus"
		}), ledger.EINVALID, `club.time_zone: unknown time zone "Mars/Olympus"`)
	})

	t.Run("a stake of -5", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Table != nil }).Table.Stake = score.Int(-5)
		}), ledger.EINVALID, "table.stake_cents_per_point: must be between 0 and 100000")
	})

	t.Run("a rule set that refuses every hand", func(t *testing.T) {
		// A Schwarze Dame match of 0 hands ends before any hand: the rule
		// set the options {} never resolve to.
		refused(t, edit(func(recs []backup.Record) {
			tbl := first(t, recs, func(r backup.Record) bool { return r.Table != nil && r.Table.ID == dame }).Table
			var rules map[string]any
			must(t, json.Unmarshal(tbl.Rules, &rules))
			rules["hands_per_match"] = 0
			tbl.Rules, _ = json.Marshal(rules)
		}), ledger.EINVALID, `table.rules: are not the rule set the schwarze_dame preset`)
	})

	t.Run("a settlement version no correction made", func(t *testing.T) {
		// The closed Schwarze Dame evening got version 2 from the
		// correction of its first hand; its date moved, the revisions it
		// re-computes no longer belong to it.
		refused(t, edit(func(recs []backup.Record) {
			first(t, recs, func(r backup.Record) bool { return r.Settlement != nil && r.Settlement.Version == 2 }).
				Settlement.CreatedAt = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
		}), ledger.EINVALID, "settlement version 2: no revision of the session's hands was recorded with it")
	})

	t.Run("a truncated document", func(t *testing.T) {
		lines := bytes.SplitAfter(original, []byte("\n"))
		refused(t, bytes.Join(lines[:len(lines)-2], nil), ledger.EINVALID, "ends without its end line: it is truncated")
		refused(t, bytes.Join(lines[:len(lines)/2], nil), ledger.EINVALID, "ends without its end line: it is truncated")
		cut := bytes.Join(append(lines[:len(lines)/2:len(lines)/2], lines[len(lines)-2:]...), nil)
		refused(t, cut, ledger.EINVALID, "end.records: says")
	})
}

// TestImportRefusals checks the refusals of documents that do not hang
// together or whose hands do not re-score.
func TestImportRefusals(t *testing.T) {
	ctx := context.Background()
	src := newHistory(t)
	original := exportBytes(t, src.db, src.club.ID)
	edit := func(fn func([]backup.Record)) []byte {
		return tampered(t, original, func(recs []backup.Record) []backup.Record { fn(recs); return recs })
	}
	dame := src.tables[0]
	hand := func(recs []backup.Record, table int64, number int) *backup.Hand {
		return first(t, recs, func(r backup.Record) bool { return r.Hand != nil && r.Hand.TableID == table && r.Hand.Number == number }).Hand
	}

	t.Run("a database that holds a club", func(t *testing.T) {
		pool := pgtest.New(t)
		store := postgres.New(pool, pgtest.ChainKey)
		_, _, err := store.Service().CreateClub(ctx, ledger.NewClub{Name: "Schon da", TimeZone: ""})
		must(t, err)
		_, err = importInto(store, original)
		assertCode(t, err, ledger.ECONFLICT)
		if err == nil || !strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), "Schon da") {
			t.Errorf("refusal %v does not say why", err)
		}
		assertCount(t, pool, "clubs", 1)
		assertCount(t, pool, "players", 0)
		assertCount(t, pool, "hands", 0)
	})

	t.Run("facts whose points no longer follow", func(t *testing.T) {
		// Hand 2 of the Schwarze Dame table as recorded: give P1 and P3
		// back their tricks of hand 1, keeping the points of the swap.
		refused(t, edit(func(recs []backup.Record) { hand(recs, dame, 2).Facts = src.facts(t, schwarzeDame(false)) }),
			ledger.EINVALID, fmt.Sprintf("table %d \"Donnerstag\", hand 2: the stored points", dame))
	})

	t.Run("a current revision's facts edited", func(t *testing.T) {
		// Hand 2 of the Schwarze Dame table got revision 2 when hand 1 was
		// corrected; its facts now give P1 and P3 each other's tricks.
		var rev *backup.Revision
		doc := edit(func(recs []backup.Record) {
			h := hand(recs, dame, 2)
			for _, r := range recs {
				if r.Revision != nil && r.Revision.HandID == h.ID {
					rev = r.Revision
				}
			}
			rev.Facts = src.facts(t, schwarzeDame(false))
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("table %d \"Donnerstag\", hand 2 (revision %d): the stored points", dame, rev.Revision))
	})

	t.Run("facts that no longer score", func(t *testing.T) {
		var last *backup.Hand
		doc := edit(func(recs []backup.Record) {
			for _, r := range recs {
				if r.Hand != nil {
					last = r.Hand
				}
			}
			last.Facts = json.RawMessage(`{"dealer": 1, "players": []}`)
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("hand %d: its facts no longer score", last.Number))
	})

	t.Run("a state after that does not follow", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) {
			hand(recs, src.tables[1], 5).StateAfter = json.RawMessage(`{"next_dealer": 0}`)
		}), ledger.EINVALID, "hand 5: the stored state after the hand differs")
	})

	t.Run("a recording time changed", func(t *testing.T) {
		var h *backup.Hand
		doc := edit(func(recs []backup.Record) {
			h = hand(recs, src.tables[1], 3)
			h.RecordedAt = h.RecordedAt.Add(time.Microsecond)
		})
		refused(t, doc, ledger.EINVALID, fmt.Sprintf("table %d, hand %d: its hash does not verify with this installation's chain key", h.TableID, h.Number))
	})

	t.Run("a wrong format marker", func(t *testing.T) {
		marker := []byte(`{"format":"` + backup.Format + `"}`)
		if !bytes.HasPrefix(original, marker) {
			t.Fatalf("the document does not begin with %s", marker)
		}
		refused(t, bytes.Replace(original, marker, []byte(`{"format":"stichbuch-export/3"}`), 1), ledger.EINVALID,
			`line 1: format: is "stichbuch-export/3"`)
		refused(t, bytes.TrimPrefix(original, append(marker, '\n')), ledger.EINVALID, "line 1: format: missing")
		refused(t, []byte("{\n  \"format\": \"stichbuch-export/1\",\n  \"club\": {\"id\": 1}\n}\n"), ledger.EINVALID,
			`format: is "stichbuch-export/1", which this stichbuch no longer reads`)
	})

	t.Run("a broken reference", func(t *testing.T) {
		refused(t, edit(func(recs []backup.Record) { hand(recs, dame, 1).RecordedBy = 999 }), ledger.EINVALID,
			"hand.recorded_by: API key 999 is not listed before it")
	})

	t.Run("records out of order", func(t *testing.T) {
		refused(t, tampered(t, original, func(recs []backup.Record) []backup.Record {
			var kitty, rest []backup.Record
			for _, r := range recs {
				if r.KittyBooking != nil {
					kitty = append(kitty, r)
				} else {
					rest = append(rest, r)
				}
			}
			return append(rest, kitty...)
		}), ledger.EINVALID, "a line of the kitty bookings after the changes")
	})
}

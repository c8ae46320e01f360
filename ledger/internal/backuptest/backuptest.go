// Package backuptest holds what the tests of the backup and of its import
// into a store share: documents sealed with an installation's chain key.
// Only tests import it.
package backuptest

import (
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// Seal gives the hands and revisions of recs the hashes key chains them
// with, as the installation that holds key writes them.
func Seal(t testing.TB, recs []backup.Record, key chain.Key) {
	t.Helper()
	var club int64
	games := map[int64]string{}
	rules := map[int64]json.RawMessage{}
	heads := map[int64][]byte{}
	var hand *backup.Hand
	var head []byte
	for _, r := range recs {
		switch {
		case r.Club != nil:
			club = r.Club.ID
		case r.Table != nil:
			games[r.Table.ID] = r.Table.Game
		case r.Session != nil:
			rules[r.Session.ID] = r.Session.Terms.Rules
		case r.Hand != nil:
			h := r.Hand
			sum, err := key.Hand(chain.HandContent{ClubID: club, TableID: h.TableID, SessionID: h.SessionID, Number: h.Number,
				Game: games[h.TableID], Rules: rules[h.SessionID], Facts: h.Facts, Result: h.Result, StateAfter: h.StateAfter,
				RecordedBy: h.RecordedBy, RecordedAt: h.RecordedAt}, heads[h.TableID])
			if err != nil {
				t.Fatal(err)
			}
			h.Hash, h.ChainKey = hex.EncodeToString(sum), key.IDHex()
			heads[h.TableID], hand, head = sum, h, sum
		case r.Revision != nil:
			v := r.Revision
			sum, err := key.Revision(chain.RevisionContent{ClubID: club, HandID: hand.ID, TableID: hand.TableID, Number: hand.Number,
				Revision: v.Revision, Facts: v.Facts, Result: v.Result, StateAfter: v.StateAfter, Void: v.Void, Reason: v.Reason,
				CausedBy: v.CausedBy, RecordedBy: v.RecordedBy, RecordedAt: v.RecordedAt}, head)
			if err != nil {
				t.Fatal(err)
			}
			v.Hash, v.ChainKey, head = hex.EncodeToString(sum), key.IDHex(), sum
		}
	}
}

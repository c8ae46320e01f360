package backup

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// Link is a hand's or a revision's place in the chain as the store
// inserts it: the hash it chains to, its own, and the id of the key that
// made it (see ledger/chain).
type Link struct {
	Prev, Hash, Key []byte
}

// heads are the previous hash of a chain as the document has it and as the
// store gets it; they differ once a row was chained anew.
type heads struct {
	doc, db []byte
}

// chainHand checks the chain of a hand and its revisions against the
// installation's key and returns their links. A hash of this installation's
// key must verify; one of another key or of the trigger era (no key) is
// refused unless the import is foreign, which chains it anew, as it does
// every later row of a table once one was chained anew. A refusal names
// the hand and never a hash this installation would accept.
func (im *importer) chainHand(hr *handRun, game string, s Session) (Link, []Link, error) {
	h := hr.h
	c := chain.HandContent{ClubID: im.club.ID, TableID: h.TableID, SessionID: h.SessionID, Number: h.Number, Game: game,
		Rules: s.Terms.Rules, Facts: h.Facts, Result: h.Result, StateAfter: h.StateAfter, RecordedBy: h.RecordedBy, RecordedAt: h.RecordedAt}
	what := fmt.Sprintf("table %d, hand %d", h.TableID, h.Number)
	hand, err := im.link(what, h.Hash, h.ChainKey, &im.table.chain, func(prev []byte) ([]byte, error) { return im.chainKey.Hand(c, prev) })
	if err != nil {
		return Link{}, nil, err
	}
	revs := make([]Link, len(hr.revs))
	head := heads{doc: im.table.chain.doc, db: hand.Hash}
	for i, r := range hr.revs {
		rc := chain.RevisionContent{ClubID: im.club.ID, HandID: h.ID, TableID: h.TableID, Number: h.Number, Revision: r.Revision,
			Facts: r.Facts, Result: r.Result, StateAfter: r.StateAfter, Void: r.Void, Reason: r.Reason, CausedBy: r.CausedBy,
			RecordedBy: r.RecordedBy, RecordedAt: r.RecordedAt}
		what := fmt.Sprintf("table %d, hand %d, revision %d", h.TableID, h.Number, r.Revision)
		if revs[i], err = im.link(what, r.Hash, r.ChainKey, &head, func(prev []byte) ([]byte, error) { return im.chainKey.Revision(rc, prev) }); err != nil {
			return Link{}, nil, err
		}
	}
	return hand, revs, nil
}

// link checks one row's hash (hex, checked to be 32 bytes) made with the
// key of id keyID (hex, "" for none) and chained to h, and moves h on.
func (im *importer) link(what, hashHex, keyID string, h *heads, mac func(prev []byte) ([]byte, error)) (Link, error) {
	hash, _ := hex.DecodeString(hashHex)
	own := im.chainKey.Valid() && keyID == im.chainKey.IDHex()
	if own {
		want, err := mac(h.doc)
		if err != nil {
			return Link{}, ledger.Errorf(ledger.EINVALID, "%s: %v", what, err)
		}
		if !chain.Equal(want, hash) {
			return Link{}, ledger.Errorf(ledger.EINVALID,
				"%s: its hash does not verify with this installation's chain key: its content, its recording time or an earlier hand or revision was changed", what)
		}
	} else if !im.foreign {
		return Link{}, foreignRefusal(what, keyID, im.chainKey)
	}
	l := Link{Prev: h.db, Hash: hash, Key: im.chainKey.ID()}
	if !own || !bytes.Equal(h.doc, h.db) {
		var err error
		if l.Hash, err = mac(h.db); err != nil {
			return Link{}, ledger.Errorf(ledger.EINVALID, "%s: %v", what, err)
		}
		im.rekeyed++
	}
	h.doc, h.db = hash, l.Hash
	return l, nil
}

// foreignRefusal says why a hash this installation cannot check is
// refused, and what the operator may do.
func foreignRefusal(what, keyID string, own chain.Key) error {
	const flag = "if you trust the document, import it with --foreign: its hands and revisions are then chained anew with this installation's key"
	if keyID == "" {
		return ledger.Errorf(ledger.EINVALID,
			"%s: its hash is an unkeyed SHA-256 (recorded before keyed chains), which no installation can check; %s", what, flag)
	}
	return ledger.Errorf(ledger.EINVALID,
		"%s: its hash was made with the chain key %s of another installation (this one's is %s), which this one cannot check; "+
			"import it where that key is, or, %s", what, keyID, own.IDHex(), flag)
}

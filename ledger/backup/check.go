package backup

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/stichbuch/stichbuch/ledger"
)

// Check refuses a document that does not hang together: a wrong format
// marker, duplicate ids, a reference to something not in the document,
// hands out of table order or with a gap, a table whose hand count
// disagrees with its hands.
func (d *Document) Check() error {
	if d.Format != Format {
		return ledger.Invalid("format", "is %q; this stichbuch reads %q only", d.Format, Format)
	}
	if d.Club.ID <= 0 || d.Club.Name == "" {
		return ledger.Invalid("club", "needs an id and a name")
	}
	c := &checker{
		d:           d,
		keys:        map[int64]bool{},
		players:     map[int64]bool{},
		tables:      map[int64]Table{},
		sessions:    map[int64]Session{},
		hands:       map[int64]int{},
		settlements: map[int64]Settlement{},
	}
	// Each section is checked after the ones it refers to.
	for _, section := range []func() error{
		c.checkKeys, c.checkPlayers, c.checkTables, c.checkSessions, c.checkHands,
		c.checkSettlements, c.checkTransfers, c.checkKittyBookings, c.checkChanges, c.checkTournaments,
	} {
		if err := section(); err != nil {
			return err
		}
	}
	return nil
}

// checker checks a document section by section, remembering what each
// section holds for the references of the sections after it.
type checker struct {
	d           *Document
	keys        map[int64]bool
	players     map[int64]bool
	tables      map[int64]Table
	sessions    map[int64]Session
	hands       map[int64]int // per table, how many hands the document holds
	settlements map[int64]Settlement
}

// key refuses a reference to an API key not in the document.
func (c *checker) key(field string, id int64) error {
	if !c.keys[id] {
		return ledger.Invalid(field, "API key %d is not in the document", id)
	}
	return nil
}

// player refuses a reference to a player not in the document; nil refers
// to no one.
func (c *checker) player(field string, id *int64) error {
	if id != nil && !c.players[*id] {
		return ledger.Invalid(field, "player %d is not in the document", *id)
	}
	return nil
}

func (c *checker) checkKeys() error {
	for i, k := range c.d.APIKeys {
		f := fmt.Sprintf("api_keys[%d]", i)
		if k.ID <= 0 || c.keys[k.ID] {
			return ledger.Invalid(f+".id", "key id %d is not positive or listed twice", k.ID)
		}
		c.keys[k.ID] = true
		if !k.Role.Valid() {
			return ledger.Invalid(f+".role", "must be admin, scorer or reader, got %q", k.Role)
		}
		if !isSHA256(k.SecretSHA256) {
			return ledger.Invalid(f+".secret_sha256", "must be a SHA-256 in hex (64 digits)")
		}
	}
	return nil
}

func (c *checker) checkPlayers() error {
	for i, p := range c.d.Players {
		if p.ID <= 0 || c.players[p.ID] {
			return ledger.Invalid(fmt.Sprintf("players[%d].id", i), "player id %d is not positive or listed twice", p.ID)
		}
		c.players[p.ID] = true
	}
	return nil
}

func (c *checker) checkTables() error {
	for i, t := range c.d.Tables {
		f := fmt.Sprintf("tables[%d]", i)
		if _, dup := c.tables[t.ID]; t.ID <= 0 || dup {
			return ledger.Invalid(f+".id", "table id %d is not positive or listed twice", t.ID)
		}
		c.tables[t.ID] = t
		if _, err := ledger.Engine(f+".game", t.Game); err != nil {
			return err
		}
		if err := checkJSONValues(f, "options", t.Options, "rules", t.Rules, "state", t.State); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) checkSessions() error {
	for i, s := range c.d.Sessions {
		f := fmt.Sprintf("sessions[%d]", i)
		if _, dup := c.sessions[s.ID]; s.ID <= 0 || dup {
			return ledger.Invalid(f+".id", "session id %d is not positive or listed twice", s.ID)
		}
		c.sessions[s.ID] = s
		if _, ok := c.tables[s.TableID]; !ok {
			return ledger.Invalid(f+".table_id", "table %d is not in the document", s.TableID)
		}
		if _, err := ledger.ParseDate(f+".date", s.Date); err != nil {
			return err
		}
		if err := ledger.CheckSeating(f+".seating", s.Seating); err != nil {
			return err
		}
		for j, id := range s.Seating {
			if err := c.player(fmt.Sprintf("%s.seating[%d]", f, j), &id); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkHands checks the hands, their revisions, and that every table's
// hand count is the number of its hands.
func (c *checker) checkHands() error {
	ids := map[int64]bool{}
	revisions := map[int64]bool{}
	var last Hand
	for i, h := range c.d.Hands {
		f := fmt.Sprintf("hands[%d]", i)
		if h.ID <= 0 || ids[h.ID] {
			return ledger.Invalid(f+".id", "hand id %d is not positive or listed twice", h.ID)
		}
		ids[h.ID] = true
		t, ok := c.tables[h.TableID]
		if !ok {
			return ledger.Invalid(f+".table_id", "table %d is not in the document", h.TableID)
		}
		if i > 0 && h.TableID < last.TableID {
			return ledger.Invalid(f, "hands must be listed by table and number: table %d hand %d follows table %d", h.TableID, h.Number, last.TableID)
		}
		if h.Number != c.hands[h.TableID]+1 {
			return ledger.Invalid(f+".number", "table %d: hand %d where hand %d is due (hands are listed in order, numbered 1, 2, 3 … without a gap)", h.TableID, h.Number, c.hands[h.TableID]+1)
		}
		c.hands[h.TableID]++
		last = h
		if s, ok := c.sessions[h.SessionID]; !ok || s.TableID != h.TableID {
			return ledger.Invalid(f+".session_id", "session %d is not a session of table %d in the document", h.SessionID, h.TableID)
		}
		if h.Game != t.Game {
			return ledger.Invalid(f+".game", "is %q, the table plays %q", h.Game, t.Game)
		}
		if err := c.key(f+".recorded_by", h.RecordedBy); err != nil {
			return err
		}
		if !isSHA256(h.Hash) {
			return ledger.Invalid(f+".hash", "must be a SHA-256 in hex (64 digits)")
		}
		if err := checkJSONValues(f, "rules", h.Rules, "facts", h.Facts, "result", h.Result, "state_after", h.StateAfter); err != nil {
			return err
		}
		if err := c.checkRevisions(f, h, revisions); err != nil {
			return err
		}
	}
	for i, t := range c.d.Tables {
		if t.Hands != c.hands[t.ID] {
			return ledger.Invalid(fmt.Sprintf("tables[%d].hands", i), "table %d says %d hands, the document holds %d", t.ID, t.Hands, c.hands[t.ID])
		}
	}
	return nil
}

// checkRevisions checks the revisions of hand h at field f; seen holds the
// revision ids of the hands before it.
func (c *checker) checkRevisions(f string, h Hand, seen map[int64]bool) error {
	for j, r := range h.Revisions {
		rf := fmt.Sprintf("%s.revisions[%d]", f, j)
		if r.ID <= 0 || seen[r.ID] {
			return ledger.Invalid(rf+".id", "revision id %d is not positive or listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Revision != j+2 {
			return ledger.Invalid(rf+".revision", "is %d where revision %d is due (revisions are listed in order from 2)", r.Revision, j+2)
		}
		if r.CausedBy < 1 || r.CausedBy > h.Number {
			return ledger.Invalid(rf+".caused_by", "hand %d cannot have been changed by correcting hand %d", h.Number, r.CausedBy)
		}
		if err := c.key(rf+".recorded_by", r.RecordedBy); err != nil {
			return err
		}
		if !isSHA256(r.Hash) {
			return ledger.Invalid(rf+".hash", "must be a SHA-256 in hex (64 digits)")
		}
		if err := checkJSONValues(rf, "facts", r.Facts, "result", r.Result, "state_after", r.StateAfter); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) checkSettlements() error {
	for i, st := range c.d.Settlements {
		f := fmt.Sprintf("settlements[%d]", i)
		if _, dup := c.settlements[st.ID]; st.ID <= 0 || dup {
			return ledger.Invalid(f+".id", "settlement id %d is not positive or listed twice", st.ID)
		}
		c.settlements[st.ID] = st
		if _, ok := c.sessions[st.SessionID]; !ok {
			return ledger.Invalid(f+".session_id", "session %d is not in the document", st.SessionID)
		}
		if err := checkJSONValues(f, "body", st.Body); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) checkTransfers() error {
	ids := map[int64]bool{}
	for i, t := range c.d.Transfers {
		f := fmt.Sprintf("transfers[%d]", i)
		if t.ID <= 0 || ids[t.ID] {
			return ledger.Invalid(f+".id", "transfer id %d is not positive or listed twice", t.ID)
		}
		ids[t.ID] = true
		if st, ok := c.settlements[t.SettlementID]; !ok || st.SessionID != t.SessionID {
			return ledger.Invalid(f+".settlement_id", "settlement %d of session %d is not in the document", t.SettlementID, t.SessionID)
		}
		if err := c.player(f+".from", t.From); err != nil {
			return err
		}
		if err := c.player(f+".to", t.To); err != nil {
			return err
		}
		if t.Payment != nil {
			if err := c.key(f+".payment.recorded_by", t.Payment.RecordedBy); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) checkKittyBookings() error {
	ids := map[int64]bool{}
	for i, b := range c.d.KittyBookings {
		f := fmt.Sprintf("kitty_bookings[%d]", i)
		if b.ID <= 0 || ids[b.ID] {
			return ledger.Invalid(f+".id", "booking id %d is not positive or listed twice", b.ID)
		}
		ids[b.ID] = true
		if _, ok := c.sessions[idOr(b.SessionID, 0)]; b.SessionID != nil && !ok {
			return ledger.Invalid(f+".session_id", "session %d is not in the document", *b.SessionID)
		}
		if err := c.key(f+".recorded_by", b.RecordedBy); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) checkChanges() error {
	var seq int64
	for i, ch := range c.d.Changes {
		f := fmt.Sprintf("changes[%d]", i)
		if ch.Seq <= seq || ch.Seq > c.d.Club.ChangeSeq {
			return ledger.Invalid(f+".seq", "change %d is out of order or past the club's change_seq %d", ch.Seq, c.d.Club.ChangeSeq)
		}
		seq = ch.Seq
		if ch.Kind == "" {
			return ledger.Invalid(f+".kind", "must not be empty")
		}
		if _, ok := c.tables[idOr(ch.TableID, 0)]; ch.TableID != nil && !ok {
			return ledger.Invalid(f+".table_id", "table %d is not in the document", *ch.TableID)
		}
		if _, ok := c.sessions[idOr(ch.SessionID, 0)]; ch.SessionID != nil && !ok {
			return ledger.Invalid(f+".session_id", "session %d is not in the document", *ch.SessionID)
		}
		if err := checkJSONValues(f, "data", ch.Data); err != nil {
			return err
		}
	}
	return nil
}

// isSHA256 reports whether s is a SHA-256 in hex.
func isSHA256(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

func idOr(p *int64, fallback int64) int64 {
	if p == nil {
		return fallback
	}
	return *p
}

// checkJSONValues refuses a missing or malformed JSON value among name, value
// pairs of the object at path f.
func checkJSONValues(f string, pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		name, v := pairs[i].(string), pairs[i+1].(json.RawMessage)
		if len(bytes.TrimSpace(v)) == 0 || bytes.Equal(bytes.TrimSpace(v), []byte("null")) || !json.Valid(v) {
			return ledger.Invalid(f+"."+name, "must be a JSON value")
		}
	}
	return nil
}

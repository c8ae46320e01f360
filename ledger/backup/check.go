package backup

import (
	"bytes"
	"encoding/hex"
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// The records of the document, each checked with the API's own validation
// (the domain's validators and named limits) and against what came before
// it, then queued for the store.

func (im *importer) takeClub(c Club) error {
	if c.ID <= 0 {
		return im.invalid("club.id", "must be positive")
	}
	nc := ledger.NewClub{Name: c.Name, TimeZone: c.TimeZone}
	if err := nc.Validate(); err != nil {
		return im.within("club", err)
	}
	if nc.Name != c.Name {
		return im.invalid("club.name", "must not begin or end with white space")
	}
	if nc.TimeZone != c.TimeZone {
		return im.invalid("club.time_zone", "must be given")
	}
	if c.ChangeSeq < 0 {
		return im.invalid("club.change_seq", "must not be negative")
	}
	im.club, im.summary.Club = c, c
	im.batch.Club = &c
	im.add(1)
	return nil
}

// takeKey queues a key the document's records name: stored revoked, as a
// reader, with a secret nobody was ever given (the document carries none,
// and no role or revocation an import could believe).
func (im *importer) takeKey(k Key) error {
	if k.ID <= 0 || im.keys[k.ID] {
		return im.invalid("api_key.id", "key %d is not positive or listed twice", k.ID)
	}
	dead, _, err := ledger.MintKey(ledger.RoleReader, k.Label)
	if err != nil {
		return im.within("api_key", err)
	}
	im.keys[k.ID] = true
	im.batch.Keys = append(im.batch.Keys, KeyRow{Key: k, Role: dead.Role, SecretHash: dead.Hash, RevokedAt: im.now})
	im.add(1)
	return nil
}

func (im *importer) takePlayer(p Player) error {
	if _, dup := im.players[p.ID]; p.ID <= 0 || dup {
		return im.invalid("player.id", "player %d is not positive or listed twice", p.ID)
	}
	name, err := ledger.TrimName("name", p.Name, ledger.MaxPlayerNameLen)
	if err != nil {
		return im.within("player", err)
	}
	if name != p.Name {
		return im.invalid("player.name", "must not begin or end with white space")
	}
	if im.playerNames[name] {
		return im.invalid("player.name", "another player is called %q: names are unique within a club", name)
	}
	im.players[p.ID], im.playerNames[name] = name, true
	im.batch.Players = append(im.batch.Players, p)
	im.add(1)
	im.summary.Players++
	return nil
}

// takeTable checks a table as creating it would, and that its stored rule
// set is the one its preset and options resolve to: a rule set of the
// document's own cannot be smuggled in.
func (im *importer) takeTable(t Table) error {
	if err := im.closeTable(); err != nil {
		return err
	}
	if _, dup := im.tables[t.ID]; t.ID <= 0 || dup {
		return im.invalid("table.id", "table %d is not positive or listed twice", t.ID)
	}
	if err := im.jsonValues("table", "options", t.Options, "rules", t.Rules, "state", t.State); err != nil {
		return err
	}
	nt := ledger.NewTable{Name: t.Name, Game: t.Game, Preset: t.Preset, Options: t.Options, Stake: t.Stake,
		SettleMode: ledger.SettleMode(t.SettleMode), MatchLossCents: t.MatchLossCents}
	rules, preset, err := nt.Validate()
	switch {
	case err != nil:
		return im.within("table", err)
	case nt.Name != t.Name:
		return im.invalid("table.name", "must not begin or end with white space")
	case string(nt.SettleMode) != t.SettleMode:
		return im.invalid("table.settle_mode", "must be given")
	case preset != t.Preset:
		return im.invalid("table.preset", "is %q, its rule set is the preset %q", t.Preset, preset)
	case !ledger.SameJSON(rules, t.Rules):
		return im.invalid("table.rules", "are not the rule set the %s preset %q with the table's options resolves to", t.Game, t.Preset)
	case im.tableNames[t.Name]:
		return im.invalid("table.name", "another table is called %q: names are unique within a club", t.Name)
	case t.Hands < 0:
		return im.invalid("table.hands", "must not be negative")
	}
	t.Rules = rules
	im.tables[t.ID] = tableRef{t: ledger.Table{ID: t.ID, Name: t.Name, Game: t.Game, Rules: t.Rules}, hands: t.Hands}
	im.tableNames[t.Name] = true
	im.table = &tableRun{t: t, state: json.RawMessage(`{}`)}
	im.batch.Tables = append(im.batch.Tables, t)
	im.add(1)
	im.summary.Tables++
	return nil
}

func (im *importer) takeSession(s Session) error {
	if im.table == nil || im.stage != stageTables {
		return im.invalid("session", "a session comes after its table")
	}
	if err := im.closeSession(); err != nil {
		return err
	}
	tr := im.table
	if _, dup := im.sessions[s.ID]; s.ID <= 0 || dup {
		return im.invalid("session.id", "session %d is not positive or listed twice", s.ID)
	}
	if s.TableID != tr.t.ID {
		return im.invalid("session.table_id", "is %d, the session is listed under table %d", s.TableID, tr.t.ID)
	}
	if tr.open != 0 {
		return im.invalid("session", "session %d of table %d is still open: a table plays one evening at a time", tr.open, tr.t.ID)
	}
	if _, err := ledger.ParseDate("date", s.Date); err != nil {
		return im.within("session", err)
	}
	if err := ledger.CheckSeating("seating", s.Seating); err != nil {
		return im.within("session", err)
	}
	if err := ledger.CheckTerms(tr.t.Game, s.Terms.ledger()); err != nil {
		return im.within("session.terms", err)
	}
	for _, id := range s.Seating {
		if err := im.player("session.seating", &id); err != nil {
			return err
		}
	}
	if s.ClosedAt != nil && s.ClosedAt.Before(s.OpenedAt) {
		return im.invalid("session.closed_at", "is before the session was opened")
	}
	if s.ClosedAt == nil {
		tr.open = s.ID
	}
	im.sessions[s.ID] = sessionRef{table: s.TableID, date: s.Date, seating: s.Seating, closed: s.ClosedAt != nil}
	im.session = &sessionRun{s: s}
	im.batch.Sessions = append(im.batch.Sessions, s)
	im.add(1 + len(s.Seating))
	im.summary.Sessions++
	return nil
}

func (im *importer) takeHand(h Hand) error {
	if im.session == nil {
		return im.invalid("hand", "a hand comes after its session")
	}
	if len(im.session.settlements) > 0 {
		return im.invalid("hand", "a session's hands come before its settlement versions")
	}
	if err := im.closeHand(); err != nil {
		return err
	}
	tr, s := im.table, im.session.s
	switch {
	case h.ID <= 0:
		return im.invalid("hand.id", "must be positive")
	case h.TableID != tr.t.ID:
		return im.invalid("hand.table_id", "is %d, the hand is listed under table %d", h.TableID, tr.t.ID)
	case h.SessionID != s.ID:
		return im.invalid("hand.session_id", "is %d, the hand is listed under session %d", h.SessionID, s.ID)
	case h.Number != tr.hands+1:
		return im.invalid("hand.number", "table %d: hand %d where hand %d is due (hands are listed in order, numbered 1, 2, 3 … without a gap)",
			tr.t.ID, h.Number, tr.hands+1)
	case !isSHA256(h.Hash):
		return im.invalid("hand.hash", "must be a SHA-256 in hex (64 digits)")
	case !isKeyID(h.ChainKey):
		return im.invalid("hand.chain_key", "must be a chain key's id in hex (16 digits), or left out")
	}
	if err := im.key("hand.recorded_by", h.RecordedBy); err != nil {
		return err
	}
	if err := im.jsonValues("hand", "facts", h.Facts, "result", h.Result, "state_after", h.StateAfter); err != nil {
		return err
	}
	tr.hands++
	im.hand = &handRun{h: h}
	im.summary.Hands++
	return nil
}

func (im *importer) takeRevision(r Revision) error {
	hr := im.hand
	if hr == nil {
		return im.invalid("revision", "a revision comes right after its hand or the revision before it")
	}
	reason, err := ledger.TrimName("reason", r.Reason, ledger.MaxReasonLen)
	switch {
	case r.HandID != hr.h.ID:
		return im.invalid("revision.hand_id", "is %d, the revision follows hand %d", r.HandID, hr.h.ID)
	case r.ID <= 0:
		return im.invalid("revision.id", "must be positive")
	case r.Revision != len(hr.revs)+2:
		return im.invalid("revision.revision", "is %d where revision %d is due (revisions are listed in order from 2)", r.Revision, len(hr.revs)+2)
	case r.CausedBy < 1 || r.CausedBy > hr.h.Number:
		return im.invalid("revision.caused_by", "hand %d cannot have been changed by correcting hand %d", hr.h.Number, r.CausedBy)
	case !isSHA256(r.Hash):
		return im.invalid("revision.hash", "must be a SHA-256 in hex (64 digits)")
	case !isKeyID(r.ChainKey):
		return im.invalid("revision.chain_key", "must be a chain key's id in hex (16 digits), or left out")
	case err != nil:
		return im.within("revision", err)
	case reason != r.Reason:
		return im.invalid("revision.reason", "must not begin or end with white space")
	}
	if err := im.key("revision.recorded_by", r.RecordedBy); err != nil {
		return err
	}
	if err := im.jsonValues("revision", "facts", r.Facts, "result", r.Result, "state_after", r.StateAfter); err != nil {
		return err
	}
	hr.revs = append(hr.revs, r)
	im.summary.Revisions++
	return nil
}

func (im *importer) takeSettlement(st Settlement) error {
	if im.session == nil {
		return im.invalid("settlement", "a settlement version comes after its session's hands")
	}
	if err := im.closeHand(); err != nil {
		return err
	}
	sr := im.session
	switch {
	case st.ID <= 0:
		return im.invalid("settlement.id", "must be positive")
	case st.SessionID != sr.s.ID:
		return im.invalid("settlement.session_id", "is %d, the settlement is listed under session %d", st.SessionID, sr.s.ID)
	case sr.s.ClosedAt == nil:
		return im.invalid("settlement", "session %d is open: only a closed session has a settlement", sr.s.ID)
	case st.Version != len(sr.settlements)+1:
		return im.invalid("settlement.version", "is %d where version %d is due (versions are listed in order from 1)", st.Version, len(sr.settlements)+1)
	}
	if err := im.jsonValues("settlement", "body", st.Body); err != nil {
		return err
	}
	sr.settlements = append(sr.settlements, &settlementRun{st: st})
	im.summary.Settlements++
	return nil
}

func (im *importer) takeTransfer(t Transfer) error {
	if im.session == nil || len(im.session.settlements) == 0 {
		return im.invalid("transfer", "a transfer comes after its settlement version")
	}
	run := im.session.settlements[len(im.session.settlements)-1]
	switch {
	case t.SettlementID != run.st.ID:
		return im.invalid("transfer.settlement_id", "is %d, the transfer follows settlement %d", t.SettlementID, run.st.ID)
	case t.ID <= 0:
		return im.invalid("transfer.id", "must be positive")
	}
	if err := im.player("transfer.from", t.From); err != nil {
		return err
	}
	if err := im.player("transfer.to", t.To); err != nil {
		return err
	}
	if t.Payment != nil {
		if err := im.key("transfer.payment.recorded_by", t.Payment.RecordedBy); err != nil {
			return err
		}
	}
	run.transfers = append(run.transfers, t)
	return nil
}

// legacySettlementBooking is the kind of the kitty bookings settlements
// wrote before migration 7: kept for the audit trail, counted nowhere.
const legacySettlementBooking = "settlement"

// takeKittyBooking checks a booking as BookKitty would; one of the old
// settlement kind needs its session, within the same bounds.
func (im *importer) takeKittyBooking(b KittyBooking) error {
	if b.ID <= 0 {
		return im.invalid("kitty_booking.id", "must be positive")
	}
	switch b.Kind {
	case ledger.KittyManual:
		if err := ledger.CheckKittyBooking(b.Cents, b.Note); err != nil {
			return im.within("kitty_booking", err)
		}
		if b.SessionID != nil {
			return im.invalid("kitty_booking.session_id", "a manual booking belongs to no session")
		}
	case legacySettlementBooking:
		if err := ledger.CheckKittyCents(b.Cents); err != nil {
			return im.within("kitty_booking", err)
		}
		if b.Note != "" {
			if err := ledger.CheckName("note", b.Note, ledger.MaxNoteLen); err != nil {
				return im.within("kitty_booking", err)
			}
		}
		if _, ok := im.sessions[idOr(b.SessionID, 0)]; !ok {
			return im.invalid("kitty_booking.session_id", "a booking of a settlement names a session of the document")
		}
	default:
		return im.invalid("kitty_booking.kind", "must be %s (or %s, from before migration 7), got %q", ledger.KittyManual, legacySettlementBooking, b.Kind)
	}
	if err := im.key("kitty_booking.recorded_by", b.RecordedBy); err != nil {
		return err
	}
	im.batch.KittyBookings = append(im.batch.KittyBookings, b)
	im.add(1)
	im.summary.KittyBookings++
	return nil
}

// jsonValues refuses a missing or malformed JSON value among name, value
// pairs of the record kind.
func (im *importer) jsonValues(kind string, pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		name, v := pairs[i].(string), pairs[i+1].(json.RawMessage)
		if t := bytes.TrimSpace(v); len(t) == 0 || bytes.Equal(t, []byte("null")) || !json.Valid(v) {
			return im.invalid(kind+"."+name, "must be a JSON value")
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

// isKeyID reports whether s is a chain key's id in hex, or empty (a hash
// of the trigger era).
func isKeyID(s string) bool {
	if s == "" {
		return true
	}
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == chain.IDSize && s == hex.EncodeToString(b)
}

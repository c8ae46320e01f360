package ledger

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// ExportFormat marks a stichbuch export document. An importer refuses a
// document with any other marker; a change of the document's shape gets a
// new one.
const ExportFormat = "stichbuch-export/1"

// Export is one club's whole ledger as one document: the backup of the
// embedded database and the way to move a club to another server.
//
// It holds the club, its API keys (the SHA-256 of each secret, never a
// secret, so a restored database accepts the same keys), players, tables,
// sessions, every hand with every stored column and every revision a
// correction appended, every settlement version, the transfers with their
// payments, the kitty's bookings and the club's change feed. Every list is
// ordered by id (hands by table and number, revisions by number, changes by
// seq) and every time is in UTC, so two exports of the same ledger are byte
// for byte the same.
//
// Left out, because they are derived or disposable: the entries and the
// running totals (rebuilt from the hands' and revisions' results on
// import), the prev_hash columns (the hash of the hand or revision before),
// and the idempotency keys (a request retried across an export and import
// is not recognized as a retry, and may be stored twice).
type Export struct {
	Format        string               `json:"format"`
	Club          ExportClub           `json:"club"`
	APIKeys       []ExportKey          `json:"api_keys"`
	Players       []ExportPlayer       `json:"players"`
	Tables        []ExportTable        `json:"tables"`
	Sessions      []ExportSession      `json:"sessions"`
	Hands         []ExportHand         `json:"hands"`
	Settlements   []ExportSettlement   `json:"settlements"`
	Transfers     []ExportTransfer     `json:"transfers"`
	KittyBookings []ExportKittyBooking `json:"kitty_bookings"`
	Changes       []ExportChange       `json:"changes"`
}

// ExportClub is the club of an export.
type ExportClub struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"time_zone"`
	CreatedAt time.Time `json:"created_at"`
	// ChangeSeq is the number of the club's last change in its feed.
	ChangeSeq int64 `json:"change_seq"`
}

// ExportKey is an API key: the hex SHA-256 of its secret, never the secret.
type ExportKey struct {
	ID           int64      `json:"id"`
	Role         Role       `json:"role"`
	Label        string     `json:"label"`
	SecretSHA256 string     `json:"secret_sha256"`
	CreatedAt    time.Time  `json:"created_at"`
	RevokedAt    *time.Time `json:"revoked_at"`
}

// ExportPlayer is a player of the club.
type ExportPlayer struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// ExportTable is a table with its rule set, stake, and its hand count and
// state after its last hand (both must follow from the hands).
type ExportTable struct {
	ID             int64           `json:"id"`
	Name           string          `json:"name"`
	Game           string          `json:"game"`
	Preset         string          `json:"preset"`
	Options        json.RawMessage `json:"options"`
	Rules          json.RawMessage `json:"rules"`
	Stake          score.Points    `json:"stake_cents_per_point"`
	SettleMode     string          `json:"settle_mode"`
	MatchLossCents int64           `json:"match_loss_cents"`
	Hands          int             `json:"hands"`
	State          json.RawMessage `json:"state"`
	CreatedAt      time.Time       `json:"created_at"`
}

// ExportSession is an evening at a table with its seating order.
type ExportSession struct {
	ID       int64      `json:"id"`
	TableID  int64      `json:"table_id"`
	Date     string     `json:"date"`
	Seating  []int64    `json:"seating"`
	OpenedAt time.Time  `json:"opened_at"`
	ClosedAt *time.Time `json:"closed_at"`
}

// ExportHand is a hand as recorded (its revision 1): the facts, the rule set
// it was scored under, the result (points, lines, events, winners …), the
// table's state after it, who recorded it when, and its tamper-evidence hash
// (hex), which the importing database must compute to the same value. The
// revisions corrections appended follow it, oldest first; the last one is
// the hand's current version.
type ExportHand struct {
	ID         int64            `json:"id"`
	TableID    int64            `json:"table_id"`
	SessionID  int64            `json:"session_id"`
	Number     int              `json:"number"`
	Game       string           `json:"game"`
	Rules      json.RawMessage  `json:"rules"`
	Facts      json.RawMessage  `json:"facts"`
	Result     json.RawMessage  `json:"result"`
	StateAfter json.RawMessage  `json:"state_after"`
	RecordedBy int64            `json:"recorded_by"`
	RecordedAt time.Time        `json:"recorded_at"`
	Hash       string           `json:"hash"`
	Revisions  []ExportRevision `json:"revisions"`
}

// ExportRevision is a revision of a hand a correction appended: new facts
// (or the hand voided) scored anew, with its own hash chained to the
// revision before it.
type ExportRevision struct {
	ID         int64           `json:"id"`
	Revision   int             `json:"revision"`
	Facts      json.RawMessage `json:"facts"`
	Result     json.RawMessage `json:"result"`
	StateAfter json.RawMessage `json:"state_after"`
	Void       bool            `json:"void"`
	Reason     string          `json:"reason"`
	CausedBy   int             `json:"caused_by"`
	RecordedBy int64           `json:"recorded_by"`
	RecordedAt time.Time       `json:"recorded_at"`
	Hash       string          `json:"hash"`
}

// ExportChange is one entry of the club's change feed.
type ExportChange struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	TableID   *int64          `json:"table_id"`
	SessionID *int64          `json:"session_id"`
	Number    *int            `json:"number"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// handVersion is one version of a hand: revision 1 (the hand as recorded)
// or a later revision.
type handVersion struct {
	revision   int
	facts      json.RawMessage
	result     json.RawMessage
	stateAfter json.RawMessage
	void       bool
}

// versions returns the hand's versions, revision 1 first.
func (h ExportHand) versions() []handVersion {
	out := []handVersion{{revision: 1, facts: h.Facts, result: h.Result, stateAfter: h.StateAfter}}
	for _, r := range h.Revisions {
		out = append(out, handVersion{revision: r.Revision, facts: r.Facts, result: r.Result, stateAfter: r.StateAfter, void: r.Void})
	}
	return out
}

func storedPoints(raw json.RawMessage) ([]score.PlayerPoints, error) {
	var r struct {
		Points []score.PlayerPoints `json:"points"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("result unreadable: %w", err)
	}
	return r.Points, nil
}

// ExportEntry is one entry a hand's history makes: revision 1's points, and
// for each later revision the difference to the revision before.
type ExportEntry struct {
	Revision int
	Player   int64
	Points   score.Points
}

// Entries returns the entries the store keeps for the hand: one per player
// of the hand as recorded, then per revision one per player whose points
// changed, carrying the difference (as a correction appends them).
func (h ExportHand) Entries() ([]ExportEntry, error) {
	var out []ExportEntry
	var previous score.Result
	for _, v := range h.versions() {
		points, err := storedPoints(v.result)
		if err != nil {
			return nil, fmt.Errorf("table %d, hand %d, revision %d: %w", h.TableID, h.Number, v.revision, err)
		}
		next := score.Result{Points: points}
		diffs := points
		if v.revision > 1 {
			diffs = PointDiffs(previous, next)
		}
		for _, p := range diffs {
			out = append(out, ExportEntry{Revision: v.revision, Player: p.Player, Points: p.Points})
		}
		previous = next
	}
	return out, nil
}

// ExportSettlement is one stored version of a session's settlement.
type ExportSettlement struct {
	ID        int64           `json:"id"`
	SessionID int64           `json:"session_id"`
	Version   int             `json:"version"`
	Body      json.RawMessage `json:"body"`
	CreatedAt time.Time       `json:"created_at"`
}

// ExportTransfer is a transfer of a settlement; a nil From or To is the
// kitty. Payment is set once it was marked paid.
type ExportTransfer struct {
	ID           int64          `json:"id"`
	SettlementID int64          `json:"settlement_id"`
	SessionID    int64          `json:"session_id"`
	From         *int64         `json:"from"`
	To           *int64         `json:"to"`
	Cents        int64          `json:"cents"`
	Payment      *ExportPayment `json:"payment"`
}

// ExportPayment records that a transfer was paid, and with which key.
type ExportPayment struct {
	PaidAt     time.Time `json:"paid_at"`
	RecordedBy int64     `json:"recorded_by"`
}

// ExportKittyBooking is one booking of the club's kitty.
type ExportKittyBooking struct {
	ID         int64     `json:"id"`
	Cents      int64     `json:"cents"`
	Kind       string    `json:"kind"`
	Note       string    `json:"note"`
	SessionID  *int64    `json:"session_id"`
	RecordedBy int64     `json:"recorded_by"`
	CreatedAt  time.Time `json:"created_at"`
}

// Encode writes the document as indented JSON with a final newline. The
// same document always gives the same bytes.
func (d *Export) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// DecodeExport reads an export document, refusing another format marker,
// unknown fields and trailing data, and checks that it hangs together
// (Check). It does not re-score the hands; Rescore does.
func DecodeExport(r io.Reader) (*Export, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var head struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, Invalid("document", "is not a JSON object: %v", err)
	}
	if head.Format == nil {
		return nil, Invalid("format", "missing: this is not a stichbuch export (want %q)", ExportFormat)
	}
	if *head.Format != ExportFormat {
		return nil, Invalid("format", "is %q; this stichbuch reads %q only", *head.Format, ExportFormat)
	}
	var d Export
	if err := score.DecodeStrict("", data, &d); err != nil {
		return nil, AsError(err)
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Check refuses a document that does not hang together: a wrong format
// marker, duplicate ids, a reference to something not in the document,
// hands out of table order or with a gap, a table whose hand count
// disagrees with its hands.
func (d *Export) Check() error {
	if d.Format != ExportFormat {
		return Invalid("format", "is %q; this stichbuch reads %q only", d.Format, ExportFormat)
	}
	if d.Club.ID <= 0 || d.Club.Name == "" {
		return Invalid("club", "needs an id and a name")
	}
	keys := map[int64]bool{}
	for i, k := range d.APIKeys {
		f := fmt.Sprintf("api_keys[%d]", i)
		if k.ID <= 0 || keys[k.ID] {
			return Invalid(f+".id", "key id %d is not positive or listed twice", k.ID)
		}
		keys[k.ID] = true
		if !k.Role.Valid() {
			return Invalid(f+".role", "must be admin, scorer or reader, got %q", k.Role)
		}
		if b, err := hex.DecodeString(k.SecretSHA256); err != nil || len(b) != 32 {
			return Invalid(f+".secret_sha256", "must be a SHA-256 in hex (64 digits)")
		}
	}
	key := func(field string, id int64) error {
		if !keys[id] {
			return Invalid(field, "API key %d is not in the document", id)
		}
		return nil
	}
	players := map[int64]bool{}
	for i, p := range d.Players {
		if p.ID <= 0 || players[p.ID] {
			return Invalid(fmt.Sprintf("players[%d].id", i), "player id %d is not positive or listed twice", p.ID)
		}
		players[p.ID] = true
	}
	player := func(field string, id *int64) error {
		if id != nil && !players[*id] {
			return Invalid(field, "player %d is not in the document", *id)
		}
		return nil
	}
	tables := map[int64]ExportTable{}
	for i, t := range d.Tables {
		f := fmt.Sprintf("tables[%d]", i)
		if _, dup := tables[t.ID]; t.ID <= 0 || dup {
			return Invalid(f+".id", "table id %d is not positive or listed twice", t.ID)
		}
		tables[t.ID] = t
		if _, err := Engine(f+".game", t.Game); err != nil {
			return err
		}
		if err := checkJSONValues(f, "options", t.Options, "rules", t.Rules, "state", t.State); err != nil {
			return err
		}
	}
	sessions := map[int64]ExportSession{}
	for i, s := range d.Sessions {
		f := fmt.Sprintf("sessions[%d]", i)
		if _, dup := sessions[s.ID]; s.ID <= 0 || dup {
			return Invalid(f+".id", "session id %d is not positive or listed twice", s.ID)
		}
		sessions[s.ID] = s
		if _, ok := tables[s.TableID]; !ok {
			return Invalid(f+".table_id", "table %d is not in the document", s.TableID)
		}
		if _, err := ParseDate(f+".date", s.Date); err != nil {
			return err
		}
		if err := CheckSeating(f+".seating", s.Seating); err != nil {
			return err
		}
		for j, id := range s.Seating {
			if err := player(fmt.Sprintf("%s.seating[%d]", f, j), &id); err != nil {
				return err
			}
		}
	}
	hands := map[int64]bool{}
	revisions := map[int64]bool{}
	counts := map[int64]int{}
	var last ExportHand
	for i, h := range d.Hands {
		f := fmt.Sprintf("hands[%d]", i)
		if h.ID <= 0 || hands[h.ID] {
			return Invalid(f+".id", "hand id %d is not positive or listed twice", h.ID)
		}
		hands[h.ID] = true
		t, ok := tables[h.TableID]
		if !ok {
			return Invalid(f+".table_id", "table %d is not in the document", h.TableID)
		}
		if i > 0 && h.TableID < last.TableID {
			return Invalid(f, "hands must be listed by table and number: table %d hand %d follows table %d", h.TableID, h.Number, last.TableID)
		}
		if h.Number != counts[h.TableID]+1 {
			return Invalid(f+".number", "table %d: hand %d where hand %d is due (hands are listed in order, numbered 1, 2, 3 … without a gap)", h.TableID, h.Number, counts[h.TableID]+1)
		}
		counts[h.TableID]++
		last = h
		if s, ok := sessions[h.SessionID]; !ok || s.TableID != h.TableID {
			return Invalid(f+".session_id", "session %d is not a session of table %d in the document", h.SessionID, h.TableID)
		}
		if h.Game != t.Game {
			return Invalid(f+".game", "is %q, the table plays %q", h.Game, t.Game)
		}
		if err := key(f+".recorded_by", h.RecordedBy); err != nil {
			return err
		}
		if b, err := hex.DecodeString(h.Hash); err != nil || len(b) != 32 {
			return Invalid(f+".hash", "must be a SHA-256 in hex (64 digits)")
		}
		if err := checkJSONValues(f, "rules", h.Rules, "facts", h.Facts, "result", h.Result, "state_after", h.StateAfter); err != nil {
			return err
		}
		for j, r := range h.Revisions {
			rf := fmt.Sprintf("%s.revisions[%d]", f, j)
			if r.ID <= 0 || revisions[r.ID] {
				return Invalid(rf+".id", "revision id %d is not positive or listed twice", r.ID)
			}
			revisions[r.ID] = true
			if r.Revision != j+2 {
				return Invalid(rf+".revision", "is %d where revision %d is due (revisions are listed in order from 2)", r.Revision, j+2)
			}
			if r.CausedBy < 1 || r.CausedBy > h.Number {
				return Invalid(rf+".caused_by", "hand %d cannot have been changed by correcting hand %d", h.Number, r.CausedBy)
			}
			if err := key(rf+".recorded_by", r.RecordedBy); err != nil {
				return err
			}
			if b, err := hex.DecodeString(r.Hash); err != nil || len(b) != 32 {
				return Invalid(rf+".hash", "must be a SHA-256 in hex (64 digits)")
			}
			if err := checkJSONValues(rf, "facts", r.Facts, "result", r.Result, "state_after", r.StateAfter); err != nil {
				return err
			}
		}
	}
	for i, t := range d.Tables {
		if t.Hands != counts[t.ID] {
			return Invalid(fmt.Sprintf("tables[%d].hands", i), "table %d says %d hands, the document holds %d", t.ID, t.Hands, counts[t.ID])
		}
	}
	settlements := map[int64]ExportSettlement{}
	for i, st := range d.Settlements {
		f := fmt.Sprintf("settlements[%d]", i)
		if _, dup := settlements[st.ID]; st.ID <= 0 || dup {
			return Invalid(f+".id", "settlement id %d is not positive or listed twice", st.ID)
		}
		settlements[st.ID] = st
		if _, ok := sessions[st.SessionID]; !ok {
			return Invalid(f+".session_id", "session %d is not in the document", st.SessionID)
		}
		if err := checkJSONValues(f, "body", st.Body); err != nil {
			return err
		}
	}
	transfers := map[int64]bool{}
	for i, t := range d.Transfers {
		f := fmt.Sprintf("transfers[%d]", i)
		if t.ID <= 0 || transfers[t.ID] {
			return Invalid(f+".id", "transfer id %d is not positive or listed twice", t.ID)
		}
		transfers[t.ID] = true
		if st, ok := settlements[t.SettlementID]; !ok || st.SessionID != t.SessionID {
			return Invalid(f+".settlement_id", "settlement %d of session %d is not in the document", t.SettlementID, t.SessionID)
		}
		if err := player(f+".from", t.From); err != nil {
			return err
		}
		if err := player(f+".to", t.To); err != nil {
			return err
		}
		if t.Payment != nil {
			if err := key(f+".payment.recorded_by", t.Payment.RecordedBy); err != nil {
				return err
			}
		}
	}
	bookings := map[int64]bool{}
	for i, b := range d.KittyBookings {
		f := fmt.Sprintf("kitty_bookings[%d]", i)
		if b.ID <= 0 || bookings[b.ID] {
			return Invalid(f+".id", "booking id %d is not positive or listed twice", b.ID)
		}
		bookings[b.ID] = true
		if _, ok := sessions[idOr(b.SessionID, 0)]; b.SessionID != nil && !ok {
			return Invalid(f+".session_id", "session %d is not in the document", *b.SessionID)
		}
		if err := key(f+".recorded_by", b.RecordedBy); err != nil {
			return err
		}
	}
	var seq int64
	for i, c := range d.Changes {
		f := fmt.Sprintf("changes[%d]", i)
		if c.Seq <= seq || c.Seq > d.Club.ChangeSeq {
			return Invalid(f+".seq", "change %d is out of order or past the club's change_seq %d", c.Seq, d.Club.ChangeSeq)
		}
		seq = c.Seq
		if c.Kind == "" {
			return Invalid(f+".kind", "must not be empty")
		}
		if _, ok := tables[idOr(c.TableID, 0)]; c.TableID != nil && !ok {
			return Invalid(f+".table_id", "table %d is not in the document", *c.TableID)
		}
		if _, ok := sessions[idOr(c.SessionID, 0)]; c.SessionID != nil && !ok {
			return Invalid(f+".session_id", "session %d is not in the document", *c.SessionID)
		}
		if err := checkJSONValues(f, "data", c.Data); err != nil {
			return err
		}
	}
	return nil
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
			return Invalid(f+"."+name, "must be a JSON value")
		}
	}
	return nil
}

// Rescore replays every table's hands in order through the table's engine,
// each under the rule set stored with it, with its session's seating, id
// and date, and refuses the document, naming table and hand, when a hand
// no longer scores or its points or its state after differ from the stored
// ones:
//
//   - The hands' current versions (the last revision, or the hand as
//     recorded) are replayed as one chain: the first hand from the empty
//     state {} (as the store keeps it), every later one from the state
//     after the previous replayed hand. A voided version scores 0 for every
//     player and leaves the state as it was before it.
//   - Every earlier version of a hand was scored from the version of the
//     hand before it that was current then, so it must re-score from the
//     state after one of that hand's versions.
//   - A table's state must be the state after its last hand.
//
// Only points and state are compared: a breakdown line or an event text
// worded differently by a newer engine does not refuse a ledger whose
// numbers still follow. The document must have passed Check.
func (d *Export) Rescore() error {
	sessions := make(map[int64]ExportSession, len(d.Sessions))
	for _, s := range d.Sessions {
		sessions[s.ID] = s
	}
	names := make(map[int64]string, len(d.Tables))
	for _, t := range d.Tables {
		names[t.ID] = t.Name
	}
	states := make(map[int64]json.RawMessage, len(d.Tables))
	// before holds, per table, the states after every version of the
	// previous hand: where any earlier version of the next hand started.
	before := make(map[int64][]json.RawMessage, len(d.Tables))
	for _, h := range d.Hands {
		refuse := func(v handVersion, format string, args ...any) error {
			which := fmt.Sprintf("hand %d", h.Number)
			if v.revision > 1 {
				which += fmt.Sprintf(" (revision %d)", v.revision)
			}
			return Errorf(EINVALID, "re-scoring table %d %q, %s: %s", h.TableID, names[h.TableID], which, fmt.Sprintf(format, args...))
		}
		s, ok := sessions[h.SessionID]
		if !ok {
			return Errorf(EINVALID, "table %d, hand %d: session %d is not in the document", h.TableID, h.Number, h.SessionID)
		}
		state, ok := states[h.TableID]
		if !ok {
			state = json.RawMessage(`{}`)
		}
		candidates := before[h.TableID]
		if len(candidates) == 0 {
			candidates = []json.RawMessage{json.RawMessage(`{}`)}
		}
		versions := h.versions()
		var after []json.RawMessage
		for i, v := range versions {
			if i == len(versions)-1 {
				next, err := rescoreVersion(h, s, v, state)
				if err != nil {
					return refuse(v, "%v", err)
				}
				states[h.TableID] = next
			} else {
				var first error
				found := false
				for _, c := range candidates {
					_, err := rescoreVersion(h, s, v, c)
					if err == nil {
						found = true
						break
					}
					if first == nil {
						first = err
					}
				}
				if !found {
					return refuse(v, "%v (from the state after any version of the hand before it)", first)
				}
			}
			after = append(after, v.stateAfter)
		}
		before[h.TableID] = after
	}
	for _, t := range d.Tables {
		want, ok := states[t.ID]
		if !ok {
			want = json.RawMessage(`{}`)
		}
		if !SameJSON(t.State, want) {
			return Errorf(EINVALID, "table %d %q: its state %s is not the state after its last hand %s", t.ID, t.Name, shortJSON(t.State), shortJSON(want))
		}
	}
	return nil
}

// rescoreVersion re-scores version v of hand h in session s from state and returns
// the state after it, or why it differs from the stored version.
func rescoreVersion(h ExportHand, s ExportSession, v handVersion, state json.RawMessage) (json.RawMessage, error) {
	stored, err := storedPoints(v.result)
	if err != nil {
		return nil, err
	}
	if v.void {
		for _, p := range stored {
			if !p.Points.IsZero() {
				return nil, fmt.Errorf("it is void, yet scores %s", playerPointsText(stored))
			}
		}
		if !SameJSON(v.stateAfter, state) {
			return nil, fmt.Errorf("it is void, yet the state after it %s is not the state before it %s", shortJSON(v.stateAfter), shortJSON(state))
		}
		return state, nil
	}
	res, err := ScoreHand(Table{ID: h.TableID, Game: h.Game, Rules: h.Rules, State: state},
		Session{ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating}, v.facts)
	if err != nil {
		return nil, fmt.Errorf("its facts no longer score: %v", err)
	}
	if !samePlayerPoints(stored, res.Points) {
		return nil, fmt.Errorf("the stored points %s differ from the re-scored points %s", playerPointsText(stored), playerPointsText(res.Points))
	}
	if !SameJSON(v.stateAfter, res.State) {
		return nil, fmt.Errorf("the stored state after the hand differs from the re-scored state: stored %s, re-scored %s", shortJSON(v.stateAfter), shortJSON(res.State))
	}
	return res.State, nil
}

func samePlayerPoints(a, b []score.PlayerPoints) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Player != b[i].Player || a[i].Points.Cmp(b[i].Points) != 0 {
			return false
		}
	}
	return true
}

func playerPointsText(ps []score.PlayerPoints) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "player %d: %s", p.Player, p.Points)
	}
	b.WriteByte(']')
	return b.String()
}

func shortJSON(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	const max = 300
	if b.Len() > max {
		return b.String()[:max] + "…"
	}
	return b.String()
}

// SameJSON reports whether a and b are the same JSON value: objects with
// the same members in any order, arrays element by element, numbers by
// exact value (1.0 equals 1), whitespace ignored.
func SameJSON(a, b json.RawMessage) bool {
	va, errA := decodeJSONNumbers(a)
	vb, errB := decodeJSONNumbers(b)
	if errA != nil || errB != nil {
		return false
	}
	return sameValue(va, vb)
}

func decodeJSONNumbers(v json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var out any
	err := dec.Decode(&out)
	return out, err
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		rx, okx := new(big.Rat).SetString(string(x))
		ry, oky := new(big.Rat).SetString(string(y))
		return okx && oky && rx.Cmp(ry) == 0
	}
	return a == b
}

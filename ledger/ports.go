package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// The store's ports: small interfaces named for what they hold. The
// postgres package implements them on PostgreSQL, the memory package in
// memory (for the flow tests). Every method is scoped to one club; a thing
// of another club is ENOTFOUND. A port reads and writes; it decides
// nothing: every rule lives in this package (see DESIGN.md).

// ClubStore holds clubs and their API keys.
type ClubStore interface {
	// CreateClub stores a new club with its first key.
	CreateClub(ctx context.Context, c NewClub, first NewKey) (Club, APIKey, error)
	FindClub(ctx context.Context, clubID int64) (Club, error)
	// FindKey returns a key with its secret's hash, revoked or not.
	FindKey(ctx context.Context, clubID, keyID int64) (StoredKey, error)
	// ListKeys returns a page of the club's keys by id (every one when
	// p.Limit is 0).
	ListKeys(ctx context.Context, clubID int64, p Page) ([]APIKey, error)
}

// KeyNotifier tells a Service of the API keys revoked (or rotated) through
// any instance of the service, so the Service may keep the keys it looked
// up (access_keycache.go). postgres.Listener is one, over LISTEN/NOTIFY.
type KeyNotifier interface {
	// WatchKeys reports to w from now on, one call at a time and in order:
	// at once whether the notifier listens now, then every change of
	// that and every revoked key it hears.
	WatchKeys(w KeyWatcher)
}

// KeyWatcher is told what a KeyNotifier hears.
type KeyWatcher interface {
	// Listening says whether revocations are heard from now on. True: the
	// notifier listens (again), and what was sent before may have been
	// missed. False: it lost its connection and hears nothing until it
	// says true.
	Listening(on bool)
	// KeyRevoked says that a transaction revoking the key has committed.
	KeyRevoked(clubID, keyID int64)
}

// PlayerStore holds a club's players.
type PlayerStore interface {
	// ListPlayers returns a page of the club's players by name, then id:
	// those after the player p.After (every one when p.Limit is 0).
	ListPlayers(ctx context.Context, clubID int64, p Page) ([]Player, error)
	FindPlayer(ctx context.Context, clubID, id int64) (Player, error)
}

// TableStore holds a club's tables and their sessions, with the running
// totals of both.
type TableStore interface {
	FindTable(ctx context.Context, clubID, id int64) (Table, error)
	// ListTables returns a page of the club's tables by name, then id:
	// those after the table p.After (every one when p.Limit is 0).
	ListTables(ctx context.Context, clubID int64, p Page) ([]Table, error)
	// TableStandings and SessionStandings are the running totals per
	// player, unordered.
	TableStandings(ctx context.Context, clubID, tableID int64) ([]Standing, error)
	FindSession(ctx context.Context, clubID, id int64) (Session, error)
	// ListSessions returns the club's sessions in the filter, oldest
	// first (the filter is valid).
	ListSessions(ctx context.Context, clubID int64, f SessionFilter) ([]Session, error)
	SessionStandings(ctx context.Context, clubID, sessionID int64) ([]Standing, error)
	// SessionsOn returns the club's sessions of a date, oldest first.
	SessionsOn(ctx context.Context, clubID int64, date string) ([]Session, error)
}

// HandStore holds the hands of a club's tables as their current revisions,
// and every revision for the audit trail.
type HandStore interface {
	FindHand(ctx context.Context, clubID, tableID int64, number int) (Hand, error)
	// ListHands returns a table's hands in the filter, in order: numbered
	// after f.Page.After, of the session f.SessionID when it is not 0, at
	// most f.Page.Limit (every one when it is 0).
	ListHands(ctx context.Context, clubID, tableID int64, f HandFilter) ([]Hand, error)
	// HandRevisions returns every revision of a hand, the original first.
	HandRevisions(ctx context.Context, clubID, tableID int64, number int) ([]Revision, error)
	// HandByID reads a hand by its id, as its current revision.
	HandByID(ctx context.Context, clubID, id int64) (Hand, error)
	// HandSnapshot reads, in one round trip and without a lock, what
	// recording a table's next hand is decided from: the table (with its
	// version and chain head), the session and what an Idempotency-Key
	// holds. A missing table is ENOTFOUND.
	HandSnapshot(ctx context.Context, clubID, tableID, sessionID int64, key string) (HandSnapshot, error)
	// AppendHand stores a new hand in one transaction, if the table is
	// still at r.Table.Version: the hand with its entries, the running
	// totals of table and session, the table's new state, hand count,
	// version and chain head (the store chains the hand to r.Table's), the
	// listing of its session among those the statistics read live, its
	// Idempotency-Key and its change. ErrStale
	// when the table changed since it was read, or the key was taken
	// meanwhile: nothing is stored, read again. The transaction may hold
	// other hands too (a store may commit hands together); this one is
	// stored whole or not at all, and returned only once durable.
	AppendHand(ctx context.Context, clubID int64, r HandRecord) (Hand, error)
}

// ErrStale is a write that lost a race: what it was decided from changed
// before it was stored, and nothing of it was stored. The flow reads again.
var ErrStale = errors.New("changed since it was read")

// HandSnapshot is what recording a table's next hand is decided from.
type HandSnapshot struct {
	Table Table
	// Session is the session the hand names; SessionFound is false when
	// the club has no such session. Names are its seated players' names.
	Session      Session
	SessionFound bool
	Names        Names
	// Claim is what the request's Idempotency-Key holds, if anything.
	Claim Claimed
}

// MoneyStore holds settlements, transfers, payments and the kitty.
type MoneyStore interface {
	// SettleInput loads what a session's settlement is computed from, with
	// the payments made for it so far.
	SettleInput(ctx context.Context, clubID int64, s Session) (SettleInput, error)
	// StoredSettlement returns a closed session's latest settlement
	// version with its transfers' paid state.
	StoredSettlement(ctx context.Context, clubID int64, s Session) (Settlement, error)
	// OpenDebts returns the unpaid transfers of other sessions' latest
	// settlements that concern any of players.
	OpenDebts(ctx context.Context, clubID, sessionID int64, players []int64) ([]Transfer, error)
	// ListTransfers returns the club's transfers in the filter, by id
	// (every one when f.Page.Limit is 0).
	ListTransfers(ctx context.Context, clubID int64, f TransferFilter) ([]Transfer, error)
	// KittyMovements returns the kitty's cash movements (paid transfers
	// with the kitty and manual bookings, newest first) and the open
	// transfers with the kitty of current settlement versions (oldest
	// first); money into the kitty is positive.
	KittyMovements(ctx context.Context, clubID int64) (cash, receivable []KittyMovement, err error)
	// ListKittyBookings returns a page of the club's kitty bookings by id.
	ListKittyBookings(ctx context.Context, clubID int64, p Page) ([]KittyBooking, error)
}

// FeedStore holds a club's change feed.
type FeedStore interface {
	// Changes returns the changes after seq, in order (of one table when
	// tableID > 0).
	Changes(ctx context.Context, clubID, after int64, limit int, tableID int64) ([]Change, error)
	// ChangeHead returns the number of the club's latest change.
	ChangeHead(ctx context.Context, clubID int64) (int64, error)
}

// StatsStore reads what the statistics' figures are assembled from
// (stats_read.go), each figure in one read: the rollups of settled
// sessions in the filter, the hands of the live ones, whether the
// filter's table is the club's and the club's players' names.
type StatsStore interface {
	// PlayerRecords reads one player's session rollups, money and
	// counters over the filter.
	PlayerRecords(ctx context.Context, clubID, playerID int64, f StatsFilter) (PlayerRecords, error)
	// PairRecords reads the pair rollups of player (with other, when not
	// 0) over the filter.
	PairRecords(ctx context.Context, clubID, playerID, otherID int64, f StatsFilter) (PairRecords, error)
	// LeaderboardRecords reads every player's sums and money over the
	// filter, and the games of its settled sessions.
	LeaderboardRecords(ctx context.Context, clubID int64, f StatsFilter) (LeaderboardRecords, error)
	// SeriesRecords reads each player's points per date (of players, or
	// of everyone when empty) over the filter.
	SeriesRecords(ctx context.Context, clubID int64, players []int64, f StatsFilter) (SeriesRecords, error)
}

// TournamentStore holds a club's tournaments.
type TournamentStore interface {
	FindTournament(ctx context.Context, clubID, id int64) (Tournament, error)
	// SessionRound returns the tournament round of a session; found is
	// false for a session of no tournament.
	SessionRound(ctx context.Context, clubID, sessionID int64) (r SessionRound, found bool, err error)
	// ListTournaments returns a page of the club's tournaments, newest
	// first: those older than p.After when it is not 0.
	ListTournaments(ctx context.Context, clubID int64, p Page) ([]Tournament, error)
}

// TournamentTx holds a club's tournaments in a write flow.
type TournamentTx interface {
	InsertTournament(ctx context.Context, nt NewTournament) (Tournament, error)
	Tournament(ctx context.Context, id int64) (Tournament, error)
	// LockTournament reads a tournament and locks it until the
	// transaction ends: every write of its rounds takes this lock first.
	LockTournament(ctx context.Context, id int64) (Tournament, error)
	InsertRound(ctx context.Context, tournamentID int64, r Round) error
	// SetRoundTimeUp marks a round's playing time as over now.
	SetRoundTimeUp(ctx context.Context, tournamentID int64, round int) error
	// SessionRound returns the tournament round of a session; found is
	// false for a session of no tournament.
	SessionRound(ctx context.Context, sessionID int64) (r SessionRound, found bool, err error)
}

// Pinger checks that the store answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Transactor runs a write flow in one transaction of the store: what fn
// writes is committed together when it returns nil and rolled back when it
// returns an error.
type Transactor interface {
	InTx(ctx context.Context, clubID int64, fn func(Tx) error) error
}

// Tx is what a write flow reads and writes inside its transaction, one
// small interface per thing it holds. (Recording a hand needs no
// transaction of the flow's: HandStore.AppendHand is one.)
type Tx interface {
	IdempotencyTx
	KeyTx
	PlayerTx
	TableTx
	HandTx
	MoneyTx
	StatsTx
	TournamentTx
	JoinTx
	// RecordChange appends a change to the club's feed. The store numbers
	// it gap-free in commit order and, when the flow returns, the change is
	// in the feed; a flow records its change last.
	RecordChange(ctx context.Context, c NewChange) error
}

// IdempotencyTx holds the Idempotency-Keys of writes.
type IdempotencyTx interface {
	// Claim serializes the requests with the same key until the
	// transaction ends and returns what an earlier request stored under it.
	Claim(ctx context.Context, key string) (Claimed, error)
	// Remember stores the key with what its request created.
	Remember(ctx context.Context, idem *Idempotency, kind Kind, ref int64) error
}

// KeyTx holds a club's API keys.
type KeyTx interface {
	// LockKeys returns the club's keys, revoked ones included, and locks
	// them until the transaction ends, so flows that change a club's keys
	// run one after the other.
	LockKeys(ctx context.Context) ([]APIKey, error)
	InsertKey(ctx context.Context, k NewKey) (APIKey, error)
	// RevokeKey marks a key revoked at `at`, unless it already is.
	RevokeKey(ctx context.Context, keyID int64, at time.Time) (APIKey, error)
}

// JoinTx holds a club's join codes (access_join.go).
type JoinTx interface {
	InsertJoin(ctx context.Context, j NewJoinRecord) (Join, error)
	// LockJoin returns the join code whose code hashes to hash, redeemed
	// or expired or not, and locks it until the transaction ends, so two
	// redeems of one code run one after the other; ENOTFOUND when the
	// club has none.
	LockJoin(ctx context.Context, hash []byte) (StoredJoin, error)
	// RedeemJoin marks a join code redeemed at `at` for the key keyID.
	RedeemJoin(ctx context.Context, joinID, keyID int64, at time.Time) error
}

// PlayerTx holds a club's players.
type PlayerTx interface {
	FindPlayer(ctx context.Context, id int64) (Player, error)
	// PlayerByName returns the player called name, if there is one.
	PlayerByName(ctx context.Context, name string) (Player, bool, error)
	InsertPlayer(ctx context.Context, name string, guest bool) (Player, error)
	// UpdatePlayer stores a player's name and whether he retired.
	UpdatePlayer(ctx context.Context, p Player) (Player, error)
	// RetiredPlayers returns those of ids that are retired players of the
	// club, in order.
	RetiredPlayers(ctx context.Context, ids []int64) ([]int64, error)
	// MissingPlayers returns those of ids that are not players of the club.
	MissingPlayers(ctx context.Context, ids []int64) ([]int64, error)
}

// TableTx holds a club's tables and sessions.
type TableTx interface {
	FindClub(ctx context.Context) (Club, error)
	// Table reads a table without locking it.
	Table(ctx context.Context, id int64) (Table, error)
	TableByName(ctx context.Context, name string) (Table, bool, error)
	InsertTable(ctx context.Context, t NewTable, rules json.RawMessage, preset string) (Table, error)
	// UpdateTable stores a table's name and settings (name, options,
	// rules, stake, settle mode, match price).
	UpdateTable(ctx context.Context, t Table) error
	// LockTable reads a table, locks it until the transaction ends and
	// bumps its version, so a hand decided from an older read is not
	// stored: every write of a table's hands and sessions but recording a
	// hand takes this lock first.
	LockTable(ctx context.Context, id int64) (Table, error)
	// OpenSessionOf returns the id of the table's open session, 0 if none.
	OpenSessionOf(ctx context.Context, tableID int64) (int64, error)
	Session(ctx context.Context, id int64) (Session, error)
	InsertSession(ctx context.Context, tableID int64, date string, seating []int64, terms Terms) (Session, error)
	CloseSession(ctx context.Context, id int64) (Session, error)
	// SetTableState stores a table's state after its last hand.
	SetTableState(ctx context.Context, tableID int64, state json.RawMessage) error
}

// HandTx holds the hands of a club's tables.
type HandTx interface {
	// Hand reads a hand by its id, as its current revision.
	Hand(ctx context.Context, id int64) (Hand, error)
	// HandsAfter returns a table's hands numbered after `after`, in order,
	// as their current revisions.
	HandsAfter(ctx context.Context, tableID int64, after int) ([]Hand, error)
	// AppendRevision stores a hand's next revision with its difference
	// entries, moves the running totals by them and records the change.
	AppendRevision(ctx context.Context, r RevisionRecord) error
}

// MoneyTx holds settlements, transfers, payments and the kitty.
type MoneyTx interface {
	SettleInput(ctx context.Context, s Session) (SettleInput, error)
	// SettlementVersion is the latest settlement version of a session (0:
	// none).
	SettlementVersion(ctx context.Context, sessionID int64) (int, error)
	// StoreSettlement stores a settlement version with its transfers and
	// its change.
	StoreSettlement(ctx context.Context, r SettlementRecord) error
	// Transfer reads a transfer of the club with its version and paid state.
	Transfer(ctx context.Context, id int64) (Transfer, error)
	// RecordPayment records that a transfer was paid.
	RecordPayment(ctx context.Context, transferID, recordedBy int64) (Transfer, error)
	// UndoPayment records that a transfer's standing payment was undone:
	// a new fact, the payment itself stays.
	UndoPayment(ctx context.Context, transferID, recordedBy int64) (Transfer, error)
	InsertKittyBooking(ctx context.Context, b NewKittyBooking) (KittyBooking, error)
	KittyBooking(ctx context.Context, id int64) (KittyBooking, error)
}

// StatsTx holds the statistics in a write flow: the rollups and money of
// settled sessions and the list of sessions read live. It writes and
// reads rows; what they hold is this package's rule (stats_rollup.go).
type StatsTx interface {
	// StatSession reads what a session's statistics are made from; a
	// session of another club is ENOTFOUND.
	StatSession(ctx context.Context, sessionID int64) (StatSession, error)
	// StoreRollup replaces a settled session's rollups and money rows
	// and takes it off the sessions read live.
	StoreRollup(ctx context.Context, r SessionRollup) error
	// MarkLive lists a session among those whose figures are rolled up
	// from its hands when read (AppendHand lists a new hand's session
	// itself).
	MarkLive(ctx context.Context, sessionID int64) error
	// ClearStats removes every statistics row of the club.
	ClearStats(ctx context.Context) error
	// StatSessions returns the ids of the club's sessions that have hands
	// or a settlement, after `after`, in order, at most limit.
	StatSessions(ctx context.Context, after int64, limit int) ([]int64, error)
}

// Kind is what an Idempotency-Key's request created.
type Kind string

// The kinds of thing a keyed request creates.
const (
	KindPlayer       Kind = "player"
	KindTable        Kind = "table"
	KindSession      Kind = "session"
	KindHand         Kind = "hand"
	KindCorrection   Kind = "correction"
	KindKittyBooking Kind = "kitty_booking"
)

// Claimed is what an Idempotency-Key holds, if anything.
type Claimed struct {
	Found bool
	Kind  Kind
	Hash  []byte
	Ref   int64
}

// StoredKey is an API key with its secret's hash, for authentication.
type StoredKey struct {
	APIKey
	Hash []byte
}

// NewKey is a key to store: its secret is only ever stored as a hash.
type NewKey struct {
	Role    Role
	Label   string
	Hash    []byte
	TableID *int64 // the one table the key reaches; nil: the whole club
}

// HandRecord is a scored hand to append to its table; Table is the table
// as it was read (its version is the one the write expects).
type HandRecord struct {
	Table      Table
	Session    Session
	Number     int
	Facts      json.RawMessage
	Result     score.Result
	RecordedBy int64
	// Attendance is who played and who sat out (AttendanceOf), for the
	// running totals.
	Attendance []Attendance
	// Idempotency is remembered with the hand, when given.
	Idempotency *Idempotency
	Change      NewChange
}

// RevisionRecord is a hand's next revision.
type RevisionRecord struct {
	Hand     Hand // as it was, with its current revision
	Session  Session
	Revision int
	Facts    json.RawMessage
	Void     bool
	Reason   string
	CausedBy int // the number of the hand whose correction made it
	Result   score.Result
	// Diffs are the players' point differences to the current revision.
	Diffs      []score.PlayerPoints
	RecordedBy int64
	// Attendance moves the running totals' hands played and sat out
	// (AttendanceDiffs to the current revision).
	Attendance []Attendance
	Change     NewChange
}

// SettlementRecord is a settlement version to store.
type SettlementRecord struct {
	Settlement Settlement
	RecordedBy int64
	Change     NewChange
}

// NewKittyBooking is a kitty booking to store.
type NewKittyBooking struct {
	Cents      int64
	Kind       string
	Note       string
	SessionID  *int64
	RecordedBy int64
}

// NewChange is a change to append to a club's feed.
type NewChange struct {
	Kind      ChangeKind
	TableID   *int64
	SessionID *int64
	Number    *int
	Data      map[string]any
}

package main

// stichbuch-bench generate: fills a new club with a realistic, reproducible
// history for benchmarks and demos. Tables of every game play weekly
// evenings over years; every hand is generated from a seeded random source
// and recorded through the store's RecordHand and CloseSession, the write
// path of the API, so the ledger, the running totals, the settlements and
// the statistics are exactly what the API would have stored.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/games/klaberjass"
	"github.com/stichbuch/stichbuch/ledger/games/saukopf"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzedame"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzesau"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// ledgerWriter is what the generator needs of the ledger: the write
// use-cases the API calls for the same requests, and Authenticate, to act
// with the new club's admin key. These are the methods of *postgres.Store
// it calls, with their signatures; newLedgerWriter is the one place that
// makes one, so the generator follows the ledger's API wherever it lives.
type ledgerWriter interface {
	CreateClub(ctx context.Context, c ledger.NewClub) (ledger.Club, string, error)
	Authenticate(ctx context.Context, token string) (ledger.Actor, error)
	CreatePlayer(ctx context.Context, a ledger.Actor, name string, idem *ledger.Idempotency) (ledger.Player, bool, error)
	CreateTable(ctx context.Context, a ledger.Actor, nt ledger.NewTable, idem *ledger.Idempotency) (ledger.Table, bool, error)
	OpenSession(ctx context.Context, a ledger.Actor, tableID int64, date string, seating []int64, idem *ledger.Idempotency) (ledger.Session, bool, error)
	RecordHand(ctx context.Context, a ledger.Actor, nh ledger.NewHand, idem *ledger.Idempotency) (ledger.Hand, bool, error)
	CloseSession(ctx context.Context, a ledger.Actor, id int64) (ledger.Session, error)
}

// newLedgerWriter is the ledger over the database of pool.
// key chains the hands it records (none is needed to create a club).
func newLedgerWriter(pool *pgxpool.Pool, key chain.Key) ledgerWriter {
	return postgres.New(pool, key).Service()
}

// genOptions are the flags of `stichbuch-bench generate`.
type genOptions struct {
	data     string
	seed     uint64
	hands    int
	tables   int
	players  int
	until    string
	workers  int
	name     string
	progress time.Duration
}

// genGame describes how a game's tables play: its share of the club's
// tables, the evening's length, who sits at the table, and its stake.
type genGame struct {
	name           string // the game's registry name
	tableName      string // its tables are called "<tableName> <n>"
	weight         int    // tables of this game per 20
	minHands       int    // hands of an evening, uniform in [minHands, maxHands]
	maxHands       int    //
	seats          []int  // seated players, picked uniformly from this list
	stake          string // cents per point
	settleMode     ledger.SettleMode
	matchLossCents int64
	// hand makes the table's next hand: the facts as the game's engine
	// takes them, in its exported facts type, valid under the table's
	// rules. A hand the ledger refuses stops the generator: the generator
	// is wrong, and a history with a hand put in its place is not the one
	// the seed describes.
	hand func(t *genTable, rng *rand.Rand) any
}

// genGameSpecs say how each game's tables play, by the game's registry
// name. Which games a club plays is the registry's list (genGames).
var genGameSpecs = map[string]genGame{
	doppelkopf.Name: {tableName: "Doko-Runde", weight: 8, minHands: 28, maxHands: 56, seats: []int{4, 4, 4, 4, 4, 5, 5, 5, 6}, stake: "5",
		settleMode: ledger.SettleTransfers, hand: doppelkopfHand},
	saukopf.Name: {tableName: "Saukopf-Stammtisch", weight: 4, minHands: 24, maxHands: 44, seats: []int{4, 4, 4, 4, 5}, stake: "10",
		settleMode: ledger.SettleTransfers, hand: saukopfHand},
	schwarzesau.Name: {tableName: "Schwarze-Sau-Tisch", weight: 3, minHands: 20, maxHands: 40, seats: []int{4, 4, 4, 5}, stake: "0",
		settleMode: ledger.SettleKitty, hand: schwarzeSauHand},
	klaberjass.Name: {tableName: "Klammer-Runde", weight: 3, minHands: 16, maxHands: 32, seats: []int{4}, stake: "0",
		settleMode: ledger.SettleTransfers, matchLossCents: 200, hand: klaberjassHand},
	schwarzedame.Name: {tableName: "Damen-Tisch", weight: 2, minHands: 16, maxHands: 32, seats: []int{4, 4, 4, 5}, stake: "1/2",
		settleMode: ledger.SettleLosersToKitty, hand: schwarzeDameHand},
}

// genGames are the games of a generated club: every game of the registry,
// in its order. A registered game without a spec is an error rather than a
// club without it: a new game needs its generator.
func genGames() ([]genGame, error) {
	var list []genGame
	for _, name := range games.Names() {
		g, ok := genGameSpecs[name]
		if !ok {
			return nil, fmt.Errorf("generate: no generator for the game %q (add it to genGameSpecs)", name)
		}
		g.name = name
		list = append(list, g)
	}
	return list, nil
}

const generateUsage = `Usage: stichbuch-bench generate [flags]

Creates a club and fills it with a reproducible history: tables of every
game, weekly evenings over years, generated hands recorded through the
store's write path (RecordHand, CloseSession) on several tables at once.
Prints progress, the time taken, the club's id and its admin API key.
A generated hand the ledger refuses stops it with an error naming the
table, the hand, its facts and the rule they break.
Uses DATABASE_URL or the embedded PostgreSQL in --data.

Flags:
`

func parseGenerateFlags(args []string, getenv func(string) string, stderr io.Writer) (genOptions, error) {
	var o genOptions
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, generateUsage); fs.PrintDefaults() }
	fs.StringVar(&o.data, "data", runenv.DataDir(getenv), "data directory of the embedded PostgreSQL (ignored with DATABASE_URL)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random history: the same seed gives the same history")
	fs.IntVar(&o.hands, "hands", 100_000, "hands to record in all")
	fs.IntVar(&o.tables, "tables", 40, "tables of the club: one of each game, then the games in the proportions 8 Doppelkopf, 4 Saukopf, 3 Schwarze Sau, 3 Klaberjass, 2 Schwarze Dame")
	fs.IntVar(&o.players, "players", 0, "members of the club (default 4 per table)")
	fs.StringVar(&o.until, "until", "2026-06-30", "about the date of the last evening: the first is as many weeks before as the hands need")
	fs.IntVar(&o.workers, "workers", 4, "tables recorded at once")
	fs.StringVar(&o.name, "name", "", "the club's name (default \"Generierter Club <seed>\")")
	fs.DurationVar(&o.progress, "progress", 5*time.Second, "how often to print progress")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.players == 0 {
		o.players = 4 * o.tables
	}
	if o.name == "" {
		o.name = fmt.Sprintf("Generierter Club %d", o.seed)
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("generate: unexpected argument %q", fs.Arg(0))
	case o.hands < 1:
		return o, errors.New("generate: --hands must be at least 1")
	case o.tables < 1 || o.tables > 1000:
		return o, errors.New("generate: --tables must be between 1 and 1000")
	case o.players < 8 || o.players > 100_000:
		return o, errors.New("generate: --players must be between 8 and 100000")
	case o.workers < 1 || o.workers > 64:
		return o, errors.New("generate: --workers must be between 1 and 64")
	}
	if _, err := time.Parse(time.DateOnly, o.until); err != nil {
		return o, fmt.Errorf("generate: --until must be a date YYYY-MM-DD, got %q", o.until)
	}
	return o, nil
}

func generate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	o, err := parseGenerateFlags(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	db, err := runenv.OpenDatabase(ctx, runenv.Operator, "stichbuch-bench generate", o.data, getenv, log)
	if err != nil {
		return err
	}
	defer db.Close()
	key, err := runenv.ChainKey(getenv, o.data, log)
	if err != nil {
		return err
	}
	pool, err := postgres.Connect(ctx, db.URL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := postgres.Migrate(ctx, pool); err != nil {
		return err
	}
	// A pool of its own: a connection per worker, and commits that do not
	// wait for the disk (a crash loses at most the last hands of a
	// generated history, never its consistency).
	cfg := pool.Config()
	cfg.MaxConns = int32(o.workers + 1)
	cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
	genPool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer genPool.Close()
	res, err := runGenerate(ctx, newLedgerWriter(genPool, key), o, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "club %d %q: %d players, %d tables, %d sessions (%s to %s), %d hands\n",
		res.club.ID, res.club.Name, res.players, res.tables, res.sessions, res.first, res.last, res.hands)
	fmt.Fprintf(stdout, "took %s: %.0f hands/s\n", res.took.Round(time.Second), float64(res.hands)/res.took.Seconds())
	var size string
	if err := genPool.QueryRow(ctx, `SELECT pg_size_pretty(pg_database_size(current_database()))`).Scan(&size); err == nil {
		fmt.Fprintf(stdout, "database size: %s\n", size)
	}
	fmt.Fprintf(stdout, "admin API key:\n%s\n", res.secret)
	return nil
}

// genResult is what a generation made.
type genResult struct {
	club                             ledger.Club
	secret                           string
	players, tables, sessions, hands int
	first, last                      string
	took                             time.Duration
}

// genTable is one table of the generated club and its evening in progress.
type genTable struct {
	game     *genGame
	id       int64
	quota    int     // hands to record
	regulars []int64 // its regular players
	weekday  int     // days after the week's Monday
	session  int64
	seated   []int64
	dealer   int // index into seated
	hands    int // recorded so far (the table's hand count)
	sessions int
	club     []int64 // every member, for guests
	first    string  // dates of the first and last evening
	last     string
}

// runGenerate creates the club, its players and tables, and plays every
// table's evenings, o.workers tables at a time.
func runGenerate(ctx context.Context, store ledgerWriter, o genOptions, stdout io.Writer) (genResult, error) {
	start := time.Now()
	var res genResult
	gameList, err := genGames()
	if err != nil {
		return res, err
	}
	club, secret, err := store.CreateClub(ctx, ledger.NewClub{Name: o.name})
	if err != nil {
		return res, err
	}
	res.club, res.secret = club, secret
	a, err := store.Authenticate(ctx, secret)
	if err != nil {
		return res, err
	}
	rng := rand.New(rand.NewPCG(o.seed, 0))
	players, err := genPlayers(ctx, store, a, o.players)
	if err != nil {
		return res, err
	}
	tables, meanSum, err := genTables(ctx, store, a, gameList, players, o.tables, rng)
	if err != nil {
		return res, err
	}
	res.players, res.tables = len(players), len(tables)
	shareHands(tables, o.hands, meanSum)
	weeks := int(math.Ceil(float64(o.hands)/(meanSum*0.9))) + 1
	until, _ := time.Parse(time.DateOnly, o.until)
	monday := until.AddDate(0, 0, -int(until.Weekday()+6)%7-7*weeks)
	fmt.Fprintf(stdout, "club %d: %d players, %d tables, %d hands over about %d weeks from %s\n",
		club.ID, len(players), len(tables), o.hands, weeks, monday.Format(time.DateOnly))

	var hands, sessions atomic.Int64
	stop := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() { printProgress(stdout, o, start, &hands, &sessions, stop) })
	err = playTables(ctx, store, a, o, tables, monday, &hands, &sessions)
	close(stop)
	progress.Wait()
	if err != nil {
		return res, err
	}
	for _, t := range tables {
		res.hands += t.hands
		res.sessions += t.sessions
		if t.first != "" && (res.first == "" || t.first < res.first) {
			res.first = t.first
		}
		res.last = max(res.last, t.last)
	}
	res.took = time.Since(start)
	return res, nil
}

// genPlayers creates the club's n members.
func genPlayers(ctx context.Context, store ledgerWriter, a ledger.Actor, n int) ([]int64, error) {
	players := make([]int64, n)
	for i := range players {
		p, _, err := store.CreatePlayer(ctx, a, genName(i), nil)
		if err != nil {
			return nil, err
		}
		players[i] = p.ID
	}
	return players, nil
}

// genTables creates n tables, the games in their proportions, each with
// seven regulars from an overlapping stretch of the members and its evening
// of the week. meanSum is the sum of the tables' mean evening lengths.
func genTables(ctx context.Context, store ledgerWriter, a ledger.Actor, gameList []genGame, players []int64, n int,
	rng *rand.Rand) (tables []*genTable, meanSum float64, err error) {
	tables = make([]*genTable, n)
	for i := range tables {
		g := genGameOf(gameList, i)
		t := &genTable{game: g, weekday: rng.IntN(5), club: players}
		base := i * len(players) / len(tables)
		for len(t.regulars) < 7 {
			id := players[(base+rng.IntN(12))%len(players)]
			if !slices.Contains(t.regulars, id) {
				t.regulars = append(t.regulars, id)
			}
		}
		tbl, _, err := store.CreateTable(ctx, a, ledger.NewTable{
			Name: fmt.Sprintf("%s %d", g.tableName, i+1), Game: g.name, Stake: mustPoints(g.stake),
			SettleMode: g.settleMode, MatchLossCents: g.matchLossCents,
		}, nil)
		if err != nil {
			return nil, 0, err
		}
		t.id = tbl.ID
		tables[i] = t
		meanSum += float64(g.minHands+g.maxHands) / 2
	}
	return tables, meanSum, nil
}

// shareHands gives every table its quota of the hands in proportion to its
// evenings' length, so every table plays about the same number of weeks.
func shareHands(tables []*genTable, hands int, meanSum float64) {
	left := hands
	for i, t := range tables {
		mean := float64(t.game.minHands+t.game.maxHands) / 2
		t.quota = int(math.Round(float64(hands) * mean / meanSum))
		if i == len(tables)-1 {
			t.quota = left
		}
		t.quota = min(t.quota, left)
		left -= t.quota
	}
}

// printProgress prints the hands recorded so far every o.progress until
// stop is closed.
func printProgress(stdout io.Writer, o genOptions, start time.Time, hands, sessions *atomic.Int64, stop chan struct{}) {
	tick := time.NewTicker(o.progress)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			n := hands.Load()
			el := time.Since(start)
			rate := float64(n) / el.Seconds()
			eta := time.Duration(float64(o.hands-int(n))/max(rate, 1)) * time.Second
			fmt.Fprintf(stdout, "%9d hands %7d sessions  %5.0f hands/s  %s elapsed, about %s to go\n",
				n, sessions.Load(), rate, el.Round(time.Second), eta.Round(time.Second))
		}
	}
}

// playTables plays every table's evenings with o.workers workers; the
// first error cancels the others.
func playTables(ctx context.Context, store ledgerWriter, a ledger.Actor, o genOptions, tables []*genTable, monday time.Time,
	hands, sessions *atomic.Int64) error {
	work := make(chan int)
	errs := make(chan error, o.workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range o.workers {
		wg.Go(func() {
			for i := range work {
				trng := rand.New(rand.NewPCG(o.seed, uint64(i)+1))
				if err := playTable(ctx, store, a, tables[i], monday, trng, hands, sessions); err != nil {
					errs <- fmt.Errorf("table %d (%s): %w", tables[i].id, tables[i].game.name, err)
					cancel()
					return
				}
			}
		})
	}
	for i := range tables {
		select {
		case work <- i:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// playTable plays a table's evenings, week by week, until its quota of
// hands is recorded.
func playTable(ctx context.Context, store ledgerWriter, a ledger.Actor, t *genTable, monday time.Time, rng *rand.Rand,
	hands, sessions *atomic.Int64) error {
	date := monday.AddDate(0, 0, t.weekday)
	for t.hands < t.quota {
		if rng.Float64() < 0.08 { // holidays: no evening this week
			date = date.AddDate(0, 0, 7)
			continue
		}
		t.seated = t.seating(rng)
		sess, _, err := store.OpenSession(ctx, a, t.id, date.Format(time.DateOnly), t.seated, nil)
		if err != nil {
			return err
		}
		t.session, t.dealer = sess.ID, 0
		if t.first == "" {
			t.first = sess.Date
		}
		t.last = sess.Date
		n := min(t.game.minHands+rng.IntN(t.game.maxHands-t.game.minHands+1), t.quota-t.hands)
		for range n {
			if err := t.record(ctx, store, a, rng); err != nil {
				return err
			}
			hands.Add(1)
		}
		if _, err := store.CloseSession(ctx, a, sess.ID); err != nil {
			return err
		}
		t.sessions++
		sessions.Add(1)
		date = date.AddDate(0, 0, 7)
	}
	return nil
}

// seating picks the evening's players from the regulars, now and then with
// a guest from the whole club in the last seat, in a random order.
func (t *genTable) seating(rng *rand.Rand) []int64 {
	n := t.game.seats[rng.IntN(len(t.game.seats))]
	pool := slices.Clone(t.regulars)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	seated := pool[:n]
	if guest := t.club[rng.IntN(len(t.club))]; rng.Float64() < 0.1 && !slices.Contains(seated, guest) {
		seated[n-1] = guest
	}
	return seated
}

// record generates the table's next hand and records it. A refusal is an
// error naming the hand, its facts and the rule they break: the generator
// made a hand the game does not allow.
func (t *genTable) record(ctx context.Context, store ledgerWriter, a ledger.Actor, rng *rand.Rand) error {
	number := t.hands + 1
	facts, err := json.Marshal(t.game.hand(t, rng))
	if err != nil {
		return fmt.Errorf("hand %d: %w", number, err)
	}
	_, _, err = store.RecordHand(ctx, a, ledger.NewHand{TableID: t.id, SessionID: t.session, Number: number, Facts: facts}, nil)
	if ledger.ErrorCode(err) == ledger.EINVALID {
		return fmt.Errorf("hand %d: the generated facts %s were refused: %w", number, facts, err)
	}
	if err != nil {
		return fmt.Errorf("hand %d %s: %w", number, facts, err)
	}
	t.hands++
	return nil
}

// handPlayers are the four players of the next hand: with four seated all
// of them; with more, the four seats after the dealer (the dealer and the
// players to his right sit out). The dealer moves on after every hand.
func (t *genTable) handPlayers() (dealer int64, players []int64) {
	n := len(t.seated)
	dealer = t.seated[t.dealer%n]
	for k := 1; k <= 4; k++ { // with four seated, k = 4 is the dealer himself
		players = append(players, t.seated[(t.dealer+k)%n])
	}
	// Seating order, as the engines name the players of a hand.
	slices.SortFunc(players, func(x, y int64) int { return slices.Index(t.seated, x) - slices.Index(t.seated, y) })
	return dealer, players
}

func (t *genTable) nextDealer() { t.dealer = (t.dealer + 1) % len(t.seated) }

// genGameOf is the game of table i: one table of each game first, then
// the games in their proportions (a smooth weighted round robin).
func genGameOf(list []genGame, i int) *genGame {
	if i < len(list) {
		return &list[i]
	}
	total := 0
	for _, g := range list {
		total += g.weight
	}
	current := make([]int, len(list))
	best := 0
	for range i - len(list) + 1 {
		best = 0
		for k, g := range list {
			current[k] += g.weight
			if current[k] > current[best] {
				best = k
			}
		}
		current[best] -= total
	}
	return &list[best]
}

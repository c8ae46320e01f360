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
	"strconv"
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
	"github.com/stichbuch/stichbuch/ledger/score"
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
	players := make([]int64, o.players)
	for i := range players {
		p, _, err := store.CreatePlayer(ctx, a, genName(i), nil)
		if err != nil {
			return res, err
		}
		players[i] = p.ID
	}
	res.players = len(players)

	// The tables: games in their proportions, each with seven regulars from
	// an overlapping stretch of the members, and its evening of the week.
	tables := make([]*genTable, o.tables)
	meanSum := 0.0
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
			return res, err
		}
		t.id = tbl.ID
		tables[i] = t
		meanSum += float64(g.minHands+g.maxHands) / 2
	}
	res.tables = len(tables)
	// Every table plays about the same number of weeks: the hands are
	// shared in proportion to the evenings' lengths.
	left := o.hands
	for i, t := range tables {
		mean := float64(t.game.minHands+t.game.maxHands) / 2
		t.quota = int(math.Round(float64(o.hands) * mean / meanSum))
		if i == len(tables)-1 {
			t.quota = left
		}
		t.quota = min(t.quota, left)
		left -= t.quota
	}
	weeks := int(math.Ceil(float64(o.hands)/(meanSum*0.9))) + 1
	until, _ := time.Parse(time.DateOnly, o.until)
	monday := until.AddDate(0, 0, -int(until.Weekday()+6)%7-7*weeks)
	fmt.Fprintf(stdout, "club %d: %d players, %d tables, %d hands over about %d weeks from %s\n",
		club.ID, len(players), len(tables), o.hands, weeks, monday.Format(time.DateOnly))

	var hands, sessions atomic.Int64
	stop := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() {
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
	})
	work := make(chan int)
	errs := make(chan error, o.workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range o.workers {
		wg.Go(func() {
			for i := range work {
				trng := rand.New(rand.NewPCG(o.seed, uint64(i)+1))
				if err := playTable(ctx, store, a, tables[i], monday, trng, &hands, &sessions); err != nil {
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
	close(stop)
	progress.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
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

// --- Doppelkopf -------------------------------------------------------------------

// doppelkopfHand is a hand at the dealer's four: mostly normal games, some
// Hochzeiten, Armut, stille Hochzeiten and solos, now and then a Schmeißen.
// The four players are the engine's default (the seats after the dealer).
func doppelkopfHand(t *genTable, rng *rand.Rand) any {
	dealer, active := t.handPlayers()
	f := doppelkopf.Facts{Dealer: &dealer}
	reSize := 2
	switch r := rng.Float64(); {
	case r < 0.025:
		f.Game = doppelkopf.GameSchmeissen // a redeal: the same dealer deals again
		return f
	case r < 0.74:
		f.Game = doppelkopf.GameNormal
	case r < 0.79:
		f.Game = doppelkopf.GameHochzeit
		if rng.Float64() < 0.1 {
			reSize = 1 // no partner found
		}
	case r < 0.82:
		f.Game = doppelkopf.GameArmut
	case r < 0.84:
		f.Game, reSize = doppelkopf.GameStilleHochzeit, 1
	default:
		reSize = 1
		switch s := rng.IntN(10); {
		case s < 3:
			f.Game = doppelkopf.GameDamensolo
		case s < 6:
			f.Game = doppelkopf.GameBubensolo
		case s < 9:
			f.Game = doppelkopf.GameFarbsolo
			f.Suit = []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)]
		default:
			f.Game = doppelkopf.GameFleischloser
		}
	}
	t.nextDealer()
	// Re's Augen: around 125 in a normal game, a little better in a solo;
	// every trick holds at least 8, so neither party has 1 to 7.
	mean := 122.0
	if reSize == 1 {
		mean = 128
	}
	augen := max(0, min(240, int(math.Round(rng.NormFloat64()*38+mean))))
	switch {
	case augen > 0 && augen < 8:
		augen = 8
	case augen > 232 && augen < 240:
		augen = 232
	}
	re := &doppelkopf.PartyFacts{Players: pick(rng, active, reSize), Augen: &augen}
	kontra := &doppelkopf.PartyFacts{}
	if rng.Float64() < 0.18 {
		re.Announced = "re"
		if augen >= 151 && rng.Float64() < 0.35 {
			re.Announced = "keine90"
		}
	}
	if rng.Float64() < 0.12 {
		kontra.Announced = "kontra"
	}
	if reSize == 2 {
		// Special points (never in a solo, the house rules' default), only
		// where they surely exist: a Fuchs caught by a party that took a
		// trick, a Doppelkopf by one with 40 Augen, a Karlchen in the last
		// trick of a party that took one.
		if rng.Float64() < 0.2 && augen >= 8 {
			re.FuchsGefangen = 1
		} else if rng.Float64() < 0.15 && augen <= 232 {
			kontra.FuchsGefangen = 1
		}
		if rng.Float64() < 0.2 && augen >= 40 {
			re.Doppelkopf = 1
		}
		if rng.Float64() < 0.05 && augen >= 8 {
			re.Karlchen = true
		}
	}
	if rng.Float64() < 0.04 && f.Suit != "herz" { // a Herz-Solo has no Herzstich
		f.Herzstich = true
	}
	f.Re = re
	if kontra.Announced != "" || kontra.FuchsGefangen > 0 {
		f.Kontra = kontra
	}
	return f
}

// --- Saukopf ----------------------------------------------------------------------

// saukopfHand is a Vierer at the dealer's four: the Spieler's contract, his
// party's tricks and Augen, who holds the top trump and how many Laufende.
func saukopfHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	t.nextDealer()
	spieler := players[rng.IntN(4)]
	others := slices.DeleteFunc(slices.Clone(players), func(id int64) bool { return id == spieler })
	f := saukopf.Facts{Variant: "vierer", Players: players, Dealer: dealer, Spieler: &spieler,
		Bid: json.RawMessage(strconv.Itoa(61 + rng.IntN(20)))}
	trumps := 14
	switch r := rng.Float64(); {
	case r < 0.55:
		f.Contract = "sauerei"
		f.CalledSau = []string{"eichel", "gras", "schellen"}[rng.IntN(3)]
		if rng.Float64() < 0.04 {
			f.Unrein = true
		} else {
			f.Mitspieler = &others[rng.IntN(3)]
		}
	case r < 0.77:
		f.Contract = "keiler"
		f.TrumpSuit = []string{"eichel", "gras", "herz", "schellen"}[rng.IntN(4)]
	case r < 0.87:
		f.Contract, trumps = "wutz", 4
	case r < 0.93:
		f.Contract, trumps = "eber", 4
	case r < 0.95:
		// Won without a trick; Laufende never count.
		f.Contract = "mastschwein"
		tricks, augen := 0, 0
		if rng.Float64() < 0.4 {
			tricks, augen = 1, 2+rng.IntN(20)
		}
		f.Tricks, f.Augen = &tricks, &augen
		return f
	case r < 0.965:
		// Won with every trick; no trumps, so no Laufende.
		f.Contract = "schwarte"
		tricks, augen := 8, 120
		if rng.Float64() < 0.5 {
			tricks, augen = 7, 90+rng.IntN(28)
		}
		f.Tricks, f.Augen = &tricks, &augen
		return f
	default:
		f.Contract, trumps = "ferkelparade", 12
	}
	// The Spieler party's tricks and Augen: a won game usually has 5 or 6
	// tricks and 70 to 90 Augen. No card is worth 1 Auge, and the other
	// party took a trick: 2 to 118 Augen in 1 to 7 tricks.
	tricks := max(1, min(7, int(math.Round(rng.NormFloat64()*1.4+4.6))))
	augen := max(2, min(118, int(math.Round(float64(tricks)*15+rng.NormFloat64()*10))))
	f.Tricks, f.Augen = &tricks, &augen
	holder := players[rng.IntN(4)]
	f.Laufende = &saukopf.Laufende{Holder: &holder, Count: 1 + rng.IntN(min(3, trumps))}
	if rng.Float64() < 0.08 {
		f.Huftritte = 1
	}
	return f
}

// --- Schwarze Sau --------------------------------------------------------------

// schwarzeSauHand is a four-player hand: the dealer plays the two Stock
// cards (at most 2 tricks), the others share the rest of the 10 tricks and
// the 120 card points; whoever took the Pik-Dame loses.
func schwarzeSauHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	if !slices.Contains(players, dealer) {
		// More seated than play: the dealer is one of the hand's players.
		dealer = players[0]
	}
	t.nextDealer()
	tricks := map[int64]int{}
	if rng.Float64() < 0.012 { // a Durchmarsch
		winner := players[rng.IntN(4)]
		if winner == dealer {
			winner = players[(slices.Index(players, dealer)+1)%4]
		}
		tricks[winner] = 10
	} else {
		tricks[dealer] = rng.IntN(3)
		left := 10 - tricks[dealer]
		var hold []int64
		for _, id := range players {
			if id != dealer {
				hold = append(hold, id)
			}
		}
		for i, id := range hold {
			if i == len(hold)-1 {
				tricks[id] = left
				break
			}
			n := min(left, rng.IntN(left+1))
			tricks[id] = n
			left -= n
		}
	}
	// Card points roughly in proportion to the tricks, at least 3 for
	// everyone who took a trick (never the impossible 1, and enough for the
	// Pik-Dame's 3).
	points := map[int64]int{}
	total := 0
	var takers []int64
	for _, id := range players {
		if tricks[id] > 0 {
			takers = append(takers, id)
		}
	}
	for i, id := range takers {
		if i == len(takers)-1 {
			points[id] = 120 - total
			break
		}
		share := int(math.Round(float64(tricks[id]) * (9 + rng.Float64()*6)))
		share = max(3, min(share, 120-total-3*(len(takers)-i-1)))
		points[id] = share
		total += share
	}
	sau := takers[rng.IntN(len(takers))]
	f := schwarzesau.Facts{Dealer: dealer}
	for _, id := range players {
		f.Players = append(f.Players, schwarzesau.PlayerFacts{Player: id, CardPoints: points[id], Tricks: tricks[id], PikDame: id == sau})
	}
	calls := []string{"Kontra", "Re", "Sub", "Hirsch"}
	odds := []float64{0.3, 0.4, 0.3, 0.2}
	callers := pick(rng, players, 4)
	for i, call := range calls {
		if rng.Float64() >= odds[i] {
			break
		}
		f.Doublings = append(f.Doublings, schwarzesau.Doubling{Call: call, Player: callers[i]})
	}
	return f
}

// --- Klaberjass -------------------------------------------------------------------

// klaberjassHand is a four-player hand in the evening's seating (first and
// third against second and fourth); the player after the dealer usually
// takes the trump.
func klaberjassHand(t *genTable, rng *rand.Rand) any {
	p := t.seated
	d := t.dealer % 4
	t.nextDealer()
	trump := p[(d+1+rng.IntN(4))%4]
	if rng.Float64() < 0.6 {
		trump = p[(d+1)%4]
	}
	ti := slices.Index(p, trump)
	opponent := p[(ti+1)%4]
	trumpWins := rng.Float64() < 0.62
	x := 77 + rng.IntN(76) // the winning side's card points, 77..152
	if x == 151 {
		x = 152 // no card is worth 1 point: the other side cannot have 1
	}
	winner, loser := trump, opponent
	if !trumpWins {
		winner, loser = opponent, trump
	}
	f := klaberjass.Facts{
		Players: slices.Clone(p), Dealer: p[d], TrumpPlayer: trump,
		TrumpSuit:  []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)],
		CardPoints: []klaberjass.SidePoints{{Player: winner, Points: x}, {Player: loser, Points: 152 - x}},
		LastTrick:  winner,
	}
	if rng.Float64() < 0.12 {
		f.Kontra = true
		f.Re = rng.Float64() < 0.15 // only on top of a Kontra
	}
	return f
}

// --- Schwarze Dame ----------------------------------------------------------------

// schwarzeDameHand deals the 13 tricks among the dealer's four and gives
// every heart and the Pik-Dame to a player who took a trick.
func schwarzeDameHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	if !slices.Contains(players, dealer) {
		dealer = players[0]
	}
	t.nextDealer()
	tricks := make([]int, 4)
	for range 13 {
		tricks[rng.IntN(4)]++
	}
	var takers []int
	for i, n := range tricks {
		if n > 0 {
			takers = append(takers, i)
		}
	}
	hearts := make([][]int, 4)
	for rank := 2; rank <= 14; rank++ {
		i := takers[rng.IntN(len(takers))]
		hearts[i] = append(hearts[i], rank)
	}
	dame := takers[rng.IntN(len(takers))]
	f := schwarzedame.Facts{Dealer: dealer}
	for i, id := range players {
		f.Players = append(f.Players, schwarzedame.PlayerFacts{Player: id, Tricks: tricks[i], Hearts: hearts[i], PikDame: i == dame})
	}
	return f
}

// --- helpers ----------------------------------------------------------------------

// pick returns n of the players, in random order.
func pick(rng *rand.Rand, players []int64, n int) []int64 {
	out := slices.Clone(players)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

func mustPoints(s string) score.Points {
	var p score.Points
	if err := json.Unmarshal([]byte(`"`+s+`"`), &p); err != nil {
		panic(err)
	}
	return p
}

var (
	genFirstNames = []string{"Anna", "Bernd", "Clara", "Dieter", "Erika", "Friedrich", "Gisela", "Hans", "Ilse", "Jürgen",
		"Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate", "Stefan", "Traudl", "Uwe", "Vroni", "Werner",
		"Xaver", "Yvonne", "Zenzi", "Alois", "Brigitte", "Conny", "Detlef", "Elfriede"}
	genLastNames = []string{"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz",
		"Hoffmann", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Huber", "Maier", "Kaiser"}
)

// genName is member i's unique name.
func genName(i int) string {
	name := genFirstNames[i%len(genFirstNames)] + " " + genLastNames[(i/len(genFirstNames))%len(genLastNames)]
	if round := i / (len(genFirstNames) * len(genLastNames)); round > 0 {
		name += fmt.Sprintf(" %d", round+1)
	}
	return name
}

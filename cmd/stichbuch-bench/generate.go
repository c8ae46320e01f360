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

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// ledgerWriter is what the generator needs of the ledger: the write
// use-cases the API calls for the same requests, and Authenticate, to act
// with the new club's admin key. These are the methods of *postgres.Store
// it calls, with their signatures; newLedgerWriter is the one place that
// makes one, so the generator follows the ledger's API wherever it lives.
type ledgerWriter interface {
	CreateClub(ctx context.Context, name, timeZone string) (ledger.Club, string, error)
	Authenticate(ctx context.Context, token string) (ledger.Actor, error)
	CreatePlayer(ctx context.Context, a ledger.Actor, name string, idem *ledger.Idempotency) (ledger.Player, bool, error)
	CreateTable(ctx context.Context, a ledger.Actor, nt ledger.NewTable, idem *ledger.Idempotency) (ledger.Table, bool, error)
	OpenSession(ctx context.Context, a ledger.Actor, tableID int64, date string, seating []int64, idem *ledger.Idempotency) (ledger.Session, bool, error)
	RecordHand(ctx context.Context, a ledger.Actor, nh ledger.NewHand, idem *ledger.Idempotency) (ledger.Hand, bool, error)
	CloseSession(ctx context.Context, a ledger.Actor, id int64) (ledger.Session, error)
}

// newLedgerWriter is the ledger over the database of pool.
func newLedgerWriter(pool *pgxpool.Pool) ledgerWriter { return postgres.New(pool) }

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
	name           string
	weight         int    // tables of this game per 20
	minHands       int    // hands of an evening, uniform in [minHands, maxHands]
	maxHands       int    //
	seats          []int  // seated players, picked uniformly from this list
	stake          string // cents per point
	settleMode     string
	matchLossCents int64
	hand           func(g *genTable, rng *rand.Rand) string
	fallback       func(g *genTable) string
}

var genGames = []genGame{
	{name: "doppelkopf", weight: 8, minHands: 28, maxHands: 56, seats: []int{4, 4, 4, 4, 4, 5, 5, 5, 6}, stake: "5",
		settleMode: ledger.SettleTransfers, hand: doppelkopfHand, fallback: doppelkopfFallback},
	{name: "saukopf", weight: 4, minHands: 24, maxHands: 44, seats: []int{4, 4, 4, 4, 5}, stake: "10",
		settleMode: ledger.SettleTransfers, hand: saukopfHand, fallback: saukopfFallback},
	{name: "schwarze_sau", weight: 3, minHands: 20, maxHands: 40, seats: []int{4, 4, 4, 5}, stake: "0",
		settleMode: ledger.SettleKitty, hand: schwarzeSauHand, fallback: schwarzeSauFallback},
	{name: "klaberjass", weight: 3, minHands: 16, maxHands: 32, seats: []int{4}, stake: "0",
		settleMode: ledger.SettleTransfers, matchLossCents: 200, hand: klaberjassHand, fallback: klaberjassFallback},
	{name: "schwarze_dame", weight: 2, minHands: 16, maxHands: 32, seats: []int{4, 4, 4, 5}, stake: "1/2",
		settleMode: ledger.SettleLosersToKitty, hand: schwarzeDameHand, fallback: schwarzeDameFallback},
}

const generateUsage = `Usage: stichbuch-bench generate [flags]

Creates a club and fills it with a reproducible history: tables of every
game, weekly evenings over years, generated hands recorded through the
store's write path (RecordHand, CloseSession) on several tables at once.
Prints progress, the time taken, the club's id and its admin API key.
Uses DATABASE_URL or the embedded PostgreSQL in --data.

Flags:
`

func parseGenerateFlags(args []string, getenv func(string) string, stderr io.Writer) (genOptions, error) {
	var o genOptions
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, generateUsage); fs.PrintDefaults() }
	fs.StringVar(&o.data, "data", defaultData(getenv), "data directory of the embedded PostgreSQL (ignored with DATABASE_URL)")
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
	db, err := openDatabase(ctx, o.data, getenv, log)
	if err != nil {
		return err
	}
	defer db.stop()
	pool, err := postgres.Connect(ctx, db.url)
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
	res, err := runGenerate(ctx, newLedgerWriter(genPool), o, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "club %d %q: %d players, %d tables, %d sessions (%s to %s), %d hands (%d regenerated after a refusal)\n",
		res.club.ID, res.club.Name, res.players, res.tables, res.sessions, res.first, res.last, res.hands, res.fallbacks)
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
	fallbacks                        int
	first, last                      string
	took                             time.Duration
}

// genTable is one table of the generated club and its evening in progress.
type genTable struct {
	game      *genGame
	id        int64
	quota     int     // hands to record
	regulars  []int64 // its regular players
	weekday   int     // days after the week's Monday
	session   int64
	seated    []int64
	dealer    int // index into seated
	hands     int // recorded so far (the table's hand count)
	sessions  int
	fallbacks int
	club      []int64 // every member, for guests
	first     string  // dates of the first and last evening
	last      string
}

// runGenerate creates the club, its players and tables, and plays every
// table's evenings, o.workers tables at a time.
func runGenerate(ctx context.Context, store ledgerWriter, o genOptions, stdout io.Writer) (genResult, error) {
	start := time.Now()
	var res genResult
	club, secret, err := store.CreateClub(ctx, o.name, "Europe/Berlin")
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
		g := genGameOf(i)
		t := &genTable{game: g, weekday: rng.IntN(5), club: players}
		base := i * len(players) / len(tables)
		for len(t.regulars) < 7 {
			id := players[(base+rng.IntN(12))%len(players)]
			if !slices.Contains(t.regulars, id) {
				t.regulars = append(t.regulars, id)
			}
		}
		tbl, _, err := store.CreateTable(ctx, a, ledger.NewTable{
			Name: fmt.Sprintf("%s %d", genTableName(g.name), i+1), Game: g.name, Stake: mustPoints(g.stake),
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
		res.fallbacks += t.fallbacks
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

// record records the next hand: generated facts, or the game's fallback
// hand when the engine refuses them (the generator is not a rule book).
func (t *genTable) record(ctx context.Context, store ledgerWriter, a ledger.Actor, rng *rand.Rand) error {
	facts := t.game.hand(t, rng)
	_, _, err := store.RecordHand(ctx, a, ledger.NewHand{TableID: t.id, SessionID: t.session, Number: t.hands + 1, Facts: json.RawMessage(facts)}, nil)
	if ledger.ErrorCode(err) == ledger.EINVALID {
		t.fallbacks++
		facts = t.game.fallback(t)
		_, _, err = store.RecordHand(ctx, a, ledger.NewHand{TableID: t.id, SessionID: t.session, Number: t.hands + 1, Facts: json.RawMessage(facts)}, nil)
	}
	if err != nil {
		return fmt.Errorf("hand %d %s: %w", t.hands+1, facts, err)
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
func genGameOf(i int) *genGame {
	if i < len(genGames) {
		return &genGames[i]
	}
	total := 0
	for _, g := range genGames {
		total += g.weight
	}
	current := make([]int, len(genGames))
	best := 0
	for range i - len(genGames) + 1 {
		best = 0
		for k, g := range genGames {
			current[k] += g.weight
			if current[k] > current[best] {
				best = k
			}
		}
		current[best] -= total
	}
	return &genGames[best]
}

// --- Doppelkopf -------------------------------------------------------------------

func doppelkopfHand(t *genTable, rng *rand.Rand) string {
	dealer, active := t.handPlayers()
	r := rng.Float64()
	f := map[string]any{"dealer": dealer}
	reSize := 2
	switch {
	case r < 0.025:
		f["game"] = "schmeissen" // a redeal: the same dealer deals again
		return jsonString(f)
	case r < 0.74:
		f["game"] = "normal"
	case r < 0.79:
		f["game"] = "hochzeit"
		if rng.Float64() < 0.1 {
			reSize = 1 // no partner found
		}
	case r < 0.82:
		f["game"] = "armut"
	case r < 0.84:
		f["game"], reSize = "stille_hochzeit", 1
	default:
		reSize = 1
		switch s := rng.IntN(10); {
		case s < 3:
			f["game"] = "damensolo"
		case s < 6:
			f["game"] = "bubensolo"
		case s < 9:
			f["game"] = "farbsolo"
			f["suit"] = []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)]
		default:
			f["game"] = "fleischloser"
		}
	}
	t.nextDealer()
	re := pick(rng, active, reSize)
	// Re's Augen: around 125 in a normal game, a little better in a solo.
	mean := 122.0
	if reSize == 1 {
		mean = 128
	}
	augen := int(math.Round(rng.NormFloat64()*38 + mean))
	augen = max(0, min(240, augen))
	switch {
	case augen > 0 && augen < 8:
		augen = 8
	case augen > 232 && augen < 240:
		augen = 232
	}
	reParty := map[string]any{"players": re, "augen": augen}
	kontraParty := map[string]any{}
	if rng.Float64() < 0.18 {
		reParty["announced"] = "re"
		if augen >= 151 && rng.Float64() < 0.35 {
			reParty["announced"] = "keine90"
		}
	}
	if rng.Float64() < 0.12 {
		kontraParty["announced"] = "kontra"
	}
	if reSize == 2 && f["game"] != "stille_hochzeit" {
		// Special points, only where they surely exist: Füchse and
		// Doppelköpfe of the party that has the Augen for them.
		if rng.Float64() < 0.2 && augen >= 8 {
			reParty["fuchs_gefangen"] = 1
		} else if rng.Float64() < 0.15 && augen <= 232 {
			kontraParty["fuchs_gefangen"] = 1
		}
		if rng.Float64() < 0.2 && augen >= 40 {
			reParty["doppelkopf"] = 1
		}
		if rng.Float64() < 0.05 && augen >= 8 {
			reParty["karlchen"] = true
		}
	}
	if rng.Float64() < 0.04 && f["suit"] != "herz" {
		f["herzstich"] = true
	}
	f["re"] = reParty
	if len(kontraParty) > 0 {
		f["kontra"] = kontraParty
	}
	return jsonString(f)
}

func doppelkopfFallback(t *genTable) string {
	// The dealer has moved on with the refused hand; this hand is his.
	t.dealer = (t.dealer - 1 + len(t.seated)) % len(t.seated)
	dealer, active := t.handPlayers()
	t.nextDealer()
	return jsonString(map[string]any{"dealer": dealer, "game": "normal", "re": map[string]any{"players": active[:2], "augen": 150}})
}

// --- Saukopf ----------------------------------------------------------------------

func saukopfHand(t *genTable, rng *rand.Rand) string {
	dealer, players := t.handPlayers()
	t.nextDealer()
	spieler := players[rng.IntN(4)]
	others := slices.DeleteFunc(slices.Clone(players), func(id int64) bool { return id == spieler })
	f := map[string]any{"variant": "vierer", "players": players, "dealer": dealer, "spieler": spieler, "bid": 61 + rng.IntN(20)}
	trumps := 14
	r := rng.Float64()
	switch {
	case r < 0.55:
		f["contract"] = "sauerei"
		f["called_sau"] = []string{"eichel", "gras", "schellen"}[rng.IntN(3)]
		if rng.Float64() < 0.04 {
			f["unrein"] = true
		} else {
			f["mitspieler"] = others[rng.IntN(3)]
		}
	case r < 0.77:
		f["contract"] = "keiler"
		f["trump_suit"] = []string{"eichel", "gras", "herz", "schellen"}[rng.IntN(4)]
	case r < 0.87:
		f["contract"], trumps = "wutz", 4
	case r < 0.93:
		f["contract"], trumps = "eber", 4
	case r < 0.95:
		// Won without a trick; Laufende never count.
		f["contract"] = "mastschwein"
		f["tricks"], f["augen"] = 0, 0
		if rng.Float64() < 0.4 {
			f["tricks"], f["augen"] = 1, 2+rng.IntN(20)
		}
		return jsonString(f)
	case r < 0.965:
		// Won with every trick; no trumps, so no Laufende.
		f["contract"] = "schwarte"
		f["tricks"], f["augen"] = 8, 120
		if rng.Float64() < 0.5 {
			f["tricks"], f["augen"] = 7, 90+rng.IntN(28)
		}
		return jsonString(f)
	default:
		f["contract"], trumps = "ferkelparade", 12
	}
	// The Spieler party's tricks and Augen: a won game usually has 5 or 6
	// tricks and 70 to 90 Augen.
	tricks := max(1, min(7, int(math.Round(rng.NormFloat64()*1.4+4.6))))
	augen := max(2, min(118, int(math.Round(float64(tricks)*15+rng.NormFloat64()*10))))
	f["tricks"], f["augen"] = tricks, augen
	f["laufende"] = map[string]any{"holder": players[rng.IntN(4)], "count": 1 + rng.IntN(min(3, trumps))}
	if rng.Float64() < 0.08 {
		f["huftritte"] = 1
	}
	return jsonString(f)
}

func saukopfFallback(t *genTable) string {
	t.dealer = (t.dealer - 1 + len(t.seated)) % len(t.seated)
	dealer, p := t.handPlayers()
	t.nextDealer()
	return fmt.Sprintf(`{"variant":"vierer","players":[%d,%d,%d,%d],"dealer":%d,"spieler":%d,"bid":61,"contract":"keiler","trump_suit":"herz","augen":55,"tricks":4,"laufende":{"holder":%d,"count":2}}`,
		p[0], p[1], p[2], p[3], dealer, p[0], p[0])
}

// --- Schwarze Sau --------------------------------------------------------------

// schwarzeSauHand is a four-player hand: the dealer plays the two Stock
// cards (at most 2 tricks), the others share the rest of the 10 tricks and
// the 120 card points; whoever took the Pik-Dame loses.
func schwarzeSauHand(t *genTable, rng *rand.Rand) string {
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
	// everyone who took a trick (never the impossible 1).
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
	var list []map[string]any
	for _, id := range players {
		p := map[string]any{"player": id, "card_points": points[id], "tricks": tricks[id]}
		if id == sau {
			p["pik_dame"] = true
		}
		list = append(list, p)
	}
	f := map[string]any{"players": list, "dealer": dealer}
	calls := []string{"Kontra", "Re", "Sub", "Hirsch"}
	odds := []float64{0.3, 0.4, 0.3, 0.2}
	callers := pick(rng, players, 4)
	var doublings []map[string]any
	for i, call := range calls {
		if rng.Float64() >= odds[i] {
			break
		}
		doublings = append(doublings, map[string]any{"call": call, "player": callers[i]})
	}
	if doublings != nil {
		f["doublings"] = doublings
	}
	return jsonString(f)
}

func schwarzeSauFallback(t *genTable) string {
	t.dealer = (t.dealer - 1 + len(t.seated)) % len(t.seated)
	_, p := t.handPlayers()
	t.nextDealer()
	return fmt.Sprintf(`{"players":[{"player":%d,"card_points":45,"tricks":3},{"player":%d,"card_points":35,"tricks":3,"pik_dame":true},{"player":%d,"card_points":30,"tricks":3},{"player":%d,"card_points":10,"tricks":1}],"dealer":%d}`,
		p[0], p[1], p[2], p[3], p[3])
}

// --- Klaberjass -------------------------------------------------------------------

// klaberjassHand is a four-player hand in the evening's seating (first and
// third against second and fourth); the player after the dealer usually
// takes the trump.
func klaberjassHand(t *genTable, rng *rand.Rand) string {
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
		x = 152
	}
	winner, loser := trump, opponent
	if !trumpWins {
		winner, loser = opponent, trump
	}
	f := map[string]any{
		"players": p, "dealer": p[d], "trump_player": trump,
		"trump_suit":  []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)],
		"card_points": []map[string]any{{"player": winner, "points": x}, {"player": loser, "points": 152 - x}},
		"last_trick":  winner,
	}
	if rng.Float64() < 0.12 {
		f["kontra"] = true
		if rng.Float64() < 0.15 {
			f["re"] = true
		}
	}
	return jsonString(f)
}

func klaberjassFallback(t *genTable) string {
	p := t.seated
	d := (t.dealer - 1 + 4) % 4
	trump, opponent := p[(d+1)%4], p[(d+2)%4]
	return fmt.Sprintf(`{"players":[%d,%d,%d,%d],"dealer":%d,"trump_player":%d,"trump_suit":"karo","card_points":[{"player":%d,"points":100},{"player":%d,"points":52}],"last_trick":%d}`,
		p[0], p[1], p[2], p[3], p[d], trump, trump, opponent, trump)
}

// --- Schwarze Dame ----------------------------------------------------------------

// schwarzeDameHand deals the 13 tricks among the four players and gives
// every heart and the Pik-Dame to a player who took a trick.
func schwarzeDameHand(t *genTable, rng *rand.Rand) string {
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
	var list []map[string]any
	for i, id := range players {
		p := map[string]any{"player": id, "tricks": tricks[i], "hearts": nonNilInts(hearts[i])}
		if i == dame {
			p["pik_dame"] = true
		}
		list = append(list, p)
	}
	return jsonString(map[string]any{"dealer": dealer, "players": list})
}

func schwarzeDameFallback(t *genTable) string {
	t.dealer = (t.dealer - 1 + len(t.seated)) % len(t.seated)
	_, p := t.handPlayers()
	t.nextDealer()
	return fmt.Sprintf(`{"dealer":%d,"players":[{"player":%d,"tricks":4,"hearts":[2,5,13]},{"player":%d,"tricks":3,"hearts":[14],"pik_dame":true},{"player":%d,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":%d,"tricks":1,"hearts":[11,12]}]}`,
		p[0], p[0], p[1], p[2], p[3])
}

// --- helpers ----------------------------------------------------------------------

// pick returns n of the players, in random order.
func pick(rng *rand.Rand, players []int64, n int) []int64 {
	out := slices.Clone(players)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
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

func genTableName(game string) string {
	switch game {
	case "doppelkopf":
		return "Doko-Runde"
	case "saukopf":
		return "Saukopf-Stammtisch"
	case "schwarze_sau":
		return "Schwarze-Sau-Tisch"
	case "klaberjass":
		return "Klammer-Runde"
	}
	return "Damen-Tisch"
}

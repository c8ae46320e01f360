package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/memory"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
)

// TestGenerateIsReproducible generates the same small history twice into
// two databases: the same hands, every session closed and settled, every
// hand in the statistics. (A hand the ledger refused would have failed the
// run: see TestGenerateFailsOnARefusal.)
func TestGenerateIsReproducible(t *testing.T) {
	ctx := context.Background()
	generateInto := func() (string, string) {
		t.Helper()
		url := pgtest.URL(t)
		var out bytes.Buffer
		args := []string{"stichbuch-bench", "generate", "--hands", "600", "--tables", "6", "--seed", "3", "--workers", "3"}
		if err := run(ctx, args, cmdtest.Env(map[string]string{"DATABASE_URL": url, "LOG_LEVEL": "warn"}), &out, io.Discard); err != nil {
			t.Fatalf("generate: %v\n%s", err, out.String())
		}
		pool, err := postgres.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		// The history: every hand's facts, by table and number (their
		// states name session ids, which the workers' order assigns).
		rows, err := pool.Query(ctx, `
			SELECT t.name || ' ' || s.date || ' ' || h.number, h.body
			FROM hands h JOIN tables t USING (club_id, table_id) JOIN sessions s USING (club_id, session_id)
			ORDER BY t.table_id, h.number`)
		if err != nil {
			t.Fatal(err)
		}
		var history strings.Builder
		var place string
		var body []byte
		_, err = pgx.ForEachRow(rows, []any{&place, &body}, func() error {
			facts, _, _, err := handpack.Unpack(body)
			fmt.Fprintf(&history, "%s %s\n", place, facts)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var hands, indexed, open, unsettled, games int
		err = pool.QueryRow(ctx, `
			SELECT (SELECT count(*) FROM hands),
			       (SELECT count(*) FROM hands h -- an open evening's, or in its settled session's rollups
			        WHERE EXISTS (SELECT 1 FROM stat_open o WHERE o.club_id = h.club_id AND o.session_id = h.session_id)
			           OR EXISTS (SELECT 1 FROM stat_sessions r WHERE r.club_id = h.club_id AND r.session_id = h.session_id)),
			       (SELECT count(DISTINCT game) FROM hands),
			       (SELECT count(*) FROM sessions WHERE closed_at IS NULL),
			       (SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM stat_money m WHERE m.session_id = s.session_id))`).
			Scan(&hands, &indexed, &games, &open, &unsettled)
		if err != nil {
			t.Fatal(err)
		}
		if hands != 600 || indexed != 600 || games != 5 || open != 0 || unsettled != 0 {
			t.Errorf("%d hands, %d in the statistics, %d games, %d sessions open, %d without money; want 600, 600, 5, 0, 0",
				hands, indexed, games, open, unsettled)
		}
		return history.String(), out.String()
	}
	a, out := generateInto()
	b, _ := generateInto()
	if a != b {
		t.Error("the same seed generated two different histories")
	}
	if !regexp.MustCompile(`: 24 players, 6 tables, \d+ sessions \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\), 600 hands\n`).MatchString(out) {
		t.Errorf("no summary of 600 hands in the output:\n%s", out)
	}
	if !strings.Contains(out, "admin API key:\nsb_") {
		t.Errorf("the output names no admin key:\n%s", out)
	}
}

// memLedger is the ledger's own Service on its in-memory ports, recording
// each table's facts in order. refuse, when set, may refuse a hand before
// it is recorded.
type memLedger struct {
	*ledger.Service
	mu     sync.Mutex
	actor  ledger.Actor
	facts  map[int64][]string
	refuse func(ledger.NewHand) error
}

var _ ledgerWriter = (*memLedger)(nil)

func newMemLedger() *memLedger {
	return &memLedger{Service: memory.New().Service(), facts: map[int64][]string{}}
}

func (m *memLedger) Authenticate(ctx context.Context, token string) (ledger.Actor, error) {
	a, err := m.Service.Authenticate(ctx, token)
	m.actor = a
	return a, err
}

func (m *memLedger) RecordHand(ctx context.Context, a ledger.Actor, nh ledger.NewHand, idem *ledger.Idempotency) (ledger.Hand, bool, error) {
	if m.refuse != nil {
		if err := m.refuse(nh); err != nil {
			return ledger.Hand{}, false, err
		}
	}
	h, replayed, err := m.Service.RecordHand(ctx, a, nh, idem)
	if err == nil {
		m.mu.Lock()
		m.facts[nh.TableID] = append(m.facts[nh.TableID], string(nh.Facts))
		m.mu.Unlock()
	}
	return h, replayed, err
}

// tables returns the generated club's tables by id.
func (m *memLedger) tables(t *testing.T) map[int64]ledger.Table {
	t.Helper()
	list, err := m.ListTables(context.Background(), m.actor, ledger.Page{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]ledger.Table{}
	for _, tbl := range list {
		out[tbl.ID] = tbl
	}
	return out
}

// memGenerate generates a history of hands hands at tables tables into a
// new memLedger.
func memGenerate(t *testing.T, seed uint64, hands, tables int) (*memLedger, genResult, error) {
	t.Helper()
	m := newMemLedger()
	o := genOptions{seed: seed, hands: hands, tables: tables, players: 4 * tables, until: "2026-06-30",
		workers: 4, name: "Speicherclub", progress: time.Hour}
	res, err := runGenerate(context.Background(), m, o, io.Discard)
	return m, res, err
}

// TestGeneratedHandsAreValid plays long histories of several seeds, the
// README's 20,000 hands of seed 7 among them, through the engines: the
// generators make only hands the games allow (a refusal fails the run),
// and the same seed makes the same history again.
func TestGeneratedHandsAreValid(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 7, 11} {
		hands := 10_000
		if seed == 7 {
			hands = 20_000
		}
		if testing.Short() {
			hands /= 10
		}
		m, res, err := memGenerate(t, seed, hands, 40)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		games := map[string]int{}
		for _, tbl := range m.tables(t) {
			games[tbl.Game] += tbl.Hands
		}
		if res.hands != hands || len(games) != 5 {
			t.Errorf("seed %d: %d hands of %d games (%v), want %d of 5", seed, res.hands, len(games), games, hands)
		}
		if seed != 7 {
			continue
		}
		again, _, err := memGenerate(t, seed, hands, 40)
		if err != nil {
			t.Fatalf("seed %d again: %v", seed, err)
		}
		if !reflect.DeepEqual(m.facts, again.facts) {
			t.Errorf("seed %d generated two different histories", seed)
		}
	}
}

// TestGenerateFailsOnARefusal: a hand the ledger refuses stops the
// generator with an error that names the table, the hand's number, its
// facts and the rule they break, instead of recording another hand.
func TestGenerateFailsOnARefusal(t *testing.T) {
	m := newMemLedger()
	var first int64
	m.refuse = func(nh ledger.NewHand) error {
		if first == 0 {
			first = nh.TableID
		}
		if nh.TableID == first && nh.Number == 5 {
			return ledger.Invalid("facts.re.augen", "a rule the test made up")
		}
		return nil
	}
	o := genOptions{seed: 5, hands: 400, tables: 5, players: 20, until: "2026-06-30", workers: 1, name: "Verweigert", progress: time.Hour}
	_, err := runGenerate(context.Background(), m, o, io.Discard)
	if err == nil {
		t.Fatal("a refused hand did not stop the generator")
	}
	tbl := m.tables(t)[first]
	for _, want := range []string{
		fmt.Sprintf("table %d (%s)", first, tbl.Game), "hand 5:", `{"`, "facts.re.augen: a rule the test made up",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q:\n%v", want, err)
		}
	}
	if tbl.Hands != 4 {
		t.Errorf("table %d holds %d hands after its fifth was refused, want 4", first, tbl.Hands)
	}
}

// TestEveryGameIsGeneratedAndLoaded: the tools take their list of games
// from the registry; each registered game has a generator and hands for
// the load tool, and neither has hands of a game the registry lacks.
func TestEveryGameIsGeneratedAndLoaded(t *testing.T) {
	list, err := genGames()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(games.Names()) {
		t.Errorf("a generated club plays %d games, the registry has %d", len(list), len(games.Names()))
	}
	for _, name := range games.Names() {
		if len(loadFacts[name]) == 0 {
			t.Errorf("the load tool has no hands of %s", name)
		}
	}
	for name := range genGameSpecs {
		if _, ok := games.Lookup(name); !ok {
			t.Errorf("a generator for %q, which the registry does not know", name)
		}
	}
	for name := range loadFacts {
		if _, ok := games.Lookup(name); !ok {
			t.Errorf("load hands of %q, which the registry does not know", name)
		}
	}
}

// Command goclient is a score app's first evening through the Go client
// that oapi-codegen generates from openapi.yaml (TestGoClient writes the
// generated client.gen.go beside a copy of this file and runs it against
// a running service). Usage: goclient URL KEY.
//
// It records a Doppelkopf hand with typed facts (DoppelkopfFacts), reads
// the table's typed state (DoppelkopfState) before and after it, scores a
// draft hand from that typed state (the score endpoint's state), and fails when an answer is not the one the contract promises: an
// unexpected status, or a state that does not survive a round trip
// through its typed shape (a field the contract does not know).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: goclient URL KEY")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
}

func run(url, key string) error {
	ctx := context.Background()
	c, err := NewClientWithResponses(url, WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
	if err != nil {
		return err
	}
	var seating []PlayerID
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, err := c.CreatePlayerWithResponse(ctx, &CreatePlayerParams{}, NewPlayer{Name: name})
		if err := want(p, err, 201, p != nil && p.JSON201 != nil); err != nil {
			return fmt.Errorf("create player %s: %w", name, err)
		}
		seating = append(seating, p.JSON201.Id)
	}
	t, err := c.CreateTableWithResponse(ctx, &CreateTableParams{}, NewTable{Name: "Donnerstag", Game: Doppelkopf})
	if err := want(t, err, 201, t != nil && t.JSON201 != nil); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	table := t.JSON201.Id
	s, err := c.OpenSessionWithResponse(ctx, table, &OpenSessionParams{}, NewSession{PlayerIds: seating})
	if err := want(s, err, 201, s != nil && s.JSON201 != nil); err != nil {
		return fmt.Errorf("open session: %w", err)
	}
	before, err := tableState(ctx, c, table)
	if err != nil {
		return err
	}
	fmt.Printf("before: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d summary=%q\n",
		deref(before.NextDealer), before.BockGamesLeft, before.BockRoundsQueued, before.Summary)
	if err := recordHand(ctx, c, table, s.JSON201.Id, seating); err != nil {
		return err
	}
	after, err := tableState(ctx, c, table)
	if err != nil {
		return err
	}
	fmt.Printf("after: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d summary=%q\n",
		deref(after.NextDealer), after.BockGamesLeft, after.BockRoundsQueued, after.Summary)
	draft, err := scoreDraft(ctx, c, seating, after)
	if err != nil {
		return err
	}
	fmt.Printf("draft: next_dealer=%d bock_games_left=%d bock_rounds_queued=%d summary=%q\n",
		deref(draft.NextDealer), draft.BockGamesLeft, draft.BockRoundsQueued, draft.Summary)
	return nil
}

// scoreDraft scores a normal game from the table's typed state without
// storing it, and reads the state it would leave as DoppelkopfState.
func scoreDraft(ctx context.Context, c *ClientWithResponses, seating []PlayerID, st DoppelkopfState) (DoppelkopfState, error) {
	var state ScoreDoppelkopfJSONBody_State
	if err := state.FromDoppelkopfState(st); err != nil {
		return DoppelkopfState{}, err
	}
	facts := DoppelkopfFacts{Game: DoppelkopfFactsGameNormal, Re: &DoppelkopfRe{Players: []int64{seating[0], seating[2]}, Augen: 130}}
	r, err := c.ScoreDoppelkopfWithResponse(ctx, ScoreDoppelkopfJSONRequestBody{PlayerIds: seating, State: &state, Facts: facts})
	if err := want(r, err, 200, r != nil && r.JSON200 != nil); err != nil {
		return DoppelkopfState{}, fmt.Errorf("score a draft: %w", err)
	}
	return r.JSON200.State.AsDoppelkopfState()
}

// recordHand records hand 1: a normal game Re (the first two seated) wins
// with 151 Augen, and a Herzstich, which queues a Bock round.
func recordHand(ctx context.Context, c *ClientWithResponses, table, session int64, seating []PlayerID) error {
	herzstich := true
	var facts GameFacts
	if err := facts.FromDoppelkopfFacts(DoppelkopfFacts{
		Game:      DoppelkopfFactsGameNormal,
		Re:        &DoppelkopfRe{Players: []int64{seating[0], seating[1]}, Augen: 151},
		Herzstich: &herzstich,
	}); err != nil {
		return err
	}
	h, err := c.RecordHandWithResponse(ctx, table, &RecordHandParams{}, NewHand{SessionId: session, Number: 1, Facts: facts})
	if err := want(h, err, 201, h != nil && h.JSON201 != nil); err != nil {
		return fmt.Errorf("record hand: %w", err)
	}
	recorded, err := h.JSON201.Facts.AsDoppelkopfFacts()
	if err != nil || recorded.Re == nil || recorded.Re.Augen != 151 {
		return fmt.Errorf("the recorded hand's facts do not read back as DoppelkopfFacts: %v %s", err, h.Body)
	}
	return nil
}

// tableState reads the table and its state as DoppelkopfState.
func tableState(ctx context.Context, c *ClientWithResponses, table int64) (DoppelkopfState, error) {
	r, err := c.GetTableWithResponse(ctx, table, &GetTableParams{})
	if err := want(r, err, 200, r != nil && r.JSON200 != nil); err != nil {
		return DoppelkopfState{}, fmt.Errorf("get table: %w", err)
	}
	st, err := r.JSON200.State.AsDoppelkopfState()
	if err != nil {
		return DoppelkopfState{}, err
	}
	raw, err := r.JSON200.State.MarshalJSON()
	if err != nil {
		return DoppelkopfState{}, err
	}
	return st, sameJSON(raw, st)
}

// sameJSON fails when typed says less than raw: a field the service sent
// that the contract's type does not have, or a value it reads otherwise.
func sameJSON(raw []byte, typed any) error {
	back, err := json.Marshal(typed)
	if err != nil {
		return err
	}
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(back, &b); err != nil {
		return err
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("the state does not survive its typed shape:\nsent  %s\ntyped %s", bytes.TrimSpace(raw), back)
	}
	return nil
}

// answer is what every generated response has.
type answer interface{ StatusCode() int }

// want checks an answer's status and that its body decoded as typed.
func want(r answer, err error, status int, decoded bool) error {
	switch {
	case err != nil:
		return err
	case r.StatusCode() != status:
		return fmt.Errorf("status %d, want %d", r.StatusCode(), status)
	case !decoded:
		return fmt.Errorf("status %d but the body did not decode as the contract's type", status)
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

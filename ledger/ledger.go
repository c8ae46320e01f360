// Package ledger is stichbuch's domain: clubs, API keys, players, tables,
// sessions, hands and their entries, money and statistics, and the
// use-cases that keep them (Service). It owns every rule: the write flows
// run here against small store ports (ports.go); the adapters translate
// and never decide. It knows the games through their registry and never
// imports a database or HTTP library; adapters live in subpackages
// (postgres, memory) and in api. DESIGN.md beside this file says why.
//
// Tournament evenings (tournament.go) are Doppelkopf as DDV clubs play it:
// rounds of a fixed number of games at several tables, the Pflichtsolo
// owed per round and its Vorführung, the Spielliste and the ranking, by
// the TSR paragraphs the doppelkopf package documentation quotes.
package ledger

// Idempotency makes a write safe to retry: the same key and request hash
// replay the first result, the same key with another hash is refused.
type Idempotency struct {
	Key  string
	Hash []byte
	// Field names where the key came from in a refusal; "" is the
	// Idempotency-Key header.
	Field string
}

// MaxIdempotencyKeyLen bounds an Idempotency-Key, in bytes: the keys are a
// primary key's text, whose index entries PostgreSQL limits.
const MaxIdempotencyKeyLen = 200

// Actor is who makes a request: the club and the API key, and the one
// table the key is limited to (0: the whole club).
type Actor struct {
	ClubID  int64
	KeyID   int64
	Role    Role
	TableID int64
}

// Page asks for a slice of a list: items after a cursor (the id of the
// last item seen, 0 for the first page), at most Limit (0: every item).
type Page struct {
	After int64
	Limit int
}

// MaxPageLimit is the most items one page of a list holds.
const MaxPageLimit = 1000

// Check refuses a negative cursor and a limit beyond 0..MaxPageLimit.
func (p Page) Check() error {
	if p.After < 0 {
		return Invalid("after", "must be 0 or the id of an item seen, got %d", p.After)
	}
	if p.Limit < 0 || p.Limit > MaxPageLimit {
		return Invalid("limit", "must be from 1 to %d, got %d", MaxPageLimit, p.Limit)
	}
	return nil
}

package memory

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// CreateClub stores a new club with its first key.
func (s *Store) CreateClub(ctx context.Context, c ledger.NewClub, first ledger.NewKey) (ledger.Club, ledger.APIKey, error) {
	var club ledger.Club
	var key ledger.APIKey
	err := s.InTx(ctx, 0, func(ltx ledger.Tx) error {
		t := ltx.(*tx)
		club = ledger.Club{ID: t.next(), Name: c.Name, TimeZone: c.TimeZone, CreatedAt: t.now}
		put(t, t.d.clubs, club.ID, clubRow{Club: club})
		t.club = club.ID
		var err error
		key, err = t.InsertKey(ctx, first)
		return err
	})
	return club, key, err
}

// FindClub returns a club.
func (s *Store) FindClub(_ context.Context, clubID int64) (ledger.Club, error) {
	return read(s, func(d *data) (ledger.Club, error) { return d.club(clubID) })
}

// FindClub returns the transaction's club.
func (t *tx) FindClub(context.Context) (ledger.Club, error) { return t.d.club(t.club) }

func (d *data) club(id int64) (ledger.Club, error) {
	c, ok := d.clubs[id]
	if !ok {
		return ledger.Club{}, notFound("club %d", id)
	}
	return c.Club, nil
}

// FindKey returns a key with its secret's hash.
func (s *Store) FindKey(_ context.Context, clubID, keyID int64) (ledger.StoredKey, error) {
	return read(s, func(d *data) (ledger.StoredKey, error) {
		k, ok := d.keys[keyID]
		if !ok || k.ClubID != clubID {
			return ledger.StoredKey{}, notFound("API key %d", keyID)
		}
		return k.StoredKey, nil
	})
}

// ListKeys returns a page of the club's keys, oldest first.
func (s *Store) ListKeys(_ context.Context, clubID int64, p ledger.Page) ([]ledger.APIKey, error) {
	return read(s, func(d *data) ([]ledger.APIKey, error) {
		var out []ledger.APIKey
		for _, k := range d.keys {
			if k.ClubID == clubID && k.ID > p.After {
				out = append(out, k.APIKey)
			}
		}
		slices.SortFunc(out, func(a, b ledger.APIKey) int { return cmp.Compare(a.ID, b.ID) })
		return limited(out, p.Limit), nil
	})
}

// LockKeys returns the club's keys, oldest first; the store's lock already
// serializes every transaction.
func (t *tx) LockKeys(context.Context) ([]ledger.APIKey, error) {
	var out []ledger.APIKey
	for _, k := range t.d.keys {
		if k.ClubID == t.club {
			out = append(out, k.APIKey)
		}
	}
	slices.SortFunc(out, func(a, b ledger.APIKey) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// InsertKey stores a new key of the club.
func (t *tx) InsertKey(_ context.Context, nk ledger.NewKey) (ledger.APIKey, error) {
	k := ledger.APIKey{ClubID: t.club, ID: t.next(), Role: nk.Role, Label: nk.Label, CreatedAt: t.now, TableID: nk.TableID}
	put(t, t.d.keys, k.ID, keyRow{ledger.StoredKey{APIKey: k, Hash: nk.Hash}})
	return k, nil
}

// RevokeKey marks a key revoked at `at`, unless it already is.
func (t *tx) RevokeKey(_ context.Context, keyID int64, at time.Time) (ledger.APIKey, error) {
	k, ok := t.d.keys[keyID]
	if !ok || k.ClubID != t.club {
		return ledger.APIKey{}, notFound("API key %d", keyID)
	}
	if k.RevokedAt == nil {
		k.RevokedAt = &at
		put(t, t.d.keys, keyID, k)
	}
	return k.APIKey, nil
}

// ListPlayers returns a page of the club's players by name, then id.
func (s *Store) ListPlayers(_ context.Context, clubID int64, p ledger.Page) ([]ledger.Player, error) {
	return read(s, func(d *data) ([]ledger.Player, error) {
		var out []ledger.Player
		for _, pl := range d.players {
			if pl.club == clubID {
				out = append(out, pl.Player)
			}
		}
		return byNamePage(out, p, func(pl ledger.Player) (string, int64) { return pl.Name, pl.ID }), nil
	})
}

// byNamePage sorts items by name, then id, and returns the page of those
// after the item whose id is p.After (none when no item has it).
func byNamePage[T any](items []T, p ledger.Page, key func(T) (string, int64)) []T {
	order := func(a, b T) int {
		an, ai := key(a)
		bn, bi := key(b)
		return cmp.Or(cmp.Compare(an, bn), cmp.Compare(ai, bi))
	}
	slices.SortFunc(items, order)
	if p.After != 0 {
		i := slices.IndexFunc(items, func(it T) bool { _, id := key(it); return id == p.After })
		if i < 0 {
			return nil
		}
		items = items[i+1:]
	}
	return limited(items, p.Limit)
}

// limited cuts items to at most limit (every one when limit is 0).
func limited[T any](items []T, limit int) []T {
	if limit > 0 && len(items) > limit {
		return items[:limit]
	}
	return items
}

// FindPlayer returns a player of the club.
func (s *Store) FindPlayer(_ context.Context, clubID, id int64) (ledger.Player, error) {
	return read(s, func(d *data) (ledger.Player, error) { return d.player(clubID, id) })
}

// FindPlayer returns a player of the club.
func (t *tx) FindPlayer(_ context.Context, id int64) (ledger.Player, error) {
	return t.d.player(t.club, id)
}

func (d *data) player(clubID, id int64) (ledger.Player, error) {
	p, ok := d.players[id]
	if !ok || p.club != clubID {
		return ledger.Player{}, notFound("player %d", id)
	}
	return p.Player, nil
}

// PlayerByName returns the player called name, if there is one.
func (t *tx) PlayerByName(_ context.Context, name string) (ledger.Player, bool, error) {
	for _, p := range t.d.players {
		if p.club == t.club && p.Name == name {
			return p.Player, true, nil
		}
	}
	return ledger.Player{}, false, nil
}

// UpdatePlayer stores a player's name, whether he retired and whether he is a guest.
func (t *tx) UpdatePlayer(_ context.Context, p ledger.Player) (ledger.Player, error) {
	row, ok := t.d.players[p.ID]
	if !ok || row.club != t.club {
		return ledger.Player{}, notFound("player %d", p.ID)
	}
	row.Name, row.Retired, row.Guest = p.Name, p.Retired, p.Guest
	put(t, t.d.players, p.ID, row)
	return row.Player, nil
}

// RetiredPlayers returns those of ids that are retired players of the club.
func (t *tx) RetiredPlayers(_ context.Context, ids []int64) ([]int64, error) {
	retired := []int64{}
	for _, id := range ids {
		if p, ok := t.d.players[id]; ok && p.club == t.club && p.Retired {
			retired = append(retired, id)
		}
	}
	slices.Sort(retired)
	return retired, nil
}

// InsertPlayer stores a new player of the club.
func (t *tx) InsertPlayer(_ context.Context, name string, guest bool) (ledger.Player, error) {
	p := ledger.Player{ID: t.next(), Name: name, Guest: guest, CreatedAt: t.now}
	put(t, t.d.players, p.ID, playerRow{club: t.club, Player: p})
	return p, nil
}

// MissingPlayers returns those of ids that are not players of the club.
func (t *tx) MissingPlayers(_ context.Context, ids []int64) ([]int64, error) {
	missing := []int64{}
	for _, id := range ids {
		if p, ok := t.d.players[id]; !ok || p.club != t.club {
			missing = append(missing, id)
		}
	}
	return missing, nil
}

// Claim returns what an earlier request stored under the key; the store's
// lock already serializes every transaction.
func (t *tx) Claim(_ context.Context, key string) (ledger.Claimed, error) {
	return t.d.idempotency[idemKey{t.club, key}], nil
}

// Remember stores the key with what its request created.
func (t *tx) Remember(_ context.Context, idem *ledger.Idempotency, kind ledger.Kind, ref int64) error {
	k := idemKey{t.club, idem.Key}
	if _, ok := t.d.idempotency[k]; ok {
		return ledger.Errorf(ledger.ECONFLICT, "already exists (idempotency_keys_pkey)")
	}
	put(t, t.d.idempotency, k, ledger.Claimed{Found: true, Kind: kind, Hash: idem.Hash, Ref: ref})
	return nil
}

// RecordChange numbers a change with the club's counter and appends it.
func (t *tx) RecordChange(_ context.Context, nc ledger.NewChange) error {
	c, ok := t.d.clubs[t.club]
	if !ok {
		return notFound("club %d", t.club)
	}
	c.changeSeq++
	put(t, t.d.clubs, t.club, c)
	data, err := marshal(nc.Data)
	if err != nil {
		return err
	}
	ch := ledger.Change{Seq: c.changeSeq, Kind: nc.Kind, TableID: nc.TableID, SessionID: nc.SessionID, Number: nc.Number, Data: data, CreatedAt: t.now}
	appendTo(t, t.d.changes, t.club, ch)
	return nil
}

// Changes returns a club's changes after seq, in order.
func (s *Store) Changes(_ context.Context, clubID, after int64, limit int, tableID int64) ([]ledger.Change, error) {
	return read(s, func(d *data) ([]ledger.Change, error) {
		var out []ledger.Change
		for _, c := range d.changes[clubID] {
			if c.Seq > after && (tableID == 0 || (c.TableID != nil && *c.TableID == tableID)) && len(out) < limit {
				out = append(out, c)
			}
		}
		return out, nil
	})
}

// ChangeHead returns the number of the club's latest change.
func (s *Store) ChangeHead(_ context.Context, clubID int64) (int64, error) {
	return read(s, func(d *data) (int64, error) {
		c, ok := d.clubs[clubID]
		if !ok {
			return 0, notFound("club %d", clubID)
		}
		return c.changeSeq, nil
	})
}

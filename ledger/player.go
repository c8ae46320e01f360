package ledger

import (
	"context"
	"time"
)

// Player is a club member or guest. A retired player stays in the
// history but is seated at no new evening.
type Player struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Retired bool   `json:"retired"`
	// Guest marks a player who is not a member: he plays and pays as
	// anyone, and the leaderboard leaves him out.
	Guest     bool      `json:"guest"`
	CreatedAt time.Time `json:"created_at"`
}

// CreatePlayer adds a member to the actor's club (CreateGuest a guest).
func (s *Service) CreatePlayer(ctx context.Context, a Actor, name string, idem *Idempotency) (Player, bool, error) {
	return s.CreatePlayerAs(ctx, a, name, false, idem)
}

// CreatePlayerAs adds a player to the actor's club, a guest or a member;
// names are unique per club, and a taken name is ECONFLICT naming the
// player who has it.
func (s *Service) CreatePlayerAs(ctx context.Context, a Actor, name string, guest bool, idem *Idempotency) (Player, bool, error) {
	name, err := TrimName("name", name, MaxPlayerNameLen)
	if err != nil {
		return Player{}, false, err
	}
	var p Player
	var replayed bool
	err = s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindPlayer)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			p, err = tx.FindPlayer(ctx, ref)
			return err
		}
		if err := nameFree(ctx, tx, name); err != nil {
			return err
		}
		if p, err = tx.InsertPlayer(ctx, name, guest); err != nil {
			return wrap(err, "CreatePlayer: InsertPlayer")
		}
		return remember(ctx, tx, idem, KindPlayer, p.ID)
	})
	return p, replayed, err
}

// ListPlayers returns a page of the club's players by name: those after
// the player p.After.
func (s *Service) ListPlayers(ctx context.Context, a Actor, p Page) ([]Player, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	list, err := s.Players.ListPlayers(ctx, a.ClubID, p)
	if list == nil {
		list = []Player{}
	}
	return list, err
}

// FindPlayer returns a player of the actor's club.
func (s *Service) FindPlayer(ctx context.Context, a Actor, id int64) (Player, error) {
	return s.Players.FindPlayer(ctx, a.ClubID, id)
}

// PlayerUpdate is what may change of a player; nil leaves it as it is.
type PlayerUpdate struct {
	Name *string
	// Retired takes a player off the list of those who can be seated (or
	// back on it); his hands, money and statistics stay.
	Retired *bool
	// Guest marks him a guest (or a member).
	Guest *bool
}

// UpdatePlayer changes a player's name (a typo need not stay forever) or
// retires him (admin). Every text that names him reads the new name from
// then on; his hands and money stay his. The name is unique in the club
// like a new one; a retired player is seated at no new evening. An update
// that changes nothing stores nothing; a change is audited in the feed.
func (s *Service) UpdatePlayer(ctx context.Context, a Actor, id int64, u PlayerUpdate) (Player, error) {
	if u.Retired != nil && !a.Role.Includes(RoleAdmin) {
		return Player{}, &Error{Code: EFORBIDDEN, Field: "retired", Rule: "needs an admin key",
			Message: "only an admin may retire a player or bring him back"}
	}
	if u.Name != nil {
		name, err := TrimName("name", *u.Name, MaxPlayerNameLen)
		if err != nil {
			return Player{}, err
		}
		u.Name = &name
	}
	var p Player
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		old, err := tx.FindPlayer(ctx, id)
		if err != nil {
			return wrap(err, "UpdatePlayer: FindPlayer")
		}
		p = old
		if u.Name != nil && *u.Name != old.Name {
			if err := nameFree(ctx, tx, *u.Name); err != nil {
				return err
			}
			p.Name = *u.Name
		}
		if u.Retired != nil {
			p.Retired = *u.Retired
		}
		if u.Guest != nil {
			p.Guest = *u.Guest
		}
		if p == old {
			return nil
		}
		if p, err = tx.UpdatePlayer(ctx, p); err != nil {
			return wrap(err, "UpdatePlayer: UpdatePlayer")
		}
		return tx.RecordChange(ctx, NewChange{Kind: ChangePlayerUpdated,
			Data: map[string]any{"player_id": id, "name": p.Name, "was": old.Name, "retired": p.Retired, "guest": p.Guest}})
	})
	return p, err
}

// nameFree refuses a player's name another player of the club has.
func nameFree(ctx context.Context, tx Tx, name string) error {
	other, taken, err := tx.PlayerByName(ctx, name)
	if err != nil || !taken {
		return err
	}
	return &Error{Code: ECONFLICT, Message: "a player of this club is already called " + name, Field: "name",
		Rule: "names are unique within a club", Extra: map[string]any{"existing_id": other.ID}}
}

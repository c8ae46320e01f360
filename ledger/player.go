package ledger

import "context"

// CreatePlayer adds a player to the actor's club; names are unique per
// club, and a taken name is ECONFLICT naming the player who has it.
func (s *Service) CreatePlayer(ctx context.Context, a Actor, name string, idem *Idempotency) (Player, bool, error) {
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
		other, taken, err := tx.PlayerByName(ctx, name)
		if err != nil {
			return err
		}
		if taken {
			return &Error{Code: ECONFLICT, Message: "a player of this club is already called " + name, Field: "name",
				Rule: "names are unique within a club", Extra: map[string]any{"existing_id": other.ID}}
		}
		if p, err = tx.InsertPlayer(ctx, name); err != nil {
			return err
		}
		return remember(ctx, tx, idem, KindPlayer, p.ID)
	})
	return p, replayed, err
}

// ListPlayers returns the club's players by name.
func (s *Service) ListPlayers(ctx context.Context, a Actor) ([]Player, error) {
	return s.Players.ListPlayers(ctx, a.ClubID)
}

// FindPlayer returns a player of the actor's club.
func (s *Service) FindPlayer(ctx context.Context, a Actor, id int64) (Player, error) {
	return s.Players.FindPlayer(ctx, a.ClubID, id)
}

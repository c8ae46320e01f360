package ledger

import "context"

// Scope is how much of its club a route reaches, which decides whether a
// key limited to one table (Actor.TableID) may use it. Every route names
// its scope where it names the role it needs; the zero Scope is the whole
// club, so a route that names none is closed to table keys.
type Scope int

// The scopes, from the widest.
const (
	// ScopeClub reaches the whole club (its streams, changes, money,
	// statistics, tournaments, keys, other players' records): a table key
	// is refused with EFORBIDDEN.
	ScopeClub Scope = iota
	// ScopeTable reaches one table, named by id: a table key of another
	// table gets ENOTFOUND, as for another club's table.
	ScopeTable
	// ScopeSession reaches one session, named by id, and so its table.
	ScopeSession
	// ScopeShared is what every key of the club may reach: the club's
	// name, its players, the games, and the table list (which a table key
	// sees holding its table alone).
	ScopeShared
)

// Reach refuses what the actor's key may not reach of scope (id is the
// table or session it names): nothing for a key of the whole club. This
// is the one place that limits a table key; the role a route needs is
// checked by Role.Includes before it.
func (s *Service) Reach(ctx context.Context, a Actor, scope Scope, id int64) error {
	if a.TableID == 0 {
		return nil
	}
	switch scope {
	case ScopeShared:
		return nil
	case ScopeTable:
		if id != a.TableID {
			return Errorf(ENOTFOUND, "table %d not found", id)
		}
		return nil
	case ScopeSession:
		sess, err := s.Tables.FindSession(ctx, a.ClubID, id)
		if err != nil {
			return wrap(err, "Reach: FindSession")
		}
		if sess.TableID != a.TableID {
			return Errorf(ENOTFOUND, "session %d not found", id)
		}
		return nil
	}
	return Errorf(EFORBIDDEN, "this key is limited to table %d and may not use what reaches the whole club", a.TableID)
}

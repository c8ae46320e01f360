package backup

import (
	"fmt"
	"slices"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// Tournament is a tournament evening (ledger.Tournament): its tables in
// order and its rounds, each a session per table. The hands are the
// sessions' own; where a table stands is derived from them.
type Tournament struct {
	ID            int64             `json:"id"`
	Name          string            `json:"name"`
	Date          string            `json:"date"`
	HandsPerRound int               `json:"hands_per_round"`
	Tables        []int64           `json:"tables"`
	CreatedAt     time.Time         `json:"created_at"`
	Rounds        []TournamentRound `json:"rounds"`
}

// TournamentRound is a round of a tournament, numbered from 1, with its
// session per table (in the tournament's table order).
type TournamentRound struct {
	Number   int        `json:"number"`
	OpenedAt time.Time  `json:"opened_at"`
	TimeUpAt *time.Time `json:"time_up_at"`
	Sessions []int64    `json:"sessions"`
}

// checkTournaments: ids unique, the tables and sessions in the document,
// rounds numbered 1, 2, 3 …, each round's sessions at the tournament's
// tables.
func (c *checker) checkTournaments() error {
	seen := map[int64]bool{}
	for i, tr := range c.d.Tournaments {
		f := fmt.Sprintf("tournaments[%d]", i)
		if tr.ID <= 0 || seen[tr.ID] {
			return ledger.Invalid(f+".id", "tournament id %d is not positive or listed twice", tr.ID)
		}
		seen[tr.ID] = true
		if _, err := ledger.ParseDate(f+".date", tr.Date); err != nil {
			return err
		}
		for j, id := range tr.Tables {
			if _, ok := c.tables[id]; !ok || slices.Contains(tr.Tables[:j], id) {
				return ledger.Invalid(fmt.Sprintf("%s.tables[%d]", f, j), "table %d is not in the document or listed twice", id)
			}
		}
		for j, r := range tr.Rounds {
			if err := c.checkRound(fmt.Sprintf("%s.rounds[%d]", f, j), tr, j+1, r); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) checkRound(f string, tr Tournament, number int, r TournamentRound) error {
	if r.Number != number {
		return ledger.Invalid(f+".number", "is %d, want %d: rounds are numbered 1, 2, 3 …", r.Number, number)
	}
	if len(r.Sessions) != len(tr.Tables) {
		return ledger.Invalid(f+".sessions", "holds %d sessions for %d tables", len(r.Sessions), len(tr.Tables))
	}
	for k, id := range r.Sessions {
		if s, ok := c.sessions[id]; !ok || s.TableID != tr.Tables[k] {
			return ledger.Invalid(fmt.Sprintf("%s.sessions[%d]", f, k), "session %d is not in the document or not at table %d", id, tr.Tables[k])
		}
	}
	return nil
}

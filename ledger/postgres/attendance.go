package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// attendanceKey is one running total's row: a player's at a table or in a
// session (owner), of a club.
type attendanceKey struct{ club, owner, player int64 }

// attendanceTally is what the hands' current revisions say of the running
// totals' hands played and sat out (ledger.AttendanceOf), by table and by
// session. The hands' results are read in Go: a packed hand's result is
// not readable in SQL.
type attendanceTally map[string]map[attendanceKey]ledger.Attendance

func newAttendanceTally() attendanceTally {
	a := attendanceTally{}
	for _, t := range totalTables {
		a[t.table] = map[attendanceKey]ledger.Attendance{}
	}
	return a
}

// add counts hand h of club.
func (a attendanceTally) add(club int64, h ledger.Hand) {
	for _, at := range ledger.AttendanceOf(h.Result, h.Void) {
		for _, t := range totalTables {
			k := attendanceKey{club, h.TableID, at.Player}
			if t.owner == "session_id" {
				k.owner = h.SessionID
			}
			sum := a[t.table][k]
			sum.Player, sum.Played, sum.SatOut = at.Player, sum.Played+at.Played, sum.SatOut+at.SatOut
			a[t.table][k] = sum
		}
	}
}

// tallyAttendance streams the current revisions of the hands of the clubs
// (every club when clubs is empty) and tallies them; memory grows with the
// totals' rows, not with the hands.
func tallyAttendance(ctx context.Context, q queryer, clubs ...int64) (attendanceTally, error) {
	a := newAttendanceTally()
	if len(clubs) == 0 {
		rows, err := q.Query(ctx, `SELECT club_id FROM clubs ORDER BY club_id`)
		if err != nil {
			return nil, err
		}
		if clubs, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return nil, err
		}
	}
	for _, club := range clubs {
		rows, err := q.Query(ctx, selectHand+` WHERE h.club_id = $1`, club)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			h, err := scanHand(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			a.add(club, h)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// rebuildAttendance sets the hands played and sat out of a club's running
// totals from its hands (after an import, once the statistics are built).
func rebuildAttendance(ctx context.Context, q interface {
	queryer
	batcher
}, clubID int64) error {
	a, err := tallyAttendance(ctx, q, clubID)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, t := range totalTables {
		var owners, players []int64
		var played, satOut []int32
		for k, at := range a[t.table] {
			owners, players = append(owners, k.owner), append(players, k.player)
			played, satOut = append(played, int32(at.Played)), append(satOut, int32(at.SatOut))
		}
		b.Queue(`
			UPDATE `+t.table+` t SET played = a.played, sat_out = a.sat_out
			FROM unnest($2::bigint[], $3::bigint[], $4::int[], $5::int[]) AS a(owner, player_id, played, sat_out)
			WHERE t.club_id = $1 AND t.`+t.owner+` = a.owner AND t.player_id = a.player_id`,
			clubID, owners, players, played, satOut)
	}
	return send(ctx, q, b)
}

// totalTables are the running totals by the column that owns them.
var totalTables = []struct{ table, owner string }{{"table_totals", "table_id"}, {"session_totals", "session_id"}}

// attendanceChecks are Verify's two invariants that every running
// total's hands played and sat out are what the hands' current revisions
// say; they share one tally of the hands, made in the snapshot of the
// first.
type attendanceChecks struct{ tally attendanceTally }

// of returns the check of one kind of running total: the first breach's
// detail, "" when there is none.
func (a *attendanceChecks) of(table, owner string) func(ctx context.Context, q pgx.Tx, _ chain.Key) (string, error) {
	return func(ctx context.Context, q pgx.Tx, _ chain.Key) (string, error) {
		if a.tally == nil {
			tally, err := tallyAttendance(ctx, q)
			if err != nil {
				return "", err
			}
			a.tally = tally
		}
		want := a.tally[table]
		rows, err := q.Query(ctx, `SELECT club_id, `+owner+`, player_id, played, sat_out FROM `+table)
		if err != nil {
			return "", err
		}
		var k attendanceKey
		var played, satOut int
		seen := map[attendanceKey]bool{}
		breach := ""
		_, err = pgx.ForEachRow(rows, []any{&k.club, &k.owner, &k.player, &played, &satOut}, func() error {
			seen[k] = true
			if hands := want[k]; breach == "" && (hands.Played != played || hands.SatOut != satOut) {
				breach = attendanceBreach(owner, k, played, satOut, hands)
			}
			return nil
		})
		if err != nil || breach != "" {
			return breach, err
		}
		for k, hands := range want {
			if !seen[k] && (hands.Played != 0 || hands.SatOut != 0) {
				return attendanceBreach(owner, k, 0, 0, hands), nil
			}
		}
		return "", nil
	}
}

func attendanceBreach(owner string, k attendanceKey, played, satOut int, hands ledger.Attendance) string {
	return fmt.Sprintf("%s %d, player %d: the total says %d played and %d sat out, the hands %d and %d",
		owner, k.owner, k.player, played, satOut, hands.Played, hands.SatOut)
}

package main

// The failover run's checks and summary: what was acknowledged against
// what is stored, the feeds against the streams, and verify.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// summariseFailover counts the phones' hands and attempts and measures
// each fault's window and the latency outside the windows.
func summariseFailover(res *failoverResult, phones []*phone, faults []faultResult, faultAt []time.Time, end time.Time) {
	type span struct{ from, to time.Time }
	windows := make([]span, len(faults))
	for i := range faults {
		until := end
		if i+1 < len(faultAt) {
			until = faultAt[i+1]
		}
		// A write fails for a fault when its failure is answered after the
		// fault began (a request in flight then counts too), from the
		// later of its start and the fault's.
		var first, last time.Time
		for _, p := range phones {
			for _, a := range p.attempts {
				if strings.HasSuffix(a.status, ":201") || a.end.Before(faultAt[i]) || !a.end.Before(until) {
					continue
				}
				faults[i].Failed++
				from := a.start
				if from.Before(faultAt[i]) {
					from = faultAt[i]
				}
				if first.IsZero() || from.Before(first) {
					first = from
				}
				faults[i].LongestFailS = max(faults[i].LongestFailS, a.end.Sub(a.start).Seconds())
				if a.hand < len(p.hands) {
					if h := p.hands[a.hand]; h.acked && h.answered.After(last) {
						last = h.answered
					}
				}
			}
		}
		if !first.IsZero() && last.After(first) {
			faults[i].WindowS = last.Sub(first).Seconds()
			windows[i] = span{first, last}
		}
	}
	res.Faults = faults
	var outside []time.Duration
	for _, p := range phones {
		for _, a := range p.attempts {
			res.Attempts++
			res.Statuses[a.status]++
			if strings.HasSuffix(a.status, ":500") {
				res.ServerErrors++
			}
			in := false
			for _, w := range windows {
				if !a.end.Before(w.from) && !a.start.After(w.to) {
					in = true
				}
			}
			if !in && strings.HasSuffix(a.status, ":201") {
				outside = append(outside, a.end.Sub(a.start))
			}
			if strings.HasSuffix(a.status, ":201") && len(faultAt) > 0 && a.start.After(faultAt[len(faultAt)-1]) {
				res.WrittenAfter++
			}
		}
		for i, h := range p.hands {
			if !h.acked {
				continue
			}
			res.Acknowledged++
			if wait := h.answered.Sub(h.first).Seconds(); wait > res.LongestWaitS {
				res.LongestWaitS = wait
			}
			tries := 0
			for _, a := range p.attempts {
				if a.hand == i {
					tries++
				}
			}
			if tries > 1 {
				res.Retried++
			}
		}
	}
	l := percentiles(outside)
	res.P50MS, res.P99MS = l.P50, l.P99
}

// checkStored compares what the new primary holds with what the phones
// were answered: every 201 stored once under its id, nothing else stored,
// numbers 1..n, and each club's change feed numbered 1..n with a change
// for every hand.
func checkStored(ctx context.Context, pool *pgxpool.Pool, res *failoverResult, phones []*phone, tables []*loadTable) error {
	for _, p := range phones {
		rows, err := pool.Query(ctx, `SELECT hand_id, number FROM hands WHERE table_id = $1 ORDER BY number, hand_id`, p.table.id)
		if err != nil {
			return err
		}
		stored := map[int][]int64{}
		var numbers []int
		for rows.Next() {
			var id int64
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return err
			}
			stored[n] = append(stored[n], id)
			numbers = append(numbers, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		res.Stored += len(numbers)
		answered := map[int]bool{}
		for _, h := range p.hands {
			if !h.acked {
				continue
			}
			answered[h.number] = true
			ids := stored[h.number]
			switch {
			case len(ids) == 0:
				res.Lost++
			case len(ids) > 1 || ids[0] != h.id:
				res.Duplicated++
			}
		}
		for n := range stored {
			if !answered[n] {
				res.Unanswered++
			}
		}
		for i, n := range numbers {
			if n != i+1 {
				res.Gaps++
				break
			}
		}
	}
	// The feed: numbered by whichever instance commits; give the
	// numbering a moment to catch up with the last commits.
	clubs := map[int64]bool{}
	var ids []int64
	for _, t := range tables {
		var club int64
		if err := pool.QueryRow(ctx, `SELECT club_id FROM tables WHERE table_id = $1`, t.id).Scan(&club); err != nil {
			return err
		}
		if !clubs[club] {
			clubs[club] = true
			ids = append(ids, club)
		}
	}
	slices.Sort(ids)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var queued int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM change_queue WHERE club_id = ANY($1)`, ids).Scan(&queued); err != nil {
			return err
		}
		if queued == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, club := range ids {
		var n, maxSeq, handChanges, hands int64
		if err := pool.QueryRow(ctx, `
			SELECT count(*), coalesce(max(seq), 0),
			       count(*) FILTER (WHERE kind = 'hand_recorded'),
			       (SELECT count(*) FROM hands WHERE club_id = $1)
			FROM changes WHERE club_id = $1`, club).Scan(&n, &maxSeq, &handChanges, &hands); err != nil {
			return err
		}
		if n != maxSeq {
			res.FeedGaps++
		}
		if handChanges != hands {
			res.FeedMissing += int(hands - handChanges)
		}
	}
	return nil
}

// checkStreams waits (up to 30 s) until every club's stream has been sent
// the club's last change, then checks each saw 1..n in order.
func checkStreams(ctx context.Context, pool *pgxpool.Pool, res *failoverResult, watchers []*watcher, clubs []string) error {
	res.Streams = len(watchers)
	deadline := time.Now().Add(30 * time.Second)
	for i, w := range watchers {
		clubID, _, err := keyIDs(strings.TrimPrefix(clubs[i], "Bearer "))
		if err != nil {
			return err
		}
		var maxSeq int64
		if err := pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM changes WHERE club_id = $1`, clubID).Scan(&maxSeq); err != nil {
			return err
		}
		for w.last() < maxSeq && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		w.mu.Lock()
		inOrder := int64(len(w.seen)) == maxSeq
		for j, id := range w.seen {
			if id != int64(j+1) {
				inOrder = false
				break
			}
		}
		w.mu.Unlock()
		if inOrder {
			res.StreamsInOrder++
		}
		res.StreamReconnects += w.reconnects
	}
	return nil
}

// runVerify runs stichbuch verify against the new primary.
func runVerify(ctx context.Context, bin, keyFile, dir string) (string, bool) {
	cmd := exec.CommandContext(ctx, bin, "verify", "--data", filepath.Join(dir, "verify"))
	cmd.Env = append(os.Environ(), "DATABASE_URL="+haWriteURL, "STICHBUCH_CHAIN_KEY_FILE="+keyFile)
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], err == nil
}

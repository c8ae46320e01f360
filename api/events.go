package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// keepAlive is how often an idle event stream sends a comment, so proxies
// and phones keep the connection.
const keepAlive = 15 * time.Second

// streamEvents serves the change feed as Server-Sent Events: a club's, or
// with tableScoped one table's. Each event's id is the change number; a
// client reconnecting with Last-Event-ID (or ?after=) gets what it missed
// from the feed first. Hand events carry the hand, the table's standings
// and its state.
func (s *Server) streamEvents(tableScoped bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		a := actorOf(c)
		var tableID int64
		if tableScoped {
			var err error
			if tableID, err = pathID(c, "tableID"); err != nil {
				return err
			}
			if _, err := s.svc.FindTable(ctx, a, tableID); err != nil {
				return err
			}
		}
		last, err := s.resumeFrom(c, a)
		if err != nil {
			return err
		}
		var wake <-chan int64
		if s.notifier != nil {
			ch, cancel := s.notifier.Subscribe(a.ClubID)
			defer cancel()
			wake = ch
		}
		w := c.Response()
		w.Header().Set(echo.HeaderContentType, "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w.Writer)
		_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
		fmt.Fprintf(w, "retry: 2000\n\n")
		w.Flush()

		poll := time.NewTicker(keepAlive)
		defer poll.Stop()
		for {
			if last, err = s.sendChanges(c, a, tableID, last); err != nil {
				return nil // the client is gone or the database is; it reconnects with Last-Event-ID
			}
			select {
			case <-ctx.Done():
				return nil
			case <-wake:
			case <-poll.C:
				if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
					return nil
				}
				w.Flush()
			}
		}
	}
}

// resumeFrom is where a stream starts: after Last-Event-ID or ?after=, or
// else after the club's latest change (only what happens from now on).
func (s *Server) resumeFrom(c echo.Context, a ledger.Actor) (int64, error) {
	v := c.Request().Header.Get("Last-Event-ID")
	if v == "" {
		v = c.QueryParam("after")
	}
	if v == "" {
		return s.svc.ChangeHead(c.Request().Context(), a)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, ledger.Invalid("Last-Event-ID", "must be a change number, got %q", v)
	}
	return n, nil
}

// sendChanges writes every change after `after` as an event and returns
// the number of the last one sent.
func (s *Server) sendChanges(c echo.Context, a ledger.Actor, tableID, after int64) (int64, error) {
	ctx := c.Request().Context()
	for {
		list, err := s.svc.Changes(ctx, a, after, 100, tableID)
		if err != nil {
			return after, err
		}
		for _, ch := range list {
			data, err := json.Marshal(s.eventData(c, a, ch))
			if err != nil {
				return after, err
			}
			if _, err := fmt.Fprintf(c.Response(), "id: %d\nevent: %s\ndata: %s\n\n", ch.Seq, ch.Kind, data); err != nil {
				return after, err
			}
			after = ch.Seq
		}
		c.Response().Flush()
		if len(list) < 100 {
			return after, nil
		}
	}
}

// event is what an event stream sends for one change.
type event struct {
	Change    ledger.Change     `json:"change"`
	Hand      *ledger.Hand      `json:"hand,omitempty"`
	Standings []ledger.Standing `json:"standings,omitempty"`
	State     json.RawMessage   `json:"state,omitempty"`
}

// eventData adds to a hand's change the hand as it is now, the table's
// standings and its state.
func (s *Server) eventData(c echo.Context, a ledger.Actor, ch ledger.Change) event {
	d := s.svc.HandChangeOf(c.Request().Context(), a, ch)
	return event{Change: ch, Hand: d.Hand, Standings: d.Standings, State: d.State}
}

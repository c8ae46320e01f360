package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// pressure is what a load run holds open beside its tables, so that a
// hand's latency and the service's memory are measured under it: event
// streams of reader keys (--streams) and key-less uploads that announce a
// large body, send part of it and stall (--stalled).
type pressure struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	streams atomic.Int64 // streams answered 200 and still open
	events  atomic.Int64 // events the streams delivered
	refused atomic.Int64 // streams answered otherwise
	stalled []net.Conn
	cut     atomic.Int64 // stalled uploads the service answered or closed
}

// pressureResult is what --streams and --stalled report.
type pressureResult struct {
	Streams        int   `json:"streams"`
	StreamsOpen    int64 `json:"streams_open"` // at the end of the run
	StreamsRefused int64 `json:"streams_refused"`
	Events         int64 `json:"events_delivered"`
	Stalled        int   `json:"stalled_uploads"`
	StalledCut     int64 `json:"stalled_cut_by_service"`
}

// streamsPerKey stays within the service's default of 32 streams per key.
const streamsPerKey = 30

// openPressure opens o.streams club event streams, with as many new reader
// keys as the per-key limit needs, and o.stalled stalled uploads, and
// returns once all are open.
func openPressure(ctx context.Context, c *loadClient, o loadOptions) (*pressure, error) {
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p := &pressure{cancel: cancel}
	var auth string
	for i := range o.streams {
		if i%streamsPerKey == 0 {
			_, secret, err := c.create(ctx, c.auth, "/v1/keys", map[string]any{"role": "reader", "label": fmt.Sprintf("load streams %d", i/streamsPerKey)})
			if err != nil {
				p.close()
				return nil, err
			}
			auth = "Bearer " + secret
		}
		opened := make(chan struct{})
		p.wg.Add(1)
		go func(auth string) {
			defer p.wg.Done()
			p.follow(pctx, c, auth, opened)
		}(auth)
		select {
		case <-opened:
		case <-ctx.Done():
			p.close()
			return nil, ctx.Err()
		}
	}
	for range o.stalled {
		conn, err := stallUpload(ctx, c.base)
		if err != nil {
			p.close()
			return nil, err
		}
		p.stalled = append(p.stalled, conn)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			// Whatever the service answers, or its closing the connection,
			// ends the read; closing it ourselves at the end does too.
			if n, _ := conn.Read(make([]byte, 1)); n > 0 || pctx.Err() == nil {
				p.cut.Add(1)
			}
		}()
	}
	return p, nil
}

// follow reads one event stream until ctx ends, counting its events; it
// closes opened once the service has answered.
func (p *pressure) follow(ctx context.Context, c *loadClient, auth string, opened chan struct{}) {
	once := sync.OnceFunc(func() { close(opened) })
	defer once()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/events", nil)
	if err != nil {
		p.refused.Add(1)
		return
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Accept", "text/event-stream")
	stream := &http.Client{Transport: c.http.Transport} // no timeout: a stream lasts the run
	res, err := stream.Do(req)
	if err != nil {
		p.refused.Add(1)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		p.refused.Add(1)
		io.Copy(io.Discard, res.Body)
		return
	}
	p.streams.Add(1)
	defer p.streams.Add(-1)
	once()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "id:") {
			p.events.Add(1)
		}
	}
}

// stallUpload opens a connection without a key that announces a 1 MiB hand
// and sends 64 KiB of it.
func stallUpload(ctx context.Context, base string) (net.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	head := "POST /v1/tables/1/hands HTTP/1.1\r\nHost: " + u.Host +
		"\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
	if _, err := io.WriteString(conn, head+`{"facts":"`+strings.Repeat("x", 64<<10)); err != nil {
		// The service may refuse before the body; the connection still counts.
		return conn, nil
	}
	return conn, nil
}

// result reports the pressure as it stands.
func (p *pressure) result(o loadOptions) *pressureResult {
	return &pressureResult{Streams: o.streams, StreamsOpen: p.streams.Load(), StreamsRefused: p.refused.Load(),
		Events: p.events.Load(), Stalled: o.stalled, StalledCut: p.cut.Load()}
}

// close ends every stream and upload and waits for their readers.
func (p *pressure) close() {
	p.cancel()
	for _, conn := range p.stalled {
		conn.Close()
	}
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
}

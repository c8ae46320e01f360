package api_test

// Cheap refusals before expensive work: the key is checked before the
// body is read, failed authentications are limited before they cost a
// lookup, and a body that cannot be read is the client's error.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
)

// readCounter is a request body that counts the bytes read from it.
type readCounter struct {
	r io.Reader
	n atomic.Int64
}

func (c *readCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestBodiesAreNotReadBeforeTheKey: 1 MiB bodies without a valid key, or
// with a key whose role may not write, are refused without a byte read.
func TestBodiesAreNotReadBeforeTheKey(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string)
	clubID, keyID := keyIDs(t, e.admin)
	for _, c := range []struct {
		name, key string
		want      int
	}{
		{"no key", "", 401},
		{"not a key", "sb_not_a_key", 401},
		{"a wrong secret", fmt.Sprintf("sb_%d_%d_%s", clubID, keyID, strings.Repeat("B", 43)), 401},
		{"a reader's key", reader, 403},
	} {
		body := &readCounter{r: strings.NewReader(`{"pad": "` + strings.Repeat("x", api.MaxBodyBytes-20) + `"}`)}
		req := httptest.NewRequest("POST", ev.hands(), body)
		req.ContentLength = api.MaxBodyBytes
		req.Header.Set("Content-Type", "application/json")
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
		rec := httptest.NewRecorder()
		e.server.ServeHTTP(rec, req)
		if rec.Code != c.want || body.n.Load() != 0 {
			t.Errorf("%s: %d after reading %d bytes of the body, want %d after none", c.name, rec.Code, body.n.Load(), c.want)
		}
	}
}

func keyIDs(t *testing.T, token string) (club, key int64) {
	t.Helper()
	parts := strings.SplitN(strings.TrimPrefix(token, "sb_"), "_", 3)
	club, _ = strconv.ParseInt(parts[0], 10, 64)
	key, _ = strconv.ParseInt(parts[1], 10, 64)
	return club, key
}

// TestFailedAuthenticationsAreLimited: wrong secrets for one key id, and
// failures from one address, are refused with 429 and Retry-After once
// over their limit, without a key lookup; the key's holder, known from an
// earlier success, is let through.
func TestFailedAuthenticationsAreLimited(t *testing.T) {
	// The default bursts, refilled too slowly to matter during the test.
	limits := api.FailureLimits{PerKey: 10, PerAddress: 30, KeyEvery: time.Hour, AddressEvery: time.Hour}
	e, _, n := newCountingEnv(t, api.Config{AuthFailures: limits})
	get := func(token, addr string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v1/club", nil)
		req.RemoteAddr = addr + ":40000"
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		e.server.ServeHTTP(rec, req)
		return rec
	}
	if rec := get(e.admin, "198.51.100.1"); rec.Code != 200 {
		t.Fatalf("the admin: %d", rec.Code)
	}
	clubID, keyID := keyIDs(t, e.admin)
	guess := func(i int, key int64) string {
		return fmt.Sprintf("sb_%d_%d_%043d", clubID, key, i)
	}
	lookups := n.findKey.Load()
	statuses := map[int]int{}
	var last *httptest.ResponseRecorder
	for i := range 400 {
		last = get(guess(i, keyID), "198.51.100.1")
		statuses[last.Code]++
	}
	lookups = n.findKey.Load() - lookups
	if statuses[401] != limits.PerKey || statuses[429] != 400-limits.PerKey || lookups != int64(limits.PerKey) {
		t.Errorf("400 wrong secrets for one key id: %v with %d lookups; want %d 401, the rest 429, a lookup each 401",
			statuses, lookups, limits.PerKey)
	}
	if wait, _ := strconv.Atoi(last.Header().Get("Retry-After")); wait < 1 {
		t.Errorf("a limited attempt's Retry-After: %q", last.Header().Get("Retry-After"))
	}
	if rec := get(guess(1000, keyID), "198.51.100.2"); rec.Code != 429 {
		t.Errorf("the limited key id from another address: %d, want 429", rec.Code)
	}
	if rec := get(e.admin, "198.51.100.1"); rec.Code != 200 {
		t.Errorf("the key's holder while its id is limited: %d, want 200", rec.Code)
	}

	// Per address: failures with ever new key ids.
	statuses = map[int]int{}
	for i := range limits.PerAddress + 5 {
		statuses[get(guess(i, int64(5000+i)), "203.0.113.9").Code]++
	}
	if statuses[401] != limits.PerAddress || statuses[429] != 5 {
		t.Errorf("%d failures from one address with new key ids: %v, want %d 401 and 5 429",
			limits.PerAddress+5, statuses, limits.PerAddress)
	}
	if rec := get(guess(1, 9000), "203.0.113.10"); rec.Code != 401 {
		t.Errorf("another address: %d, want 401", rec.Code)
	}
}

// rawPost sends a hand's POST announcing a body of 100 bytes, sends body
// and, with closeWrite, ends its half of the connection; it returns the
// status of the answer.
func rawPost(t *testing.T, addr, path, key, body string, closeWrite bool) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: stichbuch\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n%s", path, key, body)
	if closeWrite {
		conn.(*net.TCPConn).CloseWrite()
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	res.Body.Close()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") {
		t.Errorf("a %d answer is %q, want a problem", res.StatusCode, res.Header.Get("Content-Type"))
	}
	return res.StatusCode
}

// TestBodiesThatCannotBeRead: a body shorter than its Content-Length is
// 400, one that stalls past the server's read timeout 408; never 500.
func TestBodiesThatCannotBeRead(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	srv := httptest.NewUnstartedServer(e.server)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	if got := rawPost(t, addr, ev.hands(), e.admin, `{"session_id": 1`, true); got != 400 {
		t.Errorf("a body shorter than its Content-Length: %d, want 400", got)
	}
	if got := rawPost(t, addr, ev.hands(), e.admin, `{"session_id": 1`, false); got != 408 {
		t.Errorf("a body that stalls: %d, want 408", got)
	}
	if n := e.count("hands"); n != 0 {
		t.Errorf("%d hands stored", n)
	}
}

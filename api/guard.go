package api

import (
	"crypto/sha256"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/stichbuch/stichbuch/ledger"
)

// guard is what every /v1 route runs before its handler, the cheapest
// check first, so a request without a valid key costs neither a body read
// nor a depth scan nor a contract validation, and once its key id or its
// address has failed too often not even a database lookup:
//
//  1. the API key, from the Authorization header alone (authenticate);
//  2. the key's rate limit and its role;
//  3. the body, read within MaxBodyBytes and the server's read timeout,
//     and its nesting depth (limitBody);
//  4. the contract, openapi.yaml (validateRequests);
//  5. for a key limited to one table, the route's scope: the ledger's
//     Reach decides, from the table or session the validated path names.
//
// After a write that succeeded it tells the club's event streams to look
// at the feed, so this instance's own changes reach them at once.
func (s *Server) guard(need ledger.Role, scope ledger.Scope) echo.MiddlewareFunc {
	validate := validateRequests(s.router)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		checked := limitBody(validate(s.reach(scope, next)))
		return func(c echo.Context) error {
			actor, err := s.authenticate(c)
			if err != nil {
				return err
			}
			if err := s.allow(c, actor); err != nil {
				return err
			}
			if !actor.Role.Includes(need) {
				return ledger.Errorf(ledger.EFORBIDDEN, "this needs %s key; yours is %s key", article(need), article(actor.Role))
			}
			c.Set(actorKey, actor)
			err = checked(c)
			if err == nil && c.Request().Method != http.MethodGet && c.Response().Status < 300 {
				s.hubs.poke(actor.ClubID)
			}
			return err
		}
	}
}

// scopeParam is the path parameter that names what a scope reaches.
var scopeParam = map[ledger.Scope]string{ledger.ScopeTable: "tableID", ledger.ScopeSession: "sessionID"}

// reach lets the request on only if its key may reach the route's scope
// (ledger.Service.Reach), after the contract has checked the path's ids.
func (s *Server) reach(scope ledger.Scope, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		var id int64
		if name, ok := scopeParam[scope]; ok {
			var err error
			if id, err = pathID(c, name); err != nil {
				return err
			}
		}
		if err := s.svc.Reach(c.Request().Context(), actorOf(c), scope, id); err != nil {
			return err
		}
		return next(c)
	}
}

// article is a role with its indefinite article: "an admin", "a scorer".
func article(r ledger.Role) string {
	if r != "" && strings.ContainsRune("aeiou", rune(r[0])) {
		return "an " + string(r)
	}
	return "a " + string(r)
}

// authenticate resolves the request's API key. A token whose key id or
// address has failed too often is refused with 429 before any lookup,
// unless it is a token that authenticated here before (so an attacker
// guessing a key's secret does not lock its holder out).
func (s *Server) authenticate(c echo.Context) (ledger.Actor, error) {
	token, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
	token = strings.TrimSpace(token)
	if !ok || token == "" {
		return ledger.Actor{}, ledger.Errorf(ledger.EUNAUTHORIZED, "send the club's API key as `Authorization: Bearer <key>`")
	}
	key := ""
	if club, id, ok := ledger.KeyOf(token); ok {
		key = fmt.Sprintf("%d/%d", club, id)
	}
	addr := c.RealIP()
	if wait, limited := s.failures.limited(token, key, addr); limited {
		return ledger.Actor{}, retryAfter(c, wait, ledger.Errorf(codeRateLimit,
			"too many failed attempts with this API key id or from this address; retry after %d s", seconds(wait)))
	}
	actor, err := s.svc.Authenticate(c.Request().Context(), token)
	switch ledger.ErrorCode(err) {
	case "":
		s.failures.succeeded(token)
	case ledger.EUNAUTHORIZED:
		s.failures.failed(token, key, addr)
	}
	return actor, err
}

// allow applies the per-key rate limit.
func (s *Server) allow(c echo.Context, a ledger.Actor) error {
	if s.limiter == nil {
		return nil
	}
	ok, err := s.limiter.Allow(fmt.Sprintf("%d/%d", a.ClubID, a.KeyID))
	if err != nil || !ok {
		return retryAfter(c, time.Second, ledger.Errorf(codeRateLimit, "too many requests with this API key; retry after a second"))
	}
	return nil
}

// retryAfter sets the Retry-After header of the problem err becomes.
func retryAfter(c echo.Context, wait time.Duration, err error) error {
	c.Response().Header().Set("Retry-After", strconv.Itoa(seconds(wait)))
	return err
}

// seconds is d in whole seconds, rounded up, at least 1.
func seconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// FailureLimits limit failed authentications: per key id a burst of
// PerKey and then one every KeyEvery, per client address a burst of
// PerAddress and then one every AddressEvery. Beyond them a request is
// refused with 429 before its key is looked up.
type FailureLimits struct {
	PerKey, PerAddress     int
	KeyEvery, AddressEvery time.Duration
}

// DefaultFailureLimits: ten failures per key id, then one every 6 s; 30
// per address, then one a second.
var DefaultFailureLimits = FailureLimits{PerKey: 10, KeyEvery: 6 * time.Second, PerAddress: 30, AddressEvery: time.Second}

// knownFor is how long after its last success a token passes the failure
// limits.
const knownFor = 10 * time.Minute

// authFailures counts failed authentications per key id and per client
// address in token buckets, and remembers (by hash) the tokens that
// authenticated.
type authFailures struct {
	limits FailureLimits
	mu     sync.Mutex
	keys   map[string]*rate.Limiter
	addrs  map[string]*rate.Limiter
	known  map[[32]byte]time.Time // until when a token is let through
	swept  time.Time
	now    func() time.Time
}

func newAuthFailures(l FailureLimits) *authFailures {
	d := DefaultFailureLimits
	l = FailureLimits{PerKey: or(l.PerKey, d.PerKey), KeyEvery: or(l.KeyEvery, d.KeyEvery),
		PerAddress: or(l.PerAddress, d.PerAddress), AddressEvery: or(l.AddressEvery, d.AddressEvery)}
	return &authFailures{limits: l, keys: map[string]*rate.Limiter{}, addrs: map[string]*rate.Limiter{},
		known: map[[32]byte]time.Time{}, now: time.Now}
}

// limited reports whether a token must be refused unread, and for how long.
func (f *authFailures) limited(token, key, addr string) (time.Duration, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if f.known[sha256.Sum256([]byte(token))].After(now) {
		return 0, false
	}
	wait := max(waitFor(f.keys[key], now), waitFor(f.addrs[addr], now))
	return wait, wait > 0
}

// waitFor is how long until a bucket holds a token again (0: it does).
func waitFor(l *rate.Limiter, now time.Time) time.Duration {
	if l == nil {
		return 0
	}
	tokens := l.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second))
}

// failed books a failed authentication against the key id (when the
// token names one) and the address.
func (f *authFailures) failed(token, key, addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	f.sweep(now)
	delete(f.known, sha256.Sum256([]byte(token)))
	if key != "" {
		take(f.keys, key, rate.Every(f.limits.KeyEvery), f.limits.PerKey, now)
	}
	take(f.addrs, addr, rate.Every(f.limits.AddressEvery), f.limits.PerAddress, now)
}

func take(m map[string]*rate.Limiter, k string, r rate.Limit, burst int, now time.Time) {
	l := m[k]
	if l == nil {
		l = rate.NewLimiter(r, burst)
		m[k] = l
	}
	l.AllowN(now, 1)
}

// succeeded remembers a token that authenticated.
func (f *authFailures) succeeded(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	f.sweep(now)
	f.known[sha256.Sum256([]byte(token))] = now.Add(knownFor)
}

// sweep forgets, once a minute, the buckets that are full again and the
// tokens not seen for knownFor.
func (f *authFailures) sweep(now time.Time) {
	if now.Sub(f.swept) < time.Minute {
		return
	}
	f.swept = now
	for _, m := range []map[string]*rate.Limiter{f.keys, f.addrs} {
		for k, l := range m {
			if l.TokensAt(now) >= float64(l.Burst()) {
				delete(m, k)
			}
		}
	}
	for k, until := range f.known {
		if now.After(until) {
			delete(f.known, k)
		}
	}
}

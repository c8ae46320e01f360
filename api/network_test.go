package api_test

import (
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// withNetwork is e's API on the same store with network n.
func (e *env) withNetwork(n api.Network) {
	e.t.Helper()
	srv, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{Network: n})
	if err != nil {
		e.t.Fatal(err)
	}
	e.server = srv
}

// TestInvitationCarriesAReachableAddress: an invitation's link (url and
// QR code) carries the public URL when there is one; else the address
// the inviting browser used unless it is loopback, then the machine's
// network address; on loopback alone it says, in German, that no other
// phone can reach the service. A proxy's headers count only from a
// trusted proxy.
func TestInvitationCarriesAReachableAddress(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	path := fmt.Sprintf("/v1/tables/%d/joins", ev.table)
	trusted := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")} // httptest's client address
	cases := []struct {
		name      string
		network   api.Network
		headers   []string
		want      string // the url's address
		reachable bool
		notice    string // a word the notice has, "" for none
	}{
		{"a phone's browser on the LAN", api.Network{}, []string{"Host", "192.168.1.20:8080"}, "http://192.168.1.20:8080", true, "HTTPS"},
		{"the public URL", api.Network{PublicURL: "https://club.example.de"}, []string{"Host", "127.0.0.1:8080"}, "https://club.example.de", true, ""},
		{"the laptop itself, listening on the network", api.Network{NetworkURL: "http://192.168.1.20:8080"}, []string{"Host", "localhost:8080"}, "http://192.168.1.20:8080", true, "HTTPS"},
		{"the laptop itself, loopback only", api.Network{}, []string{"Host", "127.0.0.1:8080"}, "http://127.0.0.1:8080", false, "0.0.0.0"},
		{"IPv6 loopback", api.Network{}, []string{"Host", "[::1]:8080"}, "http://[::1]:8080", false, "localhost"},
		{"a proxy nobody trusts", api.Network{}, []string{"Host", "club.example.de", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "evil.example"}, "http://club.example.de", true, "HTTPS"},
		{"a trusted proxy", api.Network{TrustedProxies: trusted, HTTPS: true}, []string{"Host", "club.example.de", "X-Forwarded-Proto", "https"}, "https://club.example.de", true, ""},
		{"a trusted proxy, Forwarded", api.Network{TrustedProxies: trusted, HTTPS: true}, []string{"Host", "10.0.0.5:8080", "Forwarded", `for=198.51.100.7;proto=https;host="club.example.de"`}, "https://club.example.de", true, ""},
	}
	for _, c := range cases {
		e.withNetwork(c.network)
		j := e.must(201, "POST", path, e.admin, map[string]any{"role": "scorer"}, c.headers...)
		code := j["code"].(string)
		want := c.want + "/?join=" + code
		if j["url"] != want || j["link"] != "/?join="+code {
			t.Errorf("%s: url %v, link %v; want %s", c.name, j["url"], j["link"], want)
		}
		if got := qrModules(t, j["qr_svg"].(string)); got != qrOf(t, want) {
			t.Errorf("%s: the QR code is not that of %s", c.name, want)
		}
		notice, _ := j["notice"].(string)
		if j["reachable"] != c.reachable || (c.notice == "") != (notice == "") || !strings.Contains(notice, c.notice) {
			t.Errorf("%s: reachable %v, notice %q; want %v and a notice with %q", c.name, j["reachable"], notice, c.reachable, c.notice)
		}
	}
}

// TestPlainHTTPIsRedirectedWhenHTTPSIsConfigured: behind a trusted proxy
// that says the client came over plain HTTP, or reached directly from
// elsewhere, a request is redirected to HTTPS before the handler reads it
// (a join code is not even looked up); the health checks stay plain, a
// request from this machine itself is served, and HTTPS answers carry
// HSTS.
func TestPlainHTTPIsRedirectedWhenHTTPSIsConfigured(t *testing.T) {
	e := newEnv(t)
	e.withNetwork(api.Network{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.1/32")}, HTTPS: true, PublicURL: "https://club.example.de"})
	for _, r := range []struct {
		method, path string
		headers      []string
	}{
		{"GET", "/v1/club?x=1", []string{"X-Forwarded-Proto", "http"}},
		{"POST", "/v1/joins/sbj_1_" + strings.Repeat("x", 43), []string{"X-Forwarded-Proto", "http"}},
		{"GET", "/", []string{"Forwarded", "proto=http"}},
	} {
		res := e.call(r.method, r.path, e.admin, nil, r.headers...)
		if res.status != 308 || res.header.Get("Location") != "https://club.example.de"+r.path {
			t.Errorf("%s %s over plain HTTP: %d to %q, want 308 to https://club.example.de%s", r.method, r.path, res.status, res.header.Get("Location"), r.path)
		}
	}
	if res := e.call("GET", "/readyz", "", nil, "X-Forwarded-Proto", "http"); res.status != 200 {
		t.Errorf("/readyz over plain HTTP: %d, want 200 for the health checks", res.status)
	}
	res := e.call("GET", "/v1/club", e.admin, nil, "X-Forwarded-Proto", "https")
	if res.status != 200 || res.header.Get("Strict-Transport-Security") != "max-age=31536000" {
		t.Errorf("over HTTPS: %d, Strict-Transport-Security %q", res.status, res.header.Get("Strict-Transport-Security"))
	}
	// Not from the proxy: its header is not believed, and the request is
	// plain HTTP from elsewhere.
	e.withNetwork(api.Network{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, HTTPS: true})
	res = e.call("GET", "/v1/club", e.admin, nil, "X-Forwarded-Proto", "https")
	if res.status != 308 || res.header.Get("Strict-Transport-Security") != "" {
		t.Errorf("a forged X-Forwarded-Proto: %d, HSTS %q; want 308 and none", res.status, res.header.Get("Strict-Transport-Security"))
	}
	// Without HTTPS configured, plain HTTP is served as before, without HSTS.
	e.withNetwork(api.Network{})
	if res := e.call("GET", "/v1/club", e.admin, nil); res.status != 200 || res.header.Get("Strict-Transport-Security") != "" {
		t.Errorf("plain HTTP without HTTPS configured: %d, HSTS %q", res.status, res.header.Get("Strict-Transport-Security"))
	}
}

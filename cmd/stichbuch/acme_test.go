package main

import (
	"crypto/x509"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// startTestDNS answers A queries for name (with its final dot) with
// 127.0.0.1, and everything else with no answer, over TCP (which Pebble's
// resolver speaks) on a port of 127.0.0.1; it returns the address.
func startTestDNS(t *testing.T, name string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{Listener: ln, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			if q.Qtype == dns.TypeA && strings.EqualFold(q.Name, name) {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: net.IPv4(127, 0, 0, 1)})
			}
		}
		w.WriteMsg(m)
	})}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	return ln.Addr().String()
}

// syncLog is a log.Logger's writer the test can read.
type syncLog struct{ cmdtest.SyncBuffer }

// TestServeGetsItsCertificateFromAnACMECA runs Let's Encrypt's test CA,
// Pebble, from its module in this process on loopback: its front end
// over HTTPS (with a certificate of the test's CA, which serve trusts
// through --acme-roots), its validation authority resolving the test
// domain through a DNS server of the test's own that says 127.0.0.1 (so
// nothing needs /etc/hosts), and validating for real over HTTP on serve's
// --http-addr. `serve --domain` gets the certificate on the first
// handshake, answers HTTPS with it (the chain checks against Pebble's
// root), caches it in the data directory, and redirects plain HTTP.
//
// Pebble's TLS-ALPN port is serve's plain-HTTP port, where that challenge
// cannot succeed: autocert tries it first and then answers HTTP-01 on
// the plain-HTTP listener, the one a real port 80 would carry.
func TestServeGetsItsCertificateFromAnACMECA(t *testing.T) {
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")      // no random wait before a validation
	t.Setenv("PEBBLE_WFE_NONCEREJECT", "0") // no nonce refused to test the client's retry
	const domain = "club.stichbuch.test"
	resolver := startTestDNS(t, domain+".")

	testCA := newTestCA(t)
	var frontEnd atomic.Pointer[http.Handler]
	acmeSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := frontEnd.Load()
		if h == nil {
			http.Error(w, "Pebble is starting", http.StatusServiceUnavailable)
			return
		}
		(*h).ServeHTTP(w, r)
	}))
	acmeSrv.TLS = testCA.tlsConfig(t, "localhost")
	acmeSrv.StartTLS()
	defer acmeSrv.Close()
	roots := filepath.Join(t.TempDir(), "acme-roots.pem")
	if err := os.WriteFile(roots, testCA.pem, 0o600); err != nil {
		t.Fatal(err)
	}

	data := t.TempDir()
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	svc, addr := startTLSService(t, getenv, "--domain", domain, "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0",
		"--acme-dir", acmeSrv.URL+"/dir", "--acme-roots", roots, "--acme-email", "kasse@club.stichbuch.test", "--data", data)
	defer svc.stop()
	m := regexp.MustCompile(`plain HTTP on (\S+) redirects to HTTPS`).FindStringSubmatch(svc.out.String())
	if m == nil {
		t.Fatalf("serve printed no plain-HTTP listener:\n%s", svc.out.String())
	}
	_, httpPort, _ := net.SplitHostPort(m[1])
	port, _ := strconv.Atoi(httpPort)

	var pebbleLog syncLog
	logger := log.New(&pebbleLog, "Pebble ", log.LstdFlags)
	store := db.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "the test's"}})
	validator := va.New(logger, port, port, false, resolver, store)
	frontEndImpl := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 1, 1)
	handler := frontEndImpl.Handler()
	frontEnd.Store(&handler)

	hc := httpsClient(pool(authority.GetRootCert(0).Cert), dialTCP(addr))
	_, port443, _ := net.SplitHostPort(addr)
	res, err := hc.Get("https://" + domain + ":" + port443 + "/healthz")
	if err != nil {
		for _, id := range regexp.MustCompile(`completed challenge (\S+)`).FindAllStringSubmatch(pebbleLog.String(), -1) {
			if c := store.GetChallengeByID(id[1]); c != nil {
				t.Logf("Pebble's %s challenge: %s %v", c.Type, c.Status, c.Error)
			}
		}
		t.Fatalf("HTTPS with the domain: %v\nserve logged:\n%s", err, svc.log.String())
	}
	res.Body.Close()
	leaf := res.TLS.PeerCertificates[0]
	if res.StatusCode != 200 || leaf.VerifyHostname(domain) != nil {
		t.Fatalf("GET /healthz with Pebble's certificate: %d, names %v", res.StatusCode, leaf.DNSNames)
	}
	inter := x509.NewCertPool()
	for _, c := range res.TLS.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: domain, Roots: pool(authority.GetRootCert(0).Cert), Intermediates: inter}); err != nil {
		t.Errorf("the served chain does not check against Pebble's root: %v", err)
	}
	if res.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("no HSTS on HTTPS")
	}
	if !strings.Contains(pebbleLog.String(), "Attempting to validate w/ HTTP: http://"+domain+":"+httpPort+"/.well-known/acme-challenge/") ||
		!strings.Contains(pebbleLog.String(), "set VALID by completed challenge") {
		t.Errorf("Pebble did not validate the HTTP-01 challenge on serve's plain-HTTP port:\n%s", pebbleLog.String())
	}
	if _, err := os.Stat(filepath.Join(data, "acme", domain)); err != nil {
		t.Errorf("the certificate is not cached in the data directory: %v", err)
	}
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, _ = get(t, plain, "http://"+m[1]+"/?join=x")
	if want := "https://" + domain + ":" + port443 + "/?join=x"; res.StatusCode != 308 || res.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d to %q, want 308 to %s", res.StatusCode, res.Header.Get("Location"), want)
	}
}

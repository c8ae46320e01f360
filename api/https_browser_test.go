package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/api/internal/cdp"
)

// selfSigned is a certificate for name and the base64 SHA-256 of its
// public key, which Chromium's --ignore-certificate-errors-spki-list
// takes as trusted.
func selfSigned(t *testing.T, name string) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	spki, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(spki)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, base64.StdEncoding.EncodeToString(sum[:])
}

// TestAppOverHTTPSWorksOffline: a phone opens the app on the club's
// domain (not loopback, which browsers treat as secure anyway). Over
// plain HTTP the page is no secure context and has no service worker;
// over HTTPS (a certificate Chromium trusts by its key, the domain mapped
// to 127.0.0.1 inside the browser) it is one, registers its service
// worker, and reloaded once the server is gone it shows the table's list
// from the worker's cache.
func TestAppOverHTTPSWorksOffline(t *testing.T) {
	if cdp.Path() == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	const domain = "club.stichbuch.test"
	e := newEnv(t)
	table, session := dokoEvening(e)
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/hands", table), e.admin, map[string]any{"session_id": session, "number": 1,
		"facts": map[string]any{"game": "normal", "re": map[string]any{"players": []int{1, 2}, "augen": 130}}})
	secure, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{Network: api.Network{HTTPS: true, PublicURL: "https://" + domain}})
	if err != nil {
		t.Fatal(err)
	}
	cert, spki := selfSigned(t, domain)
	srv := httptest.NewUnstartedServer(secure)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	plain := httptest.NewServer(e.server)
	t.Cleanup(plain.Close)
	port := func(u string) string {
		p, _ := url.Parse(u)
		_, port, _ := net.SplitHostPort(p.Host)
		return port
	}
	b := cdp.StartWith(t, "", "--ignore-certificate-errors-spki-list="+spki, "--host-resolver-rules=MAP "+domain+" 127.0.0.1")

	overHTTP := b.NewPage()
	overHTTP.Open("http://" + domain + ":" + port(plain.URL) + "/")
	var insecure struct {
		Secure bool
		Worker bool
	}
	overHTTP.Eval(`({secure: isSecureContext, worker: 'serviceWorker' in navigator})`, &insecure)
	if insecure.Secure || insecure.Worker {
		t.Fatalf("over plain HTTP on %s: secure context %v, service worker %v; the test cannot tell HTTPS from HTTP", domain, insecure.Secure, insecure.Worker)
	}

	p := loginOn(b.NewPage(), "https://"+domain+":"+port(srv.URL), e.admin)
	var isSecure bool
	p.Eval(`isSecureContext && location.protocol === 'https:'`, &isSecure)
	if !isSecure {
		t.Fatal("the app over HTTPS is not a secure context")
	}
	p.Eval(fmt.Sprintf(`location.hash = '#/t/%d'`, table), nil)
	p.WaitFor("the list", `document.querySelectorAll('#sheet tr[data-hand]').length === 1`)
	p.Eval(`navigator.serviceWorker.ready.then(() => true)`, nil)
	p.WaitFor("the page controlled by its service worker", `navigator.serviceWorker.controller`)

	srv.Listener.Close()
	srv.CloseClientConnections()
	p.Reload()
	p.WaitFor("the list without the server", `document.querySelectorAll('#sheet tr[data-hand]').length === 1 && location.protocol === 'https:'`)
}

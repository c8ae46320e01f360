package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"image"
	"image/color"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// testCA is a certificate authority of the test's own.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "stichbuch test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue makes a leaf for names (and 127.0.0.1) with serial, as PEM.
func (ca *testCA) issue(t *testing.T, serial int64, names ...string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:   time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// tlsConfig is a server's TLS configuration with a leaf for names.
func (ca *testCA) tlsConfig(t *testing.T, names ...string) *tls.Config {
	t.Helper()
	c, k := ca.issue(t, 100, names...)
	pair, err := tls.X509KeyPair(c, k)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}}
}

// writeAtomically replaces name's content the way a renewer does: a new
// file renamed over the old one.
func writeAtomically(t *testing.T, name string, data []byte) {
	t.Helper()
	tmp := name + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

// httpsClient is a client that trusts roots and reaches every host at
// addr (the service's listener, whatever name the URL has), one
// connection per request, so each request sees the certificate served now.
func httpsClient(roots *x509.CertPool, dial func(ctx context.Context) (net.Conn, error)) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			DialContext:         func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
			TLSClientConfig:     &tls.Config{RootCAs: roots},
			TLSHandshakeTimeout: 2 * time.Minute, // an ACME certificate is fetched during the first handshake
			DisableKeepAlives:   true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       3 * time.Minute,
	}
}

func dialTCP(addr string) func(ctx context.Context) (net.Conn, error) {
	return func(ctx context.Context) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}
}

func pool(certs ...*x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	for _, c := range certs {
		p.AddCert(c)
	}
	return p
}

// get asks url and returns the answer with its body read.
func get(t *testing.T, hc *http.Client, url string) (*http.Response, string) {
	t.Helper()
	res, err := hc.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// startTLSService starts serve with args and waits for its HTTPS URL.
func startTLSService(t *testing.T, getenv func(string) string, args ...string) (svc service, addr string) {
	t.Helper()
	svc = startService(t, getenv, args...)
	m := regexp.MustCompile(`listening on https://(\S+)`).FindStringSubmatch(svc.out.String())
	if m == nil {
		t.Fatalf("serve printed no HTTPS address:\n%s", svc.out.String())
	}
	return svc, m[1]
}

// TestServeHTTPSFromCertificateFiles: with --tls-cert and --tls-key serve
// answers HTTPS with that certificate and HSTS, and once a renewer has
// replaced the files, the next connection gets the new certificate
// without a restart; a pair that does not load (the key not yet written)
// leaves the last good one in place. Plain HTTP on --http-addr redirects
// to the certificate's name.
func TestServeHTTPSFromCertificateFiles(t *testing.T) {
	ca := newTestCA(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	c1, k1 := ca.issue(t, 1, "tisch.stichbuch.test")
	writeAtomically(t, certFile, c1)
	writeAtomically(t, keyFile, k1)
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	svc, addr := startTLSService(t, getenv, "--tls-cert", certFile, "--tls-key", keyFile, "--http-addr", "127.0.0.1:0")
	defer svc.stop()
	_, port, _ := net.SplitHostPort(addr)
	if !strings.Contains(svc.out.String(), "the phones at the table open https://tisch.stichbuch.test:"+port) {
		t.Errorf("serve does not send the phones to the certificate's name:\n%s", svc.out.String())
	}
	hc := httpsClient(pool(ca.cert), dialTCP(addr))
	serial := func() int64 {
		t.Helper()
		res, _ := get(t, hc, "https://tisch.stichbuch.test/healthz")
		if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != "max-age=31536000" {
			t.Errorf("GET /healthz over HTTPS: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
		}
		return res.TLS.PeerCertificates[0].SerialNumber.Int64()
	}
	if s := serial(); s != 1 {
		t.Fatalf("served certificate %d, want 1", s)
	}
	c2, k2 := ca.issue(t, 2, "tisch.stichbuch.test")
	writeAtomically(t, certFile, c2) // the key not yet: the pair does not load
	if s := serial(); s != 1 {
		t.Errorf("with a half-renewed pair: certificate %d, want the last good one, 1", s)
	}
	writeAtomically(t, keyFile, k2)
	if s := serial(); s != 2 {
		t.Errorf("after the renewal: certificate %d, want 2", s)
	}

	m := regexp.MustCompile(`plain HTTP on (\S+) redirects to HTTPS`).FindStringSubmatch(svc.out.String())
	if m == nil {
		t.Fatalf("serve printed no redirecting listener:\n%s", svc.out.String())
	}
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, _ := get(t, plain, "http://"+m[1]+"/v1/club?x=1")
	if want := "https://tisch.stichbuch.test:" + port + "/v1/club?x=1"; res.StatusCode != 308 || res.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d to %q, want 308 to %s", res.StatusCode, res.Header.Get("Location"), want)
	}
	if err := svc.stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// decodeQR reads the text of a QR code drawn as a grid of modules
// (true: dark), scaled up with a white margin for the decoder.
func decodeQR(t *testing.T, dark [][]bool) string {
	t.Helper()
	const scale, margin = 4, 16
	size := len(dark)*scale + 2*margin
	img := image.NewGray(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.SetGray(x, y, color.Gray{Y: 255})
		}
	}
	for y, row := range dark {
		for x, d := range row {
			if !d {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray(margin+x*scale+dx, margin+y*scale+dy, color.Gray{})
				}
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return res.GetText()
}

// terminalModules reads back the QR code serve draws with half blocks
// (light modules drawn): two rows of modules per line.
func terminalModules(lines []string) [][]bool {
	var out [][]bool
	for _, line := range lines {
		var top, bottom []bool
		for _, r := range line {
			top = append(top, r != '█' && r != '▀')
			bottom = append(bottom, r != '█' && r != '▄')
		}
		out = append(out, top, bottom)
	}
	return out
}

var svgModuleRE = regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`)

// svgModules reads back the dark modules of the API's QR code SVG.
func svgModules(t *testing.T, svg string) [][]bool {
	t.Helper()
	m := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("not the API's QR code: %.80s", svg)
	}
	n, _ := strconv.Atoi(m[1])
	out := make([][]bool, n)
	for i := range out {
		out[i] = make([]bool, n)
	}
	for _, mod := range svgModuleRE.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(mod[1])
		y, _ := strconv.Atoi(mod[2])
		out[y][x] = true
	}
	return out
}

// terminalQRIn finds the QR code serve printed after "scan it:".
func terminalQRIn(out string) []string {
	_, after, ok := strings.Cut(out, "scan it:\n")
	if !ok {
		return nil
	}
	var lines []string
	for _, line := range strings.Split(after, "\n") {
		if line == "" || !strings.ContainsAny(line, "█▀▄ ") || strings.ContainsAny(line, "abcdefghijklmnopqrstuvwxyz") {
			break
		}
		lines = append(lines, line)
	}
	return lines
}

// TestServeShowsThePhonesTheWay: listening beyond loopback, serve prints
// every address of the machine (never [::]) and a QR code of the app's
// address in the terminal; on loopback alone it says how to let phones
// in. With --public-url, the terminal's QR code and an invitation's link
// and QR code carry it.
func TestServeShowsThePhonesTheWay(t *testing.T) {
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)

	local := startService(t, getenv)
	if out := local.out.String(); !strings.Contains(out, "only this machine can open it; to let the phones at the table in (same Wi-Fi), start it with --addr 0.0.0.0:") {
		t.Errorf("on loopback serve does not say how to let phones in:\n%s", out)
	}
	local.stop()

	// Every interface (the test sends nothing to the machine's addresses).
	all := startService(t, getenv, "--addr", "0.0.0.0:0")
	out := all.out.String()
	all.stop()
	if strings.Contains(out, "[::]") || strings.Contains(out, "0.0.0.0") {
		t.Errorf("serve printed a wildcard address:\n%s", out)
	}
	if machine := machineAddrs(); len(machine) > 0 {
		first := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(out)
		for _, ip := range machine {
			if !strings.Contains(out, "http://"+bracket(ip.String())+":") {
				t.Errorf("serve does not print the machine's address %s:\n%s", ip, out)
			}
		}
		if got := decodeQR(t, terminalModules(terminalQRIn(out))); first == nil || got != first[1] {
			t.Errorf("the terminal's QR code reads %q, want the first address %v:\n%s", got, first, out)
		}
	}

	const public = "https://club.stichbuch.test"
	svc := startService(t, getenv, "--public-url", public+"/")
	defer svc.stop()
	if got := decodeQR(t, terminalModules(terminalQRIn(svc.out.String()))); got != public {
		t.Errorf("with --public-url the terminal's QR code reads %q, want %s:\n%s", got, public, svc.out.String())
	}
	table := recordEvening(t, svc.base, key)
	j := call(t, "POST", fmt.Sprintf("%s/v1/tables/%v/joins", svc.base, table), key, map[string]any{"role": "scorer"}, 201)
	want := public + "/?join=" + j["code"].(string)
	if j["url"] != want {
		t.Errorf("the invitation's url is %v, want %s", j["url"], want)
	}
	if got := decodeQR(t, svgModules(t, j["qr_svg"].(string))); got != want {
		t.Errorf("the invitation's QR code reads %q, want %s", got, want)
	}
}

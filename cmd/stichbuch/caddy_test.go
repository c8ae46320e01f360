package main

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/cmdtest"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestServeBehindCaddy runs the Caddyfile the README shows with Debian's
// caddy in front of serve --trusted-proxy 127.0.0.1. Caddy's certificate
// comes from its internal CA (no CA is reachable here) and its site is on
// port 0 of 127.0.0.1 (no port to reserve; Caddy logs the one it got);
// everything else is the shipped file. Through it the app's answers carry HSTS, an invitation's link is
// https:// on the club's domain, and an event stream delivers a hand
// recorded while it is open.
func TestServeBehindCaddy(t *testing.T) {
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		t.Skip("caddy is not installed (apt-get install caddy); .ci/run installs it")
	}
	getenv := cmdtest.Env(map[string]string{"DATABASE_URL": pgtest.URL(t), "LOG_LEVEL": "warn"})
	key := createClub(t, getenv)
	svc := startService(t, getenv, "--trusted-proxy", "127.0.0.1")
	defer svc.stop()

	const domain = "club.stichbuch.test"
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, caddy, "run", "--config", "deploy/Caddyfile", "--adapter", "caddyfile")
	// The site on port 0 of 127.0.0.1: Caddy logs the port it got.
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir+"/data", "XDG_CONFIG_HOME="+dir+"/config",
		"STICHBUCH_DOMAIN=https://"+domain+":0", "STICHBUCH_UPSTREAM="+strings.TrimPrefix(svc.base, "http://"),
		"CADDY_GLOBAL_OPTIONS=admin off\nlocal_certs\nskip_install_trust\nauto_https disable_redirects\nstorage file_system "+dir+"/storage\nservers {\nprotocols h1 h2\n}",
		"CADDY_SITE_OPTIONS=bind 127.0.0.1")
	var caddyLog cmdtest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &caddyLog, &caddyLog
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
	}()

	// Caddy's port, and its root once its internal CA has issued the
	// site's certificate.
	rootFile := filepath.Join(dir, "storage", "pki", "authorities", "local", "root.crt")
	certFile := filepath.Join(dir, "storage", "certificates", "local", domain, domain+".crt")
	var addr string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if m := regexp.MustCompile(`"msg":"port 0 listener".*"actual_address":"([0-9.:]+)"`).FindStringSubmatch(caddyLog.String()); m != nil {
			addr = m[1]
		}
		_, errCert := os.Stat(certFile)
		if errCert == nil && addr != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("caddy did not start serving %s:\n%s", domain, caddyLog.String())
		}
	}
	raw, err := os.ReadFile(rootFile)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(raw)
	root, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(addr)
	hc := httpsClient(pool(root), dialTCP(addr))
	hc.Transport.(*http.Transport).DisableKeepAlives = false // the stream and the hand share nothing but the proxy
	base := "https://" + domain + ":" + port

	res, body := get(t, hc, base+"/")
	if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != "max-age=31536000" || !strings.Contains(body, "<html") {
		t.Fatalf("the app through Caddy: %d, HSTS %q\n%s", res.StatusCode, res.Header.Get("Strict-Transport-Security"), caddyLog.String())
	}
	table := recordEvening(t, svc.base, key)
	join := caddyCall(t, hc, "POST", fmt.Sprintf("%s/v1/tables/%v/joins", base, table), key, map[string]any{"role": "scorer"}, 201)
	if want := base + "/?join=" + join["code"].(string); join["url"] != want || join["notice"] != nil {
		t.Errorf("an invitation through Caddy: url %v, notice %v; want %s and none", join["url"], join["notice"], want)
	}

	// An event stream through Caddy sees a hand recorded while it is open.
	streamCtx, stopStream := context.WithTimeout(context.Background(), time.Minute)
	defer stopStream()
	req, _ := http.NewRequestWithContext(streamCtx, "GET", fmt.Sprintf("%s/v1/tables/%v/events", base, table), nil)
	req.Header.Set("Authorization", "Bearer "+key)
	stream, err := hc.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("event stream through Caddy: %v %v", err, stream)
	}
	defer stream.Body.Close()
	session := caddyCall(t, hc, "GET", fmt.Sprintf("%s/v1/tables/%v", base, table), key, nil, 200)["open_session_id"]
	hand := caddyCall(t, hc, "GET", fmt.Sprintf("%s/v1/tables/%v/hands/1", base, table), key, nil, 200)
	caddyCall(t, hc, "POST", fmt.Sprintf("%s/v1/tables/%v/hands", base, table), key,
		map[string]any{"session_id": session, "number": 2, "facts": hand["facts"]}, 201)
	sc := bufio.NewScanner(stream.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") && strings.Contains(sc.Text(), `"number":2`) {
			return
		}
	}
	t.Errorf("the stream through Caddy ended without hand 2: %v", sc.Err())
}

// caddyCall is call through hc.
func caddyCall(t *testing.T, hc *http.Client, method, url, key string, body any, want int) map[string]any {
	t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, url, strings.NewReader(string(raw)))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	return doWith(t, hc, req, want)
}

package main

import (
	"bufio"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestSystemdUnit: the unit beside the Dockerfile's deployment files runs
// serve with systemd's hardening (its own dynamic user, a read-only file
// system but for its state, no new privileges, serve stopping its
// PostgreSQL itself), every setting it gives is one serve reads and the
// README's configuration table names, and `systemd-analyze verify`
// accepts it where systemd is installed.
func TestSystemdUnit(t *testing.T) {
	raw, err := os.ReadFile("deploy/stichbuch.service")
	if err != nil {
		t.Fatal(err)
	}
	directives := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			directives[k] = append(directives[k], v)
		}
	}
	for k, want := range map[string]string{
		"DynamicUser": "yes", "ProtectSystem": "strict", "ReadWritePaths": "/var/lib/stichbuch", "NoNewPrivileges": "yes",
		"PrivateTmp": "yes", "ProtectHome": "yes", "KillMode": "mixed", "ExecStart": "/usr/local/bin/stichbuch serve",
		"CapabilityBoundingSet": "CAP_NET_BIND_SERVICE", "UMask": "0077",
	} {
		if got := directives[k]; len(got) != 1 || got[0] != want {
			t.Errorf("%s=%v, want %s", k, got, want)
		}
	}
	for _, env := range directives["Environment"] {
		name, _, _ := strings.Cut(env, "=")
		checkSetting(t, "the unit", name)
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Log("systemd-analyze is not installed: the unit is checked by the test alone")
		return
	}
	// verify wants the binary to exist: this test's own stands in for it.
	self, _ := os.Executable()
	unit := filepath.Join(t.TempDir(), "stichbuch.service")
	if err := os.WriteFile(unit, []byte(strings.ReplaceAll(string(raw), "/usr/local/bin/stichbuch", self)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// checkSetting fails the test unless serve reads the environment variable
// name and the README's configuration table names it.
func checkSetting(t *testing.T, who, name string) {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, dir := range []string{"../internal/runenv", "../../ledger/postgres/cluster"} {
		more, _ := filepath.Glob(dir + "/*.go")
		files = append(files, more...)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			b, _ := os.ReadFile(f)
			code.Write(b)
		}
	}
	if !strings.Contains(code.String(), `"`+name+`"`) {
		t.Errorf("%s sets %s, which serve does not read", who, name)
	}
	if !regexp.MustCompile("(?m)^\\|.*`" + name + "`").Match(readme) {
		t.Errorf("%s sets %s, which the README's configuration table does not name", who, name)
	}
}

// TestComposeFile: docker-compose.yml puts Caddy with the shipped
// Caddyfile in front of stichbuch, trusts Caddy's address alone as a
// proxy, keeps the backups and the chain key in volumes of their own,
// and sets only settings serve reads.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Environment map[string]string
			Volumes     []string
			Networks    map[string]*struct {
				IPv4 string `yaml:"ipv4_address"`
			}
		}
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatal(err)
	}
	svc, caddy := compose.Services["stichbuch"], compose.Services["caddy"]
	for name := range svc.Environment {
		if strings.HasPrefix(name, "STICHBUCH_") {
			checkSetting(t, "docker-compose.yml", name)
		}
	}
	proxies, err := parsePrefixes(svc.Environment["STICHBUCH_TRUSTED_PROXIES"])
	if err != nil || len(proxies) != 1 || caddy.Networks["front"] == nil {
		t.Fatalf("trusted proxies %v (%v), caddy's networks %v", proxies, err, caddy.Networks)
	}
	caddyIP, err := netip.ParseAddr(caddy.Networks["front"].IPv4)
	if err != nil || !proxies[0].Contains(caddyIP) {
		t.Errorf("stichbuch trusts %v, Caddy is at %v", proxies, caddyIP)
	}
	if !slices.Contains(svc.Volumes, "backups:"+svc.Environment["STICHBUCH_BACKUP_DIR"]) || !slices.Contains(svc.Volumes, "chainkey:/keys") {
		t.Errorf("stichbuch's volumes %v: want the backups and the chain key each in a volume of its own", svc.Volumes)
	}
	for _, v := range caddy.Volumes {
		if src, _, _ := strings.Cut(v, ":"); strings.HasPrefix(src, "./") {
			if _, err := os.Stat(filepath.Join("../..", src)); err != nil {
				t.Errorf("caddy mounts %s: %v", src, err)
			}
		}
	}
}

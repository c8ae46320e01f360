package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api/internal/cdp"
)

// artifactDir is where the browser test leaves its screenshot:
// $STICHBUCH_ARTIFACTS, or a fixed folder under the system's temp dir.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("STICHBUCH_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "stichbuch-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// chromium runs headless Chromium with the flags this machine needs (no
// sandbox as root, no background networking on a closed network).
func chromium(t *testing.T, bin string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--enable-logging=stderr", "--v=0", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errOut.String())
	}
	return out.String(), errOut.String()
}

// TestReportInChromium loads the HTML report in a real browser: the page
// loads without console errors, the rendered chart has one line per
// player, and a screenshot is left as an artifact.
func TestReportInChromium(t *testing.T) {
	bin := cdp.Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	r := exampleReport()
	dir := artifactDir(t)
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	dom, logs := chromium(t, bin, "--dump-dom", url)
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Uncaught") || strings.Contains(line, "Failed to load") {
			t.Errorf("browser reported: %s", line)
		}
	}
	lines := regexp.MustCompile(`<(polyline|path)[^>]*class="player-line"`).FindAllString(dom, -1)
	if len(lines) != len(r.Players) {
		t.Errorf("the rendered chart has %d player lines, want %d", len(lines), len(r.Players))
	}
	if !strings.Contains(dom, "</html>") {
		t.Error("the browser's DOM is not a whole page")
	}

	shot := filepath.Join(dir, "report.png")
	os.Remove(shot)
	chromium(t, bin, "--screenshot="+shot, "--window-size=1024,1600", "--hide-scrollbars", url)
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if len(png) < 1000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("screenshot %s is not a PNG (%d bytes)", shot, len(png))
	}
	t.Logf("screenshot: %s", shot)
}

package report

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// devtools drives headless Chromium through the DevTools protocol over
// --remote-debugging-pipe: JSON messages, each ended by a NUL byte, on
// the browser's file descriptors 3 (commands) and 4 (answers and
// events). The standard library is enough; no WebSocket is needed.
type devtools struct {
	t       *testing.T
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpMessage
	events  chan cdpMessage
	session string
	cancel  context.CancelFunc
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     json.RawMessage `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

// startDevtools starts Chromium with the flags chromium() uses and opens
// one page of width x height CSS pixels (mobile when mobile is true).
func startDevtools(t *testing.T, bin string, width, height int, mobile bool) *devtools {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	toBrowser, fromTest, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toTest, fromBrowser, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir=" + t.TempDir(), "about:blank"}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser} // fd 3 and fd 4
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	d := &devtools{t: t, cmd: cmd, w: fromTest, waiting: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 256), cancel: cancel}
	go d.read(toTest)
	t.Cleanup(d.close)

	var target struct {
		TargetID string `json:"targetId"`
	}
	d.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	d.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	d.session = attached.SessionID
	d.call("Page.enable", nil, nil)
	d.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 2, "mobile": mobile}, nil)
	return d
}

// read hands answers to their callers and keeps the events.
func (d *devtools) read(r *os.File) {
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			close(d.events)
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			d.mu.Lock()
			ch := d.waiting[m.ID]
			delete(d.waiting, m.ID)
			d.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case d.events <- m:
		default:
		}
	}
}

// call sends a command (to the page once one is attached) and decodes
// its result into out.
func (d *devtools) call(method string, params any, out any) {
	d.t.Helper()
	d.mu.Lock()
	d.next++
	id := d.next
	ch := make(chan cdpMessage, 1)
	d.waiting[id] = ch
	d.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if d.session != "" {
		msg["sessionId"] = d.session
	}
	raw, _ := json.Marshal(msg)
	if _, err := d.w.Write(append(raw, 0)); err != nil {
		d.t.Fatalf("devtools %s: %v", method, err)
	}
	select {
	case m := <-ch:
		if len(m.Error) > 0 {
			d.t.Fatalf("devtools %s: %s", method, m.Error)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				d.t.Fatalf("devtools %s: %v in %s", method, err, m.Result)
			}
		}
	case <-time.After(60 * time.Second):
		d.t.Fatalf("devtools %s: no answer", method)
	}
}

// navigate loads url and waits for its load event.
func (d *devtools) navigate(url string) {
	d.t.Helper()
	d.call("Page.navigate", map[string]any{"url": url}, nil)
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-d.events:
			if !ok {
				d.t.Fatal("the browser closed while loading")
			}
			if m.Method == "Page.loadEventFired" {
				return
			}
		case <-deadline:
			d.t.Fatalf("%s did not load", url)
		}
	}
}

// eval runs a JavaScript expression in the page and decodes its value.
func (d *devtools) eval(expr string, out any) {
	d.t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception json.RawMessage `json:"exceptionDetails"`
	}
	d.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
	if len(res.Exception) > 0 {
		d.t.Fatalf("evaluating %s: %s", expr, res.Exception)
	}
	if out != nil {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			d.t.Fatalf("evaluating %s: %v in %s", expr, err, res.Result.Value)
		}
	}
}

// screenshot writes a PNG of the page's viewport to path.
func (d *devtools) screenshot(path string) {
	d.t.Helper()
	var res struct {
		Data []byte `json:"data"` // base64 in JSON, bytes here
	}
	d.call("Page.captureScreenshot", map[string]any{"format": "png"}, &res)
	if err := os.WriteFile(path, res.Data, 0o644); err != nil {
		d.t.Fatal(err)
	}
}

func (d *devtools) close() {
	d.session = ""
	raw, _ := json.Marshal(map[string]any{"id": 1 << 30, "method": "Browser.close"})
	_, _ = d.w.Write(append(raw, 0))
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = d.cmd.Process.Kill()
		<-done
	}
	d.w.Close()
	d.cancel()
}

// rect is a DOMRect as getBoundingClientRect gives it.
type rect struct {
	Left, Right, Top, Bottom, Width float64
}

func (r rect) String() string {
	return fmt.Sprintf("left %.0f right %.0f top %.0f bottom %.0f", r.Left, r.Right, r.Top, r.Bottom)
}

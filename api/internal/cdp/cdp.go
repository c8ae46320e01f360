// Package cdp drives headless Chromium through the DevTools protocol over
// --remote-debugging-pipe (JSON messages, each ended by a NUL byte, on the
// browser's file descriptors 3 and 4), for the browser tests of api and
// api/report; the standard library is enough, no WebSocket and no module.
// It is imported by tests only.
package cdp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Browser is one headless Chromium. It holds pages, each in a browser
// context of its own or in the profile's default one.
type Browser struct {
	t       testing.TB
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpMessage
	pages   map[string]*Page // by session id
	cancel  context.CancelFunc
	closing sync.Once
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     json.RawMessage `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

// Path is Debian's Chromium, or "" when it is not installed.
func Path() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// Start starts headless Chromium with its profile in dir (a new one in
// t.TempDir() when dir is "") and closes it when the test ends; it skips
// the test when Chromium is not installed.
func Start(t testing.TB, dir string) *Browser {
	t.Helper()
	return StartWith(t, dir)
}

// StartWith is Start with more command-line flags for Chromium (such as
// --host-resolver-rules, or --ignore-certificate-errors-spki-list for a
// test's certificate).
func StartWith(t testing.TB, dir string, flags ...string) *Browser {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	bin := Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	toBrowser, fromTest, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toTest, fromBrowser, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir=" + dir}
	args = append(append(args, flags...), "about:blank")
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	b := &Browser{t: t, cmd: cmd, w: fromTest, waiting: map[int]chan cdpMessage{}, pages: map[string]*Page{}, cancel: cancel}
	go b.read(toTest)
	t.Cleanup(b.Close)
	return b
}

func (b *Browser) read(r *os.File) {
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		p := b.pages[m.SessionID]
		b.mu.Unlock()
		if p != nil {
			p.event(m)
		}
	}
}

// send is one DevTools command (to a page's session when session is set).
func (b *Browser) send(session, method string, params any, out any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpMessage, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if _, err := b.w.Write(append(raw, 0)); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if len(m.Error) > 0 {
			return fmt.Errorf("%s: %s", method, m.Error)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-time.After(60 * time.Second):
		return fmt.Errorf("%s: no answer", method)
	}
}

func (b *Browser) call(session, method string, params any, out any) {
	b.t.Helper()
	if err := b.send(session, method, params, out); err != nil {
		b.t.Fatalf("devtools: %v", err)
	}
}

// Close closes the browser (once; the test's cleanup does it too).
func (b *Browser) Close() { b.closing.Do(b.shutdown) }

func (b *Browser) shutdown() {
	raw, _ := json.Marshal(map[string]any{"id": 1 << 30, "method": "Browser.close"})
	_, _ = b.w.Write(append(raw, 0))
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = b.cmd.Process.Kill()
		<-done
	}
	b.w.Close()
	b.cancel()
}

// Page is one tab, by default a phone of 390×844 CSS pixels, that accepts
// every dialog (confirm) and collects console errors.
type Page struct {
	b       *Browser
	t       testing.TB
	session string
	mu      sync.Mutex
	loaded  chan struct{}
	errors  []string
	dialogs []string       // the messages of the dialogs accepted so far
	network map[string]any // the conditions while online (none: the machine's)
}

// NewPage opens a tab in a browser context of its own (its own storage,
// service worker and network conditions), like another phone.
func (b *Browser) NewPage() *Page { return b.OpenPage(true) }

// OpenPage opens a tab in a context of its own (isolated) or in the
// profile's default context, whose storage outlives the browser.
func (b *Browser) OpenPage(isolated bool) *Page {
	b.t.Helper()
	target := map[string]any{"url": "about:blank"}
	if isolated {
		var ctx struct {
			BrowserContextID string `json:"browserContextId"`
		}
		b.call("", "Target.createBrowserContext", map[string]any{}, &ctx)
		target["browserContextId"] = ctx.BrowserContextID
	}
	var created struct {
		TargetID string `json:"targetId"`
	}
	b.call("", "Target.createTarget", target, &created)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	b.call("", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached)
	p := &Page{b: b, t: b.t, session: attached.SessionID, loaded: make(chan struct{}, 8)}
	b.mu.Lock()
	b.pages[p.session] = p
	b.mu.Unlock()
	p.Call("Page.enable", nil, nil)
	p.Call("Runtime.enable", nil, nil)
	p.Call("Network.enable", nil, nil)
	p.Viewport(390, 844, 1, true)
	return p
}

// T is the test the page belongs to (for helpers built on a page).
func (p *Page) T() testing.TB { return p.t }

// Viewport sets the page's size in CSS pixels, its device scale factor and
// whether it is a mobile device.
func (p *Page) Viewport(width, height int, scale float64, mobile bool) {
	p.t.Helper()
	p.Call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}, nil)
}

// Call sends one DevTools command to the page and decodes its result into
// out; a failure fails the test.
func (p *Page) Call(method string, params any, out any) {
	p.t.Helper()
	p.b.call(p.session, method, params, out)
}

func (p *Page) event(m cdpMessage) {
	switch m.Method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Page.javascriptDialogOpening":
		var d struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(m.Params, &d)
		p.mu.Lock()
		p.dialogs = append(p.dialogs, d.Message)
		p.mu.Unlock()
		go func() { _ = p.b.send(p.session, "Page.handleJavaScriptDialog", map[string]any{"accept": true}, nil) }()
	case "Runtime.exceptionThrown":
		p.mu.Lock()
		p.errors = append(p.errors, string(m.Params))
		p.mu.Unlock()
	}
}

// Open loads url and waits for its load event.
func (p *Page) Open(url string) {
	p.t.Helper()
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	p.Call("Page.navigate", map[string]any{"url": url}, nil)
	select {
	case <-p.loaded:
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s did not load", url)
	}
}

// Reload reloads the page and waits for its load event.
func (p *Page) Reload() {
	p.t.Helper()
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	p.Call("Page.reload", map[string]any{}, nil)
	select {
	case <-p.loaded:
	case <-time.After(30 * time.Second):
		p.t.Fatal("the page did not load again")
	}
}

// Eval runs a JavaScript expression (awaiting a promise) and decodes its
// value into out; a failure fails the test.
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	if err := p.Try(expr, out); err != nil {
		p.t.Fatal(err)
	}
}

// Try is Eval that returns its error.
func (p *Page) Try(expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := p.b.send(p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res); err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluating %s: %s %s", expr, res.Exception.Text, res.Exception.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// WaitFor polls a JavaScript condition until it is true (15 s at most).
func (p *Page) WaitFor(what, cond string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var ok bool
		if err := p.Try("!!("+cond+")", &ok); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var text string
			_ = p.Try("(document.querySelector('main') || document.body).innerText", &text)
			p.t.Fatalf("waiting for %s (%s): timed out; the page shows:\n%s", what, cond, text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// Tap waits for the element of a JavaScript expression, scrolls it into
// view and taps its centre with the mouse, as a finger would.
func (p *Page) Tap(what, elementExpr string) {
	p.t.Helper()
	p.WaitFor(what, elementExpr)
	var r struct{ X, Y float64 }
	p.Eval(`(() => { const el = `+elementExpr+`; el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, &r)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		p.Call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": r.X, "y": r.Y, "button": "left", "clickCount": 1}, nil)
	}
}

// TapText taps the button or link whose text is text (inside scope, a
// CSS selector, or anywhere).
func (p *Page) TapText(scope, text string) {
	p.t.Helper()
	if scope == "" {
		scope = "main"
	}
	p.Tap(fmt.Sprintf("%q in %s", text, scope), fmt.Sprintf(`[...document.querySelectorAll(%q)].flatMap((s) => [...s.querySelectorAll('button, a')]).find((b) => b.textContent.trim() === %q && !b.disabled)`, scope, text))
}

// TypeInto focuses an input and types text into it.
func (p *Page) TypeInto(what, elementExpr, text string) {
	p.t.Helper()
	p.WaitFor(what, elementExpr)
	p.Eval(`(() => { const el = `+elementExpr+`; el.focus(); el.select && el.select(); })()`, nil)
	p.Call("Input.insertText", map[string]any{"text": text}, nil)
}

// Text is the inner text of the first element a selector finds.
func (p *Page) Text(selector string) string {
	p.t.Helper()
	var s string
	p.Eval(fmt.Sprintf(`(document.querySelector(%q) || {}).innerText || ''`, selector), &s)
	return s
}

// Offline takes the page's network away, or gives it back (as slow as
// SlowPhone made it).
func (p *Page) Offline(off bool) {
	p.t.Helper()
	conditions := map[string]any{"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
	if p.network != nil {
		conditions = p.network
	}
	params := map[string]any{"offline": off}
	for k, v := range conditions {
		params[k] = v
	}
	p.Call("Network.emulateNetworkConditions", params, nil)
}

// SlowPhone makes the page a club's slow phone: its CPU four times slower
// (Emulation.setCPUThrottlingRate) and a slow mobile network (150 ms each
// way, 1.6 Mbit/s down, 750 kbit/s up) for every request and the live
// stream, so races between an answer and a tap show in the tests as they
// would at a table.
func (p *Page) SlowPhone() {
	p.t.Helper()
	p.Call("Emulation.setCPUThrottlingRate", map[string]any{"rate": 4}, nil)
	p.network = map[string]any{"latency": 150, "downloadThroughput": 1600 * 1024 / 8, "uploadThroughput": 750 * 1024 / 8}
	p.Offline(false)
}

// Screenshot leaves a PNG of the viewport scrolled to the top in the
// folder $STICHBUCH_ARTIFACTS names, when it names one, and returns it.
func (p *Page) Screenshot(name string) []byte {
	p.t.Helper()
	p.Eval(`window.scrollTo(0, 0)`, nil)
	data := p.Capture()
	if dir := os.Getenv("STICHBUCH_ARTIFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
	}
	return data
}

// Capture is a PNG of the viewport as it is.
func (p *Page) Capture() []byte {
	p.t.Helper()
	var res struct {
		Data []byte `json:"data"` // base64 in JSON, bytes here
	}
	p.Call("Page.captureScreenshot", map[string]any{"format": "png"}, &res)
	return res.Data
}

// Dialogs are the messages of the dialogs (confirm, alert) the page
// opened and the test accepted, oldest first.
func (p *Page) Dialogs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.dialogs...)
}

// ConsoleErrors are the uncaught exceptions of the page so far.
func (p *Page) ConsoleErrors() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.errors, "\n")
}

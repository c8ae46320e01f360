package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// browser drives headless Chromium through the DevTools protocol over
// --remote-debugging-pipe (JSON messages ended by NUL on fds 3 and 4), as
// the report's browser test does; the standard library is enough. A
// browser holds pages, each in a context of its own (its own storage,
// service worker and network conditions), like two phones.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpMessage
	pages   map[string]*page // by session id
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

// chromiumPath is Debian's Chromium, or "" when it is not installed.
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// startBrowser starts headless Chromium or skips the test when there is none.
func startBrowser(t *testing.T) *browser { return startBrowserAt(t, t.TempDir()) }

// startBrowserAt starts it with its profile in dir.
func startBrowserAt(t *testing.T, dir string) *browser {
	t.Helper()
	bin := chromiumPath()
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
		"--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir=" + dir, "about:blank"}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	b := &browser{t: t, cmd: cmd, w: fromTest, waiting: map[int]chan cdpMessage{}, pages: map[string]*page{}, cancel: cancel}
	go b.read(toTest)
	t.Cleanup(b.close)
	return b
}

func (b *browser) read(r *os.File) {
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
func (b *browser) send(session, method string, params any, out any) error {
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

func (b *browser) call(session, method string, params any, out any) {
	b.t.Helper()
	if err := b.send(session, method, params, out); err != nil {
		b.t.Fatalf("devtools: %v", err)
	}
}

func (b *browser) close() { b.closing.Do(b.shutdown) }

func (b *browser) shutdown() {
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

// page is one tab in a browser context of its own: a phone of 390×844 CSS
// pixels that accepts every dialog (confirm) and collects console errors.
type page struct {
	b       *browser
	t       *testing.T
	session string
	mu      sync.Mutex
	loaded  chan struct{}
	errors  []string
}

func (b *browser) newPage() *page { return b.openPage(true) }

// openPage opens a tab in a context of its own (isolated) or in the
// profile's default context, whose storage outlives the browser.
func (b *browser) openPage(isolated bool) *page {
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
	p := &page{b: b, t: b.t, session: attached.SessionID, loaded: make(chan struct{}, 8)}
	b.mu.Lock()
	b.pages[p.session] = p
	b.mu.Unlock()
	p.call("Page.enable", nil, nil)
	p.call("Runtime.enable", nil, nil)
	p.call("Network.enable", nil, nil)
	p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}, nil)
	return p
}

func (p *page) call(method string, params any, out any) {
	p.t.Helper()
	p.b.call(p.session, method, params, out)
}

func (p *page) event(m cdpMessage) {
	switch m.Method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Page.javascriptDialogOpening":
		go func() { _ = p.b.send(p.session, "Page.handleJavaScriptDialog", map[string]any{"accept": true}, nil) }()
	case "Runtime.exceptionThrown":
		p.mu.Lock()
		p.errors = append(p.errors, string(m.Params))
		p.mu.Unlock()
	}
}

// open loads url and waits for its load event.
func (p *page) open(url string) {
	p.t.Helper()
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	p.call("Page.navigate", map[string]any{"url": url}, nil)
	select {
	case <-p.loaded:
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s did not load", url)
	}
}

// reload reloads the page and waits for its load event.
func (p *page) reload() {
	p.t.Helper()
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	p.call("Page.reload", map[string]any{}, nil)
	select {
	case <-p.loaded:
	case <-time.After(30 * time.Second):
		p.t.Fatal("the page did not load again")
	}
}

// eval runs a JavaScript expression (awaiting a promise) and decodes its value.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	if err := p.try(expr, out); err != nil {
		p.t.Fatal(err)
	}
}

func (p *page) try(expr string, out any) error {
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

// waitFor polls a JavaScript condition until it is true (15 s at most).
func (p *page) waitFor(what, cond string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var ok bool
		if err := p.try("!!("+cond+")", &ok); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var text string
			_ = p.try("document.querySelector('main').innerText", &text)
			p.t.Fatalf("waiting for %s (%s): timed out; the page shows:\n%s", what, cond, text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// tap waits for the element of a JavaScript expression, scrolls it into
// view and taps its centre with the mouse, as a finger would.
func (p *page) tap(what, elementExpr string) {
	p.t.Helper()
	p.waitFor(what, elementExpr)
	var r struct{ X, Y float64 }
	p.eval(`(() => { const el = `+elementExpr+`; el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, &r)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		p.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": r.X, "y": r.Y, "button": "left", "clickCount": 1}, nil)
	}
}

// tapText taps the button or link whose text is text (inside scope, a
// CSS selector, or anywhere).
func (p *page) tapText(scope, text string) {
	p.t.Helper()
	if scope == "" {
		scope = "main"
	}
	p.tap(fmt.Sprintf("%q in %s", text, scope), fmt.Sprintf(`[...document.querySelectorAll(%q)].flatMap((s) => [...s.querySelectorAll('button, a')]).find((b) => b.textContent.trim() === %q && !b.disabled)`, scope, text))
}

// typeInto focuses an input and types text into it, key by key.
func (p *page) typeInto(what, elementExpr, text string) {
	p.t.Helper()
	p.waitFor(what, elementExpr)
	p.eval(`(() => { const el = `+elementExpr+`; el.focus(); el.select && el.select(); })()`, nil)
	p.call("Input.insertText", map[string]any{"text": text}, nil)
}

// text is the inner text of the first element a selector finds.
func (p *page) text(selector string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.querySelector(%q) || {}).innerText || ''`, selector), &s)
	return s
}

func (p *page) offline(off bool) {
	p.t.Helper()
	p.call("Network.emulateNetworkConditions", map[string]any{"offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, nil)
}

// screenshot leaves a PNG of the viewport in the artifacts folder (and
// returns its bytes).
func (p *page) screenshot(name string) []byte {
	p.t.Helper()
	var res struct {
		Data []byte `json:"data"`
	}
	p.eval(`window.scrollTo(0, 0)`, nil)
	p.call("Page.captureScreenshot", map[string]any{"format": "png"}, &res)
	if dir := os.Getenv("STICHBUCH_ARTIFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(dir+"/"+name, res.Data, 0o644)
		}
	}
	return res.Data
}

// consoleErrors are the uncaught exceptions of the page so far.
func (p *page) consoleErrors() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.errors, "\n")
}

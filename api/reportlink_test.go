package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestReportLinkOpensWithoutAKeyWhileItsKeyLives: a treasurer's report has
// a stable address a browser opens without an Authorization header (the
// printable page and the CSV), the same every time it is asked for; a
// forged or altered link does not open, and the links of a revoked key
// stop.
func TestReportLinkOpensWithoutAKeyWhileItsKeyLives(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	key := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader", "label": "Kassenwart"})
	secret := key["secret"].(string)
	path := fmt.Sprintf("/v1/sessions/%d/report-link", ev.session)
	link := e.must(200, "GET", path, secret, nil)
	html, csv := link["html_url"].(string), link["csv_url"].(string)
	if again := e.must(200, "GET", path, secret, nil); again["html_url"] != html {
		t.Errorf("the link changed: %v, then %v", html, again["html_url"])
	}
	page := e.call("GET", html, "", nil)
	if page.status != 200 || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") || !strings.Contains(string(page.body), "Anna") {
		t.Fatalf("the printable report by its link: %d %s", page.status, page.header.Get("Content-Type"))
	}
	sheet := e.call("GET", csv, "", nil)
	if sheet.status != 200 || !strings.HasPrefix(sheet.header.Get("Content-Type"), "text/csv") || !strings.Contains(sheet.header.Get("Content-Disposition"), ".csv") {
		t.Fatalf("the CSV by its link: %d %s %s", sheet.status, sheet.header.Get("Content-Type"), sheet.header.Get("Content-Disposition"))
	}
	token := strings.TrimPrefix(strings.SplitN(html, "?", 2)[0], "/v1/report-links/")
	parts := strings.SplitN(token, "_", 5) // sbr, club, key, session, signature
	other := strings.Join([]string{parts[0], parts[1], parts[2], fmt.Sprint(ev.session + 1), parts[4]}, "_")
	for _, bad := range []string{other, token[:len(token)-2], "sbr_1"} {
		res := e.call("GET", "/v1/report-links/"+bad, "", nil)
		if res.status != 404 {
			t.Errorf("an altered link %q: %d, want 404", bad, res.status)
			continue
		}
		checkHint(t, "an altered link", res.json(t), nil, "Link")
	}
	e.must(200, "POST", fmt.Sprintf("/v1/keys/%v/revoke", key["id"]), e.admin, nil)
	if res := e.call("GET", html, "", nil); res.status != 404 {
		t.Errorf("the link of a revoked key: %d, want 404", res.status)
	}
}

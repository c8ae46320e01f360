package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stichbuch/stichbuch/api/internal/cdp"
)

// writePage renders a report into the artifact directory and returns its
// path.
func writePage(t *testing.T, dir, name string, r func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := r(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	pdfCountRE = regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)`)
	pdfPageRE  = regexp.MustCompile(`/Type\s*/Page\b[^s]`)
)

// pdfPages counts a PDF's pages: the page tree's /Count, checked against
// the page objects (Chromium writes them uncompressed).
func pdfPages(t *testing.T, pdf []byte) int {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF (%d bytes)", len(pdf))
	}
	pages := len(pdfPageRE.FindAll(pdf, -1))
	if m := pdfCountRE.FindSubmatch(pdf); m != nil {
		if n, _ := strconv.Atoi(string(m[1])); n != pages && pages > 0 {
			t.Fatalf("the PDF's page tree counts %d pages, its page objects %d", n, pages)
		}
	}
	if pages == 0 {
		t.Fatal("no page objects in the PDF")
	}
	return pages
}

// TestPrintedEveningFitsTwoPages prints a 20-hand evening of five players
// to PDF in headless Chromium, as a treasurer prints it (A4, the page's
// own @page rule): it takes at most two pages. The PDF and a screenshot
// of the page are kept as artifacts.
func TestPrintedEveningFitsTwoPages(t *testing.T) {
	bin := cdp.Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	dir := artifactDir(t)
	r := eveningOfFive()
	page := writePage(t, dir, "evening-20x5.html", func(b *bytes.Buffer) error { return HTML(b, r) })
	pdf := filepath.Join(dir, "evening-20x5.pdf")
	os.Remove(pdf)
	chromium(t, bin, "--no-pdf-header-footer", "--print-to-pdf="+pdf, "file://"+page)
	raw, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatalf("no PDF: %v", err)
	}
	n := pdfPages(t, raw)
	t.Logf("%s: %d pages", pdf, n)
	if n > 2 {
		t.Errorf("the 20-hand evening of five players prints on %d A4 pages, want at most 2", n)
	}
}

// TestPrintedPageCutsNothingOff checks in the browser, at the printable
// width of A4 portrait (190 mm, 718 CSS pixels) and with print styles,
// that no table of the report reaches past the right edge of the page.
func TestPrintedPageCutsNothingOff(t *testing.T) {
	bin := cdp.Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	dir := artifactDir(t)
	page := writePage(t, dir, "evening-20x5.html", func(b *bytes.Buffer) error { return HTML(b, eveningOfFive()) })
	d := cdp.Start(t, "").NewPage()
	d.Viewport(718, 1000, 2, false)
	d.Call("Emulation.setEmulatedMedia", map[string]any{"media": "print"}, nil)
	d.Open("file://" + page)
	var widest struct {
		Right float64
		Name  string
		Page  float64
	}
	d.Eval(`(() => { let w = {Right: 0, Name: "", Page: document.documentElement.clientWidth};
		for (const el of document.querySelectorAll("table, svg, p, h1, h2")) {
			const r = el.getBoundingClientRect();
			if (r.right > w.Right) { w.Right = r.right; w.Name = el.tagName + "." + el.className.baseVal + el.className; }
		}
		return w; })()`, &widest)
	if widest.Right > widest.Page+0.5 {
		t.Errorf("%s ends at %.0f px, past the printable width %.0f px: it would be cut off", widest.Name, widest.Right, widest.Page)
	}
}

// TestPhoneKeepsNumberAndNames opens the report at 390 CSS pixels, as on
// a phone, scrolls the score sheet sideways and down, and checks that the
// hands' numbers and the players' names are still in view. The
// screenshots are kept as artifacts.
func TestPhoneKeepsNumberAndNames(t *testing.T) {
	bin := cdp.Path()
	if bin == "" {
		t.Skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
	}
	dir := artifactDir(t)
	page := writePage(t, dir, "evening-20x5.html", func(b *bytes.Buffer) error { return HTML(b, eveningOfFive()) })
	d := cdp.Start(t, "").NewPage()
	d.Viewport(390, 844, 2, true)
	d.Open("file://" + page)
	writeFile(t, filepath.Join(dir, "phone-390.png"), d.Capture())

	var view struct {
		Box, Number, Name, Cell rect
		ScrolledX, ScrolledY    float64
	}
	d.Eval(`(() => {
		const box = document.querySelector(".sheet-scroll");
		box.scrollIntoView();
		box.scrollLeft = box.scrollWidth; box.scrollTop = box.scrollHeight / 2;
		const r = el => { const b = el.getBoundingClientRect(); return {Left: b.left, Right: b.right, Top: b.top, Bottom: b.bottom, Width: b.width}; };
		const rows = box.querySelectorAll("tbody tr.hand");
		return {Box: r(box), Number: r(rows[rows.length - 1].querySelector("th.nr")),
			Name: r(box.querySelector("thead th.player:last-of-type")), Cell: r(rows[rows.length - 1].lastElementChild),
			ScrolledX: box.scrollLeft, ScrolledY: box.scrollTop};
	})()`, &view)
	writeFile(t, filepath.Join(dir, "phone-390-scrolled.png"), d.Capture())
	t.Logf("sheet box %s; scrolled %.0f right, %.0f down; number cell %s; last name %s", view.Box, view.ScrolledX, view.ScrolledY, view.Number, view.Name)
	if view.ScrolledX <= 0 {
		t.Fatalf("the score sheet does not scroll sideways at 390 px (box %s): the test proves nothing", view.Box)
	}
	if view.Box.Right > 390.5 {
		t.Errorf("the score sheet's box ends at %.0f px, past the phone's 390 px", view.Box.Right)
	}
	if view.Number.Left < view.Box.Left-0.5 || view.Number.Right > view.Cell.Left+0.5 || view.Number.Width < 10 {
		t.Errorf("scrolled sideways, the hand number %s left the view (box %s, last cell %s)", view.Number, view.Box, view.Cell)
	}
	if view.Name.Top < view.Box.Top-0.5 || view.Name.Bottom > view.Box.Bottom || view.Name.Left < view.Box.Left || view.Name.Right > view.Box.Right+0.5 {
		t.Errorf("scrolled sideways and down, the last player's name %s left the view (box %s)", view.Name, view.Box)
	}
}

// writeFile writes data to path or fails the test.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rect is a DOMRect as getBoundingClientRect gives it.
type rect struct {
	Left, Right, Top, Bottom, Width float64
}

func (r rect) String() string {
	return fmt.Sprintf("left %.0f right %.0f top %.0f bottom %.0f", r.Left, r.Right, r.Top, r.Bottom)
}

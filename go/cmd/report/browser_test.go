package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cgocost/go/internal/atomicfile"

	"github.com/chromedp/chromedp"
)

// The page in a real browser (make test-browser): Debian's chromium, driven
// by chromedp, opens the page drawn from the fixtures as a file:// URL.
//
// It runs only with CGOCOST_BROWSER=1 (so that `go test ./go/...` on a
// machine without chromium skips it, saying so); with it set, a missing
// chromium fails. CGOCOST_CHROMIUM names the browser (default: chromium on
// PATH); CGOCOST_SCREENSHOT names where the full-page PNG goes (default: the
// test's temporary directory).
const browserEnv = "CGOCOST_BROWSER"

// rendered is what the page's DOM holds once the browser laid it out.
type rendered struct {
	Title     string   `json:"title"`
	First     string   `json:"first"`
	TOC       []string `json:"toc"`
	Resources int      `json:"resources"`
	Sections  []struct {
		ID      string `json:"id"`
		Figures []struct {
			SVGs   int     `json:"svgs"`
			Shapes int     `json:"shapes"`
			Texts  int     `json:"texts"`
			Width  float64 `json:"width"`
			Height float64 `json:"height"`
		} `json:"figures"`
		Tables []struct {
			Rows   int     `json:"rows"`
			Cols   int     `json:"cols"`
			Height float64 `json:"height"`
		} `json:"tables"`
	} `json:"sections"`
}

// inspect reads the layout back: for every section its figures (each
// figure's SVG, how many drawn elements and labels it has, its size on
// screen) and its tables (the body rows laid out with a height, columns,
// height), the table of contents, the first section, and the resources the
// page fetched.
const inspect = `(() => {
  const sections = [...document.querySelectorAll('main > section')].map(s => ({
    id: s.id,
    figures: [...s.querySelectorAll('figure')].map(f => {
      const svg = f.querySelector('svg');
      if (!svg) return {svgs: 0, shapes: 0, texts: 0, width: 0, height: 0};
      const r = svg.getBoundingClientRect();
      return {svgs: f.querySelectorAll('svg').length,
              shapes: svg.querySelectorAll('path, circle, line, rect, polygon, polyline').length,
              texts: svg.querySelectorAll('text').length, width: r.width, height: r.height};
    }),
    tables: [...s.querySelectorAll('table')].map(t => ({
      rows: t.tBodies.length ? [...t.tBodies[0].rows].filter(r => r.getBoundingClientRect().height > 0).length : 0,
      cols: t.tHead ? t.tHead.rows[0].cells.length : 0,
      height: t.getBoundingClientRect().height})),
  }));
  const first = document.querySelector('body section');
  return {title: document.title, first: first ? first.id : '',
          toc: [...document.querySelectorAll('nav#toc a')].map(a => a.getAttribute('href')),
          resources: performance.getEntriesByType('resource').length, sections};
})()`

func chromium(t *testing.T) string {
	t.Helper()
	if os.Getenv(browserEnv) == "" {
		t.Skipf("the browser test runs with %s=1 (make test-browser, which needs chromium: make setup)", browserEnv)
	}
	name := os.Getenv("CGOCOST_CHROMIUM")
	if name == "" {
		name = "chromium"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s=1 and no %s to run: %v (make setup installs Debian's chromium)", browserEnv, name, err)
	}
	return path
}

func TestPageInABrowser(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	args := append([]string{"-o", page, "--matrix", fixture("matrix.json")}, fixtureArgs(fixtures...)...)
	if code, _, stderr := report(t, "", args...); code != 0 {
		t.Fatalf("cgocost-report %v: exit %d: %s", args, code, stderr)
	}
	// what the page should hold, from the same inputs
	in, err := readInputs(fixtureArgs(fixtures...), fixture("matrix.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := buildPage(in)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // root in a container has no user namespace for chromium's sandbox
		chromedp.WindowSize(1200, 900),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("user-data-dir", filepath.Join(dir, "profile")),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}

	// every console message from the load on
	cctx, stopConsole := context.WithCancel(ctx)
	var mu sync.Mutex
	var messages []chromedp.ConsoleMessage
	done := make(chan struct{})
	console := chromedp.Console(cctx)
	go func() {
		defer close(done)
		for m, err := range console {
			if err != nil {
				return
			}
			mu.Lock()
			messages = append(messages, m)
			mu.Unlock()
		}
	}()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[rendered](inspect))
	if err != nil {
		t.Fatalf("reading the page back: %v", err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	t.Logf("opened, read back and captured in %.1f s", time.Since(start).Seconds())
	stopConsole()
	<-done

	for _, m := range messages {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			t.Errorf("console %s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line)
		} else {
			t.Logf("console %s: %s", m.Type, m.Text)
		}
	}
	if got.Resources != 0 {
		t.Errorf("the page fetched %d resources: it must be self-contained", got.Resources)
	}
	if got.Title != want.Title {
		t.Errorf("title %q, want %q", got.Title, want.Title)
	}
	if got.First != "decisions" {
		t.Errorf("the first section is %q, want the decisions", got.First)
	}
	if len(got.Sections) != len(want.Sections) {
		t.Fatalf("%d sections rendered, want %d", len(got.Sections), len(want.Sections))
	}
	if len(got.TOC) != len(want.Sections) {
		t.Errorf("the table of contents has %d entries, want %d", len(got.TOC), len(want.Sections))
	}
	for i, ws := range want.Sections {
		gs := got.Sections[i]
		if gs.ID != ws.ID {
			t.Errorf("section %d is #%s, want #%s", i+1, gs.ID, ws.ID)
			continue
		}
		if i < len(got.TOC) && got.TOC[i] != "#"+ws.ID {
			t.Errorf("contents entry %d points to %s, want #%s", i+1, got.TOC[i], ws.ID)
		}
		var charts, tables []block
		for _, b := range ws.Blocks {
			if b.SVG != "" {
				charts = append(charts, b)
			}
			if b.Table != nil {
				tables = append(tables, b)
			}
		}
		if len(gs.Figures) != len(charts) {
			t.Errorf("#%s: %d figures rendered, want %d", ws.ID, len(gs.Figures), len(charts))
		}
		for j, f := range gs.Figures {
			// a gonum chart has its axes, ticks and marks (paths and
			// more) and its title, labels and tick labels (text)
			if f.SVGs != 1 || f.Shapes < 10 || f.Texts < 4 || f.Width < 300 || f.Height < 100 {
				t.Errorf("#%s figure %d: %d SVGs, %d shapes, %d texts, %.0fx%.0f px: not a drawn chart", ws.ID, j+1, f.SVGs, f.Shapes, f.Texts, f.Width, f.Height)
			}
		}
		if len(gs.Tables) != len(tables) {
			t.Errorf("#%s: %d tables rendered, want %d", ws.ID, len(gs.Tables), len(tables))
			continue
		}
		for j, tb := range gs.Tables {
			w := tables[j].Table
			if tb.Rows != len(w.Rows) || tb.Rows == 0 || tb.Cols != len(w.Head) || tb.Height < 20 {
				t.Errorf("#%s table %d: %d rows of %d columns, %.0f px high; want %d rows of %d", ws.ID, j+1, tb.Rows, tb.Cols, tb.Height, len(w.Rows), len(w.Head))
			}
		}
	}

	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() <= 900 {
		t.Errorf("the screenshot is %dx%d: not the full page of a 1200 px window", b.Dx(), b.Dy())
	}
	out := os.Getenv("CGOCOST_SCREENSHOT")
	if out == "" {
		out = filepath.Join(dir, "report.png")
	}
	if err := atomicfile.WriteFile(out, shot); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%dx%d)", out, img.Bounds().Dx(), img.Bounds().Dy())
	if strings.HasPrefix(out, dir) {
		t.Log("(in the test's temporary directory: set CGOCOST_SCREENSHOT to keep it)")
	}
}

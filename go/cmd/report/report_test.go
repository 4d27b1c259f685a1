package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The fixtures are real runs, trimmed (launches' batches cut to two, their
// libraries dropped): compare.json (`bench --compare`, 10 s, on the quiet
// reference machine, with its command and decisions), anatomy.json
// (decisions none of which it measures), floors.json, sweep.json and
// against.json (a paired --against verdict; these three from before
// "command" and "decisions"), matrix.json (build/matrix.json).
var fixtures = []string{"compare.json", "anatomy.json", "floors.json", "sweep.json", "against.json"}

func fixture(name string) string { return filepath.Join("testdata", name) }

func fixtureArgs(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, fixture(n))
	}
	return out
}

// report runs the command as main does and returns its exit status, stdout
// and stderr.
func report(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

var sectionRe = regexp.MustCompile(`<section id="([a-z]+)"`)

func sectionsOf(html string) []string {
	var ids []string
	for _, m := range sectionRe.FindAllStringSubmatch(html, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestEverySectionFromTheFixtures(t *testing.T) {
	code, html, stderr := report(t, "", append([]string{"--matrix", fixture("matrix.json")}, fixtureArgs(fixtures...)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []string{"decisions", "runs", "cells", "ratios", "anatomy", "floors", "sweep", "matrix"}
	if got := sectionsOf(html); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("sections %v, want %v in that order", got, want)
	}
	for _, id := range want {
		if !strings.Contains(html, `<li><a href="#`+id+`">`) {
			t.Errorf("the table of contents has no entry for #%s", id)
		}
	}
	// self-contained: nothing is fetched
	for _, bad := range []string{"<script", "<link", "<img", "@import", "url(", `src="`, "http://", "https://"} {
		if bad == "http://" || bad == "https://" {
			// the SVG namespaces are names, not fetches
			stripped := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(html)
			if strings.Contains(stripped, bad) {
				t.Errorf("the page refers to %s", bad)
			}
			continue
		}
		if strings.Contains(html, bad) {
			t.Errorf("the page holds %q: it must load nothing", bad)
		}
	}
	if strings.Contains(html, "<?xml") {
		t.Error("an SVG's XML prolog is inside the HTML")
	}
	if n := strings.Count(html, "<svg"); n < 8 {
		t.Errorf("%d charts, want at least one per section with a chart", n)
	}
	// figures of the fixtures reach the page
	for _, s := range []string{"leave async off", "2.440 [2.354, 2.509]", "measure it with: make matrix",
		"AMD EPYC", "go1.26.8", "./build/bench --compare --format json", "no_change", "go1.19.8"} {
		if !strings.Contains(html, s) {
			t.Errorf("no %q on the page", s)
		}
	}
}

func TestSectionsFollowTheData(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{fixtureArgs("floors.json"), "runs cells floors"}, // a --floors run has no ratios
		{fixtureArgs("sweep.json"), "runs cells ratios sweep"},
		{fixtureArgs("anatomy.json"), "decisions runs cells ratios anatomy"},
		{fixtureArgs("against.json"), "runs cells ratios"},
		{[]string{"--matrix", fixture("matrix.json")}, "matrix"},
	}
	for _, c := range cases {
		code, html, stderr := report(t, "", c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if got := strings.Join(sectionsOf(html), " "); got != c.want {
			t.Errorf("%v: sections %q, want %q", c.args, got, c.want)
		}
	}
	// the verdicts are there only with a comparison
	_, html, _ := report(t, "", fixture("against.json"))
	if !strings.Contains(html, `id="changes-1"`) || !strings.Contains(html, "No change in performance detected.") {
		t.Error("the verdicts of against.json are not on the page")
	}
	_, html, _ = report(t, "", fixture("floors.json"))
	if strings.Contains(html, `id="changes-`) {
		t.Error("verdicts on the page of a document without a comparison")
	}
}

// A document from before "decisions" and "command" reads: no decisions
// section, and the command said to be unrecorded.
func TestDocumentWithoutDecisions(t *testing.T) {
	code, html, stderr := report(t, "", fixture("floors.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(html, `id="decisions"`) {
		t.Error("a decisions section from a document that has none")
	}
	if !strings.Contains(html, "not recorded (a document from before &#34;command&#34;)") {
		t.Error("the missing command is not said")
	}
}

func ptr[T any](v T) *T { return &v }

func TestDecisionsPicking(t *testing.T) {
	notMeasured := func(key, cmd string) decision {
		return decision{Key: key, Question: key + "?", Command: ptr(cmd)}
	}
	measured := func(key, answer string, est float64) decision {
		return decision{Key: key, Question: key + "?", Measured: true, Answer: ptr(answer), Estimate: ptr(est), Low: ptr(est * 0.9), High: ptr(est * 1.1)}
	}
	docs := []source{
		{label: "a", doc: benchDoc{Decisions: []decision{notMeasured("async", "bench --compare"), measured("link", "c-archive", 1.2), {Key: "future", Measured: true, Answer: ptr("x")}}}},
		{label: "b", doc: benchDoc{Decisions: []decision{{Key: "async", Measured: true, Answer: ptr("too few samples to tell"), Estimate: ptr(2.5)}}}},
		{label: "o", doc: benchDoc{}}, // from before decisions
		{label: "c", doc: benchDoc{Decisions: []decision{measured("async", "leave async off", 8.9), measured("link", "c-shared", 0.8), notMeasured("toolchain", "make matrix")}}},
	}
	got := pickDecisions(docs)
	want := []struct{ key, from, answer string }{
		{"async", "c", "leave async off"}, // the first measured with an interval, not the first seen or measured
		{"link", "a", "c-archive"},        // the first of two measured
		{"toolchain", "c", ""},            // measured nowhere: its command
		{"future", "a", "x"},              // a key outside the contract, after its keys
	}
	if len(got) != len(want) {
		t.Fatalf("%d decisions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Key != w.key || g.from != w.from || str(g.Answer, "") != w.answer {
			t.Errorf("decision %d: %s from %s answering %q, want %s from %s answering %q", i, g.Key, g.from, str(g.Answer, ""), w.key, w.from, w.answer)
		}
	}
	if got[2].Measured || str(got[2].Command, "") != "make matrix" {
		t.Errorf("toolchain: %+v, want not measured with its command", got[2])
	}
	if len(pickDecisions([]source{{label: "old"}})) != 0 {
		t.Error("decisions picked from documents that have none")
	}
}

// The first section the page has is the decisions, and each unmeasured
// decision says so with its command.
func TestDecisionsComeFirst(t *testing.T) {
	_, html, _ := report(t, "", fixtureArgs("floors.json", "anatomy.json", "compare.json")...)
	ids := sectionsOf(html)
	if len(ids) == 0 || ids[0] != "decisions" {
		t.Fatalf("sections %v: the decisions are not first", ids)
	}
	// anatomy.json comes first and measures nothing: compare.json answers
	if !strings.Contains(html, "leave async off") {
		t.Error("the measured async decision of compare.json was not picked")
	}
	if n := strings.Count(html, ">not measured in this run<"); n != 3 {
		t.Errorf("%d decisions not measured, want 3 (pooling, malloc, toolchain)", n)
	}
	if !strings.Contains(html, "measure it with: bench --scenario lifecycle --launches 10") {
		t.Error("an unmeasured decision without its command")
	}
}

func TestStdin(t *testing.T) {
	data, err := os.ReadFile(fixture("sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{nil, {"-"}} {
		code, html, stderr := report(t, string(data), args...)
		if code != 0 || !strings.Contains(html, `<section id="sweep"`) || !strings.Contains(html, "<code>stdin</code>") {
			t.Errorf("%v: exit %d (%s): the sweep from standard input is not on the page", args, code, stderr)
		}
	}
}

// Bad input: exit 2, one line naming the file and the problem, nothing on
// stdout.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := fixture("floors.json")
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"not JSON", "", []string{write("garbage.json", "not json at all")}, "garbage.json: not a JSON document"},
		{"unknown schema version", "", []string{write("v4.json", `{"schema_version": 4, "generator": "cgocost bench", "cells": [{}]}`)}, "v4.json: schema_version 4, this report reads 1 to 3"},
		{"no schema version", "", []string{write("none.json", `{"generator": "cgocost bench"}`)}, "no schema_version"},
		{"two documents in one", "", []string{write("two.json", `{"schema_version": 2} {}`)}, "more than one JSON value"},
		{"no cells", "", []string{write("empty.json", `{"schema_version": 2, "generator": "cgocost bench", "cells": []}`)}, "no cells"},
		{"a matrix as a bench document", "", []string{fixture("matrix.json")}, "give it with --matrix"},
		{"a bench document as the matrix", "", []string{"--matrix", good}, "want \"cgocost matrix\""},
		{"a missing file", "", []string{good, filepath.Join(dir, "missing.json")}, "missing.json: no such file or directory"},
		{"stdin twice", "{}", []string{"-", "-"}, "standard input given twice"},
		{"an unknown flag", "", []string{"--colour", good}, "flag provided but not defined"},
		{"empty stdin", "", nil, "stdin: not a JSON document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := report(t, c.stdin, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (%s)", code, stderr)
			}
			if out != "" {
				t.Errorf("%d bytes on stdout", len(out))
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cgocost-report: ") || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line with %q", stderr, c.want)
			}
		})
	}
}

// -o replaces the file whole, or leaves it as it was: never a partial page,
// never a temporary file left behind.
func TestOutputIsAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	if err := os.WriteFile(out, []byte("the old page"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := report(t, "", "-o", out, fixture("floors.json"), garbage); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if b, _ := os.ReadFile(out); string(b) != "the old page" {
		t.Fatalf("a failed run changed %s: %q", out, b)
	}
	code, stdout, stderr := report(t, "", "-o", out, fixture("floors.json"))
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, %d bytes on stdout: %s", code, len(stdout), stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(b, []byte("</html>\n")) {
		t.Fatalf("%s is not the whole page (%v)", out, err)
	}
	// a directory that does not exist: bad input before anything is read
	// (the one rule of go/internal/atomicfile), nothing left
	if code, _, stderr := report(t, "", "-o", filepath.Join(dir, "no", "such", "dir", "r.html"), fixture("floors.json")); code != 2 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("an unwritable -o: exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left behind: %s", e.Name())
		}
	}
	// -o onto a directory: bad input, as in the C driver
	sub := filepath.Join(dir, "adir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := report(t, "", "-o", sub, fixture("floors.json")); code != 2 {
		t.Errorf("-o onto a non-empty directory: exit %d, want 2", code)
	}
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left behind after a refused -o: %s", e.Name())
		}
	}
}

// The same documents draw the same page, byte for byte (the screenshot in
// docs/report.png is made from the fixtures).
func TestDeterministic(t *testing.T) {
	args := append([]string{"--matrix", fixture("matrix.json")}, fixtureArgs(fixtures...)...)
	_, a, _ := report(t, "", args...)
	_, b, _ := report(t, "", args...)
	if a != b || a == "" {
		t.Fatal("two runs on the same documents drew different pages")
	}
}

// A version 3 comparison that could not tell is drawn as such: its verdict,
// the exit status it gave, and how much longer a run would have needed;
// with --inconclusive pass, that it exited 0.
func TestInconclusiveVerdictDrawn(t *testing.T) {
	doc := func(pass bool) string {
		return fmt.Sprintf(`{"schema_version": 3, "generator": "cgocost bench", "machine": {"cpu_model": "x"},
  "cells": [{"name": "a", "samples": [1, 2, 3]}],
  "comparison": {"against": "base.json", "threshold": 0.02, "verdict": "inconclusive", "need_factor": 3.5, "need_s": 75, "inconclusive_pass": %v,
    "changes": [{"scenario": "a", "kind": "wall", "gated": true, "low": -0.01, "point": 0.015, "high": 0.04, "p": 0.3, "verdict": "inconclusive"}]}}`, pass)
	}
	for _, pass := range []bool{false, true} {
		code, html, stderr := report(t, doc(pass))
		if code != 0 {
			t.Fatalf("inconclusive_pass %v: exit %d (%s)", pass, code, stderr)
		}
		want := "exit 4"
		if pass {
			want = "exit 0: --inconclusive pass"
		}
		for _, w := range []string{"verdict: inconclusive", want, "about 3.5 times the samples, some 75 s more", `class="warn"`} {
			if !strings.Contains(html, w) {
				t.Errorf("inconclusive_pass %v: the page does not say %q", pass, w)
			}
		}
	}
}

// Documents with values at the edges (zeros, negatives, one sample, no
// interval, an anatomy without its base cell, a sweep without latencies)
// draw a page or fail with exit 3, never a Go panic.
func TestEdgeValuesDraw(t *testing.T) {
	head := `{"schema_version": 2, "generator": "cgocost bench", "machine": {"cpu_model": "x"}, `
	docs := []string{
		`"cells": [{"name": "a", "samples": [0, 0, 0]}]}`,
		`"cells": [{"name": "a", "samples": [5]}, {"name": "b", "samples": [null, 1e9, 1e-9]}]}`,
		`"cells": [{"name": "a", "samples": [1]}], "ratios": [{"name": "r", "metric": "wall", "statistics": {"median": -1, "ci_low": -2, "ci_high": 0}}, {"name": "s", "metric": "wall", "statistics": {"median": 2, "ci_low": null, "ci_high": 3}}]}`,
		`"cells": [{"name": "a", "samples": [1]}], "ratios": [{"name": "event-bare mode=sync diff", "metric": "diff", "statistics": {"median": 0}}]}`,
		`"cells": [{"name": "lib=archive/mode=sync/work=bare/p=1", "mode": {"requested": "sync"}, "statistics": {"median": 0}}], "ratios": [{"name": "event-bare mode=sync diff", "metric": "diff", "statistics": {"median": -3}}]}`,
		`"cells": [{"name": "a", "mode": {"requested": "sync"}, "latency": {"load": "rate", "requested_rate": 0, "p50_ns": 0}}]}`,
		`"cells": [{"name": "a", "floors": {"c_call_ns": 0, "spread": {"c_call": {"min_ns": 0, "max_ns": 0}}}}]}`,
		`"cells": [{"name": "a"}], "paired": {"cells": [{"name": "a", "side": "this", "block_ns_per_extraction": [null, 3]}], "ratios": [{"name": "q", "estimate": 1, "low": 1, "high": 1}]}, "comparison": {"against": "b", "threshold": 0, "changes": [{"scenario": "a", "point": 0, "low": 0, "high": 0}]}}`,
		`"cells": [{"name": "a"}], "decisions": [{"key": "async", "measured": true, "estimate": 0, "low": -1, "high": 5}, {"key": "link"}]}`,
	}
	for i, d := range docs {
		code, html, stderr := report(t, head+d)
		if code != 0 && code != 3 {
			t.Errorf("document %d: exit %d (%s)", i, code, stderr)
		}
		if code == 0 && !strings.HasSuffix(html, "</html>\n") {
			t.Errorf("document %d: a page cut short", i)
		}
		if code == 3 {
			t.Logf("document %d: exit 3: %s", i, stderr)
		}
	}
}

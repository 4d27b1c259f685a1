package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cgocost/go/internal/outputrule"
	"cgocost/tests/testbuild"
)

func TestMain(m *testing.M) {
	outputrule.Main(main)
	os.Exit(m.Run())
}

// counted runs the current build's bench, small, as the commit given
// (--count instructions when count), and returns its document. valgrind 3.19 cannot decode
// the RDTSCP the Go runtime's clock uses on CPUs that have it (AMD EPYC:
// the child dies of SIGILL); GODEBUG=cpu.rdtscp=off makes the runtime use
// its fenced RDTSC (scripts/history_real.sh says the same).
func counted(t *testing.T, count bool, commit, at string) []byte {
	t.Helper()
	bench := filepath.Join(testbuild.Dir(t), "bench")
	args := []string{"-n", "2000", "--warmup", "1000", "--commit", commit, "--commit-time", at, "--label", "test", "--format", "json"}
	if count {
		args = append([]string{"--count", "instructions"}, args...)
	}
	r := testbuild.Run{Env: []string{"GODEBUG=cpu.rdtscp=off"}, Timeout: 10 * time.Minute}.Exec(t, bench, args...)
	if r.Code != 0 {
		t.Fatalf("bench %v: exit %d: %s", args, r.Code, r.Stderr)
	}
	return []byte(r.Stdout)
}

var (
	realOnce sync.Once
	realDocs [2][]byte
)

// twoReal are two documents the current build wrote, of two commits: the
// first counted (bench --count instructions), the second timed only (a
// counted run takes half a minute on a loaded 2-CPU VM).
func twoReal(t *testing.T) [2][]byte {
	t.Helper()
	realOnce.Do(func() {
		realDocs[0] = counted(t, true, "aaaa001", "2026-12-01T10:00:00Z")
		realDocs[1] = counted(t, false, "aaaa002", "2026-12-01T11:00:00+00:00")
	})
	if realDocs[0] == nil || realDocs[1] == nil {
		t.Fatal("the documents of the current build were not written (above)")
	}
	return realDocs
}

// derived rewrites a real document as commit i of a series: its commit,
// its time (an hour a commit) and its instructions per extraction.
func derived(t *testing.T, doc []byte, i int, instructions float64) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	d["source"] = map[string]any{
		"commit":      fmt.Sprintf("%07x", 0xbbb000+i),
		"commit_time": time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format(time.RFC3339),
		"label":       "main",
	}
	cell := d["cells"].([]any)[0].(map[string]any)
	cell["counts"].(map[string]any)["instructions"].(map[string]any)["per_extraction"].(map[string]any)["median"] = instructions
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runHistory(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// The documents the current build writes are read: two commits, in
// commit-time order whatever the files' order, their source kept.
func TestReadsTheCurrentBuildsDocuments(t *testing.T) {
	docs := twoReal(t)
	dir := t.TempDir()
	write(t, dir, "a.json", docs[1])
	write(t, dir, "b.json", docs[0])
	code, out, errs := runHistory(dir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "2 commits, aaaa001 (2026-12-01 10:00Z) to aaaa002 (2026-12-01 11:00Z)") {
		t.Errorf("the two commits, oldest first, not said:\n%s", out)
	}
}

// A step of +5% at commit 8 of 16, in documents of the current build's
// format: found at its commit, gated (exit 1), in every output.
func TestStepInDocumentsIsARegression(t *testing.T) {
	docs := twoReal(t)
	dir := t.TempDir()
	for i := 0; i < 16; i++ {
		v := 1079.3 * (1 + 0.001*float64((i*7)%5-2))
		if i >= 8 {
			v *= 1.05
		}
		write(t, dir, fmt.Sprintf("%02d.json", i), derived(t, docs[0], i, v))
	}
	out := t.TempDir()
	page, chart := filepath.Join(out, "h.html"), filepath.Join(out, "h.svg")
	code, text, errs := runHistory("--html", page, "--svg", chart, dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a regression); stderr %q\n%s", code, errs, text)
	}
	if !strings.Contains(text, "0bbb008 2026-12-02 08:00Z up") || !strings.Contains(text, "a regression beyond the 2% threshold") {
		t.Errorf("the step at 0bbb008 or the gate's regression not said:\n%s", text)
	}
	for _, f := range []string{page, chart} {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("0bbb008")) {
			t.Errorf("%s: no chart with the change point (%v)", f, err)
		}
	}
	code, md, _ := runHistory("--markdown", "--threshold", "10", dir)
	if code != 0 || !strings.Contains(md, "| `0bbb008` |") {
		t.Errorf("--markdown --threshold 10: exit %d (want 0: +5%% is within 10%%)\n%s", code, md)
	}
}

// Bad input is exit 2 and one line, nothing on stdout.
func TestBadInputExitsTwo(t *testing.T) {
	docs := twoReal(t)
	var d map[string]any
	if err := json.Unmarshal(docs[0], &d); err != nil {
		t.Fatal(err)
	}
	d["schema_version"] = 4
	v4, _ := json.Marshal(d)
	delete(d, "source")
	d["schema_version"] = 3
	nosource, _ := json.Marshal(d)
	cases := []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"another schema version", map[string][]byte{"a.json": docs[0], "b.json": v4}, "schema_version 4, cgocost-history reads 1 to 3"},
		{"not a document", map[string][]byte{"a.json": docs[0], "b.json": []byte("plugin 1: 251.21 ns/extraction\n")}, "not a JSON document"},
		{"another JSON", map[string][]byte{"a.json": []byte(`{"generator": "cgocost matrix"}`)}, "not a bench document"},
		{"an empty directory", map[string][]byte{}, "no documents (*.json) in the directory"},
		{"duplicate commits", map[string][]byte{"a.json": docs[0], "b.json": docs[0]}, "duplicate commit aaaa001"},
		{"no source", map[string][]byte{"a.json": nosource}, "no source commit and commit_time"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, b := range c.files {
				write(t, dir, n, b)
			}
			code, out, errs := runHistory(dir)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", code, out, errs, c.want)
			}
		})
	}
	for _, args := range [][]string{{}, {"--threshold", "-1", "x"}, {"--bogus", "x"}, {filepath.Join(t.TempDir(), "missing")}} {
		code, out, errs := runHistory(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line", args, code, out, errs)
		}
	}
}

// --html and --svg keep the one rule of every output; a report lost on
// stdout is exit 3.
func TestOutputRule(t *testing.T) {
	docs := twoReal(t)
	dir := t.TempDir()
	for i := 0; i < 8; i++ {
		write(t, dir, fmt.Sprintf("%02d.json", i), derived(t, docs[0], i, 1079.3))
	}
	outputrule.File(t, "history.html", false, func(path string) []string { return []string{"--html", path, dir} })
	outputrule.File(t, "history.svg", false, func(path string) []string { return []string{"--svg", path, dir} })
	outputrule.Stdout(t, func(string) []string { return []string{dir} })
}

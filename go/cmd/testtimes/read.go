package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string // build-output and build-fail events
	Test       string
	Elapsed    float64
	Output     string
}

// Test is one top-level test's outcome and duration.
type Test struct {
	Package, Name, Result string
	Seconds               float64
}

// Run is what a stream held: the top-level tests, each package's summary
// lines (printed last) and its wall time.
type Run struct {
	Tests     []Test
	Subtests  []Test // a table of their own: their time is their parent's too
	summaries []string
	packages  map[string]float64
}

// Read relays to w what go test without -v prints (a failed test's output,
// a build's errors, a package's output outside its tests but its lone PASS)
// and keeps the package summary lines for PrintSummaries. A line that is not
// an event (go test's own errors before any test runs) is relayed as it is.
func Read(r io.Reader, w io.Writer) (*Run, error) {
	run := &Run{packages: map[string]float64{}}
	held := map[string]*strings.Builder{} // package + test or subtest: its own output so far
	order := map[string][]string{}        // package + top-level test: its tests and subtests in order
	failed := map[string]bool{}           // package + test or subtest that failed
	sc := lines(r)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test == "" && e.Action == "output":
			if trimPass(e.Output) {
				continue
			}
			if isSummary(e.Output) {
				run.summaries = append(run.summaries, e.Output)
			} else {
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			run.packages[e.Package] = e.Elapsed
		case e.Test != "" && e.Action == "output":
			// each test's and subtest's own lines, until its top-level test ends
			key := e.Package + " " + e.Test
			if held[key] == nil {
				held[key] = &strings.Builder{}
				top := e.Package + " " + topName(e.Test)
				order[top] = append(order[top], key)
			}
			if !strings.HasPrefix(e.Output, "=== ") {
				held[key].WriteString(e.Output)
			}
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			key := e.Package + " " + e.Test
			if e.Action == "fail" {
				failed[key] = true
			}
			if strings.Contains(e.Test, "/") {
				run.Subtests = append(run.Subtests, Test{e.Package, e.Test, e.Action, e.Elapsed})
				continue
			}
			run.Tests = append(run.Tests, Test{e.Package, e.Test, e.Action, e.Elapsed})
			// as go test without -v: the lines of the test and of each
			// subtest that failed, in the order they came; a passing
			// subtest's logs are not printed
			if e.Action == "fail" {
				printed := 0
				for _, k := range order[key] {
					if failed[k] && held[k] != nil {
						fmt.Fprint(w, held[k].String())
						printed += strings.Count(held[k].String(), "\n")
					}
				}
				if printed <= 1 {
					// the failure's own lines were not attributed to it
					// (seen once under load): say where the stream is
					fmt.Fprintf(w, "    (no message of %s in the stream here: read the go test -json stream kept beside the table)\n", e.Test)
				}
			}
			for _, k := range order[key] {
				delete(held, k)
				delete(failed, k)
			}
			delete(order, key)
		}
	}
	return run, sc.Err()
}

// topName is the top-level test of a test or subtest name.
func topName(name string) string {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return name
}

// isSummary: the line go test ends a package with ("ok  \tpkg\t1.2s",
// "FAIL\tpkg\t1.2s", "FAIL", "?   \tpkg\t[no test files]").
func isSummary(s string) bool {
	return strings.HasPrefix(s, "ok  \t") || strings.HasPrefix(s, "FAIL") || strings.HasPrefix(s, "?   \t")
}

// PrintSummaries prints each package's summary lines, in the order they came.
func (r *Run) PrintSummaries(w io.Writer) {
	for _, s := range r.summaries {
		fmt.Fprint(w, s)
	}
}

// sorted is the tests, slowest first (then by name, for a stable table).
func (r *Run) sorted() []Test { return slowestFirst(r.Tests) }

func slowestFirst(tests []Test) []Test {
	t := append([]Test(nil), tests...)
	sort.SliceStable(t, func(i, j int) bool {
		if t[i].Seconds != t[j].Seconds {
			return t[i].Seconds > t[j].Seconds
		}
		return t[i].Package+t[i].Name < t[j].Package+t[j].Name
	})
	return t
}

// Slowest names the n slowest tests with their seconds, for one line.
func (r *Run) Slowest(n int) string {
	t := r.sorted()
	if len(t) == 0 {
		return "no test ran"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tests, %.0f s summed; slowest", len(t), r.sum())
	for i := 0; i < n && i < len(t); i++ {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s %.1f s", sep, t[i].Name, t[i].Seconds)
	}
	return b.String()
}

func (r *Run) sum() float64 {
	s := 0.0
	for _, t := range r.Tests {
		s += t.Seconds
	}
	return s
}

// Table is the whole table, slowest first: a header of the packages'
// wall times, then one test a line, tab-separated (seconds, share of the
// summed seconds, result, package, test).
func (r *Run) Table() string {
	var b strings.Builder
	pk := make([]string, 0, len(r.packages))
	for p := range r.packages {
		pk = append(pk, p)
	}
	sort.Strings(pk)
	fmt.Fprintf(&b, "# the top-level tests of a go test -json run, slowest first (go/cmd/testtimes)\n")
	for _, p := range pk {
		fmt.Fprintf(&b, "# package %s: %.1f s wall\n", p, r.packages[p])
	}
	sum := r.sum()
	fmt.Fprintf(&b, "# %d tests, %.1f s summed (more than the wall time where tests run in parallel)\n", len(r.Tests), sum)
	fmt.Fprintf(&b, "# seconds\tshare\tresult\tpackage\ttest\n")
	for _, t := range r.sorted() {
		share := 0.0
		if sum > 0 {
			share = 100 * t.Seconds / sum
		}
		fmt.Fprintf(&b, "%.2f\t%.1f%%\t%s\t%s\t%s\n", t.Seconds, share, t.Result, t.Package, t.Name)
	}
	if len(r.Subtests) > 0 {
		fmt.Fprintf(&b, "# %d subtests, slowest first (each one's time is in its parent's above)\n", len(r.Subtests))
		for _, t := range slowestFirst(r.Subtests) {
			fmt.Fprintf(&b, "%.2f\t-\t%s\t%s\t%s\n", t.Seconds, t.Result, t.Package, t.Name)
		}
	}
	return b.String()
}

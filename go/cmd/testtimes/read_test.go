package main

import (
	"strings"
	"testing"
)

// A stream as go test -json writes it: one package, a passing test, a
// failing one with a failing subtest, a skipped one, the package's end.
const stream = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestFast"}
{"Action":"output","Package":"p","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"output","Package":"p","Test":"TestFast","Output":"--- PASS: TestFast (0.50s)\n"}
{"Action":"pass","Package":"p","Test":"TestFast","Elapsed":0.5}
{"Action":"run","Package":"p","Test":"TestSlow"}
{"Action":"output","Package":"p","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Action":"run","Package":"p","Test":"TestSlow/ok"}
{"Action":"output","Package":"p","Test":"TestSlow/ok","Output":"    x_test.go:7: a passing subtest's log\n"}
{"Action":"output","Package":"p","Test":"TestSlow/ok","Output":"    --- PASS: TestSlow/ok (0.10s)\n"}
{"Action":"pass","Package":"p","Test":"TestSlow/ok","Elapsed":0.1}
{"Action":"run","Package":"p","Test":"TestSlow/sub"}
{"Action":"output","Package":"p","Test":"TestSlow/sub","Output":"    x_test.go:9: the figure is wrong\n"}
{"Action":"output","Package":"p","Test":"TestSlow/sub","Output":"    --- FAIL: TestSlow/sub (12.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestSlow/sub","Elapsed":12}
{"Action":"output","Package":"p","Test":"TestSlow","Output":"--- FAIL: TestSlow (12.30s)\n"}
{"Action":"fail","Package":"p","Test":"TestSlow","Elapsed":12.3}
{"Action":"output","Package":"p","Test":"TestSkip","Output":"--- SKIP: TestSkip (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestSkip","Elapsed":0}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t12.9s\n"}
{"Action":"fail","Package":"p","Elapsed":12.9}
`

func TestReadRelaysFailuresAndTimesTests(t *testing.T) {
	var out strings.Builder
	run, err := Read(strings.NewReader(stream), &out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	// the failure's messages, once, and nothing of the passing test
	if strings.Count(got, "the figure is wrong") != 1 || !strings.Contains(got, "--- FAIL: TestSlow (12.30s)") {
		t.Errorf("the failure is not relayed once:\n%s", got)
	}
	if strings.Contains(got, "TestFast") || strings.Contains(got, "=== RUN") || strings.Contains(got, "passing subtest") {
		t.Errorf("a passing test or a RUN line was relayed:\n%s", got)
	}
	// the summary lines are held back for the end
	if strings.Contains(got, "FAIL\tp\t12.9s") {
		t.Errorf("the package's summary line came before the end:\n%s", got)
	}
	var sum strings.Builder
	run.PrintSummaries(&sum)
	if sum.String() != "FAIL\nFAIL\tp\t12.9s\n" {
		t.Errorf("summaries %q", sum.String())
	}
	// three top-level tests (no subtest), slowest first
	table := run.Table()
	rows := []string{}
	for _, l := range strings.Split(table, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			rows = append(rows, l)
		}
	}
	// the subtests in a section of their own, after the three
	if len(rows) != 5 || rows[3] != "12.00\t-\tfail\tp\tTestSlow/sub" || rows[4] != "0.10\t-\tpass\tp\tTestSlow/ok" || !strings.HasPrefix(rows[0], "12.30\t96.1%\tfail\tp\tTestSlow") ||
		!strings.HasPrefix(rows[1], "0.50\t3.9%\tpass\tp\tTestFast") || !strings.HasSuffix(rows[2], "skip\tp\tTestSkip") {
		t.Errorf("table rows %q", rows)
	}
	if !strings.Contains(table, "# package p: 12.9 s wall") {
		t.Errorf("no package line:\n%s", table)
	}
	if s := run.Slowest(1); s != "3 tests, 13 s summed; slowest TestSlow 12.3 s" {
		t.Errorf("Slowest(1) = %q", s)
	}
}

// Lines that are no events (go test's own errors before a test binary
// runs) are relayed as they are.
func TestReadRelaysNonEvents(t *testing.T) {
	var out strings.Builder
	run, err := Read(strings.NewReader("go: cannot find main module\n"), &out)
	if err != nil || out.String() != "go: cannot find main module\n" || len(run.Tests) != 0 {
		t.Errorf("err %v, out %q, tests %d", err, out.String(), len(run.Tests))
	}
	if run.Slowest(3) != "no test ran" {
		t.Errorf("Slowest of nothing: %q", run.Slowest(3))
	}
}

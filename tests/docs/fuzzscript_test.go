package docs

// scripts/fuzz.sh reads a Go fuzz run's outcome: Go 1.26's fuzztime race
// (golang/go#75804: a bare "context deadline exceeded", no input failed) is
// no finding, a failing input is one. A fake go stands in for `go test`,
// printing a recorded log and exiting 1.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runFuzzScript(t *testing.T, log string) (string, int) {
	t.Helper()
	tmp := t.TempDir()
	logFile := filepath.Join(tmp, "log.txt")
	if err := os.WriteFile(logFile, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeGo := filepath.Join(tmp, "go")
	if err := os.WriteFile(fakeGo, []byte("#!/bin/sh\ncat '"+logFile+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GO="+fakeGo, "FUZZ_JOBS=1")
	code, out, err := run(repoRoot(t), env, "sh scripts/fuzz.sh '"+filepath.Join(tmp, "out")+"' 5 go/cmd/matrix:FuzzParseDocument", time.Minute)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out), code
}

func TestFuzzScriptGoDeadlineRaceIsNoFinding(t *testing.T) {
	out, code := runFuzzScript(t, "fuzz: elapsed: 5s, execs: 14878 (5133/sec), new interesting: 19 (total: 156)\n"+
		"--- FAIL: FuzzParseDocument (5.47s)\n    context deadline exceeded\nFAIL\nexit status 1\n")
	if code != 0 || !strings.Contains(out, "14878 inputs") || !strings.Contains(out, "golang/go#75804: no input failed") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestFuzzScriptGoFailingInputIsAFinding(t *testing.T) {
	for _, log := range []string{
		"fuzz: elapsed: 2s, execs: 900 (450/sec)\n--- FAIL: FuzzParseDocument (2.01s)\n    fuzz_test.go:31: bad document\n" +
			"    Failing input written to testdata/fuzz/FuzzParseDocument/abc\n    context deadline exceeded\nFAIL\n",
		"fuzz: elapsed: 2s, execs: 900 (450/sec)\n--- FAIL: FuzzParseDocument (2.01s)\npanic: index out of range\nFAIL\n",
		"--- FAIL: FuzzParseDocument (0.01s)\n    something else\nFAIL\n",
	} {
		out, code := runFuzzScript(t, log)
		if code != 1 || !strings.Contains(out, "FINDING") {
			t.Errorf("exit %d, want 1 and a finding for:\n%s\ngot:\n%s", code, log, out)
		}
	}
}

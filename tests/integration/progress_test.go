package integration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// progressLine is one update of the progress line: a carriage return, the
// erase, then elapsed of the budget, the generations done and the main
// figure so far (its interval, or [n/a] while too few generations give one).
var progressLine = regexp.MustCompile(`\r\x1b\[Kbench: [0-9.]+ s \(budget 2 s\); generation [0-9]+, [0-9]+ rounds; ` +
	`async/sync lib=archive wall [0-9.]+ (\[[0-9.]+, [0-9.]+\]|\[n/a\])`)

// onTerminal runs a shell command line with stdin, stdout and stderr on a
// pseudo-terminal (util-linux script) and returns what the terminal saw.
func onTerminal(t *testing.T, command string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) (util-linux): no pseudo-terminal to run on")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qec", command, "/dev/null")
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%q", command, err, out)
	}
	return string(out)
}

// A run of more than a second on a terminal shows the progress line on
// stderr, and erases it before the warnings and the end: the report on
// stdout is untouched (it went to a file here, and starts with the answers).
func TestProgressOnATerminal(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	report := filepath.Join(t.TempDir(), "report.txt")
	seen := onTerminal(t, bench+" --compare --time 2 >"+report)
	if !progressLine.MatchString(seen) {
		t.Fatalf("no progress line on the terminal:\n%q", seen)
	}
	// every update is erased: the last thing the line wrote is the erase,
	// and nothing after it starts with a carriage return
	last := strings.LastIndex(seen, "\r\x1b[Kbench: ")
	if rest := seen[last+1:]; !strings.Contains(rest, "\r\x1b[K") {
		t.Fatalf("the last progress line is not erased:\n%q", seen[last:])
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if out := string(data); strings.Contains(out, "\r") || !strings.HasPrefix(out, "answers (") {
		t.Fatalf("the report on stdout: %.200q", data)
	}
	// --no-progress: not even on a terminal
	seen = onTerminal(t, bench+" --compare --time 2 --no-progress >/dev/null")
	if strings.Contains(seen, "bench: ") && strings.Contains(seen, " generation ") {
		t.Fatalf("--no-progress showed a progress line:\n%q", seen)
	}
}

// Without a terminal there is no progress line, unless --progress forces it.
func TestNoProgressWithoutATerminal(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	r := runTimeout(t, 3*time.Minute, bench, "--compare", "--time", "2")
	if r.code != 0 || strings.Contains(r.stderr, "\r") || strings.Contains(r.stderr, "\x1b[K") {
		t.Fatalf("exit %d; stderr on a pipe has a progress line:\n%q", r.code, r.stderr)
	}
	r = runTimeout(t, 3*time.Minute, bench, "--compare", "--time", "2", "--progress")
	if r.code != 0 || !progressLine.MatchString(r.stderr) {
		t.Fatalf("exit %d; --progress showed no progress line on a pipe:\n%q", r.code, r.stderr)
	}
	r = runTimeout(t, time.Minute, bench, "--compare", "--progress", "--no-progress")
	oneLine(t, r, 2, "--progress and --no-progress", []string{"--progress", "--no-progress"})
}

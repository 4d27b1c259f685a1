package integration

// Your own plugin (docs/plugins.md, "Measuring your own plugin"), driven
// with build/libsample.so: a Go plugin built with the plugin SDK, no
// cgocost probe fields, an async switch of its own that defaults to on.
// Its mode in effect read from the SDK's state; no timing thresholds.

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const sampleEvents = "{\"user\":\"alice\",\"n\":1}\n{\"user\":\"bob\",\"n\":2}\nnot json\n"

func sampleArgs(t *testing.T, lib string, more ...string) []string {
	t.Helper()
	args := []string{"--plugin", lib, "--field", "sample.user", "-n", "4000", "--warmup", "200",
		"--events", writeFile(t, "events.txt", sampleEvents)}
	return append(args, more...)
}

// needsAsync skips a test that needs the SDK's async to run: with one CPU
// allowed (GOMAXPROCS 1) the SDK never starts it, whatever the plugin asks.
func needsAsync(t *testing.T) {
	t.Helper()
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU allowed: the SDK does not run async")
	}
}

func modeLine(t *testing.T, r result) string {
	t.Helper()
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "# mode: ") {
			return l
		}
	}
	t.Fatalf("no mode line in:\n%s", r.stdout)
	return ""
}

// The sample's own default configuration turns async on in Init: passed
// verbatim, the report names async, verified from the SDK's state.
func TestSamplePluginDefaultIsAsyncInEffect(t *testing.T) {
	needsAsync(t)
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, sampleArgs(t, filepath.Join(dir, "libsample.so"),
		"--plugin-config", "{}")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "4000")
	want := "# mode: set by the plugin's own configuration (--plugin-config), async in effect (verified: the SDK's async slot"
	if l := modeLine(t, r); !strings.HasPrefix(l, want) {
		t.Fatalf("mode line %q, want %q...", l, want)
	}
}

// {"async":false}: sync in effect, verified.
func TestSamplePluginSyncConfigIsSyncInEffect(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, sampleArgs(t, filepath.Join(dir, "libsample.so"),
		"--plugin-config", `{"async":false}`)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := "# mode: set by the plugin's own configuration (--plugin-config), sync in effect (verified: the SDK's async state"
	if l := modeLine(t, r); !strings.HasPrefix(l, want) {
		t.Fatalf("mode line %q, want %q...", l, want)
	}
}

// The failure: a plugin that turned async on itself must never be
// reported as sync. Without --plugin-config cgocost asks for sync; the
// plugin ran async: one line, exit 3, and no figure.
func TestSamplePluginTurningAsyncOnIsNeverReportedSync(t *testing.T) {
	needsAsync(t)
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, sampleArgs(t, filepath.Join(dir, "libsample.so"))...)
	if strings.Contains(r.stdout, "sync in effect") {
		t.Fatalf("a plugin that turned async on was reported sync:\n%s", r.stdout)
	}
	if r.code != 3 {
		t.Fatalf("exit %d, want 3: %s\n%s", r.code, r.stderr, r.stdout)
	}
	if !strings.Contains(r.stderr, "the SDK's async mode is in effect") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("want one line naming async in effect, got:\n%s", r.stderr)
	}
	if strings.Contains(r.stdout, "ns/extraction") {
		t.Fatalf("a figure was reported for the wrong mode:\n%s", r.stdout)
	}
}

// A stripped copy: no symbol table, so the mode cannot be read; said so,
// never claimed.
func TestSamplePluginStrippedNotVerifiable(t *testing.T) {
	dir := buildDir(t)
	if _, err := exec.LookPath("strip"); err != nil {
		t.Skip("no strip")
	}
	stripped := filepath.Join(t.TempDir(), "libsample-stripped.so")
	if out, err := exec.Command("strip", "-o", stripped, filepath.Join(dir, "libsample.so")).CombinedOutput(); err != nil {
		t.Fatalf("strip: %v: %s", err, out)
	}
	r := run(t, filepath.Join(dir, "bench-host"), nil, sampleArgs(t, stripped, "--plugin-config", `{"async":false}`)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if l := modeLine(t, r); l != "# mode: sync requested; mode in effect: not verifiable (stripped: no symbol table)" {
		t.Fatalf("mode line %q", l)
	}
	if strings.Contains(r.stdout, "sync in effect") || strings.Contains(r.stdout, "async in effect") {
		t.Fatalf("a mode was claimed for a stripped plugin:\n%s", r.stdout)
	}
}

// Your plugin's two configurations, paired: the two cells, each in the
// mode its configuration sets (verified), and the async decision line for
// this plugin. No figure is asserted: only that it is there.
func TestSamplePluginCompareSyncAsync(t *testing.T) {
	needsAsync(t)
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--compare", "--plugin", filepath.Join(dir, "libsample.so"),
		"--field", "sample.user", "--events", writeFile(t, "events.txt", sampleEvents),
		"--sync-config", `{"async":false}`, "--async-config", `{"async":true}`, "--time", "4")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{
		"# cell lib=libsample/mode=sync/work=noop/p=1: the plugin's sync configuration, sync in effect (verified: the SDK's async state",
		"# cell lib=libsample/mode=async/work=noop/p=1: the plugin's async configuration, async in effect (verified: the SDK's async state",
		"async/sync plugin=libsample.so wall",
		"# decision: async for this plugin (async/sync plugin=libsample.so wall): ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("no %q in:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "flips when: ") {
		t.Fatalf("the decision line has no flip condition:\n%s", r.stdout)
	}
}

// A configuration that does not run the mode of its cell is a failed run,
// never a comparison of two sync cells.
func TestSamplePluginCompareRefusesWrongMode(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--compare", "--plugin", filepath.Join(dir, "libsample.so"),
		"--field", "sample.user", "--events", writeFile(t, "events.txt", sampleEvents),
		"--sync-config", `{"async":false}`, "--async-config", `{"async":false}`, "--time", "2")
	if r.code != 3 || !strings.Contains(r.stderr, "--async-config {\"async\":false} ran sync") {
		t.Fatalf("exit %d, want 3 naming the async cell's mode: %s", r.code, r.stderr)
	}
}

// Your plugin's gate: the head's library against the base's, in this
// driver, paired. The head with an injected slowdown (build/sample-slow/libsample.so:
// every extraction busy-waits 4 µs more, several times a sync extraction)
// is caught; the same build against itself is never a regression.
func TestSamplePluginGate(t *testing.T) {
	dir := buildDir(t)
	tmp := t.TempDir()
	place := func(side, from string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, side, "libsample.so")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := place("base", "libsample.so")
	slow := place("slow", "sample-slow/libsample.so")
	same := place("same", "libsample.so")
	gate := func(head string, budget ...string) result {
		args := []string{"--plugin", head, "--field", "sample.user",
			"--events", writeFile(t, "events.txt", sampleEvents), "--plugin-config", `{"async":false}`,
			"--against-plugin", base}
		return run(t, filepath.Join(dir, "bench-host"), nil, append(args, budget...)...)
	}
	// the slowdown is several times the noise: 12 generations in one look
	r := gate(slow, "--time", "6", "--launches", "12")
	if r.code != 1 || !strings.Contains(r.stdout, "verdict: regression detected (exit status 1)") {
		t.Fatalf("the injected slowdown: exit %d, want 1: %s\n%s", r.code, r.stderr, r.stdout)
	}
	if !strings.Contains(r.stdout, "comparison against "+base) {
		t.Fatalf("the comparison does not name the base library:\n%s", r.stdout)
	}
	// the same build: the default budget, its looks spending alpha (one
	// look of 12 generations at alpha 0.05 once called +6% at load 6)
	if r = gate(same); r.code == 1 || (r.code != 0 && r.code != 4) {
		t.Fatalf("the same build against itself: exit %d, want 0 or 4: %s\n%s", r.code, r.stderr, r.stdout)
	}
}

// The gate's bad input: two file names, no --plugin, a base that is not
// there; each one line and exit 2 before anything runs.
func TestSamplePluginGateBadInput(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plugin", filepath.Join(dir, "libmock.so"), "--against-plugin", filepath.Join(dir, "libsample.so")}, "the same file name"},
		{[]string{"--against-plugin", filepath.Join(dir, "libsample.so")}, "name the head with one --plugin"},
		{[]string{"--plugin", filepath.Join(dir, "libsample.so"), "--against-plugin", "/nonexistent/libsample.so"}, "cannot read"},
		{[]string{"--plugin", filepath.Join(dir, "libsample.so"), "--against-plugin", filepath.Join(dir, "libsample.so"), "--against", host}, "not with --against"},
	} {
		r := run(t, host, nil, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, want 2 and one line with %q: %s", c.args, r.code, c.want, r.stderr)
		}
	}
}

// The Go->C count gate's verdict (scripts/gate_counts.sh) on count files
// as scripts/count_mongocrypt.sh writes them: a count above the band is a
// regression, one within it is not, pairs spread across it cannot tell,
// and a benchmark the base did not count is bad input.
func TestGateCountsVerdicts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	line := func(name, pairs string) string {
		return "# " + name + ": instr/op by pair " + pairs + "; syscalls/op by pair 0.0001 0.0000\n"
	}
	base := writeFile(t, "base.txt", line("BenchmarkA", "972.9 972.7")+line("BenchmarkB", "627.5 628.0"))
	for _, c := range []struct {
		head string
		code int
		want string
	}{
		{line("BenchmarkA", "973.0 972.6") + line("BenchmarkB", "627.9 627.6"), 0, "verdict: no regression (exit status 0)"},
		{line("BenchmarkA", "973.0 972.6") + line("BenchmarkB", "660.1 660.4"), 1, "verdict: regression detected (exit status 1)"},
		{line("BenchmarkA", "973.0 990.0") + line("BenchmarkB", "627.9 627.6"), 4, "verdict: inconclusive"},
		{line("BenchmarkC", "1 1"), 2, ""},
	} {
		head := writeFile(t, "head.txt", c.head)
		r := run(t, "sh", nil, filepath.Join(root, "scripts", "gate_counts.sh"), base, head, "1")
		if r.code != c.code || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%q: exit %d, want %d with %q:\n%s%s", c.head, r.code, c.code, c.want, r.stdout, r.stderr)
		}
	}
}

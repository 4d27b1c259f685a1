package integration

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A verdict on async cells with one allowed CPU is bad input found before
// anything is measured, paired or launch by launch, against a build or a
// baseline: there the SDK falls back to sync calls (GOMAXPROCS < 2), so the
// verdict would judge a sync figure labelled async. The same async run
// unjudged still runs (it warns), and so does the verdict on two CPUs.
func TestAsyncVerdictNeedsTwoCPUs(t *testing.T) {
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	base := filepath.Join(t.TempDir(), "async.json")
	if r := runTimeout(t, 2*time.Minute, bench, "-a", "-n", "1000", "--launches", "2", "--save-baseline", base); r.code != 0 {
		t.Fatalf("saving an async baseline: exit %d: %s", r.code, r.stderr)
	}
	const want = "a verdict on async cells needs 2 CPUs"
	for _, args := range [][]string{
		{"-a", "-n", "2000", "--against", bench, "--time", "3"},
		{"-a", "-n", "1000", "--against", bench, "--interleave", "launches", "--launches", "12"},
		{"-a", "-n", "1000", "--baseline", base},
		{"--compare", "--interleave", "launches", "-n", "1000", "--baseline", base},
	} {
		start := time.Now()
		r := runTimeout(t, time.Minute, "taskset", append([]string{"-c", "0", bench}, args...)...)
		oneLine(t, r, 2, want, args)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v: refused after %.1f s: something ran first", args, d.Seconds())
		}
	}
	r := runTimeout(t, time.Minute, "taskset", "-c", "0", bench, "-a", "-n", "1000")
	if r.code != 0 || !strings.Contains(r.stderr, "async was requested but is not in effect") {
		t.Errorf("an unjudged async run on one CPU: exit %d (want 0 and the fallback warning): %s", r.code, r.stderr)
	}
	if countOnlineCPUs(t) < 2 {
		return
	}
	// the refusal is the CPU count's: on two, the same verdict runs
	// (exit 1 or 4 allowed: a verdict of noise on a loaded machine)
	r = runTimeout(t, 2*time.Minute, "taskset", "-c", "0,1", bench, "-a", "-n", "1000", "--against", bench,
		"--interleave", "launches", "--launches", "12")
	if !verdict(r.code) || strings.Contains(r.stderr, want) {
		t.Errorf("the async verdict on two CPUs: exit %d: %s", r.code, r.stderr)
	}
}

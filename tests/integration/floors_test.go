package integration

// The floors' checks end to end (c/timing/floorcheck.h, docs/methodology.md
// "Floors and cold costs"): every floor is printed with its spread, the
// reference handoff's dropped batches are counted alike in the text and the
// JSON of the same run, a forced sleep path is never a figure, and exit 3
// comes only with a reason line. The machine may be loaded: a normal run
// may legitimately reject attempts, or fail (exit 3) with a reason; nothing
// here asserts that the machine was quiet.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// spinEnv forces the reference handoff's worker to block at once.
const spinEnv = "CGOCOST_TEST_REF_SPIN_ROUNDS=0"

var (
	// "#   cache-line round trip CPU 0<->1  137.88 ns   [120.10 ns .. 640.24 ns]"
	floorLine    = regexp.MustCompile(`^#   (C call through a pointer|C->Go raw //export no-op|cache-line round trip|reference C->Go spin handoff|  \+event|  \+result)\s.*?\s(\d[\d.]*) (ns|µs|ms)(   \[(\d[\d.]*) (ns|µs|ms) \.\. (\d[\d.]*) (ns|µs|ms)\])?`)
	droppedLine  = regexp.MustCompile(`its timed batches: (\d+) dropped and measured again \((\d+) at a futex wake-up of the worker, (\d+) with a thread off its CPU\)`)
	rtDropped    = regexp.MustCompile(`the round trip's timed batches: (\d+) dropped and measured again, one of its two threads off its CPU`)
	rejectedLine = regexp.MustCompile(`^#   rejected, measured again: (.+?): (.+)$`)
	floorsFailed = regexp.MustCompile(`(?m)^bench: floors: .+ failed its checks in 3 attempts, so it is no figure: .+: .+$`)
	// the same, from a child launch of a comparison
	childFloorsFailed = regexp.MustCompile(`(?m)^bench: launch of .+ failed: exit 3: bench[-a-z]*: floors: .+ failed its checks in 3 attempts, so it is no figure: .+: .+$`)
)

type floorsJSON struct {
	Cells []struct {
		Launches []struct {
			Floors *struct {
				CCallNs           *float64 `json:"c_call_ns"`
				RefBareNs         *float64 `json:"ref_bare_ns"`
				RefDroppedBatches *int64   `json:"ref_dropped_batches"`
				RefWakeups        *int64   `json:"ref_wakeups"`
				RTDropped         *int64   `json:"handoff_dropped_batches"`
				Spread            *struct {
					Batches int `json:"batches"`
				} `json:"spread"`
				Rejected []struct {
					Floor   string `json:"floor"`
					Wakeups int64  `json:"wakeups"`
					Reason  string `json:"reason"`
				} `json:"rejected"`
			} `json:"floors"`
		} `json:"launches"`
	} `json:"cells"`
}

// nsOf reads "137.88" "µs" as nanoseconds.
func nsOf(t *testing.T, v, unit string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("%q: %v", v, err)
	}
	switch unit {
	case "µs":
		x *= 1e3
	case "ms":
		x *= 1e6
	}
	return x
}

// failedWithReason checks what a run that failed its floors leaves: exit 3,
// one reason line naming the floor, and no floor figure on stdout.
func failedWithReason(t *testing.T, r result) {
	t.Helper()
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\nstderr: %s", r.code, r.stderr)
	}
	if !floorsFailed.MatchString(r.stderr) {
		t.Fatalf("exit 3 without a reason line naming the floor:\n%s", r.stderr)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if floorLine.MatchString(l) {
			t.Fatalf("a failed floor printed as a figure: %q", l)
		}
	}
}

// runFloors runs a command that measures floors: on a loaded machine the
// floors may fail their checks after their reruns (exit 3 with the reason),
// which is the right outcome and not the test's subject; such a run is
// tried again, three times in all, and the test is skipped if it never
// measures, with the reason.
func runFloors(t *testing.T, exe string, env []string, args ...string) result {
	t.Helper()
	var r result
	for try := 0; try < 3; try++ {
		if r = run(t, exe, env, args...); r.code != 3 || !(floorsFailed.MatchString(r.stderr) || childFloorsFailed.MatchString(r.stderr)) {
			return r
		}
		t.Logf("the floors failed their checks (a loaded machine): %s", strings.TrimSpace(r.stderr))
	}
	// the failure itself is checked (exit 3, the reason, no figure) before
	// the rest of the test, which needs floors, is skipped
	// (the loop left only runs of exit 3 with a reason line)
	for _, l := range strings.Split(r.stdout, "\n") {
		if floorLine.MatchString(l) {
			t.Fatalf("a failed floor printed as a figure: %q", l)
		}
	}
	t.Skipf("the floors failed their checks in three runs: the machine is too loaded to measure them")
	return r
}

// A worker that blocks at once takes the sleep path in every batch: no
// figure, exit 3 with the reason, in text and in JSON alike.
func TestFloorsForcedSleepPathIsNoFigure(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	for _, format := range []string{"text", "json"} {
		r := run(t, bench, []string{spinEnv}, "--floors", "-n", "2000", "--warmup", "100", "--format", format)
		failedWithReason(t, r)
		if !strings.Contains(r.stderr, "the reference handoff") || !strings.Contains(r.stderr, "without a futex wake-up of its worker") {
			t.Fatalf("the reason does not name the wake-ups:\n%s", r.stderr)
		}
		if strings.Contains(r.stdout, "{") {
			t.Fatalf("--format %s printed a document for a failed run:\n%s", format, r.stdout)
		}
	}
}

// In a comparison launch by launch, a launch whose floors fail ends the
// run: exit 3 with its reason, no table, no ratio built on the floor.
func TestFloorsFailedInACompareEndIt(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	r := run(t, bench, []string{spinEnv}, "--compare", "--interleave", "launches", "-n", "2000", "-r", "2",
		"--warmup", "100", "--launches", "2", "--floors")
	if r.code != 3 || !childFloorsFailed.MatchString(r.stderr) || !strings.Contains(r.stderr, "the reference handoff failed its checks") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "reading:") || strings.Contains(r.stdout, "ratio") || strings.Contains(r.stdout, "x the round trip") {
		t.Fatalf("a ratio printed beside a failed floor:\n%s", r.stdout)
	}
}

// A normal run, text and JSON from the same process (--save-baseline with
// one launch): every floor printed carries its spread, median within it;
// the dropped batches and wake-ups printed are the JSON's; every rejected
// attempt printed is in the JSON with its reason and is not a figure. A
// loaded machine may fail the run: then only exit 3 with a reason line.
func TestFloorsCarryTheirSpread(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	saved := filepath.Join(t.TempDir(), "floors.json")
	r := run(t, bench, nil, "--floors", "-n", "20000", "--launches", "1", "--save-baseline", saved)
	if r.code != 0 {
		failedWithReason(t, r)
		if _, err := os.Stat(saved); err == nil {
			t.Fatalf("a failed run saved %s", saved)
		}
		t.Logf("the floors failed on this machine (allowed under load): %s", r.stderr)
		return
	}
	figures, dropped, rejected, rtPrinted := 0, []string(nil), []string(nil), ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if m := floorLine.FindStringSubmatch(l); m != nil {
			figures++
			if m[4] == "" {
				t.Fatalf("a floor without its spread: %q", l)
			}
			med, lo, hi := nsOf(t, m[2], m[3]), nsOf(t, m[5], m[6]), nsOf(t, m[7], m[8])
			// printed with two decimals or four digits: allow the rounding
			if lo > med*1.001 || med > hi*1.001 {
				t.Fatalf("median outside its spread: %q", l)
			}
		}
		if m := droppedLine.FindStringSubmatch(l); m != nil {
			dropped = m[1:]
		}
		if m := rtDropped.FindStringSubmatch(l); m != nil {
			rtPrinted = m[1]
		}
		if m := rejectedLine.FindStringSubmatch(l); m != nil {
			rejected = append(rejected, m[2])
		}
	}
	// C call, raw call, round trip (two CPUs here), reference handoff x3
	if want := 3 + 3; countOnlineCPUs(t) >= 2 && figures != want {
		t.Fatalf("%d floor figures, want %d:\n%s", figures, want, r.stdout)
	}
	raw, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	var doc floorsJSON
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != 1 || len(doc.Cells[0].Launches) != 1 || doc.Cells[0].Launches[0].Floors == nil {
		t.Fatalf("want one cell, one launch with floors:\n%s", raw)
	}
	f := doc.Cells[0].Launches[0].Floors
	if f.Spread == nil || f.Spread.Batches != 10 || f.RefDroppedBatches == nil || f.RefWakeups == nil || f.RefBareNs == nil {
		t.Fatalf("floors without spread or counts:\n%s", raw)
	}
	if dropped == nil {
		t.Fatalf("no line with the dropped batches:\n%s", r.stdout)
	}
	if dropped[0] != strconv.FormatInt(*f.RefDroppedBatches, 10) || dropped[1] != strconv.FormatInt(*f.RefWakeups, 10) {
		t.Fatalf("printed %v dropped batches and wake-ups, JSON %d and %d", dropped, *f.RefDroppedBatches, *f.RefWakeups)
	}
	// a batch is dropped at its first wake-up, or with a thread off its CPU
	if *f.RefWakeups > *f.RefDroppedBatches || dropped[2] != strconv.FormatInt(*f.RefDroppedBatches-*f.RefWakeups, 10) {
		t.Fatalf("%d batches dropped, %d wake-ups, %s printed as off CPU", *f.RefDroppedBatches, *f.RefWakeups, dropped[2])
	}
	// the round trip's dropped batches: in the JSON always, printed when any
	if f.RTDropped == nil || *f.RTDropped < 0 {
		t.Fatalf("no count of the round trip's dropped batches:\n%s", raw)
	}
	if want := strconv.FormatInt(*f.RTDropped, 10); (*f.RTDropped > 0 || rtPrinted != "") && rtPrinted != want {
		t.Fatalf("the round trip's dropped batches: printed %q, JSON %s", rtPrinted, want)
	}
	if len(rejected) != len(f.Rejected) {
		t.Fatalf("printed %d rejected attempts, JSON %d", len(rejected), len(f.Rejected))
	}
	for i, j := range f.Rejected {
		if j.Reason == "" || rejected[i] != j.Reason {
			t.Fatalf("rejected attempt %d: printed %q, JSON %q", i+1, rejected[i], j.Reason)
		}
	}
}

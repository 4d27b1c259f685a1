package integration

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// --rate: sync and async exit 0, print the seed line first (the requests
// scheduled), then the percentiles, the rate asked and achieved, the count
// over 1 ms and the CPU per event. No figure is asserted.
func TestRateRunPrintsPercentiles(t *testing.T) {
	dir := buildDir(t)
	for _, mode := range []string{"sync", "async"} {
		args := []string{"--rate", "2000", "--time", "1", "--warmup", "1000"}
		if mode == "async" {
			args = append(args, "-a")
		}
		r := run(t, filepath.Join(dir, "bench"), nil, args...)
		if r.code != 0 {
			t.Fatalf("bench %v: exit %d\n%s", args, r.code, r.stderr)
		}
		seedLines(t, r, 1, "2000")
		for _, want := range []string{"# latency: p50 ", ", p90 ", ", p99 ", ", p99.9 ", ", max ", ", mean ",
			"# rate: requested 2000/s per plugin, achieved ", "# over 1 ms: ", " of 2000 requests; cpu ",
			"# mode: " + mode + " requested, " + mode + " in effect"} {
			if !strings.Contains(r.stdout, want) {
				t.Fatalf("bench %v: no %q in\n%s", args, want, r.stdout)
			}
		}
	}
}

type latencyDoc struct {
	Cells []struct {
		Name    string `json:"name"`
		Latency *struct {
			Load     string   `json:"load"`
			Arrival  *string  `json:"arrival"`
			Requests uint64   `json:"requests"`
			Over1ms  uint64   `json:"over_1ms"`
			P50      *float64 `json:"p50_ns"`
			P999     *float64 `json:"p99_9_ns"`
			Max      *float64 `json:"max_ns"`
		} `json:"latency"`
	} `json:"cells"`
}

func latencyJSON(t *testing.T, args ...string) latencyDoc {
	t.Helper()
	r := run(t, filepath.Join(buildDir(t), "bench"), nil, append(args, "--format", "json")...)
	if r.code != 0 {
		t.Fatalf("bench %v: exit %d\n%s", args, r.code, r.stderr)
	}
	var d latencyDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("bench %v: %v", args, err)
	}
	for _, c := range d.Cells {
		if c.Latency == nil {
			t.Fatalf("bench %v: cell %s has no latency object", args, c.Name)
		}
		if *c.Latency.P50 > *c.Latency.P999 || *c.Latency.P999 > *c.Latency.Max {
			t.Fatalf("bench %v: percentiles out of order in %s", args, c.Name)
		}
	}
	return d
}

// At 20 requests per second the SDK's async worker has long gone to sleep
// before each request, so some requests wait for it to wake: more than
// 1 ms. A property of the output (a count), not a timing threshold.
func TestLowRateAsyncWaitsForTheWorker(t *testing.T) {
	d := latencyJSON(t, "--rate", "20", "--time", "1", "-a", "--warmup", "1000")
	if len(d.Cells) != 1 || d.Cells[0].Latency.Requests != 20 {
		t.Fatalf("want one cell of 20 requests: %+v", d)
	}
	if d.Cells[0].Latency.Over1ms == 0 {
		t.Fatalf("async at 20/s: no request waited more than 1 ms")
	}
}

// Poisson arrivals print their seed; a list of gaps makes one cell per gap
// and the idle-policy line.
func TestPoissonAndGaps(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--rate", "500", "--time", "0.2", "--arrival", "poisson", "--seed", "7", "--warmup", "100")
	if r.code != 0 || !strings.Contains(r.stdout, "poisson arrivals") || !strings.Contains(r.stdout, "# arrival seed: 7") {
		t.Fatalf("poisson: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	d := latencyJSON(t, "--gap-us", "0,100,3000", "-n", "30", "-a", "--warmup", "100")
	if len(d.Cells) != 3 || !strings.HasSuffix(d.Cells[2].Name, "/gap-us=3000") || d.Cells[2].Latency.Load != "gap" {
		t.Fatalf("gaps: %+v", d)
	}
	r = run(t, filepath.Join(dir, "bench"), nil, "--gap-us", "0,3000", "-n", "30", "-a", "--warmup", "100")
	if r.code != 0 || !strings.Contains(r.stdout, "# idle policy (async, as measured): ") {
		t.Fatalf("gaps: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// The sweep: sync and async per rate, one table with the crossover line
// (its JSON is checked against the schema in tests/schema).
func TestSweepTable(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench"), nil, "--sweep-rate", "200,max", "--time", "0.2", "-n", "2000", "--warmup", "100")
	if r.code != 0 {
		t.Fatalf("sweep: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"# rate sweep:", "# 200 ", "# max ", "# crossover: ", "# seeds, one a launch (from --seed 1 "} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("sweep: no %q in\n%s", want, r.stdout)
		}
	}
}

// Each launch of a sweep gets its own seed, derived from --seed and its
// cell (they all used seed 1), recorded in its cell and in the text; the
// same --seed gives the same seeds, another gives others.
func TestSweepSeedsPerLaunch(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	seeds := func(seed string) []uint64 {
		t.Helper()
		r := run(t, bench, nil, "--sweep-rate", "200,max", "--time", "0.2", "-n", "2000", "--warmup", "100", "--arrival",
			"poisson", "--seed", seed, "--format", "json")
		var d struct {
			Cells []struct {
				Latency struct {
					Seed uint64 `json:"seed"`
				} `json:"latency"`
			} `json:"cells"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || len(d.Cells) != 4 {
			t.Fatalf("--seed %s: exit %d, %d cells\n%s%s", seed, r.code, len(d.Cells), r.stdout, r.stderr)
		}
		var s []uint64
		for _, c := range d.Cells {
			s = append(s, c.Latency.Seed)
		}
		return s
	}
	a, b := seeds("7"), seeds("8")
	for i := range a {
		for j := range a {
			if i != j && a[i] == a[j] {
				t.Errorf("--seed 7: launches %d and %d share seed %d: %v", i, j, a[i], a)
			}
		}
		if a[i] == 7 || a[i] == 1 || a[i] == b[i] {
			t.Errorf("launch %d: seed %d with --seed 7, %d with --seed 8: not derived from both", i, a[i], b[i])
		}
	}
	r := run(t, bench, nil, "--sweep-rate", "200,max", "--time", "0.2", "-n", "2000", "--warmup", "100", "--seed", "7")
	// the cells in the order run: 200 sync, 200 async, max async, max sync
	if !strings.Contains(r.stdout, fmt.Sprintf("200 sync %d,", a[0])) || !strings.Contains(r.stdout, fmt.Sprintf("max sync %d", a[3])) {
		t.Errorf("the text names no launch's seed of %v:\n%s", a, r.stdout)
	}
}

// The watchdog works on the schedule: at 20 async requests per second,
// each taking 0.5 s (--extra-ns), the backlog grows 0.45 s per request, so
// a request is soon outstanding past its due time for longer than the
// 2 s limit, and the run ends with exit 3 and the diagnosis.
func TestRateWatchdogOnTheSchedule(t *testing.T) {
	r := run(t, filepath.Join(buildDir(t), "bench"), nil, "--rate", "20", "--time", "10", "-a", "--warmup", "0",
		"--extra-ns", "500000000", "--stall-timeout", "2")
	if r.code != 3 || !strings.Contains(r.stderr, "made no progress for") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
}

// Bad input of the open loop: exit 2 with one line, before anything runs.
func TestRateBadInput(t *testing.T) {
	dir := buildDir(t)
	for _, args := range [][]string{
		{"--rate", "0"}, {"--rate", "-10"}, {"--rate", "1e12"}, {"--rate", "100000000"}, {"--rate", "fast"},
		{"--rate", "100", "--gap-us", "10"}, {"--rate", "100", "--time", "0"}, {"--rate", "100", "--time", "-1"},
		{"--rate", "100", "--time", "1e9"}, {"--time", "1"}, {"--rate", "100", "--compare"},
		{"--rate", "100", "--anatomy"}, {"--sweep-rate", "0"}, {"--sweep-rate", "100", "--rate", "10"},
		{"--arrival", "bursty", "--rate", "10"}, {"--gap-us", "-5"},
	} {
		r := run(t, filepath.Join(dir, "bench"), nil, args...)
		lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
		if r.code != 2 || r.stdout != "" || len(lines) != 1 {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, r.code, r.stdout, r.stderr)
		}
	}
}

package integration

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The parts of a run's JSON document that count the SDK's async workers.
type workersDoc struct {
	Machine struct {
		AllowedCPUs int `json:"allowed_cpus"`
	} `json:"machine"`
	Cells []struct {
		Launches []struct {
			AsyncWorkers     int    `json:"async_workers"`
			ModeInEffect     string `json:"mode_in_effect"`
			AsyncWorkersSeen *struct {
				Callers    int   `json:"callers"`
				Goroutines int   `json:"goroutines"`
				CPUs       []int `json:"cpus"`
			} `json:"async_workers_seen"`
			Plugins []struct {
				ExtractThread struct {
					Goroutine *uint64 `json:"goroutine"`
				} `json:"extract_thread"`
			} `json:"plugins"`
		} `json:"launches"`
	} `json:"cells"`
}

// With async, the workers are counted, not computed: each caller's probes
// name the goroutine that ran its Extract (the SDK's worker serving its
// slot), and the launch counts the distinct ones. The SDK starts
// ceil(log2 GOMAXPROCS) workers, at most one per caller, and gives caller
// k's slot to worker k mod that: so two callers are served by one worker
// at GOMAXPROCS 2 and by two at GOMAXPROCS 4, three by three at 8. The
// count is the goroutines', so it holds however busy the machine is.
func TestAsyncWorkersCounted(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	for _, c := range []struct {
		gomaxprocs, callers, want int
	}{{2, 1, 1}, {2, 2, 1}, {4, 2, 2}, {8, 3, 3}} {
		name := fmt.Sprintf("GOMAXPROCS=%d -p %d", c.gomaxprocs, c.callers)
		r := run(t, bench, []string{fmt.Sprintf("GOMAXPROCS=%d", c.gomaxprocs)}, "-a", "-p",
			fmt.Sprint(c.callers), "-n", "2000", "-r", "2", "--warmup", "1000", "--format", "json")
		var d workersDoc
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || len(d.Cells) != 1 || len(d.Cells[0].Launches) != 1 {
			t.Fatalf("%s: exit %d: %s", name, r.code, r.stderr)
		}
		l := d.Cells[0].Launches[0]
		if l.ModeInEffect != "async" {
			t.Fatalf("%s: mode in effect %q", name, l.ModeInEffect)
		}
		w := l.AsyncWorkersSeen
		if w == nil || w.Callers != c.callers || w.Goroutines != c.want || l.AsyncWorkers != c.want {
			t.Errorf("%s: async_workers_seen %+v, async_workers %d: want %d callers served by %d", name, w,
				l.AsyncWorkers, c.callers, c.want)
			continue
		}
		if len(w.CPUs) == 0 || len(w.CPUs) > d.Machine.AllowedCPUs {
			t.Errorf("%s: the workers ran on CPUs %v (%d allowed)", name, w.CPUs, d.Machine.AllowedCPUs)
		}
		for i, p := range l.Plugins {
			if p.ExtractThread.Goroutine == nil || *p.ExtractThread.Goroutine == 0 {
				t.Errorf("%s: plugin %d: no goroutine at the last probe", name, i+1)
			}
		}
	}
	// the text says it; a sync run has no workers to count
	r := run(t, bench, []string{"GOMAXPROCS=4"}, "-a", "-p", "2", "-n", "2000", "-r", "2")
	if want := "# async workers: 2 seen (the goroutines that ran Extract at the probes of 2 async callers)"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("text: exit %d, no %q in:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	r = run(t, bench, nil, "-p", "2", "-n", "2000", "-r", "2", "--format", "json")
	var d workersDoc
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || d.Cells[0].Launches[0].AsyncWorkersSeen != nil {
		t.Errorf("sync: exit %d, async_workers_seen %v", r.code, d.Cells[0].Launches[0].AsyncWorkersSeen)
	}
}

// A verdict on an async run that spins more threads than the process may
// use CPUs would judge the scheduler: refused before anything runs, one
// line, exit 2. The same run without a verdict only warns.
func TestOversubscribedAsyncIsNotJudged(t *testing.T) {
	needCPUs01(t)
	bench := filepath.Join(buildDir(t), "bench")
	base := filepath.Join(t.TempDir(), "base.json")
	if r := run(t, bench, nil, "-n", "2000", "-r", "2", "--save-baseline", base); r.code != 0 {
		t.Fatalf("--save-baseline: exit %d: %s", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"-a", "-p", "2", "--baseline", base},
		{"-a", "-p", "2", "--against", bench, "--interleave", "launches", "--launches", "12"},
	} {
		r := runTimeout(t, time.Minute, "taskset", append([]string{"-c", "0,1", bench, "-n", "2000"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "would judge the scheduler: it spins 3 threads") ||
			strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q: want exit 2 and one line, nothing measured", args, r.code,
				r.stdout, r.stderr)
		}
	}
	r := runTimeout(t, time.Minute, "taskset", "-c", "0,1", bench, "-n", "2000", "-r", "2", "-a", "-p", "2")
	if r.code != 0 || !strings.Contains(r.stderr, "warning: this run spins 3 threads") {
		t.Errorf("without a verdict: exit %d, stderr %q: want exit 0 and the warning", r.code, r.stderr)
	}
}

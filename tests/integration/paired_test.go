package integration

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pairedDoc is the paired section of a document.
type pairedDoc struct {
	SchemaVersion int `json:"schema_version"`
	Paired        *struct {
		LeadInUs         float64   `json:"lead_in_us"`
		SteadyMaxUs      *float64  `json:"lead_in_steady_max_us"`
		Capped           *int      `json:"lead_ins_capped"`
		Rounds           int       `json:"rounds"`
		StoppedBy        string    `json:"stopped_by"`
		GenerationRounds []float64 `json:"generation_rounds"`
		Sequential       *struct {
			LooksPlanned int     `json:"looks_planned"`
			LooksTaken   int     `json:"looks_taken"`
			VerdictAlpha float64 `json:"verdict_alpha"`
			JudgedLevel  float64 `json:"judged_level"`
		} `json:"sequential"`
		LeadInS   float64 `json:"lead_in_s"`
		TimedS    float64 `json:"timed_s"`
		CallerCPU int     `json:"caller_cpu"`
		PerVisit  int     `json:"blocks_per_visit"`
		Cells     []struct {
			Name        string    `json:"name"`
			Side        string    `json:"side"`
			BlockMs     float64   `json:"block_ms"`
			PerBlock    int       `json:"extractions_per_block"`
			Blocks      []float64 `json:"block_ns_per_extraction"`
			CPU         []float64 `json:"block_cpu_ns_per_extraction"`
			LeadNs      []float64 `json:"lead_in_ns"`
			LeadCalls   []float64 `json:"lead_in_extractions"`
			FirstCallNs []float64 `json:"lead_in_first_call_ns"`
			After       []float64 `json:"after_cell"`
		} `json:"cells"`
		Roundtrip *struct {
			Cell         string    `json:"cell"`
			GenerationNs []float64 `json:"generation_ns"`
			Ns           float64   `json:"ns"`
			Libs         []struct {
				Lib         string   `json:"lib"`
				RoundTrips  *float64 `json:"round_trips"`
				Fitted      bool     `json:"fitted"`
				Why         string   `json:"not_fitted_because"`
				CrossoverNs *float64 `json:"crossover_ns"`
				SyncNs      *float64 `json:"sync_ns"`
				AsyncNs     *float64 `json:"async_ns"`
			} `json:"libs"`
		} `json:"roundtrip"`
		Ratios []struct {
			Name     string    `json:"name"`
			Num      int       `json:"numerator"`
			Den      int       `json:"denominator"`
			Judged   bool      `json:"judged"`
			Estimate *float64  `json:"estimate"`
			Low      *float64  `json:"low"`
			High     *float64  `json:"high"`
			P        *float64  `json:"signed_rank_p"`
			Samples  []float64 `json:"samples"`
			Pairs    struct {
				N int `json:"n"`
			} `json:"pair_statistics"`
			Change *struct {
				Verdict string `json:"verdict"`
			} `json:"change"`
		} `json:"ratios"`
	} `json:"paired"`
	Cells []struct {
		Name       string `json:"name"`
		GoVersion  string `json:"go_version"`
		SDKVersion string `json:"sdk_version"`
		Mode       struct {
			Requested string `json:"requested"`
			InEffect  string `json:"in_effect"`
		} `json:"mode"`
		Launches []struct {
			Plugins []struct {
				Batches []struct {
					Ops uint64 `json:"ops"`
				} `json:"batches"`
			} `json:"plugins"`
		} `json:"launches"`
	} `json:"cells"`
	Comparison *struct {
		Regressed        bool   `json:"regressed"`
		Verdict          string `json:"verdict"`
		MinSamples       int    `json:"min_samples"`
		UndefinedBecause string `json:"undefined_because"`
		Changes          []struct {
			Kind     string `json:"kind"`
			Verdict  string `json:"verdict"`
			Sentence string `json:"sentence"`
		} `json:"changes"`
	} `json:"comparison"`
}

// checkPaired: every cell has a block a round, every block its lead-in (of
// at least --lead-in-us when given; else ended steady, or at its cap), the
// rounds add up over the generations, and every ratio has one sample a
// generation and one pair a round.
func checkPaired(t *testing.T, out string, cells int) pairedDoc {
	t.Helper()
	var d pairedDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	p := d.Paired
	if d.SchemaVersion != 3 || p == nil || len(p.Cells) != cells || p.Rounds < 1 || p.StoppedBy == "" {
		t.Fatalf("paired section: %+v", p)
	}
	sum := 0
	for g, k := range p.GenerationRounds {
		sum += int(k)
		// PAIRS_MIN_ROUNDS: a generation's ratio is the median of its
		// rounds, never a single pair of blocks (as the generations after
		// a budget spent on start-ups had, on a loaded machine)
		if k < 5 {
			t.Errorf("generation %d ran %v rounds, fewer than 5", g+1, k)
		}
	}
	if sum != p.Rounds {
		t.Fatalf("generations hold %d rounds, the run %d", sum, p.Rounds)
	}
	// a visit: one lead-in, then blocks_per_visit blocks in a row, each a
	// round of its own; the blocks after a visit's first start with one
	// untimed call and follow the same cell
	k := p.PerVisit
	if k < 1 || p.Rounds%k != 0 {
		t.Fatalf("%d rounds, %d blocks a visit", p.Rounds, k)
	}
	for ci, c := range p.Cells {
		if len(c.Blocks) != p.Rounds || len(c.CPU) != p.Rounds || len(c.LeadNs) != p.Rounds || c.PerBlock < 1 {
			t.Fatalf("%s: %d blocks for %d rounds", c.Name, len(c.Blocks), p.Rounds)
		}
		for i, l := range c.LeadNs {
			if c.LeadCalls[i] < 1 || c.FirstCallNs[i] > l {
				t.Fatalf("%s: block %d's lead-in %.0f ns, %v calls, first %.0f ns", c.Name, i, l, c.LeadCalls[i], c.FirstCallNs[i])
			}
			if i%k != 0 {
				if c.LeadCalls[i] != 1 || int(c.After[i]) != ci {
					t.Fatalf("%s: block %d, %d of its visit: a lead-in of %v calls after cell %v, want 1 after itself",
						c.Name, i, i%k+1, c.LeadCalls[i], c.After[i])
				}
				continue
			}
			if p.SteadyMaxUs == nil && l < p.LeadInUs*1000 {
				t.Fatalf("%s: block %d's fixed lead-in %.0f ns, want >= %.0f us", c.Name, i, l, p.LeadInUs)
			}
			// steady (stats/steady.h): the first call, then groups of 16,
			// at least 4 of them, unless the cap after the first call
			// was reached
			if p.SteadyMaxUs != nil {
				calls, capped := int(c.LeadCalls[i]), l-c.FirstCallNs[i] >= *p.SteadyMaxUs*1000
				if (calls-1)%16 != 0 || (calls < 1+4*16 && !capped) {
					t.Fatalf("%s: block %d's lead-in: %d calls in %.0f ns (first %.0f ns), neither steady nor at its %.0f us cap",
						c.Name, i, calls, l, c.FirstCallNs[i], *p.SteadyMaxUs)
				}
			}
		}
	}
	for _, r := range p.Ratios {
		if len(r.Samples) != len(p.GenerationRounds) || r.Pairs.N != p.Rounds || r.Estimate == nil || r.P == nil {
			t.Fatalf("ratio %s: %d samples for %d generations, %d pairs for %d rounds",
				r.Name, len(r.Samples), len(p.GenerationRounds), r.Pairs.N, p.Rounds)
		}
	}
	// the cells' launches: one a generation, one batch a block
	for _, c := range d.Cells {
		if len(c.Launches) != len(p.GenerationRounds) {
			t.Fatalf("%s: %d launches for %d generations", c.Name, len(c.Launches), len(p.GenerationRounds))
		}
	}
	return d
}

// --compare --time 3, one run, the text on stdout and the JSON exported:
// ten cells (the C plugin's and its async, the round trip; bench --work
// bare beside the textbook loop, sync and async), the ratios of
// --compare, each from its pairs and generations, bench/textbook among
// them with its interval; the text says how many.
func TestPairedCompare(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	js := filepath.Join(t.TempDir(), "compare.json")
	r := runTimeout(t, 2*time.Minute, bench, "--compare", "--time", "3", "--export", "json="+js)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	d := checkPaired(t, string(out), 10)
	// the textbook cells name the toolchain and SDK of the mock they link,
	// the same as bench's (they once said "unknown")
	for _, c := range d.Cells {
		if strings.HasSuffix(c.Name, "/driver=textbook") && (c.GoVersion != d.Cells[0].GoVersion ||
			c.SDKVersion != d.Cells[0].SDKVersion || !strings.HasPrefix(c.GoVersion, "go1.")) {
			t.Fatalf("%s: %s, %s; %s: %s, %s", c.Name, c.GoVersion, c.SDKVersion, d.Cells[0].Name,
				d.Cells[0].GoVersion, d.Cells[0].SDKVersion)
		}
	}
	// every async Go cell says where the SDK's slot lay, the textbook's
	// too (bench/textbook compares two places); no sync cell, and not the
	// C plugin's (no SDK), and the text report lists them (a cell whose
	// launches found it in several places lists each: under ASan the
	// textbook loop's moved from one launch to the next)
	var slots slotDoc
	if err := json.Unmarshal(out, &slots); err != nil {
		t.Fatal(err)
	}
	for i, c := range slots.Cells {
		name := d.Cells[i].Name
		goAsync := strings.Contains(name, "/mode=async/") && !strings.HasPrefix(name, "lib=libcmock/")
		for _, l := range c.Launches {
			for _, p := range l.Plugins {
				if s := p.AsyncSlot; (s != nil) != goAsync || s != nil && (s.LineBytes < 16 || s.Lines < 1) {
					t.Fatalf("%s: async_slot %+v", name, s)
				}
			}
		}
	}
	if !regexp.MustCompile(`\n  lib=archive/mode=async/work=bare/p=1/driver=textbook: [0-9]+ bytes into a [0-9]+-byte line, [12] lines? \([0-9]+ launch(es)?\)(; [0-9]+ bytes into [^\n]*)?\n`).MatchString(r.stdout) {
		t.Fatalf("no async slot of the textbook cell in the text report:\n%s", r.stdout)
	}
	// no --lead-in-us: every lead-in ran until steady, capped
	if p := d.Paired; p.SteadyMaxUs == nil || !(*p.SteadyMaxUs > 0) || p.Capped == nil {
		t.Fatalf("the lead-ins are not the steady ones: %+v", p)
	}
	names := map[string]bool{}
	for _, x := range d.Paired.Ratios {
		names[x.Name] = true
		if x.Judged || x.Change != nil {
			t.Fatalf("--compare judged %s", x.Name)
		}
	}
	for _, want := range []string{"async/sync lib=archive wall", "async/sync lib=shared wall",
		"shared/archive mode=sync wall", "go sync/c lib=archive wall", "async/roundtrip lib=archive wall",
		"async/roundtrip lib=shared wall"} {
		if !names[want] {
			t.Fatalf("no ratio %q in %v", want, names)
		}
	}
	// async in round trips: the round-trip cell, each library's async
	// over it, and the crossover, which is round trip x sync / async
	rt := d.Paired.Roundtrip
	if rt == nil || rt.Cell != "lib=libcmock/mode=async/work=bare/p=1" || len(rt.GenerationNs) != len(d.Paired.GenerationRounds) ||
		!(rt.Ns > 0) || len(rt.Libs) != 2 {
		t.Fatalf("no round trip section as --compare makes it: %+v", rt)
	}
	for i, l := range rt.Libs {
		if l.Lib != []string{"archive", "shared"}[i] || l.RoundTrips == nil || !(*l.RoundTrips > 0) ||
			l.CrossoverNs == nil || !(*l.CrossoverNs > 0) || l.SyncNs == nil || l.AsyncNs == nil {
			t.Fatalf("library %d of the round trip: %+v", i, l)
		}
		// too few generations for a line: it says so; otherwise a line,
		// or why not
		if (len(rt.GenerationNs) < 6 && (l.Fitted || !strings.Contains(l.Why, "generations"))) || (!l.Fitted && l.Why == "") {
			t.Fatalf("round trip line of %d generations: %+v", len(rt.GenerationNs), l)
		}
	}
	checkTextbookRatios(t, d, r.stdout)
	// a crossover is concluded from enough generations only (a loaded
	// machine may give fewer in 3 s)
	crossover := "async would beat sync only where a round trip is below"
	if len(rt.GenerationNs) < 6 {
		crossover = "no conclusion on where async would beat sync from"
	}
	for _, want := range []string{"round trip: lib=libcmock/mode=async/work=bare/p=1", "round trips", crossover,
		"paired run: 10 cells", "generations of fresh processes", "rounds", "lead-ins (untimed, excluded)",
		"placement: every caller on CPU", "async/sync lib=archive wall", "gens", "pairs"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("no %q in:\n%s%s", want, r.stdout, r.stderr)
		}
	}
}

// checkTextbookRatios: bench/textbook, sync and async, each bench's bare
// cell over the textbook loop's cell of the same mode, requested and in
// effect, an estimate with its interval (null bounds only while there are
// too few generations for one) in the JSON, and a line of the text.
func checkTextbookRatios(t *testing.T, d pairedDoc, text string) {
	t.Helper()
	for _, mode := range []string{"sync", "async"} {
		name := "bench/textbook mode=" + mode + " wall"
		var found bool
		for _, x := range d.Paired.Ratios {
			if x.Name != name {
				continue
			}
			found = true
			num, den := d.Paired.Cells[x.Num].Name, d.Paired.Cells[x.Den].Name
			if !strings.Contains(num, "/mode="+mode+"/work=bare/") || strings.Contains(num, "/driver=") ||
				!strings.Contains(den, "/mode="+mode+"/work=bare/") || !strings.HasSuffix(den, "/driver=textbook") {
				t.Errorf("%s divides %s by %s", name, num, den)
			}
			if x.Estimate == nil || !(*x.Estimate > 0) || x.Low == nil != (x.High == nil) ||
				(x.Low != nil && !(*x.Low <= *x.Estimate && *x.Estimate <= *x.High)) {
				t.Errorf("%s: estimate %v, interval [%v, %v]", name, x.Estimate, x.Low, x.High)
			}
			if x.Low == nil && len(d.Paired.GenerationRounds) >= 6 {
				t.Errorf("%s: no interval from %d generations", name, len(d.Paired.GenerationRounds))
			}
		}
		if !found {
			t.Errorf("no ratio %s", name)
		}
		line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s+\d+\.\d+ \[(n/a|\d+\.\d+, \d+\.\d+)\]`)
		if !line.MatchString(text) {
			t.Errorf("no line %q with its estimate and interval in:\n%s", name, text)
		}
	}
	// the textbook loop's cells ran in the mode they stand for (its child
	// said so at its probe, on its calling thread, or was refused)
	for _, c := range d.Cells {
		if strings.HasSuffix(c.Name, "/driver=textbook") &&
			(c.Mode.Requested != c.Mode.InEffect || !strings.Contains(c.Name, "/mode="+c.Mode.Requested+"/")) {
			t.Errorf("%s: requested %s, in effect %s", c.Name, c.Mode.Requested, c.Mode.InEffect)
		}
	}
}

// --against in pairs: a threefold slowdown of the build under test is a
// regression (exit 1); the base never gets the slowdown; a wide threshold
// on an unchanged build is no regression (exit 0); and bad input is 2.
func TestPairedAgainst(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	// twelve generations (the fewest for a verdict), however slow their
	// start-ups (under the sanitizers); 0.5 s each, because the start-ups
	// count against --time, and on a loaded machine the generations after
	// it is spent get one round each, a single pair of blocks
	// (--lead-in-us: fixed lead-ins, each at least that long, checked)
	r := runTimeout(t, time.Minute, bench, "--work", "u64", "--extra-ns", "300", "--against", bench, "--time", "6",
		"--launches", "12", "--lead-in-us", "1000", "--format", "json")
	if r.code != 1 {
		t.Fatalf("threefold: exit %d, want 1: %s", r.code, r.stderr)
	}
	d := checkPaired(t, r.stdout, 2)
	if d.Paired.SteadyMaxUs != nil || d.Paired.LeadInUs != 1000 {
		t.Fatalf("--lead-in-us 1000: lead-ins not fixed at 1000 us: %+v", d.Paired)
	}
	if d.Comparison == nil || !d.Comparison.Regressed || len(d.Comparison.Changes) != 1 ||
		d.Comparison.Changes[0].Kind != "pair" || d.Comparison.Changes[0].Verdict != "regressed" {
		t.Fatalf("comparison: %+v", d.Comparison)
	}
	// the 300 ns are a busy loop calibrated once per process: on a vCPU
	// whose speed changes threefold (and under the sanitizers, whose base
	// cell costs 545 ns) the ratio of the sides is no constant, but this
	// build's blocks cost at least a third of the injection more, where
	// two sides alike differ by a few per cent
	if p := d.Paired; p.Cells[0].Side != "this" || p.Cells[1].Side != "against" ||
		median(p.Cells[0].Blocks)-median(p.Cells[1].Blocks) < 100 {
		t.Fatalf("the slowdown did not reach this build only: %v ns vs %v ns",
			median(p.Cells[0].Blocks), median(p.Cells[1].Blocks))
	}
	r = runTimeout(t, time.Minute, bench, "--against", bench, "--time", "2.4", "--launches", "12", "--threshold", "60")
	if r.code != 0 || !strings.Contains(r.stdout, "comparison against") || !strings.Contains(r.stdout, "verdict: no regression") {
		t.Fatalf("unchanged: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--against", bench, "--time", "0"}, "--time: '0' must be more than 0"},
		{[]string{"--against", bench, "--time", "-1"}, "is negative"},
		{[]string{"--against", bench, "--time", "1e9"}, "is not a plain decimal number (digits and one point, no exponent)"},
		{[]string{"--against", bench, "--precision", "0"}, "must be more than 0"},
		{[]string{"--against", bench, "--block-ms", "5000"}, "too large"},
		{[]string{"--against", bench, "-r", "4"}, "a paired run's batches are its blocks"},
		{[]string{"--against", bench, "--interleave", "launches", "--precision", "1"}, "--precision applies to a paired run (--interleave launches was given)"},
		{[]string{"--interleave", "pairs"}, "need --compare or --against"},
		{[]string{"--compare", "-p", "2", "--interleave", "pairs"}, "one caller"},
		{[]string{"--compare", "--floors"}, "a run of their own"},
		{[]string{"--interleave", "sideways", "--compare"}, "not one of pairs, launches"},
	} {
		oneLine(t, runTimeout(t, time.Minute, bench, c.args...), 2, c.want, c.args)
	}
}

// The sequential gate: a twofold build (--slowdown-pct 100) is found
// regressed at a look before the last, and the run stops there, with as
// many generations as that look's (--launches 60: generations of a fixed
// count, so the design is the same on any machine; on a quiet one the
// first look, 12 generations, decides, on a loaded one a later look); the
// document records the design and the level the verdict was drawn at;
// --precision is refused with --against.
func TestSequentialGateStopsEarly(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	run := func(extra ...string) result {
		return runTimeout(t, 3*time.Minute, bench, append([]string{"-a", "--against", bench, "--slowdown-pct", "100",
			"--launches", "60", "--time", "60"}, extra...)...)
	}
	r := run("--format", "json")
	if r.code != 1 {
		t.Fatalf("+100%%: exit %d, want 1: %s", r.code, r.stderr)
	}
	d := checkPaired(t, r.stdout, 2)
	q := d.Paired.Sequential
	if d.Paired.StoppedBy != "verdict" || q == nil || q.LooksTaken < 1 || q.LooksTaken >= q.LooksPlanned ||
		len(d.Paired.GenerationRounds) != lookSize(q.LooksTaken) || q.JudgedLevel <= 0.95 || q.JudgedLevel >= 1 {
		t.Fatalf("stopped by %q after %d generations; design %+v", d.Paired.StoppedBy, len(d.Paired.GenerationRounds), q)
	}
	t.Logf("json: verdict at look %d of %d, %d generations", q.LooksTaken, q.LooksPlanned, len(d.Paired.GenerationRounds))
	r = run()
	if r.code != 1 || !regexp.MustCompile(`sequential: verdict at look [0-9]+ of [0-9]+`).MatchString(r.stdout) ||
		!strings.Contains(r.stdout, "verdict: regression detected (exit status 1)") {
		t.Fatalf("text: exit %d\n%s", r.code, r.stdout)
	}
	args := []string{"-a", "--against", bench, "--precision", "1"}
	oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, "--against stops by its own sequential rule", args)
	// --inconclusive is a verdict's option
	args = []string{"-n", "1000", "--inconclusive", "pass"}
	oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, "there is no verdict without", args)
	args = []string{"--against", bench, "--inconclusive", "maybe"}
	oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, "'maybe' is not one of fail, pass", args)
}

// lookSize is the number of generations at the sequential gate's look k
// (1-based): the first at 12, each next at 25% more, rounded up
// (c/stats/sequential.c).
func lookSize(k int) int {
	n := 12
	for i := 1; i < k; i++ {
		g := int(math.Ceil(1.25*float64(n) - 1e-9))
		if g <= n {
			g = n + 1
		}
		n = g
	}
	return n
}

// --blocks-per-visit K: every visit to a cell is one lead-in and K blocks in
// a row, each a round of its own (checkPaired checks the lead-ins and the
// cell each block follows); a paired run's option only.
func TestBlocksPerVisit(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	r := runTimeout(t, 2*time.Minute, bench, "-a", "--against", bench, "--launches", "12", "--time", "3",
		"--blocks-per-visit", "3", "--inconclusive", "pass", "--format", "json")
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if d := checkPaired(t, r.stdout, 2); d.Paired.PerVisit != 3 {
		t.Fatalf("blocks_per_visit %d, want 3", d.Paired.PerVisit)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--compare", "--blocks-per-visit", "0"}, "must be at least 1"},
		{[]string{"--compare", "--blocks-per-visit", "65"}, "too large"},
		{[]string{"--compare", "--interleave", "launches", "--blocks-per-visit", "2"}, "--blocks-per-visit applies to a paired run (--interleave launches was given)"},
	} {
		oneLine(t, runTimeout(t, time.Minute, bench, c.args...), 2, c.want, c.args)
	}
}

// Two sample files whose interval straddles the threshold: inconclusive,
// exit 4 with its sentence, or 0 when asked to pass; two to four numbers a
// side give no interval, and the same.
func TestJudgeInconclusive(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	base, wide, few := filepath.Join(tmp, "base"), filepath.Join(tmp, "wide"), filepath.Join(tmp, "few")
	os.WriteFile(base, []byte("100\n101\n99\n100\n102\n98\n"), 0o644)
	os.WriteFile(wide, []byte("80\n140\n95\n120\n70\n135\n"), 0o644)
	os.WriteFile(few, []byte("100\n101\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--judge", base, wide}, 4, "Inconclusive: a change as large as the threshold is neither shown nor ruled out."},
		{[]string{"--judge", base, wide, "--inconclusive", "pass"}, 0, "Inconclusive"},
		{[]string{"--judge", base, few}, 4, "need at least 5 on each side"},
	} {
		r := runTimeout(t, time.Minute, bench, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%v: exit %d (want %d), stdout %q", c.args, r.code, c.code, r.stdout)
		}
	}
}

// No verdict from fewer than 12 generations (or launches): a budget that
// cannot hold them is refused up front (exit 2), and a run that could but
// did not get them (start-ups take time) says so in every format and exits
// 3, never 0 with "no regression" (a 50% slowdown seen in one generation
// once passed the gate with "Too few samples", exit 0).
func TestAgainstNeedsGenerations(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--time", "1", "--lead-in-us", "1000000", "--slowdown-pct", "50"}, "fits at most 1 generations of fresh processes"},
		{[]string{"--time", "1"}, "fewer than the 12 a verdict against another build needs"},
		{[]string{"--time", "1.2", "--launches", "6"}, "--launches 6: a verdict against another build needs at least 12 generations"},
		{[]string{"--interleave", "launches", "--launches", "6"}, "--launches 6: a verdict against another build needs at least 12 launches"},
	} {
		args := append([]string{"-a", "--against", bench}, c.args...)
		oneLine(t, runTimeout(t, time.Minute, bench, args...), 2, c.want, args)
	}
	// 2.4 s holds 12 generations of 0.2 s only if starting processes took
	// no time: fewer are run, and the verdict is inconclusive (exit 4),
	// however large the change: never "no regression" without evidence
	args := []string{"-a", "--against", bench, "--time", "2.4", "--slowdown-pct", "50"}
	r := runTimeout(t, 2*time.Minute, bench, append(args, "--format", "json")...)
	if r.code != 4 {
		t.Fatalf("json: exit %d, want 4: %s", r.code, r.stderr)
	}
	d := checkPaired(t, r.stdout, 2)
	if c := d.Comparison; c == nil || c.Regressed || c.Verdict != "inconclusive" || c.MinSamples != 12 ||
		!strings.HasPrefix(c.UndefinedBecause, "too few generations for a verdict: ") ||
		!strings.HasSuffix(c.UndefinedBecause, " of 12") || len(c.Changes) != 1 ||
		c.Changes[0].Verdict != "undefined" || !strings.HasPrefix(c.Changes[0].Sentence, "Too few generations for a verdict (") {
		t.Fatalf("comparison: %+v", d.Comparison)
	}
	r = runTimeout(t, 2*time.Minute, bench, args...)
	if r.code != 4 || !strings.Contains(r.stdout, "verdict: inconclusive, too few generations for a verdict: ") ||
		!strings.Contains(r.stdout, "Too few generations for a verdict (") || strings.Contains(r.stdout, "no regression") {
		t.Fatalf("text: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runTimeout(t, 2*time.Minute, bench, append(args, "--format", "gobench")...)
	if r.code != 4 || !strings.Contains(r.stdout, "cgocost-verdict: inconclusive, too few generations for a verdict: ") {
		t.Fatalf("gobench: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// startMarked starts a run marked in its environment and waits until at
// least want children of it exist, then settle more; it returns the
// command, its stderr and the children (fewer than want when none came
// within two minutes, a start-up no loaded machine takes: the caller
// fails then, instead of signalling a run in an unknown state).
func startMarked(t *testing.T, bench, mark string, want int, settle time.Duration, args ...string) (*exec.Cmd, *bytes.Buffer, []int) {
	t.Helper()
	cmd := exec.Command(bench, args...)
	cmd.Env = append(cmd.Environ(), mark)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var children []int
		for _, pid := range processesOf(mark) {
			if pid != cmd.Process.Pid {
				children = append(children, pid)
			}
		}
		if len(children) >= want || time.Now().After(deadline) {
			time.Sleep(settle)
			return cmd, &errb, children
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func noneLeft(t *testing.T, what, mark string) {
	t.Helper()
	var left []int
	for wait := 0; wait < 50; wait++ {
		if left = processesOf(mark); len(left) == 0 {
			return
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Errorf("%s: processes of the run left: %v", what, left)
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// The coordinator of a paired run: SIGINT and SIGTERM kill every child (all
// alive at once) and exit 128 + the signal; a child that crashes, or stops
// answering, fails the run with exit 3 and a message; nothing is left.
func TestPairedCoordinatorLeavesNoProcess(t *testing.T) {
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		mark := fmt.Sprintf("CGOCOST_TEST_RUN=paired-%d-%d", sig, time.Now().UnixNano())
		cmd, errb, children := startMarked(t, bench, mark, 2, 300*time.Millisecond, "--compare", "--time", "60") // into the blocks
		if len(children) < 2 {
			t.Fatalf("%v: %d children, want several alive at once", sig, len(children))
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
			t.Errorf("%v: %v, want exit %d; stderr %q", sig, err, 128+int(sig), errb.String())
		}
		if !strings.Contains(errb.String(), "bench: interrupted by ") || !strings.Contains(errb.String(), "paired") ||
			!strings.Contains(errb.String(), "the running launch was killed") {
			t.Errorf("%v: stderr %q", sig, errb.String())
		}
		noneLeft(t, sig.String(), mark)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		want string
	}{
		{syscall.SIGSEGV, []string{"-a", "--against", bench, "--time", "60"}, "crashed"},
		{syscall.SIGKILL, []string{"--compare", "--time", "60"}, "signal 9"},
		{syscall.SIGSTOP, []string{"--against", bench, "--time", "60", "--stall-timeout", "1"}, "stalled during a block: no progress for --stall-timeout"},
	} {
		mark := fmt.Sprintf("CGOCOST_TEST_RUN=paired-child-%d-%d", c.sig, time.Now().UnixNano())
		cmd, errb, children := startMarked(t, bench, mark, 2, 300*time.Millisecond, c.args...)
		if len(children) == 0 {
			t.Fatalf("%v: no child", c.sig)
		}
		syscall.Kill(children[0], c.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		msg := strings.TrimSpace(errb.String())
		if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "paired launch of") {
			t.Errorf("child %v: %v, want exit 3 and %q; stderr %q", c.sig, err, c.want, msg)
		}
		noneLeft(t, "child "+c.sig.String(), mark)
	}
}

// A paired run with one allowed CPU is bad input found before any child
// starts (it used to fail late, exit 3, after the first generation began);
// launch by launch still runs there.
func TestPairedNeedsTwoCPUs(t *testing.T) {
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	args := []string{"-c", "0", bench, "-n", "2000", "--against", bench, "--time", "3"}
	r := runTimeout(t, time.Minute, "taskset", args...)
	oneLine(t, r, 2, "a paired run needs 2 CPUs", args)
	r = runTimeout(t, 2*time.Minute, "taskset", "-c", "0", bench, "-n", "2000", "--against", bench,
		"--interleave", "launches", "--launches", "12")
	if !verdict(r.code) {
		t.Errorf("launch by launch on one CPU: exit %d: %s", r.code, r.stderr)
	}
}

// --async-block-ms gives the async cells of a paired run their own block
// length: each cell records the length it was asked to fill (the sync
// cells --block-ms, the async ones the new length), the run both, and the
// header says it; without it every cell has --block-ms; outside a paired
// run it is bad input.
func TestAsyncBlockLength(t *testing.T) {
	needCPUs01(t)
	bench := filepath.Join(buildDir(t), "bench")
	type doc struct {
		Paired struct {
			BlockMs      float64  `json:"block_ms"`
			AsyncBlockMs *float64 `json:"async_block_ms"`
			Cells        []struct {
				Name     string    `json:"name"`
				BlockMs  *float64  `json:"block_ms"`
				PerBlock float64   `json:"extractions_per_block"`
				BlockNs  []float64 `json:"block_ns_per_extraction"`
			} `json:"cells"`
		} `json:"paired"`
	}
	for _, c := range []struct {
		args        []string
		sync, async float64
	}{
		{[]string{"--async-block-ms", "8"}, 2, 8},
		{[]string{"--block-ms", "3"}, 3, 3},
	} {
		args := append([]string{"--compare", "--time", "1", "--format", "json"}, c.args...)
		r := runTimeout(t, 3*time.Minute, "taskset", append([]string{"-c", "0,1", bench}, args...)...)
		var d doc
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil {
			t.Fatalf("%v: exit %d: %s", c.args, r.code, r.stderr)
		}
		if d.Paired.BlockMs != c.sync || d.Paired.AsyncBlockMs == nil || *d.Paired.AsyncBlockMs != c.async {
			t.Errorf("%v: block_ms %v, async_block_ms %v: want %v and %v", c.args, d.Paired.BlockMs,
				d.Paired.AsyncBlockMs, c.sync, c.async)
		}
		asyncCells := 0
		for _, cell := range d.Paired.Cells {
			want := c.sync
			if strings.Contains(cell.Name, "mode=async") {
				want = c.async
				asyncCells++
			}
			if cell.BlockMs == nil || *cell.BlockMs != want {
				t.Errorf("%v: cell %s: block_ms %v, want %v", c.args, cell.Name, cell.BlockMs, want)
			}
			// and a block lasts about that: at least a quarter of it at
			// the warm-up's steady pace, whatever the async worker's
			// wake-up made of the warm-up's mean (blocks of 5 calls, 3 us,
			// where 2 ms were asked); a tenth is far below what the
			// machine's changes of pace between warm-up and blocks give (3x)
			if len(cell.BlockNs) > 0 {
				ms := blockMs(cell.PerBlock, cell.BlockNs)
				if ms < want/10 {
					t.Errorf("%v: cell %s: %v calls a block at a median %.1f ns: a block of %.3f ms, asked %v",
						c.args, cell.Name, cell.PerBlock, median(cell.BlockNs), ms, want)
				}
			}
		}
		if asyncCells == 0 {
			t.Errorf("%v: no async cell in %d cells", c.args, len(d.Paired.Cells))
		}
	}
	r := runTimeout(t, 3*time.Minute, "taskset", "-c", "0,1", bench, "--compare", "--time", "1", "--async-block-ms", "8")
	if want := "  blocks: 2 ms timed each, an async cell's 8 ms, at the pace of each child's warm-up;"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("text: exit %d, no %q in:\n%s", r.code, want, r.stdout)
	}
	oneLine(t, runTimeout(t, time.Minute, bench, "-n", "1000", "--async-block-ms", "8"), 2,
		"--async-block-ms applies to a paired run (paired blocks compare cells", []string{"-n", "1000", "--async-block-ms", "8"})
}

// A paired child's blocks last at least a quarter of their time at its
// warm-up's steady pace, however long a stall its warm-up met: the C
// plugin configured to sleep 30 ms once, in the middle of every child's
// warm-up (its 5000th extraction of 10000, about 0.2 ms of calls), gets
// blocks of 0.5 ms or more. Sized from the warm-up's mean alone, they held
// 657 calls, 15 us (measured before the change); a tenth of the time asked
// is the bound, far from both.
func TestBlocksFillTheirTimeDespiteAStalledWarmUp(t *testing.T) {
	needCPUs01(t)
	host := filepath.Join(buildDir(t), "bench-host")
	lib := filepath.Join(buildDir(t), "libcmock.so")
	r := runTimeout(t, 3*time.Minute, "taskset", "-c", "0,1", host, "--plugin", lib, "--plugin-config",
		`{"stall_at":5000,"stall_ms":30}`, "--against", host, "--launches", "12", "--time", "3", "--format", "json")
	if !verdict(r.code) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var d pairedDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || d.Paired == nil || len(d.Paired.Cells) != 2 {
		t.Fatalf("want a paired document of 2 cells: %v\n%s", err, r.stdout)
	}
	for _, c := range d.Paired.Cells {
		if len(c.Blocks) == 0 || c.BlockMs != 2 {
			t.Fatalf("cell %s: %d blocks of %v ms: want blocks of 2 ms", c.Name, len(c.Blocks), c.BlockMs)
		}
		if ms := blockMs(float64(c.PerBlock), c.Blocks); ms < c.BlockMs/10 {
			t.Errorf("cell %s: %v calls a block at a median %.1f ns: %.3f ms a block, asked %v ms", c.Name,
				c.PerBlock, median(c.Blocks), ms, c.BlockMs)
		}
	}
}

// blockMs is how long a cell's blocks last: its calls a block times the
// median ns per extraction over its blocks, in ms.
func blockMs(perBlock float64, blockNs []float64) float64 {
	return perBlock * median(blockNs) / 1e6
}

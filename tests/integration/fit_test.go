package integration

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// setLine rewrites a saved --compare document so that, block by block,
// the async cell of lib costs slope x the round-trip cell's block +
// intercept, with the round-trip cell's blocks scaled by k first: every
// generation's medians then lie on that line exactly.
func setLine(t *testing.T, doc map[string]any, lib string, k, slope, intercept float64) {
	t.Helper()
	cells := doc["paired"].(map[string]any)["cells"].([]any)
	var rt, as []any
	for _, c := range cells {
		cm := c.(map[string]any)
		switch cm["name"] {
		case "lib=libcmock/mode=async/work=bare/p=1":
			rt = cm["block_ns_per_extraction"].([]any)
		case "lib=" + lib + "/mode=async/work=noop/p=1":
			as = cm["block_ns_per_extraction"].([]any)
		}
	}
	if rt == nil || as == nil || len(rt) != len(as) {
		t.Fatalf("no round-trip or %s async cell of equal rounds in the document", lib)
	}
	for i := range rt {
		if k != 1 && lib == "archive" { // scale the round trip once per document
			rt[i] = rt[i].(float64) * k
		}
		as[i] = slope*rt[i].(float64) + intercept
	}
}

// --fit reads saved --compare documents and fits async against the round
// trip through all their generations. Two documents made from one real run
// (the second with the round trip 1.6 times longer), with each library's
// async set to a known line of the round trip block by block, give that
// line back exactly: slope, its interval, intercept, and the round trip at
// which the line meets the documents' sync. Not a paired --compare
// document, or another option beside --fit: bad input, one line.
func TestFitRecoversAKnownLine(t *testing.T) {
	needCPUs01(t)
	bench := filepath.Join(buildDir(t), "bench")
	dir := t.TempDir()
	r := runTimeout(t, 3*time.Minute, "taskset", "-c", "0,1", bench, "--compare", "--time", "2", "--launches", "6", "--format", "json")
	if r.code != 0 {
		t.Fatalf("--compare: exit %d: %s", r.code, r.stderr)
	}
	// archive's intercept alone is above any sync figure: no crossover
	lines := map[string][2]float64{"archive": {2.5, 400}, "shared": {3.25, -12.5}}
	var files []string
	for i, k := range []float64{1, 1.6} {
		var doc map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		for _, lib := range []string{"archive", "shared"} {
			setLine(t, doc, lib, k, lines[lib][0], lines[lib][1])
		}
		out, _ := json.Marshal(doc)
		f := filepath.Join(dir, fmt.Sprintf("run%d.json", i))
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	r = run(t, bench, nil, "--fit", files[0], "--fit", files[1])
	if r.code != 0 {
		t.Fatalf("--fit: exit %d: %s", r.code, r.stderr)
	}
	for lib, want := range lines {
		re := regexp.MustCompile(`(?m)^# lib=` + lib + `: async = (\S+) \[(\S+), (\S+)\] x round trip ([-+]\S+) ns \(Theil-Sen through (\d+) generations`)
		m := re.FindStringSubmatch(r.stdout)
		if m == nil {
			t.Errorf("%s: no line in:\n%s", lib, r.stdout)
			continue
		}
		num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		if num(m[1]) != want[0] || num(m[2]) != want[0] || num(m[3]) != want[0] || num(m[4]) != want[1] || m[5] != "12" {
			t.Errorf("%s: slope %s [%s, %s], intercept %s over %s generations: want %v, %v over 12", lib, m[1], m[2], m[3], m[4], m[5], want[0], want[1])
		}
		cross := regexp.MustCompile(`(?m)^# lib=` + lib + `: by the line, async costs what sync does \((\S+) ns, the documents' median\) at a round trip of (\S+) ns`).FindStringSubmatch(r.stdout)
		never := "# lib=" + lib + ": by the line, async costs more than sync"
		if lib == "archive" {
			if cross != nil || !strings.Contains(r.stdout, never) {
				t.Errorf("%s: an intercept of %v: want no crossover round trip, only %q, in:\n%s", lib, want[1], never, r.stdout)
			}
		} else if cross == nil {
			t.Errorf("%s: no crossover line in:\n%s", lib, r.stdout)
		} else if got, w := num(cross[2]), (num(cross[1])-want[1])/want[0]; math.Abs(got-w) > 0.05+0.05/want[0]+1e-9 {
			// both figures are printed to 0.1 ns: the crossover is off by
			// half its last digit, and the one computed here from the
			// printed sync by half of sync's last digit over the slope
			t.Errorf("%s: crossover %s ns, want (sync - intercept) / slope = %.3f within %.3f", lib, cross[2], w, 0.05+0.05/want[0])
		}
	}
	if rows := regexp.MustCompile(`(?m)^\S+run[01]\.json\s+6\s`).FindAllString(r.stdout, -1); len(rows) != 2 {
		t.Errorf("want a row of 6 generations per document, got %q in:\n%s", rows, r.stdout)
	}
	// one document alone: its own 6 generations, the same line where its
	// round trip moved enough, else why not
	r = run(t, bench, nil, "--fit", files[0])
	if r.code != 0 || !strings.Contains(r.stdout, "# lib=archive: async = 2.500 [2.500, 2.500] x round trip +400.0 ns (Theil-Sen through 6 generations") &&
		!strings.Contains(r.stdout, "# lib=archive: no line through 6 generations: the round trip moved from") {
		t.Errorf("one document: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	single := filepath.Join(dir, "single.json")
	r = run(t, bench, nil, "-n", "2000", "--format", "json")
	os.WriteFile(single, []byte(r.stdout), 0o644)
	oneLine(t, run(t, bench, nil, "--fit", single), 2, "is no paired --compare document with the round-trip cell", []string{"--fit", single})
	oneLine(t, run(t, bench, nil, "--fit", files[0], "-n", "5"), 2, "--fit reads saved documents and measures nothing", []string{"--fit", files[0], "-n", "5"})
}

// One document given twice to --fit, however spelt (a path through ..,
// a link), is refused before it is read: its generations would count
// twice and pass the rule of generations a line needs with repeated
// points. Two different files are not refused for it.
func TestFitSameFileTwice(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	if err := os.Mkdir(x, 0o755); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(x, "c.json")
	other := filepath.Join(x, "d.json")
	link := filepath.Join(dir, "link.json")
	os.WriteFile(c, []byte("{}"), 0o644)
	os.WriteFile(other, []byte("{}"), 0o644)
	if err := os.Symlink(c, link); err != nil {
		t.Fatal(err)
	}
	for _, second := range []string{c, x + "/./../x/c.json", link} {
		args := []string{"--fit", c, "--fit", other, "--fit", second}
		oneLine(t, run(t, bench, nil, args...), 2, "--fit "+c+" and --fit "+second+" are the same file", args)
	}
	args := []string{"--fit", c, "--fit", other}
	r := run(t, bench, nil, args...)
	if strings.Contains(r.stderr, "the same file") {
		t.Errorf("%v: two files refused as one: %s", args, r.stderr)
	}
}

package integration

// --export FORMAT=FILE: every export of one run made from its one
// document, after the console report, which it leaves as it is; bad
// exports refused before anything is measured; a failed export (a file
// that cannot be written late, a full stdout, a failing or hanging
// cgocost-report) is exit 3 with no partial or temporary file left.
// Nothing here depends on a timing: the runs are small, and every
// comparison is between outputs of the same run.

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
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

// exportDoc is what the tests read of an exported document.
type exportDoc struct {
	Cells []struct {
		Name     string `json:"name"`
		Launches []struct {
			NsPerExtraction float64 `json:"ns_per_extraction"`
			Plugins         []struct {
				ElapsedNs   int64 `json:"elapsed_ns"`
				Extractions int64 `json:"extractions"`
				Batches     []struct {
					Ns  int64 `json:"ns"`
					Ops int64 `json:"ops"`
				} `json:"batches"`
			} `json:"plugins"`
		} `json:"launches"`
	} `json:"cells"`
}

func readExportDoc(t *testing.T, path string) exportDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d exportDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s is no JSON document: %v", path, err)
	}
	if len(d.Cells) == 0 {
		t.Fatalf("%s has no cells", path)
	}
	return d
}

// names lists a directory, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// onlyFiles fails unless dir holds exactly want: no partial file, no
// temporary one (".NAME.XXXXXX").
func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := names(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

func isMarkdown(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || (data[0] != '#' && data[0] != '|') {
		t.Errorf("%s is not markdown: %q", path, data)
	}
}

var benchLine = regexp.MustCompile(`^BenchmarkExtract/(\S+)-\d+\t\d+\t(\d+\.\d\d) ns/op`)

// One paired --compare run makes the JSON, the markdown and the Go
// benchmark lines: the JSON has the console's cells, and every benchmark
// line is a launch of the JSON's, with its very ns/op: the same run.
func TestExportEveryFormatFromOneRun(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	r := testbuild.Run{Dir: tmp, Timeout: 120 * time.Second}.Exec(t, bench, "--compare", "--time", "2",
		"--export", "json=a.json", "--export", "markdown=b.md", "--export", "gobench=-")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	onlyFiles(t, tmp, "a.json", "b.md")
	d := readExportDoc(t, filepath.Join(tmp, "a.json"))
	isMarkdown(t, filepath.Join(tmp, "b.md"))

	// the console text first (its answers, then the paired run), then the
	// benchmark lines, nothing after
	at := strings.Index(r.Stdout, "goos: linux\n")
	if at <= 0 || !strings.HasPrefix(r.Stdout, "answers (") || !strings.Contains(r.Stdout, "\npaired run: ") {
		t.Fatalf("want the console text, then the gobench lines:\n%s", r.Stdout)
	}
	console, gobench := r.Stdout[:at], r.Stdout[at:]
	if strings.Contains(console, "BenchmarkExtract") {
		t.Fatalf("benchmark lines inside the console text:\n%s", console)
	}
	lines := strings.Split(strings.TrimRight(gobench, "\n"), "\n")
	for _, l := range lines[4:] { // goos, goarch, cpu, pkg
		if !benchLine.MatchString(l) {
			t.Fatalf("not a benchmark line after the console text: %q", l)
		}
	}
	if len(d.Cells) != 10 {
		t.Fatalf("%d cells in the JSON, want the 10 of --compare (the round trip and the harness check's 4 among them)", len(d.Cells))
	}
	seen := 0
	for _, c := range d.Cells {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.Name) + ` `).MatchString(console) {
			t.Errorf("cell %s of the JSON is not in the console's table", c.Name)
		}
		// a launch a line, or with one launch (one generation: the
		// machine was slow to start processes) a batch a line; the JSON
		// keeps 4 decimals of a launch's ns, the line 2: equal within
		// half a hundredth
		var want, got []float64
		for _, l := range c.Launches {
			want = append(want, l.NsPerExtraction)
		}
		if len(c.Launches) == 1 {
			want = nil
			for _, b := range c.Launches[0].Plugins[0].Batches {
				want = append(want, float64(b.Ns)/float64(b.Ops))
			}
		}
		for _, l := range lines[4:] {
			if m := benchLine.FindStringSubmatch(l); m[1] == c.Name {
				v, _ := strconv.ParseFloat(m[2], 64)
				got = append(got, v)
			}
		}
		same := len(want) > 0 && len(got) == len(want)
		for k := 0; same && k < len(got); k++ {
			same = math.Abs(got[k]-want[k]) <= 0.0051
		}
		if !same {
			t.Errorf("%s: benchmark lines %v, JSON launches %v: not the same run", c.Name, got, want)
		}
		seen += len(got)
	}
	if seen != len(lines)-4 {
		t.Errorf("%d benchmark lines, %d of them the JSON's cells'", len(lines)-4, seen)
	}
}

var seedElapsed = regexp.MustCompile(`^plugin 1: \d+\.\d\d ns/extraction \(elapsed time (\d+)ns, extractions (\d+)\)\n`)

// The console is not changed by --export: with --format json it is the
// document itself, byte for byte the JSON export of the same run, followed
// by the gobench export to stdout byte for byte the gobench file; the text
// report keeps its shape (seed line, then '#' lines only, the same lines
// as a run without --export where the run does not decide them) and its
// numbers are the exported document's.
func TestExportLeavesTheConsoleAsItIs(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	r := testbuild.Run{Dir: tmp, Timeout: 60 * time.Second}.Exec(t, bench, "-n", "20000", "--format", "json",
		"--export", "json=a.json", "--export", "gobench=g.txt", "--export", "gobench=-")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	a, _ := os.ReadFile(filepath.Join(tmp, "a.json"))
	g, _ := os.ReadFile(filepath.Join(tmp, "g.txt"))
	if len(a) == 0 || len(g) == 0 || r.Stdout != string(a)+string(g) {
		t.Fatalf("stdout is not the JSON report then the gobench lines of the same run:\nstdout %q\njson %q\ngobench %q",
			r.Stdout, a, g)
	}

	r = testbuild.Run{Dir: tmp, Timeout: 60 * time.Second}.Exec(t, bench, "-n", "20000",
		"--export", "json=b.json", "--export", "markdown=b.md")
	plain := testbuild.Run{Dir: tmp, Timeout: 60 * time.Second}.Exec(t, bench, "-n", "20000")
	if r.Code != 0 || plain.Code != 0 {
		t.Fatalf("exit %d / %d: %s %s", r.Code, plain.Code, r.Stderr, plain.Stderr)
	}
	seedLines(t, result{r.Stdout, r.Stderr, r.Code}, 1, "20000")
	m := seedElapsed.FindStringSubmatch(r.Stdout)
	d := readExportDoc(t, filepath.Join(tmp, "b.json"))
	if m == nil || len(d.Cells) != 1 || len(d.Cells[0].Launches) != 1 ||
		strconv.FormatInt(d.Cells[0].Launches[0].Plugins[0].ElapsedNs, 10) != m[1] {
		t.Fatalf("the console's seed line is not the exported run's:\n%s", r.Stdout)
	}
	// the lines no timing decides, in the same order
	fixed := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			for _, p := range []string{"# machine:", "# plugin:", "# go runtimes", "# allocator:", "# mode:", "# work:"} {
				if strings.HasPrefix(l, p) {
					out = append(out, l)
				}
			}
		}
		return strings.Join(out, "\n")
	}
	if fixed(r.Stdout) == "" || fixed(r.Stdout) != fixed(plain.Stdout) {
		t.Errorf("the report's fixed lines differ with --export:\n%s\nwithout:\n%s", fixed(r.Stdout), fixed(plain.Stdout))
	}
}

// Every bad export is refused before anything is measured: exit 2, one
// line naming it, nothing on stdout, no file made.
func TestExportBadInputMeasuresNothing(t *testing.T) {
	build := buildDir(t)
	bench := filepath.Join(build, "bench")
	tmp := t.TempDir()
	os.Mkdir(filepath.Join(tmp, "dir"), 0o755)
	fifo := makeFIFO(t, tmp, "fifo")
	base := filepath.Join(tmp, "base.json")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--export", "xml=a"}, 2, "--export: 'xml' in 'xml=a' is not one of json, gobench, markdown, html"},
		{[]string{"--export", "json"}, 2, "'json' is not FORMAT=FILE"},
		{[]string{"--export", "json="}, 2, "'json=' names no FILE"},
		{[]string{"--export", "=a"}, 2, "names no FORMAT"},
		{[]string{"--export", "json=x", "--export", "markdown=x"}, 2, "name the same file"},
		{[]string{"--export", "json=x", "--export", "markdown=" + filepath.Join(tmp, "dir", "..", "x")}, 2, "name the same file"},
		{[]string{"--export", "json=-", "--export", "gobench=-"}, 2, "one export at most goes to stdout (-)"},
		{[]string{"--export", "json=" + filepath.Join(tmp, "dir")}, 2, "is a directory"},
		{[]string{"--export", "json=/dev/null"}, 2, "not a regular file (a device)"},
		{[]string{"--export", "json=" + fifo}, 2, "not a regular file (a named FIFO)"},
		{[]string{"--export", "json=" + filepath.Join(tmp, "none", "a.json")}, 2, "No such file or directory"},
		{[]string{"--export", "json=/proc/cgocost.json"}, 2, "cannot create a file in /proc"},
		{[]string{"--export", "json=" + base, "--save-baseline", base}, 2, "and --save-baseline"},
		{[]string{"--judge", fifo, fifo, "--export", "json=a"}, 2, "--judge measures nothing"},
		{[]string{"--export", "json=a", "--emit-launch"}, 5, "a child launch (--emit-launch)"},
		{[]string{"--export", "html=p.html"}, 2, "--export html: p.html: CGOCOST_REPORT="},
	}
	for _, c := range cases {
		start := time.Now()
		r := testbuild.Run{Dir: tmp, Timeout: 30 * time.Second,
			Env: []string{"CGOCOST_REPORT=" + filepath.Join(tmp, "no-tool")}}.Exec(t, bench, append([]string{"-n", "20000"}, c.args...)...)
		oneLine(t, result{r.Stdout, r.Stderr, r.Code}, c.code, c.want, c.args)
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("%v: took %v to refuse", c.args, el)
		}
	}
	onlyFiles(t, tmp, "dir", "fifo")

	// without the override: a bench with no cgocost-report beside it
	alone := t.TempDir()
	data, err := os.ReadFile(bench)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(alone, "bench"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	r := testbuild.Run{Dir: tmp, Timeout: 30 * time.Second, Env: []string{"CGOCOST_REPORT="}}.Exec(t,
		filepath.Join(alone, "bench"), "-n", "20000", "--export", "html=p.html")
	oneLine(t, result{r.Stdout, r.Stderr, r.Code}, 2,
		"--export html: p.html: needs cgocost-report beside bench (make all builds it)", nil)
}

// shellRun runs bench under bash (a limit, a redirection) in dir: its
// exit status and stderr; stdout goes where text sends it.
func shellRun(t *testing.T, dir, bench string, env []string, text string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", text, bench)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), errb.String()
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s: still running after 60 s", text)
	}
	return -1, ""
}

// A file that cannot be written at the end (a file-size limit, reached by
// the JSON but not by the markdown; the console text goes to a pipe, which
// no such limit stops) or a full stdout fails the export with
// its reason: exit 3 after the whole console text, the other exports
// written, no partial or temporary file.
func TestExportFailedLateIsExitThree(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	code, stderr := shellRun(t, tmp, bench, nil,
		`set -o pipefail; (ulimit -f 2; exec "$0" -n 20000 --export json=a.json --export markdown=b.md) | cat > out.txt`)
	if code != 3 || !strings.Contains(stderr, "bench: --export json=a.json: a.json: cannot write temporary file: File too large: not written") {
		t.Errorf("ulimit -f 2: exit %d, stderr %q", code, stderr)
	}
	out, _ := os.ReadFile(filepath.Join(tmp, "out.txt"))
	seedLines(t, result{string(out), stderr, code}, 1, "20000")
	if !strings.Contains(string(out), "# time:") {
		t.Errorf("the console text is not whole:\n%s", out)
	}
	isMarkdown(t, filepath.Join(tmp, "b.md"))
	onlyFiles(t, tmp, "b.md", "out.txt")

	code, stderr = shellRun(t, tmp, bench, nil, `exec "$0" -n 20000 --export gobench=- > /dev/full`)
	if code != 3 || !strings.Contains(stderr, "bench: --export gobench=-: cannot write to stdout: No space left on device") {
		t.Errorf("gobench=- to /dev/full: exit %d, stderr %q", code, stderr)
	}
}

// The directory of an export removed while the launches run: the run
// measured, reported, and could not export; exit 3, the report kept.
func TestExportDirectoryGoneDuringTheRun(t *testing.T) {
	sub := filepath.Join(t.TempDir(), "gone")
	os.Mkdir(sub, 0o755)
	r := runRemovingDir(t, sub, "-n", "200000", "-r", "4", "--warmup", "1000", "--launches", "4",
		"--export", "json="+filepath.Join(sub, "a.json"))
	if r.code != 3 || !strings.Contains(r.stderr, "--export json="+sub) {
		t.Fatalf("exit %d, want exit 3 naming the export: %s", r.code, r.stderr)
	}
	seedLines(t, r, 1, "800000")
	if _, err := os.Stat(sub); !os.IsNotExist(err) {
		t.Errorf("%s is back: %v", sub, err)
	}
}

// html: cgocost-report (here a stand-in, $CGOCOST_REPORT) gets the run's
// JSON on stdin and its stdout becomes the file; one that fails, prints
// nothing or hangs (killed after $CGOCOST_REPORT_TIMEOUT, its processes
// too) is exit 3 with no file.
func TestExportHTMLByTheReportTool(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	tools := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(tools, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	seen := filepath.Join(tools, "stdin.json")
	page := script("page", `cat > `+seen+`; echo "<!DOCTYPE html><html><body>args: $*</body></html>"`+"\n")
	fail := script("fail", "cat >/dev/null; echo 'cgocost-report: not a cgocost document' >&2; exit 1\n")
	silent := script("silent", "exit 0\n")
	hang := script("hang", "sleep 1000 & wait\n")

	run := func(tool string, env []string, args ...string) testbuild.Result {
		return testbuild.Run{Dir: tmp, Timeout: 60 * time.Second, Env: append(env, "CGOCOST_REPORT="+tool)}.Exec(t,
			bench, append([]string{"-n", "20000"}, args...)...)
	}
	r := run(page, nil, "--export", "html=p.html", "--export", "json=a.json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	got, _ := os.ReadFile(filepath.Join(tmp, "p.html"))
	if string(got) != "<!DOCTYPE html><html><body>args: -</body></html>\n" {
		t.Errorf("p.html is not the tool's page: %q", got)
	}
	fed, _ := os.ReadFile(seen)
	var fedDoc, fileDoc any
	a, _ := os.ReadFile(filepath.Join(tmp, "a.json"))
	if json.Unmarshal(fed, &fedDoc) != nil || json.Unmarshal(a, &fileDoc) != nil ||
		fmt.Sprint(fedDoc) != fmt.Sprint(fileDoc) {
		t.Errorf("the tool's stdin is not the run's document:\n%.300s\nvs %.300s", fed, a)
	}
	seedLines(t, result{r.Stdout, r.Stderr, r.Code}, 1, "20000")
	onlyFiles(t, tmp, "a.json", "p.html")
	os.Remove(filepath.Join(tmp, "a.json"))
	os.Remove(filepath.Join(tmp, "p.html"))

	// the page to stdout, after the console text
	r = run(page, nil, "--export", "html=-")
	if at := strings.Index(r.Stdout, "<!DOCTYPE html>"); r.Code != 0 || !strings.HasPrefix(r.Stdout, "plugin 1: ") ||
		at < strings.Index(r.Stdout, "# time:") || !strings.HasSuffix(r.Stdout, "</html>\n") {
		t.Errorf("html=-: exit %d, stdout %q", r.Code, r.Stdout)
	}

	mark := fmt.Sprintf("CGOCOST_TEST_RUN=html-%d", time.Now().UnixNano())
	for _, c := range []struct {
		tool string
		env  []string
		want string
	}{
		{fail, nil, "fail: exit 1: cgocost-report: not a cgocost document: not written"},
		{silent, nil, "silent: exit 0 but no page on its stdout: not written"},
		// 1 s, or more when the tool's group was still starting (waiting to
		// be scheduled counts as working) at a load of 11 under ASan
		{hang, []string{"CGOCOST_REPORT_TIMEOUT=1", mark}, `hang did not end within (1 s|[0-9.]+ s, though it kept using CPU): killed: not written`},
	} {
		start := time.Now()
		r := run(c.tool, c.env, "--export", "html=p.html")
		if r.Code != 3 || !strings.Contains(r.Stderr, "bench: --export html=p.html: "+c.tool) ||
			!regexp.MustCompile(c.want).MatchString(r.Stderr) {
			t.Errorf("%s: exit %d, stderr %q; want exit 3 and %q", filepath.Base(c.tool), r.Code, r.Stderr, c.want)
		}
		seedLines(t, result{r.Stdout, r.Stderr, r.Code}, 1, "20000")
		if el := time.Since(start); el > 30*time.Second {
			t.Errorf("%s: took %v", filepath.Base(c.tool), el)
		}
		onlyFiles(t, tmp)
	}
	if left := processesOf(mark); len(left) > 0 {
		t.Errorf("the hanging tool left processes %v", left)
	}
}

// A failed export after a regression verdict is exit 3, not 1: the
// regression's evidence is not all written. (The verdict itself is the
// statistics' to reach: a doubled cost is found in practice; should noise
// hide it, the run's 0 must still become 3.)
func TestExportFailedAfterARegressionIsExitThree(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	r := testbuild.Run{Dir: tmp, Timeout: 60 * time.Second}.Exec(t, bench, "-n", "5000", "--launches", "5",
		"--save-baseline", "base.json")
	if r.Code != 0 {
		t.Fatalf("the baseline: exit %d: %s", r.Code, r.Stderr)
	}
	code, stderr := shellRun(t, tmp, bench, nil, `set -o pipefail; (ulimit -f 2; exec "$0" -n 5000 --launches 5 --baseline base.json `+
		`--slowdown-pct 100 --export json=a.json) | cat > out.txt`)
	out, _ := os.ReadFile(filepath.Join(tmp, "out.txt"))
	if code != 3 || !strings.Contains(stderr, "bench: --export json=a.json: ") {
		t.Fatalf("exit %d, want 3 naming the export; stderr %q\n%s", code, stderr, out)
	}
	if !strings.Contains(string(out), "verdict: regression detected") {
		t.Logf("no regression was found this time (the 0 became 3 all the same):\n%s", out)
	}
	onlyFiles(t, tmp, "base.json", "out.txt")
}

// A symbolic link named as a file to write is refused before anything is
// measured (issue 36, defect 8), neither followed nor replaced: a link to
// a file that another export names, a dangling one, a looping one, and a
// --save-baseline through a link; the links and their file stay as they were.
func TestExportThroughASymlinkRefused(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a.json")
	if err := os.WriteFile(a, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"link.json": "a.json", "dangling.json": "nowhere.json", "loop.json": "loop.json"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(tmp, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--export", "json=a.json", "--export", "markdown=link.json"},
		{"--export", "markdown=link.json"},
		{"--export", "json=dangling.json"},
		{"--export", "gobench=loop.json"},
		{"--save-baseline", "link.json"},
	} {
		r := testbuild.Run{Dir: tmp, Timeout: 30 * time.Second}.Exec(t, bench, append([]string{"-n", "1000"}, args...)...)
		oneLine(t, result{r.Stdout, r.Stderr, r.Code}, 2, "a symbolic link (name the file it points to)", args)
	}
	for name, target := range links {
		if got, err := os.Readlink(filepath.Join(tmp, name)); err != nil || got != target {
			t.Errorf("%s: now %q (%v), want the link to %s kept", name, got, err, target)
		}
	}
	if b, _ := os.ReadFile(a); string(b) != "old" {
		t.Errorf("a.json was written through its link: %q", b)
	}
	onlyFiles(t, tmp, "a.json", "dangling.json", "link.json", "loop.json")
}

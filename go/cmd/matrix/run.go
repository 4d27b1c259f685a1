package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"cgocost/go/internal/atomicfile"
)

// cmdRun builds with every toolchain it can get, measures each build with
// `bench --compare`, keeps each document in OUT/matrix/<go version>.json and
// reports on them.
func cmdRun(args []string, stdout, stderr io.Writer) error {
	cfg, help, err := parseRun(args, stdout, stderr)
	if help || err != nil {
		return err
	}
	docDir := filepath.Join(cfg.out, "matrix")
	if err := os.MkdirAll(docDir, 0o755); err != nil {
		return runError{err.Error()}
	}
	r := &matrixRun{runConfig: cfg, docDir: docDir, prog: newProgress(stderr), stderr: stderr,
		seen: map[string]string{}}
	defer r.prog.clear()
	for i, tc := range cfg.toolchains {
		if err := r.toolchain(i, tc); err != nil {
			return err
		}
	}
	r.prog.clear()
	if len(r.docs) == 0 {
		return runError{"no toolchain was measured"}
	}
	if err := report(r.docs, r.counts, r.skipped, cfg.out, stdout); err != nil {
		return err
	}
	if len(r.failures) > 0 {
		return runError{fmt.Sprintf("%d toolchain(s) failed: %s", len(r.failures), strings.Join(r.failures, "; "))}
	}
	return nil
}

// runConfig is what `matrix run` was asked to do.
type runConfig struct {
	makeCmd, root, out string
	launches, n        int
	countN             int // -n of the counts run; 0: none
	toolchains         []string
}

func parseRun(args []string, stdout, stderr io.Writer) (cfg runConfig, help bool, err error) {
	fs := newFlagSet("run", stderr)
	fs.StringVar(&cfg.makeCmd, "make", "make", "the make command")
	fs.IntVar(&cfg.launches, "launches", 10, "fresh launches per cell (bench --launches)")
	fs.IntVar(&cfg.n, "n", 100000, "timed extractions per launch (bench -n)")
	fs.IntVar(&cfg.countN, "count-n", 100000, "extractions of the counts run (bench --count all -n); 0: no counts")
	fs.StringVar(&cfg.out, "out", "build", "directory for matrix.json, matrix.svg and matrix/")
	fs.StringVar(&cfg.root, "root", ".", "the cgocost repository")
	if help, err := parseFlags(fs, args, stdout); help || err != nil {
		return cfg, help, err
	}
	if cfg.launches < 1 || cfg.launches > 1000 {
		return cfg, false, badInput("-launches %d: want 1 to 1000", cfg.launches)
	}
	if cfg.n < 1 || cfg.n > 1000000000 {
		return cfg, false, badInput("-n %d: want 1 to 1000000000", cfg.n)
	}
	if cfg.countN < 0 || cfg.countN > 100000000 {
		return cfg, false, badInput("-count-n %d: want 0 (no counts) to 100000000", cfg.countN)
	}
	cfg.toolchains = fs.Args()
	if len(cfg.toolchains) == 0 {
		return cfg, false, badInput("run: no toolchain given (go, a path to a go binary, or a name like go1.27.3)")
	}
	return cfg, false, checkOut(cfg.out)
}

// matrixRun is one `matrix run` under way: the documents measured so far,
// the toolchains skipped and the ones that failed.
type matrixRun struct {
	runConfig
	docDir   string
	prog     *progress
	stderr   io.Writer
	docs     []loaded
	counts   []counted
	skipped  []skip
	failures []string
	seen     map[string]string // Go version -> the toolchain argument that gave it
}

// toolchain finds, builds and measures one toolchain. One that cannot be
// had is skipped and one that fails to build or measure is a failure; either
// way the others still run. Only a document that cannot be saved stops the
// run.
func (r *matrixRun) toolchain(i int, tc string) error {
	r.prog.stage(i, len(r.toolchains), tc, "looking for the toolchain")
	ver, why := probeToolchain(tc, r.root)
	if why == "" {
		if prev, dup := r.seen[ver]; dup {
			why = fmt.Sprintf("it is %s, like %s (one row per Go version)", ver, prev)
		}
	}
	if why != "" {
		r.prog.clear()
		fmt.Fprintf(r.stderr, "matrix: skipping %s: %s\n", tc, why)
		r.skipped = append(r.skipped, skip{Toolchain: tc, Reason: why})
		return nil
	}
	r.seen[ver] = tc
	doc, err := r.buildAndMeasure(i, tc, ver)
	if err != nil {
		r.prog.clear()
		r.failures = append(r.failures, fmt.Sprintf("%s: %v", ver, err))
		fmt.Fprintf(r.stderr, "matrix: %s: %v\n", ver, err)
		return nil
	}
	path := filepath.Join(r.docDir, ver+".json")
	if err := atomicfile.WriteFile(path, doc.raw); err != nil {
		return runError{err.Error()}
	}
	r.docs = append(r.docs, loaded{path: path, doc: doc.benchDoc})
	// A counts document of an earlier run must not stand beside this
	// run's document (matrix report build/matrix/*.json reads both).
	stale := filepath.Join(r.docDir, ver+".counts.json")
	if err := os.Remove(stale); err != nil && !errors.Is(err, os.ErrNotExist) {
		return runError{err.Error()}
	}
	if r.countN > 0 {
		r.count(i, ver)
	}
	return nil
}

// countArgs is the command line of one toolchain's counts: the archive sync
// cell of a single launch, under valgrind and perf (docs/methodology.md).
func countArgs(n int) []string {
	return []string{"--count", "all", "-n", fmt.Sprint(n), "--format", "json"}
}

// count runs the counts of toolchain ver's build and keeps the document in
// OUT/matrix/<ver>.counts.json. A count that fails is a failure of the run
// (exit 3); the row is still reported, without counts.
func (r *matrixRun) count(i int, ver string) {
	r.prog.stage(i, len(r.toolchains), ver, "counting instructions and system calls (valgrind, perf)")
	exe := filepath.Join(r.root, "build", ver, "bench")
	path := filepath.Join(r.docDir, ver+".counts.json")
	c, err := runCounts(exe, countArgs(r.countN), path, filepath.Join(r.docDir, ver+".counts.stderr"))
	if err == nil && c.goVersion != ver {
		err = fmt.Errorf("%s counts %s, but %s built it", exe, c.goVersion, ver)
	}
	if err != nil {
		r.prog.clear()
		r.failures = append(r.failures, fmt.Sprintf("%s counts: %v", ver, err))
		fmt.Fprintf(r.stderr, "matrix: %s counts: %v\n", ver, err)
		return
	}
	r.counts = append(r.counts, c)
}

// runCounts runs one `bench --count` and keeps its document at path.
func runCounts(exe string, args []string, path, stderrPath string) (counted, error) {
	out, err := runBench(exe, args, stderrPath, "bench "+strings.Join(args, " "), nil)
	if err != nil {
		return counted{}, err
	}
	_, c, err := classify(out)
	if err == nil && c == nil {
		err = fmt.Errorf("not a counts document")
	}
	if err != nil {
		return counted{}, fmt.Errorf("bench --count printed a bad document: %v", err)
	}
	if err := atomicfile.WriteFile(path, out); err != nil {
		return counted{}, err
	}
	c.path = path
	return *c, nil
}

// compareArgs is the command line of one toolchain's measurement: launch
// by launch, so that the matrix keeps its cells' launches and the floors of
// each toolchain (a paired run measures no floors).
func compareArgs(launches, n int) []string {
	return []string{"--compare", "--interleave", "launches", "--floors", "--format", "json",
		"--launches", fmt.Sprint(launches), "-n", fmt.Sprint(n)}
}

// buildAndMeasure builds with toolchain tc (Go version ver) into
// build/<ver>/ and runs that build's `bench --compare`.
func (r *matrixRun) buildAndMeasure(i int, tc, ver string) (measured, error) {
	total := len(r.toolchains)
	r.prog.stage(i, total, ver, "building the plugin and both drivers")
	buildDir := filepath.Join("build", ver)
	if err := buildWith(r.makeCmd, r.root, tc, buildDir, filepath.Join(r.docDir, ver+".build.log")); err != nil {
		return measured{}, err
	}
	exe := filepath.Join(r.root, buildDir, "bench")
	doc, err := measure(exe, compareArgs(r.launches, r.n), filepath.Join(r.docDir, ver+".stderr"), r.prog, i, total, ver, r.launches)
	if err == nil && doc.cell(cellKeys[0]).GoVersion != ver {
		err = fmt.Errorf("%s reports %s, but %s built it", exe, doc.cell(cellKeys[0]).GoVersion, ver)
	}
	return doc, err
}

var toolchainName = regexp.MustCompile(`^go1\.[0-9]+(\.[0-9]+|rc[0-9]+)?$`)

// probeToolchain finds the Go version a toolchain argument stands for, the
// way the Makefile reads GO: a path, a name the go command fetches through
// GOTOOLCHAIN, or a command on PATH. why says why it cannot be had.
func probeToolchain(tc, root string) (version, why string) {
	var argv, env []string
	switch {
	case strings.Contains(tc, "/"):
		if _, err := os.Stat(tc); err != nil {
			return "", fmt.Sprintf("%s is not installed (%v)", tc, errUnwrapPath(err))
		}
		argv = []string{tc}
	case toolchainName.MatchString(tc):
		if _, err := exec.LookPath("go"); err != nil {
			return "", "no go command on PATH to fetch it with"
		}
		argv = []string{"go"}
		env = []string{"GOTOOLCHAIN=" + tc}
	default:
		if _, err := exec.LookPath(tc); err != nil {
			return "", fmt.Sprintf("%s is not on PATH", tc)
		}
		argv = []string{tc}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], "env", "GOVERSION")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Run(); err != nil {
		msg := lastLine(se.String())
		if msg == "" {
			msg = err.Error()
		}
		if env != nil {
			return "", "the go command cannot get it: " + msg
		}
		return "", msg
	}
	version = strings.TrimSpace(so.String())
	if !strings.HasPrefix(version, "go") || strings.ContainsAny(version, " /\n") {
		return "", fmt.Sprintf("go env GOVERSION printed %q", version)
	}
	return version, ""
}

// buildWith runs `make GO=tc BUILD=dir all`; its output goes to logPath.
func buildWith(makeCmd, root, tc, dir, logPath string) error {
	log, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	argv := append(strings.Fields(makeCmd), "--no-print-directory", "GO="+tc, "BUILD="+dir, "all")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		tail, _ := os.ReadFile(logPath)
		return fmt.Errorf("make GO=%s failed (%v): %s (full log: %s)", tc, err, lastLine(string(tail)), logPath)
	}
	return nil
}

type measured struct {
	benchDoc
	raw []byte
}

// measure runs one `bench --compare` and checks what it printed.
func measure(exe string, args []string, stderrPath string, prog *progress, i, total int, name string, launches int) (measured, error) {
	out, err := runBench(exe, args, stderrPath, "bench --compare", func(pid int) func() {
		return prog.watch(pid, i, total, name, launches)
	})
	if err != nil {
		return measured{}, err
	}
	doc, err := parseDocument(out)
	if err != nil {
		return measured{}, fmt.Errorf("bench --compare printed a bad document: %v", err)
	}
	return measured{benchDoc: doc, raw: out}, nil
}

// floorsFailure is the line a launch of bench whose floors failed their
// checks ends with (docs/methodology.md, "Floors and cold costs"): its
// floors are no figure, and so no document is printed.
var floorsFailure = regexp.MustCompile(`^bench: launch of .+ failed: exit 3: bench[-a-z]*: (floors: .+ failed its checks in [0-9]+ attempts, so it is no figure: .+: .+)$`)

// benchFailed is a run of bench that did not end with exit 0: its exit
// state, the last line of its stderr and where its stderr is kept.
type benchFailed struct {
	what, state, msg, stderrPath string
}

func (e *benchFailed) Error() string {
	if m := floorsFailure.FindStringSubmatch(e.msg); m != nil {
		// not a broken build: a machine too loaded for an honest floor
		return fmt.Sprintf("%s measured no figures: its %s (a loaded machine fails the floors' checks; "+
			"run make matrix again on a quieter one) (stderr: %s)", e.what, m[1], e.stderrPath)
	}
	return fmt.Sprintf("%s failed (%s): %s (stderr: %s)", e.what, e.state, e.msg, e.stderrPath)
}

// runBench runs exe with args, its standard error kept in stderrPath, and
// returns its standard output. what names the run in a failure; watch, when
// not nil, is given the started process and returns what stops watching it.
func runBench(exe string, args []string, stderrPath, what string, watch func(pid int) (stop func())) ([]byte, error) {
	errlog, err := os.Create(stderrPath)
	if err != nil {
		return nil, err
	}
	defer errlog.Close()
	var so, se bytes.Buffer
	cmd := exec.Command(exe, args...)
	cmd.Stdout = &so
	cmd.Stderr = io.MultiWriter(errlog, &se)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {}
	if watch != nil {
		stop = watch(cmd.Process.Pid)
	}
	err = cmd.Wait()
	stop()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := lastLine(se.String())
			if msg == "" {
				msg = "no message"
			}
			return nil, &benchFailed{what: what, state: ee.ProcessState.String(), msg: msg, stderrPath: stderrPath}
		}
		return nil, err
	}
	return so.Bytes(), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

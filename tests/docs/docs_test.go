package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

const (
	shortTimeout = 120 * time.Second // generous: a loaded machine runs the short commands several times slower
	longTimeout  = 60 * time.Minute
	// longEnv makes TestCommands run the long commands too (make check-docs-long).
	longEnv = "CGOCOST_DOCS_LONG"
	// shardEnv (k/N) makes it run only the long commands of shard k of N
	// (shard.go), with every short one.
	shardEnv = "CGOCOST_DOCS_SHARD"
)

// repoRoot is the directory holding go.mod (testbuild.Root).
func repoRoot(t *testing.T) string {
	t.Helper()
	return testbuild.Root(t)
}

// corpus is every document's commands and spans, and the long list.
type corpus struct {
	root  string
	docs  []string // README.md first, then docs/*.md, sorted
	parse map[string]Doc
	long  map[string]int
	// docs/long-commands.txt and docs/long-ledger.tsv as read
	longText, ledgerText string
	// the long forms' own limits (a timeout: line), where the hour is too short
	timeouts map[string]time.Duration
}

func load(t *testing.T, root string) corpus {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	c := corpus{root: root, parse: map[string]Doc{}}
	for _, f := range append([]string{filepath.Join(root, "README.md")}, files...) {
		rel, _ := filepath.Rel(root, f)
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c.docs = append(c.docs, rel)
		c.parse[rel] = Parse(rel, string(text))
	}
	text, err := os.ReadFile(filepath.Join(root, "docs", "long-commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c.long = ParseLong(string(text))
	c.longText = string(text)
	if l, err := os.ReadFile(filepath.Join(root, "docs", "long-ledger.tsv")); err == nil {
		c.ledgerText = string(l)
	}
	c.timeouts = map[string]time.Duration{}
	smokes, _ := ParseSmoke(string(text)) // its problems are TestSmokeFormat's
	for _, s := range smokes {
		if s.Timeout > 0 {
			c.timeouts[s.Long] = s.Timeout
		}
	}
	return c
}

// TestDocs checks the convention without running anything: no command in
// the wrong kind of block, no inline command that no sh block shows, no
// stale line in docs/long-commands.txt, and no broken relative link.
func TestDocs(t *testing.T) {
	c := load(t, repoRoot(t))
	shown := map[string]bool{}
	n := 0
	for _, name := range c.docs {
		d := c.parse[name]
		for _, p := range d.Problems {
			t.Error(p)
		}
		for _, cmd := range d.Commands {
			shown[cmd.Text] = true
			n++
		}
	}
	if n == 0 {
		t.Fatal("no command found in README.md and docs/*.md")
	}
	for _, name := range c.docs {
		for _, s := range c.parse[name].Spans {
			if CommandSpan(s.Text) && !shown[s.Text] {
				t.Errorf("%s:%d: inline command `%s` is in no sh block, so nothing checks it", s.File, s.Line, s.Text)
			}
		}
	}
	for _, name := range c.docs {
		for _, l := range c.parse[name].Links {
			checkLink(t, c, name, l)
		}
	}
	for cmd, line := range c.long {
		if !shown[cmd] {
			t.Errorf("docs/long-commands.txt:%d: %q is shown by no document (stale)", line, cmd)
		}
	}
	checkSmokeForms(t, c)
}

// checkLink fails a relative link whose file does not exist or whose
// anchor is no heading of the markdown file it points into.
func checkLink(t *testing.T, c corpus, from string, l Span) {
	t.Helper()
	target, anchor, _ := strings.Cut(l.Text, "#")
	file := from
	if target != "" {
		file = filepath.Clean(filepath.Join(filepath.Dir(from), target))
		if _, err := os.Stat(filepath.Join(c.root, file)); err != nil {
			t.Errorf("%s:%d: link to %s: no such file", l.File, l.Line, l.Text)
			return
		}
	}
	if anchor == "" {
		return
	}
	d, ok := c.parse[file]
	if !ok {
		t.Errorf("%s:%d: link to %s: an anchor into a file that is not checked", l.File, l.Line, l.Text)
	} else if !d.Anchors[anchor] {
		t.Errorf("%s:%d: link to %s: no such heading in %s", l.File, l.Line, l.Text, file)
	}
}

// TestCommands runs every short command (and with CGOCOST_DOCS_LONG=1 the
// long ones too), document by document in order, and checks its exit status.
// Each document's commands run in one scratch directory that mirrors the
// repository root with symbolic links, build/ pointing at $CGOCOST_BUILD, so
// a command sees ./build/bench, the Makefile and the sources as in the tree,
// while the files it writes (old.txt, base.json) stay out of the tree.
func TestCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (make check): the static checks only; make test runs the commands")
	}
	root := repoRoot(t)
	c := load(t, root)
	// ./build stands for $CGOCOST_BUILD (default: build/)
	build := testbuild.Dir(t)
	runLong := os.Getenv(longEnv) == "1"
	env := []string{}
	for _, kv := range os.Environ() {
		// make test inside the long run stays short
		if !strings.HasPrefix(kv, longEnv+"=") && !strings.HasPrefix(kv, shardEnv+"=") {
			env = append(env, kv)
		}
	}
	// the long commands of this shard (all of them without SHARD), and the
	// ledger their runs are written to
	inShard := func(string) bool { return true }
	shard := "-"
	var longs []string
	if runLong {
		smokes, _ := ParseSmoke(c.longText)
		for _, sm := range smokes {
			longs = append(longs, sm.Long)
		}
		if v := os.Getenv(shardEnv); v != "" {
			k, n, err := ParseShard(v)
			if err != nil {
				t.Fatal(err)
			}
			ledger, _, _ := ParseLedger(c.ledgerText)
			plan := Plan(smokes, ledger, n)
			t.Logf("%s", plan)
			inShard = func(cmd string) bool { return plan.Of[cmd] == k }
			shard = v
		}
	}
	commit := commitOf(root)
	var total time.Duration
	ran, skipped := 0, 0
	longDone := map[string]bool{} // a long command shown twice runs once
	for _, name := range c.docs {
		var cmds []Command
		for _, cmd := range c.parse[name].Commands {
			_, long := c.long[cmd.Text]
			switch {
			case long && (!runLong || !inShard(cmd.Text)):
				skipped++
			case long && longDone[cmd.Text]:
				t.Logf("%s:%d: %s is shown earlier and runs there only", cmd.File, cmd.Line, cmd.Text)
			default:
				longDone[cmd.Text] = long
				cmds = append(cmds, cmd)
			}
		}
		if len(cmds) == 0 {
			continue
		}
		// The base name: a / in a subtest name would split -run patterns.
		t.Run(filepath.Base(name), func(t *testing.T) {
			dir := mirror(t, root, build)
			for _, cmd := range cmds {
				timeout := shortTimeout
				if _, long := c.long[cmd.Text]; long {
					timeout = longTimeout
					if d := c.timeouts[cmd.Text]; d > 0 {
						timeout = d
					}
				}
				var code int
				t.Run(lineName(cmd.Line), func(t *testing.T) {
					var d time.Duration
					d, code = check(t, dir, env, cmd, timeout)
					total += d
					ran++
					if _, long := c.long[cmd.Text]; long && runLong {
						e := LedgerEntry{Command: cmd.Text, Outcome: "pass", Commit: commit,
							Date: time.Now().UTC().Format(time.RFC3339), Machine: machineOf(), Seconds: d.Seconds(), Shard: shard}
						if t.Failed() {
							e.Outcome = fmt.Sprintf("fail (exit %d)", code)
						}
						if err := RecordLedger(filepath.Join(root, "docs", "long-ledger.tsv"), e, longs); err != nil {
							t.Errorf("the ledger: %v", err)
						}
					}
				})
			}
		})
	}
	t.Logf("ran %d commands in %.1f s; %d long ones not run (set %s=1 or make check-docs-long)",
		ran, total.Seconds(), skipped, longEnv)
}

func lineName(line int) string { return fmt.Sprintf("L%04d", line) }

// mirror makes a scratch directory with a symbolic link to every entry of
// the repository root but .git and build, and build linked to build.
func mirror(t *testing.T, root, build string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".git" || e.Name() == "build" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(build, filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// otherVerdict reports whether a command documented to end with verdict
// status want (0 no regression, 1 regressed, 4 inconclusive) ended with
// another verdict, got: one more run decides. A regression (1) on a
// command documented 0 or 4 is the gate's false alarm; 0 or 4 where 1 is
// documented, a miss of the gate's power; 4 where 0 is documented and 0
// where 4 is, the noise of the machine deciding whether the budget could
// tell.
func otherVerdict(got, want int) bool {
	v := map[int]bool{0: true, 1: true, 4: true}
	return got != want && v[got] && v[want]
}

// check runs one command with bash -c in dir and compares its exit status
// with the documented one. A verdict is a statistical test with a small
// false-positive rate and a power below 1 on a loaded machine, so a
// command that ends with another verdict than the documented one
// (otherVerdict) is run once more before it counts as a failure.
func check(t *testing.T, dir string, env []string, cmd Command, timeout time.Duration) (time.Duration, int) {
	t.Helper()
	start := time.Now()
	code, out, err := run(dir, env, cmd.Text, timeout)
	// a verdict the other way round from the documented one, either way
	// (a slowdown injected on purpose can hide in the async path's spread
	// under load), gets one more run; twice, it fails
	if err == nil && !slices.Contains(cmd.Or, code) && otherVerdict(code, cmd.Exit) {
		what := map[int]string{1: "a regression verdict on the unchanged build", 0: "the injected slowdown was not caught",
			4: "an inconclusive verdict (the machine too noisy to tell in the budget)"}[code]
		if code == 0 && cmd.Exit == 4 {
			what = "a verdict sure where it is documented inconclusive"
		}
		t.Logf("%s:%d: exit status %d, %s; running it once more", cmd.File, cmd.Line, code, what)
		code, out, err = run(dir, env, cmd.Text, timeout)
	}
	for try := 1; try < 3 && err == nil && code == 3 && cmd.Exit != 3 && strings.Contains(string(out), "failed its checks in 3 attempts, so it is no figure"); try++ {
		t.Logf("%s:%d: exit status 3, the floors failed their checks on a loaded machine; running it once more", cmd.File, cmd.Line)
		code, out, err = run(dir, env, cmd.Text, timeout)
	}
	d := time.Since(start)
	switch {
	case err != nil:
		t.Errorf("%s:%d: %s\n%v after %.1f s\n%s", cmd.File, cmd.Line, cmd.Text, err, d.Seconds(), tail(out))
	case code != cmd.Exit && !slices.Contains(cmd.Or, code):
		t.Errorf("%s:%d: %s\nexit status %d, documented %d\n%s", cmd.File, cmd.Line, cmd.Text, code, cmd.Exit, tail(out))
	default:
		t.Logf("%s:%d: exit %d in %.1f s: %s", cmd.File, cmd.Line, code, d.Seconds(), cmd.Text)
	}
	if err != nil {
		code = -1
	}
	return d, code
}

// run runs text with bash -c in its own process group, which is killed as a
// whole when the timeout expires.
func run(dir string, env []string, text string, timeout time.Duration) (int, []byte, error) {
	return testbuild.Shell(dir, env, text, timeout)
}

// tail is the end of a command's output, for a failure message.
func tail(out []byte) string {
	const max = 3000
	if len(out) > max {
		return "...\n" + string(out[len(out)-max:])
	}
	return string(out)
}

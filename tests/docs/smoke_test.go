package docs

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

// smokeTimeout bounds one smoke form: seconds on a quiet machine, a build
// with another toolchain from an empty cache can take a few minutes.
const smokeTimeout = 10 * time.Minute

// checkSmokeForms is TestDocs' check of docs/long-commands.txt's smoke
// forms: each long command has one, of the same command, with its output
// checked; a covered one is a make target that make test runs itself.
func checkSmokeForms(t *testing.T, c corpus) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(c.root, "docs", "long-commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	smokes, problems := ParseSmoke(string(text))
	for _, p := range problems {
		t.Error(p)
	}
	if len(smokes) != len(c.long) {
		t.Errorf("docs/long-commands.txt: %d smoke entries for %d long commands (a command listed twice?)", len(smokes), len(c.long))
	}
	var extra []string
	for _, s := range smokes {
		if s.Covered == "" {
			continue
		}
		if extra == nil {
			extra = testExtra(t, c.root)
		}
		w := strings.Fields(s.Long)
		if len(w) != 2 || w[0] != "make" || (w[1] != "test" && !slices.Contains(extra, w[1])) {
			t.Errorf("docs/long-commands.txt:%d: %q is covered, but it is neither make test nor a make target of TEST_EXTRA (%s): give it a smoke form",
				s.Line, s.Long, strings.Join(extra, " "))
		}
	}
}

// testExtra is the targets make test runs beside the unit, Go, integration
// and format tests, as make itself reads them.
func testExtra(t *testing.T, root string) []string {
	t.Helper()
	code, out, err := testbuild.Shell(root, os.Environ(), `make -s --no-print-directory --eval='cgocost-print-test-extra: ; @echo $(TEST_EXTRA)' cgocost-print-test-extra`, time.Minute)
	if err != nil || code != 0 {
		t.Fatalf("make cannot say what TEST_EXTRA holds: exit %d, %v\n%s", code, err, out)
	}
	return strings.Fields(string(out))
}

// TestSmoke runs the smoke form of every long command, in file order, in
// one mirror of the tree (as TestCommands does) with SMOKE_OUT a scratch
// directory, and checks its exit status, its output and its files.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (make check): the static checks only; make test runs the commands")
	}
	root := repoRoot(t)
	c := load(t, root)
	text, err := os.ReadFile(filepath.Join(root, "docs", "long-commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	smokes, problems := ParseSmoke(string(text))
	if len(problems) > 0 {
		t.Fatalf("docs/long-commands.txt: %s (TestDocs says it all)", problems[0])
	}
	documented := map[string]int{}
	for _, name := range c.docs {
		for _, cmd := range c.parse[name].Commands {
			documented[cmd.Text] = cmd.Exit
		}
	}
	dir := mirror(t, root, testbuild.Dir(t))
	out := t.TempDir()
	env := append([]string{"SMOKE_OUT=" + out}, testbuild.EnvOutsideMake(longEnv+"=", "SMOKE_OUT=")...)
	var total time.Duration
	type result struct {
		code   int
		output []byte
		err    error
	}
	// a smoke form shared by several long commands (make power's three)
	// runs once; each checks its own expectations on that run
	done := map[string]result{}
	for _, s := range smokes {
		if s.Command == "" {
			continue
		}
		want := s.Exit
		if len(want) == 0 {
			want = []int{documented[s.Long]}
		}
		t.Run(lineName(s.Line), func(t *testing.T) {
			start := time.Now()
			r, again := done[s.Command]
			if !again {
				r.code, r.output, r.err = run(dir, env, s.Command, smokeTimeout)
				if r.err == nil && r.code == 1 && reflect.DeepEqual(want, []int{0}) {
					t.Logf("docs/long-commands.txt:%d: exit status 1, a regression verdict on the unchanged build; running it once more", s.Line)
					r.code, r.output, r.err = run(dir, env, s.Command, smokeTimeout)
				}
				done[s.Command] = r
			} else {
				t.Logf("docs/long-commands.txt:%d: the same smoke form ran above; its output is checked again", s.Line)
			}
			code, output, err := r.code, r.output, r.err
			d := time.Since(start)
			total += d
			switch {
			case err != nil:
				t.Fatalf("docs/long-commands.txt:%d: %s\n%v after %.1f s\n%s", s.Line, s.Command, err, d.Seconds(), tail(output))
			case !slices.Contains(want, code):
				t.Fatalf("docs/long-commands.txt:%d: %s\nexit status %d, want %v\n%s", s.Line, s.Command, code, want, tail(output))
			}
			for _, re := range s.Expect {
				if !re.Match(output) {
					t.Errorf("docs/long-commands.txt:%d: %s\nthe output does not match %s\n%s", s.Line, s.Command, re, tail(output))
				}
			}
			for _, f := range s.Files {
				data, err := os.ReadFile(filepath.Join(out, f.Name))
				if err != nil {
					t.Errorf("docs/long-commands.txt:%d: %s: %v", s.Line, s.Command, err)
				} else if !f.Want.Match(data) {
					t.Errorf("docs/long-commands.txt:%d: %s: $SMOKE_OUT/%s does not match %s", s.Line, s.Command, f.Name, f.Want)
				}
			}
			t.Logf("docs/long-commands.txt:%d: exit %d in %.1f s: %s", s.Line, code, d.Seconds(), s.Command)
		})
	}
	t.Logf("ran the smoke forms in %.1f s", total.Seconds())
}

func TestParseSmoke(t *testing.T) {
	good := "# c\nmake power TRIALS=5\n  smoke: make power TRIALS=1\n  exit: 0 1\n  expect: ^power: \n  timeout: 90m\n  estimate: 12m\nmake test\n  covered: make test is what CI runs\n  estimate: 10m\n" +
		"./build/bench -n 100000 -p 2 -a\n\tsmoke: ./build/bench -n 2000 -p 2 -a --time 1\n\tfile: x.json \"cells\"\n\testimate: 1m\n\twith: make test\n"
	smokes, problems := ParseSmoke(good)
	if len(problems) != 0 || len(smokes) != 3 {
		t.Fatalf("problems %v, %d smokes", problems, len(smokes))
	}
	if s := smokes[0]; s.Line != 2 || s.Command != "make power TRIALS=1" || !reflect.DeepEqual(s.Exit, []int{0, 1}) || len(s.Expect) != 1 || s.Timeout != 90*time.Minute || s.Estimate != 12*time.Minute {
		t.Errorf("first: %+v", s)
	}
	if s := smokes[2]; s.With != "make test" || s.Estimate != time.Minute || len(s.Files) != 1 || s.Files[0].Name != "x.json" || !s.Files[0].Want.MatchString(`{"cells": []}`) {
		t.Errorf("third: %+v", s)
	}
	if smokes[1].Timeout != 0 {
		t.Errorf("second: a timeout of %v, none given", smokes[1].Timeout)
	}
	if got := ParseLong(good); !reflect.DeepEqual(got, map[string]int{"make power TRIALS=5": 2, "make test": 8, "./build/bench -n 100000 -p 2 -a": 11}) {
		t.Errorf("ParseLong skips the smoke lines: %v", got)
	}
	for in, want := range map[string]string{
		"make regress\n":                                                                     "has no smoke form",
		"make regress\n  smoke: make regress\n":                                              "checks only its exit status",
		"  smoke: make x\n":                                                                  "belongs to no command",
		"make regress\n  smok: make regress\n":                                               "unknown keyword",
		"make regress\n  smoke: make compare\n  expect: x\n":                                 "targets",
		"make regress\n  covered: x\n  expect: y\n":                                          "is covered",
		"make regress\n  smoke: make regress\n  expect: (\n":                                 "expect:",
		"make regress\n  smoke: make regress\n  expect: x\n  timeout: 5\n":                   "timeout:",
		"make regress\n  smoke: make regress\n  expect: x\n  timeout: -1h\n":                 "timeout:",
		"make regress\n  smoke: make regress\n  expect: x\n":                                 "no estimate: line",
		"make regress\n  smoke: make regress\n  expect: x\n  estimate: 0s\n":                 "estimate:",
		"make regress\n  smoke: make regress\n  expect: x\n  estimate: 1m\n  with: make x\n": "is no other long command",
	} {
		_, problems := ParseSmoke(in)
		if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("%q: problems %v, want one saying %q", in, problems, want)
		}
	}
}

func TestSameCommand(t *testing.T) {
	for _, c := range []struct {
		long, smoke, err string
	}{
		{"make power TRIALS=5", "make power TRIALS=1 POWER_TIME=1", ""},
		{"make power TRIALS=5", "make power POWER_TIME=1", "a size the smoke form must set smaller"},
		{"make GO=go1.27.3", "make GO=go1.27.3 BUILD=$SMOKE_OUT/b $SMOKE_OUT/b/libmock.so", ""},
		{"make GO=go1.27.3", "make GO=go1.26.8 BUILD=$SMOKE_OUT/b $SMOKE_OUT/b/libmock.so", "must stay"},
		{"make GO=go1.27.3", "make GO=go1.27.3 all", "default goal"},
		{"make matrix", "make test-matrix", "targets"},
		{"make fuzz FUZZ_S=600", "make fuzz FUZZ_S=2", ""},
		{"make power TRIALS=5", "make power TRIALS=1 POWER_ARGS='--launches 12'", ""},
		{"make power", "make power 'two words'", "targets"},
		{"./build/bench-host --plugin a --interference -n 200000 --launches 20", "./build/bench-host --plugin a --interference -n 2000 --launches 1", ""},
		{"./build/bench-host --plugin a --interference -n 200000", "./build/bench-host --plugin a -n 2000", "--interference"},
		{"./build/bench -n 10", "./build/bench-host -n 10", "runs ./build/bench-host"},
		{"go test -run x -bench y -benchtime 40x ./go/mongocrypt -mongocrypt.reps=10", "go test -run x -bench y -benchtime 2x ./go/mongocrypt -mongocrypt.reps=1", ""},
		{"go test -bench y ./go/mongocrypt", "go test -bench y ./go/other", "packages"},
		{"go tool benchstat a.txt", "go tool benchstat $SMOKE_OUT/a.txt", ""},
		{"go tool benchstat a.txt", "go tool cover a.txt", "runs"},
	} {
		err := SameCommand(c.long, c.smoke)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q / %q: %v", c.long, c.smoke, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q / %q: %v, want an error saying %q", c.long, c.smoke, err, c.err)
		}
	}
}

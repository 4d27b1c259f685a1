package docs

import (
	"reflect"
	"strings"
	"testing"
)

const sample = "# Title\n" + // 1
	"Run `./build/bench -n 10` or `make compare`, not `--floors`.\n" + // 2
	"\n" + // 3
	"```sh\n" + // 4
	"$ ./build/bench -n 100000 -a\n" + // 5
	"# a comment line, not a command\n" + // 6
	"\n" + // 7
	"./build/bench -n 0   # exit 2\n" + // 8
	"./build/bench --judge a b  # exit 1: a regression\n" + // 9
	"make bench   # builds, then runs make compare\n" + // 10
	"go test -run '^$' -bench 'A#b' \\\n" + // 11
	"    ./go/x -x.reps=10\n" + // 12
	"echo \"# not a comment\" # exit 3\n" + // 13
	"```\n" + // 14
	"\n" + // 15
	"```text\n" + // 16
	"plugin 1: 251.21 ns/extraction\n" + // 17
	"```\n" + // 18
	"```\n" + // 19
	"./build/bench -n 5   # untagged: output, not a command\n" + // 20
	"```\n" + // 21
	"  ```sh\n" + // 22
	"  ./build/bench --help\n" + // 23
	"  ```\n" // 24

func TestParse(t *testing.T) {
	d := Parse("x.md", sample)
	want := []Command{
		{"x.md", 5, "./build/bench -n 100000 -a", 0, nil},
		{"x.md", 8, "./build/bench -n 0", 2, nil},
		{"x.md", 9, "./build/bench --judge a b", 1, nil},
		{"x.md", 10, "make bench", 0, nil},
		{"x.md", 11, "go test -run '^$' -bench 'A#b' ./go/x -x.reps=10", 0, nil},
		{"x.md", 13, "echo \"# not a comment\"", 3, nil},
		{"x.md", 23, "./build/bench --help", 0, nil},
	}
	if !reflect.DeepEqual(d.Commands, want) {
		t.Errorf("commands:\n got %+v\nwant %+v", d.Commands, want)
	}
	spans := []Span{{"x.md", 2, "./build/bench -n 10"}, {"x.md", 2, "make compare"}, {"x.md", 2, "--floors"}}
	if !reflect.DeepEqual(d.Spans, spans) {
		t.Errorf("spans:\n got %+v\nwant %+v", d.Spans, spans)
	}
	if len(d.Problems) != 0 {
		t.Errorf("problems: %v", d.Problems)
	}
}

func TestParseProblems(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"prompt in text", "```text\n$ ./build/bench\n```\n", "x.md:2: a $ prompt"},
		{"prompt untagged", "```\n$ make\n```\n", "x.md:2: a $ prompt"},
		{"bash tag", "```bash\nls\n```\n", "x.md:1: a bash block"},
		{"console tag", "```console\nls\n```\n", "x.md:1: a console block"},
		{"dangling backslash", "```sh\nls \\\n```\n", "x.md:2: a command ends in a backslash"},
		{"unclosed", "```sh\nls\n", "x.md:2: a fenced block is not closed"},
		{"unclosed quote", "```sh\necho 'a\n```\n", "x.md:2: unclosed ' quote"},
	} {
		d := Parse("x.md", tc.md)
		if len(d.Problems) != 1 || !strings.HasPrefix(d.Problems[0], tc.want) {
			t.Errorf("%s: problems %q, want one starting %q", tc.name, d.Problems, tc.want)
		}
	}
}

func TestSplitComment(t *testing.T) {
	for _, tc := range []struct {
		line, cmd string
		exit, or  int
	}{
		{"make test", "make test", 0, -1},
		{"make test # exit 0", "make test", 0, -1},
		{"a # exit 12 because", "a", 12, -1},
		{"a # exits 1", "a", 0, -1}, // not "exit N": an ordinary comment
		{"a # on main, exit 1 later", "a", 0, -1},
		{"a#b # exit 2", "a#b", 2, -1}, // # inside a word
		{`a "b # c" # exit 1`, `a "b # c"`, 1, -1},
		{`a 'b # c'`, `a 'b # c'`, 0, -1},
		{`a \# b`, `a \# b`, 0, -1},
		{"a # exit 4 or 0: either verdict", "a", 4, 0},
		{"a # exit 4 order", "a", 4, -1}, // "or" a word of its own
	} {
		cmd, exit, or, err := splitComment(tc.line)
		if err != nil || cmd != tc.cmd || exit != tc.exit || or != tc.or {
			t.Errorf("splitComment(%q) = %q, %d, %d, %v; want %q, %d, %d", tc.line, cmd, exit, or, err, tc.cmd, tc.exit, tc.or)
		}
	}
	for _, bad := range []string{"a # exit 4 or 4", "a # exit 4 or 300"} {
		if _, _, _, err := splitComment(bad); err == nil {
			t.Errorf("splitComment(%q): no error", bad)
		}
	}
}

func TestParseLong(t *testing.T) {
	// an indented line is a smoke form's (smoke.go), not a command
	got := ParseLong("# why\nmake bench\n  smoke: make bench X=1\n\nmake test  \nmake bench\n")
	want := map[string]int{"make bench": 2, "make test": 5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestCommandSpan(t *testing.T) {
	for s, want := range map[string]bool{
		"./build/bench -a": true, "./build/bench": true, "make compare": true,
		"make": false, "./build/": false, "makefile": false, "build/bench": false, "--floors": false,
	} {
		if CommandSpan(s) != want {
			t.Errorf("CommandSpan(%q) = %v", s, !want)
		}
	}
}

func TestLinksAndAnchors(t *testing.T) {
	md := "# The house: one model\n" +
		"## Precision, and what limits it\n" +
		"See [r](results.md#sync-vs-async), [s](#the-house-one-model), [w](https://x.org/a) and `[c](x.md)`.\n" +
		"```text\n## not a heading [n](no.md)\n```\n"
	d := Parse("x.md", md)
	links := []Span{{"x.md", 3, "results.md#sync-vs-async"}, {"x.md", 3, "#the-house-one-model"}}
	if !reflect.DeepEqual(d.Links, links) {
		t.Errorf("links: got %+v, want %+v", d.Links, links)
	}
	anchors := map[string]bool{"the-house-one-model": true, "precision-and-what-limits-it": true}
	if !reflect.DeepEqual(d.Anchors, anchors) {
		t.Errorf("anchors: got %v, want %v", d.Anchors, anchors)
	}
	if a := Anchor("Sync vs async, archive vs shared, floors, cold costs"); a != "sync-vs-async-archive-vs-shared-floors-cold-costs" {
		t.Errorf("Anchor: %q", a)
	}
}

// "# exit N or M" reaches the command as its other allowed status.
func TestParseExitOr(t *testing.T) {
	d := Parse("x.md", "```sh\n./build/bench -a --against ./build/bench   # exit 4 or 0: either verdict\n```\n")
	want := []Command{{"x.md", 2, "./build/bench -a --against ./build/bench", 4, []int{0}}}
	if !reflect.DeepEqual(d.Commands, want) {
		t.Fatalf("got %+v, want %+v", d.Commands, want)
	}
}

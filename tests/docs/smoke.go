package docs

// The smoke forms of the long commands (docs/long-commands.txt).
//
// Each long command is followed by indented lines that say how make test
// runs it in small:
//
//	make matrix
//	    smoke: make matrix MATRIX_TOOLCHAINS=go MATRIX_LAUNCHES=1 MATRIX_OUT=$SMOKE_OUT
//	    expect: ^go1\.\d+
//	    file: matrix.json "toolchains"
//
//   - smoke: the command, run with bash -c like the documented ones, with
//     SMOKE_OUT naming a scratch directory that all smoke forms of the file
//     share, in file order (a later one may read an earlier one's output).
//     It must end with the long command's documented exit status; one that
//     is documented to exit 0 and exits 1 (a regression verdict on the
//     unchanged build) runs once more, as the documented commands do.
//   - expect: a regular expression (multi-line mode) that the smoke form's
//     output (stdout and stderr) must match; file: NAME REGEXP, a file under
//     $SMOKE_OUT that must exist and match. A smoke form has at least one of
//     them: its output is checked, not only its exit status.
//   - exit: the exit statuses the smoke form may end with, when a small run
//     cannot meet the long form's pass rule (make power's precision); a
//     comment above it says why.
//   - covered: instead of smoke:, for a make target that make test runs
//     itself (TEST_EXTRA, or make test itself, which .ci/run runs): the reason.
//   - timeout: how long make check-docs-long lets the long form run (a Go
//     duration), when the default hour is too short for it; a comment above
//     says why.
//   - estimate: how long the long form takes alone on the reference machine
//     (a Go duration), for the plan of make check-docs-long SHARD=k/N until
//     the ledger (docs/long-ledger.tsv) has a passing run of it; required.
//   - with: another long command whose shard this one runs in, because it
//     reads what that one writes (benchstat of make bench-mongocrypt's file).
//
// A smoke form must be the same command as its long one, smaller
// (SameCommand): the same executable or make targets, and every option and
// every non-numeric make variable of the long form.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Smoke is the small form of one long command.
type Smoke struct {
	Long    string        // the long command, as listed
	Line    int           // its line in docs/long-commands.txt
	Command string        // the smoke form; empty when Covered
	Covered string        // why make test runs the long command itself
	Exit    []int         // the exit statuses allowed; empty: the long command's documented one
	Timeout time.Duration // the long form's limit under make check-docs-long; 0: the default
	// how long the long form takes alone on the reference machine, for the
	// shards' plan until the ledger has a passing run (shard.go)
	Estimate time.Duration
	With     string // the long command whose shard this one runs in (it reads what that one writes)
	Expect   []*regexp.Regexp
	Files    []SmokeFile
}

// SmokeFile is an output file of a smoke form and what it must hold.
type SmokeFile struct {
	Name string // relative to $SMOKE_OUT
	Want *regexp.Regexp
}

// ParseSmoke reads the smoke forms of docs/long-commands.txt, in file order,
// and the problems of the format: a long command without a smoke form, an
// attribute line before any command, an unknown keyword, a bad expression.
func ParseSmoke(text string) ([]Smoke, []string) {
	var smokes []Smoke
	var problems []string
	bad := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("docs/long-commands.txt:%d: %s", line, fmt.Sprintf(format, args...)))
	}
	for i, raw := range strings.Split(text, "\n") {
		line := i + 1
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if !attribute(raw) {
			smokes = append(smokes, Smoke{Long: l, Line: line})
			continue
		}
		if len(smokes) == 0 {
			bad(line, "%q belongs to no command (an indented line follows a command)", l)
			continue
		}
		s := &smokes[len(smokes)-1]
		key, val, ok := strings.Cut(l, ":")
		val = strings.TrimSpace(val)
		if !ok || val == "" {
			bad(line, "%q: want KEY: VALUE (smoke, expect, file or covered)", l)
			continue
		}
		switch key {
		case "smoke":
			if s.Command != "" {
				bad(line, "a second smoke form for %q", s.Long)
			}
			s.Command = val
		case "covered":
			s.Covered = val
		case "exit":
			for _, f := range strings.Fields(val) {
				n, err := strconv.Atoi(f)
				if err != nil || n < 0 || n > 255 {
					bad(line, "exit: %q is no exit status", f)
					continue
				}
				s.Exit = append(s.Exit, n)
			}
		case "estimate":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				bad(line, "estimate: %q is no duration above zero (40s, 12m)", val)
				continue
			}
			s.Estimate = d
		case "with":
			s.With = val
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				bad(line, "timeout: %q is no duration above zero (90m, 2h)", val)
				continue
			}
			s.Timeout = d
		case "expect":
			re, err := regexp.Compile("(?m)" + val)
			if err != nil {
				bad(line, "expect: %v", err)
				continue
			}
			s.Expect = append(s.Expect, re)
		case "file":
			name, want, _ := strings.Cut(val, " ")
			re, err := regexp.Compile("(?m)" + strings.TrimSpace(want))
			if err != nil || strings.TrimSpace(want) == "" || strings.Contains(name, "..") {
				bad(line, "file: want NAME REGEXP, a name under $SMOKE_OUT (%v)", err)
				continue
			}
			s.Files = append(s.Files, SmokeFile{Name: name, Want: re})
		default:
			bad(line, "unknown keyword %q (smoke, expect, file, exit, covered, timeout, estimate or with)", key)
		}
	}
	longs := map[string]bool{}
	for _, s := range smokes {
		longs[s.Long] = true
	}
	for _, s := range smokes {
		if s.Estimate == 0 {
			bad(s.Line, "%q has no estimate: line (how long it takes alone, for make check-docs-long's shards)", s.Long)
		}
		if s.With != "" && (!longs[s.With] || s.With == s.Long) {
			bad(s.Line, "with: %q is no other long command", s.With)
		}
		switch {
		case s.Command == "" && s.Covered == "":
			bad(s.Line, "%q has no smoke form (an indented smoke: line, or covered: when make test runs it itself)", s.Long)
		case s.Command != "" && s.Covered != "":
			bad(s.Line, "%q has both a smoke form and covered:", s.Long)
		case s.Command != "" && len(s.Expect)+len(s.Files) == 0:
			bad(s.Line, "the smoke form of %q checks only its exit status: add an expect: or a file: line", s.Long)
		case s.Covered != "" && len(s.Expect)+len(s.Files) > 0:
			bad(s.Line, "%q is covered: it runs no smoke form for expect: and file: to check", s.Long)
		}
		if s.Command != "" {
			if err := SameCommand(s.Long, s.Command); err != nil {
				bad(s.Line, "the smoke form of %q: %v", s.Long, err)
			}
		}
	}
	return smokes, problems
}

// attribute tells an indented line (smoke:, expect:, ...) from a command.
func attribute(raw string) bool {
	return strings.HasPrefix(raw, " ") || strings.HasPrefix(raw, "\t")
}

// SameCommand checks that smoke is long made small: the same executable;
// for make, the same targets (a long form with none builds the default goal,
// whose smoke form may build some of its outputs into $SMOKE_OUT) and every
// variable of the long form with the same value, unless that value is a
// whole number (a size: TRIALS=5, FUZZ_S=600); for go, the same subcommand
// (and tool), and the same packages; for every other executable, every
// option of the long form.
func SameCommand(long, smoke string) error {
	lw, sw := words(long), words(smoke)
	if len(lw) == 0 || len(sw) == 0 {
		return fmt.Errorf("an empty command")
	}
	if lw[0] != sw[0] {
		return fmt.Errorf("runs %s, not %s", sw[0], lw[0])
	}
	switch lw[0] {
	case "make":
		return sameMake(lw[1:], sw[1:])
	case "go":
		n := 2
		if len(lw) > 1 && lw[1] == "tool" {
			n = 3
		}
		if len(lw) < n || len(sw) < n || strings.Join(lw[:n], " ") != strings.Join(sw[:n], " ") {
			return fmt.Errorf("runs %q, not %q", strings.Join(sw[:min(n, len(sw))], " "), strings.Join(lw[:min(n, len(lw))], " "))
		}
		if l, s := packages(lw), packages(sw); l != s {
			return fmt.Errorf("packages %q, not %q", s, l)
		}
	}
	return sameOptions(lw[1:], sw[1:])
}

func sameMake(long, smoke []string) error {
	lt, lv := makeWords(long)
	st, sv := makeWords(smoke)
	switch {
	case len(lt) == 0:
		for _, t := range st {
			if !strings.HasPrefix(t, "$SMOKE_OUT/") {
				return fmt.Errorf("target %s: the long form builds the default goal; its smoke form may only build outputs under $SMOKE_OUT", t)
			}
		}
	case strings.Join(lt, " ") != strings.Join(st, " "):
		return fmt.Errorf("targets %q, not %q", strings.Join(st, " "), strings.Join(lt, " "))
	}
	for name, val := range lv {
		if _, err := strconv.Atoi(val); err == nil {
			if _, ok := sv[name]; !ok {
				return fmt.Errorf("%s=%s is a size the smoke form must set smaller, not drop", name, val)
			}
			continue
		}
		if sv[name] != val {
			return fmt.Errorf("%s=%s must stay as it is (only whole-number sizes change)", name, val)
		}
	}
	return nil
}

// makeWords splits make's arguments into targets and NAME=VALUE variables.
func makeWords(words []string) ([]string, map[string]string) {
	var targets []string
	vars := map[string]string{}
	for _, w := range words {
		if name, val, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "-") {
			vars[name] = val
		} else if !strings.HasPrefix(w, "-") {
			targets = append(targets, w)
		}
	}
	return targets, vars
}

// packages is the ./... arguments of a go command, in order.
func packages(words []string) string {
	var p []string
	for _, w := range words {
		if strings.HasPrefix(w, "./") {
			p = append(p, w)
		}
	}
	return strings.Join(p, " ")
}

// sameOptions checks that every option of long (-x, --x, -x=v) is in smoke.
func sameOptions(long, smoke []string) error {
	have := map[string]bool{}
	for _, w := range smoke {
		have[optionName(w)] = true
	}
	for _, w := range long {
		if o := optionName(w); o != "" && !have[o] {
			return fmt.Errorf("lacks the option %s of the long form", o)
		}
	}
	return nil
}

func optionName(w string) string {
	if !strings.HasPrefix(w, "-") || len(w) < 2 || (w[1] >= '0' && w[1] <= '9') {
		return ""
	}
	name, _, _ := strings.Cut(w, "=")
	return name
}

// words splits a command line as the shell would for these commands: at
// blanks outside single or double quotes, the quotes removed.
func words(line string) []string {
	var out []string
	var b strings.Builder
	var quote rune
	in := false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

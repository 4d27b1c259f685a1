package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cgocost/tests/testbuild"
)

// The option tables whose defaults must be --help's: a file and the
// heading its table follows.
var optionTables = []struct{ file, heading string }{
	{"README.md", "## The ten options a newcomer needs"},
	{"docs/usage.md", "## Every other option"},
}

var (
	// an option's line of the usage: "  -a, --async  ..." or "      --time <S>  ..."
	// (a continuation line that starts with an option is deeper: 22 spaces)
	helpOption = regexp.MustCompile(`^(?: {2}(-[A-Za-z0-9](?:, --[a-z][a-z0-9-]*)?)| {6}(--[a-z][a-z0-9-]*))\b`)
	optName    = regexp.MustCompile(`--?[A-Za-z][A-Za-z0-9-]*`)
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	// "default 30", "default: sync", "(default 10 s for --compare", "--against default 30 s"
	defaultWord = regexp.MustCompile("default:? `?([A-Za-z0-9.+-]+)")
	defaultFor  = regexp.MustCompile(`default:? ([A-Za-z0-9.+-]+)(?: [a-z]+)? for (--[a-z][a-z0-9-]*)`)
	forDefault  = regexp.MustCompile(`(--[a-z][a-z0-9-]*) default:? ([A-Za-z0-9.+-]+)`)
	// "noop (+ the result read back; the default)", "per-field (the
	// default; K calls", "text (default), json": the word before the
	// parenthesis that calls it the default
	theDefault = regexp.MustCompile(`\b([A-Za-z0-9.-]+) \((?:[^()]*; )?(?:the )?default[;)]`)
	// in a doc: "per-field, the default" names per-field
	commaDefault = regexp.MustCompile(`([A-Za-z0-9.-]+), the default\b`)
)

// helpDefaults is what --help says of an option's default: the values it
// names plain, and those it names for another option ("default 10 s for
// --compare": 10 under --compare).
type helpDefaults struct {
	plain     map[string]bool
	qualified map[string]string
}

// parseHelp splits the usage into each option's text (its line and the
// continuation lines under it), by every name it has (-r and --runs).
func parseHelp(usage string) map[string]string {
	text := map[string]string{}
	var names []string
	for _, line := range strings.Split(usage, "\n") {
		if m := helpOption.FindStringSubmatch(line); m != nil {
			names = optName.FindAllString(m[1]+m[2], -1)
		} else if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, "  ") {
			names = nil
			continue
		}
		for _, n := range names {
			text[n] += " " + strings.TrimSpace(line)
		}
	}
	return text
}

func defaultsOf(text string) helpDefaults {
	d := helpDefaults{plain: map[string]bool{}, qualified: map[string]string{}}
	for _, m := range defaultFor.FindAllStringSubmatch(text, -1) {
		d.qualified[m[2]] = m[1]
	}
	for _, m := range forDefault.FindAllStringSubmatch(text, -1) {
		d.qualified[m[1]] = m[2]
	}
	for _, m := range defaultWord.FindAllStringSubmatch(text, -1) {
		d.plain[strings.TrimRight(m[1], ".")] = true
	}
	for _, m := range theDefault.FindAllStringSubmatch(text, -1) {
		d.plain[m[1]] = true
	}
	return d
}

// tableRows is the rows of the first table after heading in text: its
// cells, split on the '|' not escaped.
func tableRows(t *testing.T, file, text, heading string) [][]string {
	t.Helper()
	i := strings.Index(text, heading+"\n")
	if i < 0 {
		t.Fatalf("%s: no %q", file, heading)
	}
	var rows [][]string
	inTable := false
	for _, line := range strings.Split(text[i:], "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00"), "|")
		if len(cells) < 2 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") || strings.TrimSpace(cells[0]) == "option" {
			continue
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table after %q", file, heading)
	}
	return rows
}

// options is every option a cell names at the start of a code span.
func options(cell string) []string {
	var names []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		if n := optName.FindString(m[1]); n != "" && strings.HasPrefix(m[1], n) {
			names = append(names, n)
		}
	}
	return names
}

// checkRow fails when the row's meaning states a default --help does not:
// each "default V" of the row must be a default --help gives one of the
// row's options; where --help gives it for another option ("default 30 s"
// for --against), the one the row names.
func checkRow(t *testing.T, where string, row []string, help map[string]string) []string {
	named := options(row[0])
	mentioned := append(append([]string{}, named...), options(row[1])...)
	var problems []string
	for _, said := range docDefaults(row[1]) {
		var qualified, plain []string
		found := false
		for _, o := range mentioned {
			text, ok := help[o]
			if !ok {
				continue
			}
			found = true
			d := defaultsOf(text)
			for _, q := range named {
				if v, ok := d.qualified[q]; ok {
					qualified = append(qualified, v)
				}
			}
			for v := range d.plain {
				plain = append(plain, v)
			}
		}
		switch {
		case !found:
			problems = append(problems, where+": names no option of --help: "+strings.Join(mentioned, ", "))
		case len(qualified) > 0:
			if !contains(qualified, said) {
				problems = append(problems, where+": default "+said+"; --help says "+strings.Join(qualified, " or ")+" for "+strings.Join(named, ", "))
			}
		case !contains(plain, said):
			problems = append(problems, where+": default "+said+"; --help says "+strings.Join(plain, ", ")+" for "+strings.Join(mentioned, ", "))
		}
	}
	return problems
}

// docDefaults is every default a doc's cell states: "default V" and
// "default: V" (but not "the default: ...", which names none), and
// "V, the default".
func docDefaults(cell string) []string {
	var said []string
	for _, m := range defaultWord.FindAllStringSubmatchIndex(cell, -1) {
		if !strings.HasSuffix(cell[:m[0]], "the ") {
			said = append(said, strings.TrimRight(cell[m[2]:m[3]], "."))
		}
	}
	for _, m := range commaDefault.FindAllStringSubmatch(cell, -1) {
		said = append(said, m[1])
	}
	return said
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestOptionDefaultsAgreeWithHelp fails when the README's option table or
// docs/usage.md's states a default that --help does not (the --time of
// --against was 10 s in one and 30 s in the other).
func TestOptionDefaultsAgreeWithHelp(t *testing.T) {
	root := repoRoot(t)
	r := testbuild.Run{Timeout: time.Minute}.Exec(t, filepath.Join(testbuild.Dir(t), "bench"), "--help")
	usage := r.Stdout + r.Stderr
	help := parseHelp(usage)
	if len(help) < 20 || help["--time"] == "" {
		t.Fatalf("--help parsed into %d options, no --time:\n%s", len(help), usage)
	}
	checked := 0
	for _, tab := range optionTables {
		data, err := os.ReadFile(filepath.Join(root, tab.file))
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range tableRows(t, tab.file, string(data), tab.heading) {
			checked++
			for _, p := range checkRow(t, tab.file+" row "+string(rune('0'+i/10))+string(rune('0'+i%10)), row, help) {
				t.Error(p)
			}
		}
	}
	if checked < 20 {
		t.Errorf("%d option rows checked: a table lost", checked)
	}
}

// The check itself: the contradiction it was written for is caught, and
// the ways --help states a default are read.
func TestDefaultCheckCatchesAWrongDefault(t *testing.T) {
	help := parseHelp(`Usage:
  -n <number>         timed requests (default 10000); in a
                      paired run: a block's
      --work <w>      bare, noop (+ the result read
                      back; the default), u64
      --against <exe> judge this build
      --time <S>      a paired run's budget
                      (default 10 s for --compare, --against default 30 s)
`)
	for _, c := range []struct {
		row  []string
		want bool // a problem
	}{
		{[]string{"`--against EXE`, `--time S`", "within S seconds (default 30)"}, false},
		{[]string{"`--against EXE`, `--time S`", "within S seconds (default 10)"}, true},
		{[]string{"`--compare`", "for `--time` seconds (default 10)"}, false},
		{[]string{"`--compare`", "for `--time` seconds (default 30)"}, true},
		{[]string{"`-n N`", "requests (default 10000)"}, false},
		{[]string{"`-n N`", "requests (default 1000)"}, true},
		{[]string{"`--work bare\x00noop`", "what it touches (default noop)"}, false},
		{[]string{"`--work bare\x00noop`", "what it touches (default bare)"}, true},
		{[]string{"`--work bare\x00noop`", "what it touches (bare, the default: nothing)"}, true},
	} {
		got := checkRow(t, "row", c.row, help)
		if (len(got) > 0) != c.want {
			t.Errorf("%q: problems %q, want a problem: %v", c.row, got, c.want)
		}
	}
}

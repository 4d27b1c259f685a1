package integration

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension"
	tast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// mdTable is one table as a GitHub-flavoured markdown parser reads it.
type mdTable struct {
	header []string
	rows   [][]string
}

// inline is the text of a node's inline content (text and code spans).

// A cell's median in the markdown cells table: a number and its unit.
var cellMedian = regexp.MustCompile(`^[0-9]+(\.[0-9]+)? (ns|µs|ms|s)/extraction$`)

func inline(n gast.Node, src []byte) string {
	var b strings.Builder
	_ = gast.Walk(n, func(c gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *gast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *gast.String:
			b.Write(t.Value)
		}
		return gast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

func cellsOf(row gast.Node, src []byte) []string {
	var cells []string
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*tast.TableCell); ok {
			cells = append(cells, inline(c, src))
		}
	}
	return cells
}

// parseTables parses md with goldmark's GFM table extension and returns
// its tables, by the first cell of their header.
func parseTables(t *testing.T, md string) map[string]mdTable {
	t.Helper()
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(east.Table)).Parser().Parse(text.NewReader(src))
	tables := map[string]mdTable{}
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		tb, ok := n.(*tast.Table)
		if !entering || !ok {
			return gast.WalkContinue, nil
		}
		var m mdTable
		for c := tb.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.(type) {
			case *tast.TableHeader:
				m.header = cellsOf(c, src)
			case *tast.TableRow:
				m.rows = append(m.rows, cellsOf(c, src))
			}
		}
		if len(m.header) > 0 {
			tables[m.header[0]] = m
		}
		return gast.WalkSkipChildren, nil
	})
	return tables
}

// rawCellCounts checks what the parser forgives: every line of a table has
// as many cells as its header (a parser pads or drops the others).
func rawCellCounts(md string) error {
	want := -1
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			want = -1
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if want < 0 {
			want = n
		} else if n != want {
			return fmt.Errorf("line %d has %d cells, its table's header %d: %s", i+1, n-1, want-1, line)
		}
	}
	return nil
}

func column(m mdTable, i int) []string {
	var out []string
	for _, r := range m.rows {
		out = append(out, r[i])
	}
	return out
}

var questions = []string{
	"Turn async on or leave it off?", "c-archive or c-shared?", "Go or C for the plugin?",
	"Pool plugin instances or allocate them?", "Which malloc?", "Which Go toolchain?",
}

// TestMarkdownReport: a short paired --compare in markdown parses as
// tables, the decisions first with their six questions, then the cells
// and the ratios of the run.
func TestMarkdownReport(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	r := run(t, bench, nil, "--compare", "--time", "1.5", "--format", "markdown")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	md := r.stdout
	if !strings.HasPrefix(md, "## Decisions\n\n| Question |") {
		t.Errorf("the report does not start with the decisions' table:\n%.300s", md)
	}
	if err := rawCellCounts(md); err != nil {
		t.Error(err)
	}
	tables := parseTables(t, md)
	dec, ok := tables["Question"]
	if !ok {
		t.Fatalf("no decisions table:\n%s", md)
	}
	if got := column(dec, 0); !reflect.DeepEqual(got, questions) {
		t.Errorf("decisions: questions %q, want %q", got, questions)
	}
	for i, row := range dec.rows {
		if len(row) != 4 {
			t.Fatalf("decision %d: %d cells: %q", i, len(row), row)
		}
		measured := i < 3 // --compare measures async, link and language
		if measured == (row[1] == "not measured") {
			t.Errorf("decision %q: answer %q (measured by --compare: %v)", row[0], row[1], measured)
		}
		if !measured && !strings.HasPrefix(row[3], "measure it: ") {
			t.Errorf("decision %q: %q names no command", row[0], row[3])
		}
	}
	if row := dec.rows[5]; row[3] != "measure it: make matrix" {
		t.Errorf("toolchain: %q", row[3])
	}
	cells, ok := tables["Cell"]
	if !ok {
		t.Fatalf("no cells table:\n%s", md)
	}
	names := column(cells, 0)
	for _, want := range []string{"lib=archive/mode=sync", "lib=archive/mode=async", "lib=shared/mode=sync", "lib=shared/mode=async", "lib=libcmock/mode=sync"} {
		found := false
		for _, n := range names {
			found = found || strings.HasPrefix(n, want+"/")
		}
		if !found {
			t.Errorf("cells table: no %s cell in %q", want, names)
		}
	}
	for _, row := range cells.rows {
		// in whatever unit the time takes (an async cell under ASan on a
		// loaded machine: 110 µs)
		if !cellMedian.MatchString(row[1]) || row[5] != strings.Split(strings.Split(row[0], "mode=")[1], "/")[0] {
			t.Errorf("cell row %q: no median, or the mode requested is not the cell's", row)
		}
	}
	ratios, ok := tables["Ratio"]
	if !ok {
		t.Fatalf("no ratios table:\n%s", md)
	}
	want := []string{"async/sync lib=archive wall", "async/sync lib=shared wall", "shared/archive mode=sync wall",
		"shared/archive mode=async wall", "go sync/c lib=archive wall", "go async/c lib=archive wall",
		"async/roundtrip lib=archive wall", "async/roundtrip lib=shared wall",
		"bench/textbook mode=sync wall", "bench/textbook mode=async wall"}
	if got := column(ratios, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("ratios %q, want %q", got, want)
	}
	if !strings.Contains(md, "```sh\n"+bench+" --compare --time 1.5 --format markdown\n```") {
		t.Errorf("the command is not shown as given:\n%s", md)
	}
}

// TestJSONCommandAndDecisions: a report's document has the command as
// given and the six decisions in their order; what the run did not measure
// is not answered.
func TestJSONCommandAndDecisions(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	args := []string{"-n", "20000", "--launches", "2", "--format", "json"}
	r := run(t, bench, nil, args...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var doc struct {
		Command   []string `json:"command"`
		Decisions []struct {
			Key      string   `json:"key"`
			Question string   `json:"question"`
			Measured bool     `json:"measured"`
			Answer   *string  `json:"answer"`
			Estimate *float64 `json:"estimate"`
			Command  *string  `json:"command"`
		} `json:"decisions"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if want := append([]string{bench}, args...); !reflect.DeepEqual(doc.Command, want) {
		t.Errorf("command %q, want %q", doc.Command, want)
	}
	keys := []string{"async", "link", "language", "pooling", "malloc", "toolchain"}
	if len(doc.Decisions) != len(keys) {
		t.Fatalf("%d decisions, want 6", len(doc.Decisions))
	}
	for i, d := range doc.Decisions {
		if d.Key != keys[i] || d.Question != questions[i] {
			t.Errorf("decision %d: %q %q, want %q %q", i, d.Key, d.Question, keys[i], questions[i])
		}
		// one cell, no ratio: nothing is answered
		if d.Measured || d.Answer != nil || d.Estimate != nil || d.Command == nil || *d.Command == "" {
			t.Errorf("decision %s: answered by a run that measured one cell: %+v", d.Key, d)
		}
	}
	if c := doc.Decisions[5].Command; c == nil || *c != "make matrix" {
		t.Errorf("toolchain: command %v", c)
	}
}

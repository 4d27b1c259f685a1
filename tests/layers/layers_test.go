// Package layers checks the shape of the C tree: c/ is one folder a layer,
// a layer includes only itself and the layers below it, no header includes
// itself through others, and JSON keys are spelled only in the model's
// codec and option table.
package layers

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// layer is one line of c/LAYERS: a folder of c/ and what it holds.
type layer struct{ name, desc string }

// readLayers reads c/LAYERS, the one list of the layers, bottom first
// ("name  description" a line, # comments).
func readLayers() ([]layer, error) {
	data, err := os.ReadFile("../../c/LAYERS")
	if err != nil {
		return nil, err
	}
	var out []layer
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		out = append(out, layer{f[0], strings.Join(f[1:], " ")})
	}
	if len(out) < 3 {
		return nil, fmt.Errorf("c/LAYERS lists %d layers", len(out))
	}
	return out, nil
}

// The layers, bottom first, as c/LAYERS lists them.
var layers, layersErr = readLayers()

var order = func() []string {
	var names []string
	for _, l := range layers {
		names = append(names, l.name)
	}
	return names
}()

var includeRe = regexp.MustCompile(`(?m)^\s*#\s*include\s+"([^"]+)"`)

func rank(layer string) int {
	for i, l := range order {
		if l == layer {
			return i
		}
	}
	return -1
}

// sources returns c/<layer>/*.c and *.h, relative to the repository root.
func sources(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, l := range order {
		for _, ext := range []string{"*.c", "*.h"} {
			m, err := filepath.Glob(filepath.Join("../../c", l, ext))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, m...)
		}
	}
	if len(files) == 0 {
		t.Fatal("no C sources under c/: run from tests/layers")
	}
	return files
}

func rel(path string) string {
	r, _ := filepath.Rel("../../c", path)
	return filepath.ToSlash(r)
}

// includes returns the project includes of a file, as paths under c/.
func includes(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range includeRe.FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// module is a file's module: its path without the extension, so that x.c
// and x.h are one node and a circle through .c files is seen too
// (a.c includes b.h, b.c includes c.h, c.c includes a.h).
func module(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file))
}

// problems returns what is wrong with an include graph: a project include
// that names no layer, one that goes upward, and every cycle between
// modules, inside a folder or across folders.
func problems(graph map[string][]string) []string {
	var bad []string
	for file, incs := range graph {
		own := rank(strings.SplitN(file, "/", 2)[0])
		for _, inc := range incs {
			parts := strings.SplitN(inc, "/", 2)
			if len(parts) != 2 || rank(parts[0]) < 0 {
				bad = append(bad, fmt.Sprintf("%s includes %q, which names no layer folder", file, inc))
				continue
			}
			if rank(parts[0]) > own {
				bad = append(bad, fmt.Sprintf("%s includes %s: %s is above %s", file, inc, parts[0], strings.SplitN(file, "/", 2)[0]))
			}
		}
	}
	// cycles: depth-first search over the include edges between modules
	mods := map[string][]string{}
	for file, incs := range graph {
		from := module(file)
		for _, inc := range incs {
			if to := module(inc); to != from {
				mods[from] = append(mods[from], to)
			}
		}
	}
	for m := range mods {
		sort.Strings(mods[m])
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(string)
	visit = func(n string) {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range mods[n] {
			switch color[m] {
			case grey:
				i := len(stack) - 1
				for stack[i] != m {
					i--
				}
				bad = append(bad, "include cycle: "+strings.Join(append(append([]string{}, stack[i:]...), m), " -> "))
			case white:
				visit(m)
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	var nodes []string
	for n := range mods {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		if color[n] == white {
			visit(n)
		}
	}
	sort.Strings(bad)
	return bad
}

func TestLayersIncludeOnlyDownward(t *testing.T) {
	if layersErr != nil {
		t.Fatal(layersErr)
	}
	graph := map[string][]string{}
	for _, f := range sources(t) {
		graph[rel(f)] = includes(t, f)
	}
	if len(graph) < 30 {
		t.Fatalf("only %d files read: the tree moved?", len(graph))
	}
	for _, p := range problems(graph) {
		t.Error(p)
	}
}

// The checker itself: an upward include, a bare include and a cycle are
// each found.
func TestProblemsAreFound(t *testing.T) {
	graph := map[string][]string{
		"base/a.h":   {"report/r.h"},
		"report/r.h": {"base/a.h"},
		"stats/s.c":  {"s.h"},
		"model/m.h":  {"model/n.h"},
		"model/n.h":  {"model/m.h"},
		"cli/main.c": {"model/m.h", "base/a.h"},
		"timing/x.c": {"timing/x.h"},
	}
	got := strings.Join(problems(graph), "\n")
	for _, want := range []string{
		"base/a.h includes report/r.h: report is above base",
		`stats/s.c includes "s.h", which names no layer folder`,
		"include cycle: model/m -> model/n -> model/m",
		"include cycle: base/a -> report/r -> base/a",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("not found: %s\nin:\n%s", want, got)
		}
	}
	if strings.Contains(got, "cli/main") || strings.Contains(got, "timing/x") {
		t.Errorf("a downward or same-layer include was flagged:\n%s", got)
	}
}

// A circle inside one folder that only .c files close is found: each
// header is clean, but a.c needs b, b.c needs c and c.c needs a (the shape
// of the old allocs -> launch -> record circle). The same files without
// the closing include are fine.
func TestCircleInsideAFolderIsFound(t *testing.T) {
	graph := map[string][]string{
		"timing/a.c": {"timing/a.h", "timing/b.h"},
		"timing/b.c": {"timing/b.h", "timing/c.h"},
		"timing/c.c": {"timing/c.h", "timing/a.h"},
		"timing/a.h": nil, "timing/b.h": nil, "timing/c.h": nil,
	}
	got := strings.Join(problems(graph), "\n")
	if !strings.Contains(got, "include cycle: timing/a -> timing/b -> timing/c -> timing/a") {
		t.Errorf("the circle a -> b -> c -> a was not found:\n%s", got)
	}
	graph["timing/c.c"] = []string{"timing/c.h"}
	if p := problems(graph); len(p) != 0 {
		t.Errorf("no circle, yet: %v", p)
	}
}

// docs/architecture.md's "Layout" (the maintainer's map) quotes c/LAYERS:
// every layer, in its order, with its description, and no other c/ folder
// of the driver.
func TestLayoutQuotesTheLayerList(t *testing.T) {
	if layersErr != nil {
		t.Fatal(layersErr)
	}
	data, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "## Layout")
	if i < 0 {
		t.Fatal(`docs/architecture.md has no "## Layout"`)
	}
	block := text[i:]
	if j := strings.Index(block, "```text\n"); j >= 0 {
		block = block[j+8:]
	}
	if j := strings.Index(block, "```"); j >= 0 {
		block = block[:j]
	}
	var got []layer
	for _, line := range strings.Split(block, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "c/") {
			continue
		}
		name := strings.Trim(strings.TrimPrefix(f[0], "c/"), "/")
		if name == "preload" || name == "minimal" {
			continue // outside the layers, on purpose
		}
		got = append(got, layer{name, strings.Join(f[1:], " ")})
	}
	if len(got) != len(layers) {
		t.Fatalf("the Layout lists %d layer folders, c/LAYERS %d:\n%v\n%v", len(got), len(layers), got, layers)
	}
	for k := range layers {
		if got[k] != layers[k] {
			t.Errorf("the Layout line %d: %q %q, c/LAYERS says %q %q", k+1, got[k].name, got[k].desc, layers[k].name, layers[k].desc)
		}
	}
}

// Every folder of c/ is a layer, or one of the two outside them.
func TestEveryFolderIsALayer(t *testing.T) {
	entries, err := os.ReadDir("../../c")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && rank(e.Name()) < 0 && e.Name() != "preload" && e.Name() != "minimal" {
			t.Errorf("c/%s/ is not in c/LAYERS", e.Name())
		}
	}
}

// JSON keys live in the codec's files: the document's records in
// model/codec.c and model/codec_launch.c (through the field machinery of
// model/codec_fields.c), the options record's in model/codec_options.c (its
// keys spelled in the option table), a plugin's field list in
// model/codec_fieldlist.c, and what names a launch's cells (its options
// record and cell names) in model/codec_identity.c. No other C file reads
// or writes a key.
var jsonKeyAPI = regexp.MustCompile(`\bjson_(object_get|object_set|object_set_new|object_del|pack|unpack|object_foreach)\b`)

func TestJSONKeysOnlyInTheModel(t *testing.T) {
	allowed := map[string]bool{"model/codec.c": true, "model/codec_launch.c": true, "model/codec_fields.c": true,
		"model/codec_options.c": true, "model/codec_fieldlist.c": true, "model/codec_identity.c": true}
	seen := 0
	for _, f := range sources(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := jsonKeyAPI.FindString(string(data)); m != "" {
			if !allowed[rel(f)] {
				t.Errorf("%s uses %s: JSON keys belong in the codec (model/codec*.c)", rel(f), m)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no file uses jansson's key functions: the codec moved?")
	}
}

// Within the codec, a key is spelled once per record: the same literal
// twice in one record's field list would be a second spelling to keep in
// step. (The field functions are one per record: "static void x_fields".)
func TestCodecSpellsEachKeyOncePerRecord(t *testing.T) {
	// the record field lists of every codec file (model/codec*.c)
	files, err := filepath.Glob("../../c/model/codec*.c")
	if err != nil {
		t.Fatal(err)
	}
	fieldCall := regexp.MustCompile(`\bf_\w+\(o, "(\w+)"`)
	recordList := regexp.MustCompile(`(?s)static void (\w+_fields)\(struct obj \*o, [^)]*\)\n\{(.*?)\n\}`)
	var records [][]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, recordList.FindAllStringSubmatch(string(data), -1)...)
	}
	if len(records) < 10 {
		t.Fatalf("found %d record field lists in %d codec files", len(records), len(files))
	}
	for _, r := range records {
		count := map[string]int{}
		for _, m := range fieldCall.FindAllStringSubmatch(r[2], -1) {
			count[m[1]]++
		}
		for k, n := range count {
			// an optional key is asked for (f_opt) and then read
			if n > 1 && !strings.Contains(r[2], fmt.Sprintf(`f_opt(o, "%s"`, k)) {
				t.Errorf("%s spells %q %d times", r[1], k, n)
			}
		}
	}
}

// The run kind is decided once (cli/runkind.c) and read as o->kind,
// o->method and o->base everywhere else. The rule: outside the files that
// parse, check and resolve the options, no C file reads a flag that only
// says what kind of run this is (kindFlags), and none tests the truth of
// an option that carries data but also selects a kind (kindData: a path,
// a count), nor asks whether exactly one launch was asked for.
// An options value is named o, co, opt, one or options (struct options
// *o, ...: the project's names for it), or reached as d->options.
const optionsRef = `(?:\b(?:o|co|opt|one)(?:->|\.)|\boptions\.)`

var (
	kindFlags = regexp.MustCompile(optionsRef + `(compare|anatomy|interference|paired|serve_blocks|emit_launch)\b`)
	kindData  = regexp.MustCompile(`(?:!|&&|\|\||\bif\s*\(|\?|\(|;|return)\s*` + optionsRef + `(against|baseline|nallocators|nsweep|repeat_load|judge(?:\[0\])?)\s*(?:\)|&&|\|\||\?|;|[!=]=\s*(?:NULL|0)\b|>\s*0\b)`)
	oneLaunch = regexp.MustCompile(optionsRef + `launches\s*==\s*1\b`)
)

// The files that may read the kind's flags: the option table, where
// options are parsed and recorded, the cross-option rules, and the
// resolver beside them.
var kindResolvers = map[string]bool{
	"model/options.c":       true,
	"model/codec_options.c": true,
	"cli/args.c":            true,
	"cli/parsers.c":         true,
	"cli/rules.c":           true,
	"cli/ownplugin.c":       true, // the rules of your own plugin's options
	"cli/runkind.c":         true,
}

// kindTests returns the places in src that learn the run kind from a flag.
func kindTests(src string) []string {
	var out []string
	for i, line := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "//") {
			continue
		}
		for _, re := range []*regexp.Regexp{kindFlags, kindData, oneLaunch} {
			if m := re.FindString(line); m != "" {
				out = append(out, fmt.Sprintf("line %d: %s", i+1, strings.TrimSpace(m)))
			}
		}
	}
	return out
}

func TestRunKindIsResolvedOnce(t *testing.T) {
	for _, f := range sources(t) {
		if kindResolvers[rel(f)] {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range kindTests(string(data)) {
			t.Errorf("%s %s: learns the run kind from a flag; read o->kind, o->method or o->base (cli/runkind.c)", rel(f), p)
		}
	}
}

// The rule itself: each way of learning the kind from a flag is found, and
// reading the resolved kind, or an option's data, is not.
func TestKindTestsAreFound(t *testing.T) {
	bad := []string{
		"if (o->compare) {",
		"\tstatus = o->paired ? a() : b();",
		"if (d->options.anatomy && x)",
		"if (o->against && stat(o->against, &st) != 0)",
		"return o->nallocators == 0 && y;",
		"} else if (o->nsweep) {",
		"if (!o->repeat_load)",
		"if (o.judge[0])",
		"int single = o->launches == 1;",
		"if (o->baseline != NULL)",
	}
	for _, b := range bad {
		if len(kindTests(b)) == 0 {
			t.Errorf("not found: %q", b)
		}
	}
	good := []string{
		"if (o->kind == RUN_COMPARE) {",
		"status = o->method == METHOD_PAIRED ? a() : b();",
		"if (o->base == BASE_BUILD && stat(o->against, &st) != 0)",
		"for (int i = 0; i < o->nallocators; i++)",
		"fprintf(stderr, \"%s\", o->against);",
		"total = 2 * o->nsweep;",
		"for (uint32_t round = 0; round < o->launches; round++)",
		"/* if (o->compare) in a comment */",
		"if (d->paired.nratios && cmp->against[0])",
	}
	for _, g := range good {
		if p := kindTests(g); len(p) != 0 {
			t.Errorf("flagged: %q: %v", g, p)
		}
	}
}

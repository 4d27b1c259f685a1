// Command matrix measures the same plugin built by several Go toolchains and
// sums the results up in one table, a JSON file and a chart.
//
//	matrix run [flags] TOOLCHAIN...   build with each toolchain, run
//	                                  `bench --compare`, then report
//	matrix report [flags] DOC.json... report on documents already made
//
// With -count-n N (default 100000; 0 for none), run also counts each build's
// archive sync cell with `bench --count all -n N --format json`: the
// instructions and system calls (by name) of one sync extraction, added to
// the table, matrix.json and the chart. report reads such a counts document
// beside the --compare one of the same Go version.
//
// A toolchain is the machine's `go`, a path to a go binary, or a toolchain
// name such as go1.27.3 (fetched by the go command through GOTOOLCHAIN). Each
// is built by `make GO=TOOLCHAIN all` into build/<go version>/; one that
// cannot be had is skipped with one line saying why.
//
// The report prints one table on stdout (rows = Go version) and writes
// OUT/matrix.json and OUT/matrix.svg, each atomically.
//
// Exit status: 0 success, 2 bad input, 3 a failed run (a build or a
// measurement failed; the report still covers the toolchains that worked).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cgocost/go/internal/atomicfile"
)

const (
	exitOK       = 0
	exitBadInput = 2
	exitFailed   = 3
)

// usageError is bad input: a one-line message, exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func badInput(format string, a ...any) error {
	return usageError{fmt.Sprintf(format, a...)}
}

// runError is a failed build or measurement: exit status 3.
type runError struct{ msg string }

func (e runError) Error() string { return e.msg }

func main() {
	// a table that could not be written (a closed or full stdout) is lost
	// output: a failed run, as in the C driver
	stdout := atomicfile.Stdout()
	code := realMain(os.Args[1:], stdout, os.Stderr)
	if err := stdout.Err(); err != nil && code == exitOK {
		fmt.Fprintf(os.Stderr, "matrix: %v\n", err)
		code = exitFailed
	}
	os.Exit(code)
}

// checkOut refuses, before anything is read or run, an -out that cannot
// take matrix.json and matrix.svg: a file that is not a directory, or
// either name a path no file can be saved at (go/internal/atomicfile). A
// directory that does not exist yet is made by the report.
func checkOut(out string) error {
	fi, err := os.Stat(out)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		return badInput("-out %s: not a directory", out)
	}
	for _, name := range []string{"matrix.json", "matrix.svg"} {
		if err := atomicfile.Check(filepath.Join(out, name)); err != nil {
			return badInput("-out %v", err)
		}
	}
	return nil
}

func realMain(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "matrix: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		if ue.msg != "" {
			fmt.Fprintln(stderr, "matrix: try 'matrix -h'")
		}
		return exitBadInput
	}
	return exitFailed
}

const usage = `usage: matrix run [flags] TOOLCHAIN...
       matrix report [flags] DOC.json...

run: for each toolchain (go, a path to a go binary, or a name like go1.27.3),
build the plugin and both drivers with make GO=TOOLCHAIN into build/<go version>/,
run bench --compare --interleave launches --floors --format json, then report.
run -count-n N (default 100000; 0: no counts) also runs bench --count all -n N
--format json on each build: instructions and system calls per sync extraction.
report: print the table and write OUT/matrix.json and OUT/matrix.svg from
bench --compare JSON documents (schema_version 1 to 3), one per toolchain,
and optionally bench --count documents (schema_version 2 or 3), one per toolchain.

Exit status: 0 success, 2 bad input, 3 a failed run.
`

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return badInput("missing command (run or report)")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
	}
	return badInput("unknown command %q (run or report)", args[0])
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags turns the flag package's errors into bad input.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return true, nil
		}
		return false, badInput("%v", err)
	}
	return false, nil
}

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", stderr)
	out := fs.String("out", "build", "directory for matrix.json and matrix.svg")
	if help, err := parseFlags(fs, args, stdout); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInput("report: no JSON document given")
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	var docs []loaded
	var counts []counted
	for _, path := range fs.Args() {
		d, c, err := loadDocument(path)
		if err != nil {
			return err
		}
		if c != nil {
			counts = append(counts, *c)
		} else {
			docs = append(docs, *d)
		}
	}
	if len(docs) == 0 {
		return badInput("report: only counts documents given: each needs its toolchain's bench --compare document")
	}
	return report(docs, counts, nil, *out, stdout)
}

// report turns the documents into rows, prints the table and writes the
// JSON and the chart.
func report(docs []loaded, counts []counted, skipped []skip, out string, stdout io.Writer) error {
	m, err := buildMatrix(docs, counts, skipped)
	if err != nil {
		return err
	}
	if err := writeTable(stdout, m); err != nil {
		return err
	}
	js, err := encodeMatrix(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return runError{err.Error()}
	}
	if err := atomicfile.WriteFile(out+"/matrix.json", js); err != nil {
		return runError{err.Error()}
	}
	svg, err := renderChart(m)
	if err != nil {
		return runError{fmt.Sprintf("chart: %v", err)}
	}
	if err := atomicfile.WriteFile(out+"/matrix.svg", svg); err != nil {
		return runError{err.Error()}
	}
	fmt.Fprintf(stdout, "wrote %s/matrix.json and %s/matrix.svg\n", out, out)
	return nil
}

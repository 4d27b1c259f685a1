// Command history reads cgocost documents of many commits and finds where
// each figure changed: instructions and system calls per extraction per
// cell, each paired ratio, and each cell's absolute median across runs of
// the same machine key. Change points by E-divisive means with a seeded
// permutation test, each with its commit, its size (a Hodges-Lehmann shift
// with a 95% interval) and its direction (go/internal/history;
// docs/methodology.md, "History across commits").
//
// Usage:
//
//	cgocost-history [--markdown] [--html FILE] [--svg FILE] [--gate PREFIX]
//	                [--threshold PCT] [--seed N] DIR|FILE ...
//
// Every document needs a source section (bench --commit SHA --commit-time
// TIME, or the CI's variables); they are ordered by commit time. The
// report goes to standard output as text, or markdown with --markdown;
// --html FILE writes a page with a chart a series that changed, --svg FILE
// the chart of the first gated series (each atomically).
//
// Exit status: 0 no regression, 1 the newest segment of a gated series
// (--gate, default "instructions": every instructions-per-extraction
// series) is a regression beyond --threshold percent (default 2) over the
// segment before its last step or steps up, 2 bad input (one line: a
// document of another schema version, a file that is no document, an
// empty directory, two documents of one commit giving the same figure, an
// output path no file can be saved at), 3 a failed run (an output not
// written).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"cgocost/go/internal/atomicfile"
	"cgocost/go/internal/history"
)

const usage = "usage: cgocost-history [--markdown] [--html FILE] [--svg FILE] [--gate PREFIX] [--threshold PCT] [--seed N] DIR|FILE ..."

func main() {
	os.Exit(run(os.Args[1:], atomicfile.Stdout(), os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cgocost-history", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	markdown := fs.Bool("markdown", false, "markdown instead of text (a job summary)")
	htmlOut := fs.String("html", "", "also write a page with a chart a changed series to `FILE`")
	svgOut := fs.String("svg", "", "also write the first gated series' chart to `FILE`")
	gate := fs.String("gate", "instructions", "judge the series whose names begin with `PREFIX`")
	threshold := fs.Float64("threshold", 2, "a regression is beyond this many `percent`")
	seed := fs.Uint64("seed", 1, "the permutation tests' seed")
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "cgocost-history: %v\n", err)
		return code
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			return 0
		}
		return fail(2, fmt.Errorf("%v (%s)", err, usage))
	}
	if *threshold < 0 || *threshold > 1000 {
		return fail(2, fmt.Errorf("--threshold %g: a percent from 0 to 1000", *threshold))
	}
	if fs.NArg() == 0 {
		return fail(2, fmt.Errorf("no documents given (%s)", usage))
	}
	for _, o := range []struct{ flag, path string }{{"--html", *htmlOut}, {"--svg", *svgOut}} {
		if o.path != "" {
			if err := atomicfile.Check(o.path); err != nil {
				return fail(2, fmt.Errorf("%s %v", o.flag, err))
			}
		}
	}
	runs, err := history.ReadAll(fs.Args())
	if err != nil {
		return fail(2, err)
	}
	opt := history.Defaults()
	opt.Seed = *seed
	h := history.AnalyseRuns(runs, opt, *gate, *threshold)
	if *svgOut != "" && len(h.Gated) == 0 {
		return fail(2, fmt.Errorf("--svg: no series named %s... with %d commits or more to draw", *gate, 2*opt.MinSegment))
	}
	var buf bytes.Buffer
	if *markdown {
		h.Markdown(&buf)
	} else {
		h.Text(&buf)
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return fail(3, err)
	}
	if *htmlOut != "" {
		if err := atomicfile.WriteFile(*htmlOut, h.HTML()); err != nil {
			return fail(3, err)
		}
	}
	if *svgOut != "" {
		if err := atomicfile.WriteFile(*svgOut, history.SVG(*h.Gated[0].Result)); err != nil {
			return fail(3, err)
		}
	}
	if h.Regressed() {
		return 1
	}
	return 0
}

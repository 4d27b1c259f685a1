// Command report writes one self-contained HTML page from bench's JSON
// documents: the decisions first, then the machine and command of each run,
// every cell's samples, the ratios and verdicts against the threshold band,
// the anatomy of an extraction, the floors, the rate sweep and the toolchain
// matrix, each section only when a document has its data. Every chart is
// drawn by gonum/plot and inlined as SVG: the page loads nothing.
//
// Usage:
//
//	cgocost-report [-o FILE] [--matrix build/matrix.json] [JSON-FILE ...|-]
//
// The documents are `bench ... --format json` outputs; with no JSON-FILE
// (and no --matrix) or with "-" it reads one from standard input. With -o
// the page replaces FILE atomically (a temporary file renamed over it);
// otherwise it goes to standard output.
//
// Exit status: 0 written, 2 bad input (one line naming the problem, nothing
// written; an -o FILE no file can be saved at, go/internal/atomicfile, is
// bad input too), 3 the page could not be drawn or written (a closed or
// full standard output included).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"cgocost/go/internal/atomicfile"
)

func main() {
	// a closed or full stdout fails the write of the page (exit 3)
	os.Exit(run(os.Args[1:], os.Stdin, atomicfile.Stdout(), os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cgocost-report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "write the page to `FILE` (atomically) instead of standard output")
	matrixPath := fs.String("matrix", "", "the toolchain matrix, build/matrix.json (`FILE`)")
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "cgocost-report: %v\n", err)
		return code
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: cgocost-report [-o FILE] [--matrix FILE] [JSON-FILE ...|-]")
			return 0
		}
		return fail(2, fmt.Errorf("%v (usage: cgocost-report [-o FILE] [--matrix FILE] [JSON-FILE ...|-])", err))
	}
	// -o is checked before anything is read: a path no file can be saved
	// at is bad input (go/internal/atomicfile), as in the C driver
	if *out != "" {
		if err := atomicfile.Check(*out); err != nil {
			return fail(2, fmt.Errorf("-o %v", err))
		}
	}
	paths := fs.Args()
	if len(paths) == 0 && *matrixPath == "" {
		paths = []string{"-"}
	}
	in, err := readInputs(paths, *matrixPath, stdin)
	if err != nil {
		return fail(2, err)
	}
	var buf bytes.Buffer
	if err := render(&buf, buildPage(in)); err != nil {
		return fail(3, err)
	}
	if *out == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return fail(3, err)
		}
		return 0
	}
	if err := atomicfile.WriteFile(*out, buf.Bytes()); err != nil {
		return fail(3, err)
	}
	return 0
}

// inputs is everything the page is made of.
type inputs struct {
	docs   []source
	matrix *matrixDoc
	// matrixLabel names the matrix file on the page.
	matrixLabel string
}

func readInputs(paths []string, matrixPath string, stdin io.Reader) (inputs, error) {
	var in inputs
	dashes := 0
	for _, p := range paths {
		if p == "-" {
			dashes++
		}
	}
	if dashes > 1 || (dashes == 1 && matrixPath == "-") {
		return in, badf("-: standard input given twice")
	}
	for _, p := range paths {
		data, label, err := openInput(p, stdin)
		if err != nil {
			return in, err
		}
		s, err := parseBench(label, data)
		if err != nil {
			return in, err
		}
		in.docs = append(in.docs, s)
	}
	if matrixPath != "" {
		data, label, err := openInput(matrixPath, stdin)
		if err != nil {
			return in, err
		}
		m, err := parseMatrix(label, data)
		if err != nil {
			return in, err
		}
		in.matrix, in.matrixLabel = m, label
	}
	return in, nil
}

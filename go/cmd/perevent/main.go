// Command perevent makes the table and the chart of a --per-event K sweep
// (make perevent): for each K, what one event of K fields costs the host
// when it asks for them as K calls of one field (per-field, what libsinsp's
// filter check does) or as one call of K (batched), sync and async, and
// the C plugin; the K at which batching halves the per-event cost; and
// whether async ever costs less per event than sync.
//
// Usage:
//
//	perevent [-o build/perevent.svg] k1.json k2.json ...
//
// Each file is the JSON document of one
// `bench --per-event K --host-calls both --format json` run. The table, in
// Markdown, goes to standard output.
//
// Exit status: 0 written, 2 bad input (one line: a document it cannot
// read, or an -o no file can be saved at, go/internal/atomicfile), 3 the
// chart or the table could not be drawn or written.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"cgocost/go/internal/atomicfile"
)

func main() {
	out := flag.String("o", "perevent.svg", "the SVG file to write")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "perevent: name the JSON documents of bench --per-event K --host-calls both --format json")
		os.Exit(2)
	}
	// where the chart goes is checked before anything is read: a path no
	// file can be saved at is bad input (go/internal/atomicfile)
	if err := atomicfile.Check(*out); err != nil {
		fmt.Fprintln(os.Stderr, "perevent: -o", err)
		os.Exit(2)
	}
	var rows []row
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "perevent:", err)
			os.Exit(2)
		}
		r, err := readRow(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "perevent: %s: %v\n", name, err)
			os.Exit(2)
		}
		rows = append(rows, r)
	}
	rows, err := sortRows(rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perevent:", err)
		os.Exit(2)
	}
	// a table that could not be written (a closed or full stdout) is lost
	// output: the chart is still written, then the run fails
	stdout := atomicfile.Stdout()
	io.WriteString(stdout, table(rows))
	svg, err := chart(rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perevent:", err)
		os.Exit(3)
	}
	if err := atomicfile.WriteFile(*out, svg); err != nil {
		fmt.Fprintln(os.Stderr, "perevent:", err)
		os.Exit(3)
	}
	if err := stdout.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "perevent: the table:", err)
		os.Exit(3)
	}
}

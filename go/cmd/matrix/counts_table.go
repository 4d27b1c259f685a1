package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// writeCounts prints, under the times, the counts of one sync extraction
// per Go version: nothing when no row was counted (an older run).
func writeCounts(w io.Writer, m *matrix) error {
	var first *rowCounts
	same := true
	for _, r := range m.Rows {
		if r.Counts == nil {
			continue
		}
		if first == nil {
			first = r.Counts
		}
		same = same && eqInt(r.Counts.NShort, first.NShort) && eqInt(r.Counts.Pairs, first.Pairs)
	}
	if first == nil {
		return nil
	}
	fmt.Fprint(w, "\ncounts per sync extraction (lib=archive/mode=sync, bench --count all")
	if same {
		fmt.Fprintf(w, " -n %s: median [min, max] of %s pairs of runs at -n N and -n 2N, differenced", intText(first.NShort), intText(first.Pairs))
	} else {
		fmt.Fprint(w, ": rows differ in -n or pairs (see matrix.json)")
	}
	fmt.Fprint(w, ");\ninstructions: valgrind cachegrind, user space; system calls: perf stat raw_syscalls:sys_enter, by name at least one in a thousand\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Go\tinstructions\tsystem calls\tby name\tcontext switches")
	for i := range m.Rows {
		r := &m.Rows[i]
		c := r.Counts
		if c == nil {
			fmt.Fprintf(tw, "%s\tnot counted\tnot counted\t-\t-\n", r.GoVersion)
			continue
		}
		instr, calls, names, cs := "not counted", "not counted", "-", "-"
		if c.Instructions != nil {
			instr = figureText(c.Instructions, countText)
		}
		if c.Syscalls != nil {
			calls = figureText(c.Syscalls, countText)
			names = namesText(c.shownNames())
			if c.ContextSwitches != nil {
				cs = countText(c.ContextSwitches.Median)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.GoVersion, instr, calls, names, cs)
	}
	return tw.Flush()
}

// figureText is "median [min, max]".
func figureText(f *countFigure, text func(*float64) string) string {
	return text(f.Median) + " " + intervalText(f.Min, f.Max, text)
}

// namesText lists system calls by name, largest first: "rt_sigprocmask 5.00,
// sigaltstack 3.00"; "none" when no name reaches the threshold.
func namesText(names []namedCount) string {
	if len(names) == 0 {
		return "none"
	}
	var parts []string
	for _, x := range names {
		parts = append(parts, x.Name+" "+countText(x.Median))
	}
	return strings.Join(parts, ", ")
}

// countText prints a count per extraction: whole instructions from a
// hundred up, two decimals from one tenth (9.02 system calls), four below
// it (0.0003: start-up or timers, not the extraction). A small negative
// difference is printed as it is, never clamped.
func countText(v *float64) string {
	if v == nil {
		return "-"
	}
	x := *v
	switch a := math.Abs(x); {
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 0.1:
		return fmt.Sprintf("%.2f", x)
	default:
		return fmt.Sprintf("%.4f", x)
	}
}

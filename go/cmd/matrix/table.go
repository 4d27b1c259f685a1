package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// writeTable prints the matrix as one table, rows = Go version.
func writeTable(w io.Writer, m *matrix) error {
	var b strings.Builder
	b.WriteString(tableHeader(m))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	cols := []string{"Go", "archive sync", "archive async", "shared sync", "shared async", "raw C->Go",
		"async/sync archive", "async/sync shared", "shared/archive sync", "shared/archive async",
		"cold sync", "cold async", "C call", "handoff"}
	fmt.Fprintln(tw, strings.Join(cols, "\t"))
	for i := range m.Rows {
		r := &m.Rows[i]
		f := []string{r.GoVersion}
		for _, k := range cellKeys {
			f = append(f, cellText(r.cell(k)))
		}
		f = append(f, nsText(r.RawCrossingNs))
		f = append(f,
			ratioText(r.ratio("async/sync", "archive", "wall")),
			ratioText(r.ratio("async/sync", "shared", "wall")),
			ratioText(r.ratio("shared/archive", "sync", "wall")),
			ratioText(r.ratio("shared/archive", "async", "wall")))
		f = append(f, usText(r.cell(cellKeys[0]).ColdNs), coldAsyncText(r.cell(cellKeys[1])))
		f = append(f, nsText(r.CCallNs), nsText(r.HandoffNs))
		fmt.Fprintln(tw, strings.Join(f, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeCounts(&b, m); err != nil {
		return err
	}
	for _, r := range m.Rows {
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "note: %s %s\n", r.GoVersion, n)
		}
	}
	for _, s := range m.Skipped {
		fmt.Fprintf(&b, "skipped: %s: %s\n", s.Toolchain, s.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func tableHeader(m *matrix) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Go toolchain matrix: plugin-sdk-go %s", orDash(m.SDKVersion))
	if len(m.Rows) > 0 {
		r := m.Rows[0]
		same := true
		for _, o := range m.Rows[1:] {
			same = same && eqInt(o.N, r.N) && eqInt(o.Launches, r.Launches) && o.Work == r.Work && eqInt(o.Plugins, r.Plugins)
		}
		if same {
			fmt.Fprintf(&b, ", work=%s, p=%s, n=%s per launch, %s launches per cell",
				orDash(r.Work), intText(r.Plugins), intText(r.N), intText(r.Launches))
		} else {
			b.WriteString(", rows differ in work, p, n or launches (see matrix.json)")
		}
	}
	if m.Machine.CPUModel != "" {
		fmt.Fprintf(&b, "; %s, %s online CPUs", m.Machine.CPUModel, intText(m.Machine.OnlineCPUs))
	}
	b.WriteString("\n")
	if lv := levelText(m); lv != "" {
		fmt.Fprintf(&b, "cells: ns/extraction, median [interval of the median across launches, level >= %s];\n", lv)
	} else {
		b.WriteString("cells: ns/extraction, median across launches [no interval: too few launches, need >= 6];\n")
	}
	b.WriteString("ratios: median [interval] of per-launch ratios (wall); raw C->Go: the //export no-op;\n")
	b.WriteString("cold: first extraction on a new thread (sync: first C->Go call; async: worker wake-up); floors from the same run\n")
	return b.String()
}

// levelText is the lowest confidence level of any interval in the table,
// "" when there is none.
func levelText(m *matrix) string {
	low := math.Inf(1)
	for _, r := range m.Rows {
		for _, c := range r.Cells {
			if c.CILevel != nil {
				low = math.Min(low, *c.CILevel)
			}
		}
		for _, x := range r.Ratios {
			if x.CILevel != nil && x.Metric == "wall" {
				low = math.Min(low, *x.CILevel)
			}
		}
	}
	if math.IsInf(low, 1) {
		return ""
	}
	return fmt.Sprintf("%.0f%%", math.Floor(low*100))
}

func cellText(c *rowCell) string {
	if c == nil {
		return "-"
	}
	s := nsText(c.Median) + " " + intervalText(c.CILow, c.CIHigh, nsText)
	if !c.honest() {
		// Never let a cell that ran sync stand in an async column unmarked.
		return "ran " + c.InEffect + ": " + s
	}
	if !c.Verified {
		return s + " (unverified)"
	}
	return s
}

func coldAsyncText(c *rowCell) string {
	if c == nil {
		return "-"
	}
	if !c.honest() {
		return "ran " + c.InEffect + ": " + usText(c.ColdNs)
	}
	return usText(c.ColdNs)
}

func ratioText(r *rowRatio) string {
	if r == nil {
		return "-"
	}
	if r.Note != nil {
		return "n/a"
	}
	return numText(r.Median, 3) + " " + intervalText(r.CILow, r.CIHigh, func(v *float64) string { return numText(v, 3) })
}

func intervalText(lo, hi *float64, f func(*float64) string) string {
	if lo == nil && hi == nil {
		return "[-]"
	}
	return "[" + f(lo) + ", " + f(hi) + "]"
}

// nsText prints nanoseconds with three or four significant digits.
func nsText(v *float64) string {
	if v == nil {
		return "-"
	}
	x := *v
	switch a := math.Abs(x); {
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// numText prints a dimensionless value with sig significant digits.
func numText(v *float64, sig int) string {
	if v == nil {
		return "-"
	}
	x := *v
	if x == 0 {
		return "0"
	}
	digits := sig - 1 - int(math.Floor(math.Log10(math.Abs(x))))
	if digits < 0 {
		digits = 0
	}
	return fmt.Sprintf("%.*f", digits, x)
}

func usText(v *float64) string {
	if v == nil {
		return "-"
	}
	us := *v / 1000
	return numText(&us, 3) + " us"
}

func intText(v *int) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}

func eqInt(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

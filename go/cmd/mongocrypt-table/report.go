package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

var (
	cryptoOrder = []string{"native", "go"}
	accessOrder = []string{"accessor", "accessor-annotated", "direct"}
	sizeOrder   = []int{16, 1024, 65536}
)

// busyThreshold is the CPU use of other processes above which a bulk cell
// is flagged as disturbed.
const busyThreshold = 0.25

// report writes the table: bulk decryption, per-value costs, and the lines
// that relate them. Warnings go to warn.
func report(w, warn io.Writer, r *run) error {
	if len(r.bulk) == 0 && len(r.micro) == 0 {
		return fmt.Errorf("no BenchmarkBulkDecryption or per-value benchmark results in the input")
	}
	if len(r.bulk) > 0 {
		reportBulk(w, r)
		if k, most, ok := r.busiest(); ok && most > busyThreshold {
			fmt.Fprintf(warn, "warning: other processes kept up to %.2f of %d CPUs busy during the bulk cells (%s/%s/threads=%d): the figures include their work; rerun make bench-mongocrypt on an idle machine.\n",
				most, r.ncpu(), k.crypto, k.access, k.threads)
		}
	}
	if len(r.micro) > 0 {
		if len(r.bulk) > 0 {
			fmt.Fprintln(w)
		}
		reportMicro(w, r)
	}
	if len(r.bulk) > 0 && len(r.micro) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, noiseLine(r))
	}
	return nil
}

func (r *run) threadCounts() []int {
	var ts []int
	for k := range r.bulk {
		if !slices.Contains(ts, k.threads) {
			ts = append(ts, k.threads)
		}
	}
	slices.Sort(ts)
	return ts
}

// ncpu is the CPU count the benchmark reported, or else the GOMAXPROCS
// suffix of the results (the CPU count unless -cpu was given).
func (r *run) ncpu() int {
	if n, err := strconv.Atoi(r.config["ncpu"]); err == nil && n > 0 {
		return n
	}
	return max(r.procs, 1)
}

// samples returns the repetitions of a cell, or the reported medians if no
// repetitions were logged.
func (c *bulkCell) samples() []float64 {
	if len(c.reps) > 0 {
		return c.reps
	}
	return c.reported
}

func reportBulk(w io.Writer, r *run) {
	threads := r.threadCounts()
	fmt.Fprintf(w, "Bulk decryption: %d encrypted values per document, libmongocrypt %s, bytes=%s, cpu: %s, %d CPUs\n",
		1500, orNA(r.config["libmongocrypt"]), orNA(r.config["mongocrypt-bytes"]), orNA(r.config["cpu"]), r.ncpu())
	fmt.Fprintln(w, "ops/s: median of the repetitions [95% interval]. A thread is GOMAXPROCS with one goroutine per P")
	fmt.Fprintln(w, "(RunParallel), as in the Go driver's benchmark. Crossings: counted on one operation.")
	fmt.Fprintln(w)
	tw := newTable(w)
	head := []string{"crypto", "access"}
	for _, t := range threads {
		head = append(head, "threads="+strconv.Itoa(t))
	}
	head = append(head, "Go→C/op", "C→Go/op")
	tw.row(head...)
	for _, c := range cryptoOrder {
		if !r.hasCrypto(c) {
			continue
		}
		for _, a := range accessOrder {
			row := []string{c, a}
			var cross *bulkCell
			for _, t := range threads {
				cell := r.bulk[bulkKey{c, a, t}]
				if cell == nil {
					row = append(row, "n/a")
					continue
				}
				cross = cell
				mark := ""
				if slices.ContainsFunc(cell.others, func(o float64) bool { return o > busyThreshold }) {
					mark = " !"
				}
				row = append(row, formatEstimate(summarize(cell.samples()))+mark)
			}
			if cross != nil {
				row = append(row, fmt.Sprintf("%.0f", cross.goToC), fmt.Sprintf("%.0f", cross.cToGo))
			} else {
				row = append(row, "n/a", "n/a")
			}
			tw.row(row...)
		}
		for _, pair := range [][2]string{{"direct", "accessor"}, {"accessor-annotated", "accessor"}} {
			row := []string{c, shortAccess(pair[0]) + "/" + shortAccess(pair[1])}
			for _, t := range threads {
				num, den := r.bulk[bulkKey{c, pair[0], t}], r.bulk[bulkKey{c, pair[1], t}]
				if num == nil || den == nil {
					row = append(row, "n/a")
					continue
				}
				row = append(row, formatRatio(compare(num.samples(), den.samples())))
			}
			tw.row(append(row, "", "")...)
		}
	}
	tw.flush()
	fmt.Fprintln(w, "ratio: of the medians, interval from the bounds of both intervals (conservative);")
	fmt.Fprintln(w, "+ higher, - lower: Mann-Whitney p < 0.05 and the interval excludes 1; ~ no difference.")
	if k, most, ok := r.busiest(); ok {
		fmt.Fprintf(w, "Other processes kept at most %.2f CPUs busy during a cell (%s/%s/threads=%d); ! marks cells above %.2f.\n",
			most, k.crypto, k.access, k.threads, busyThreshold)
	}
}

// busiest returns the bulk cell during which other processes used the most
// CPU, and how much, if the input says.
func (r *run) busiest() (bulkKey, float64, bool) {
	var best bulkKey
	most, ok := -1.0, false
	for _, c := range cryptoOrder {
		for _, a := range accessOrder {
			for _, t := range r.threadCounts() {
				k := bulkKey{c, a, t}
				cell := r.bulk[k]
				if cell == nil {
					continue
				}
				for _, o := range cell.others {
					if o > most {
						best, most, ok = k, o, true
					}
				}
			}
		}
	}
	return best, most, ok
}

func (r *run) hasCrypto(c string) bool {
	for k := range r.bulk {
		if k.crypto == c {
			return true
		}
	}
	return false
}

func shortAccess(a string) string {
	if a == "accessor-annotated" {
		return "annotated"
	}
	return a
}

type microRow struct {
	label, bench, variant string
}

var microRows = []microRow{
	{"read, accessor", "BinaryRead", "access=accessor"},
	{"read, accessor-annotated", "BinaryRead", "access=accessor-annotated"},
	{"read, direct", "BinaryRead", "access=direct"},
	{"pure Go copy", "GoCopy", ""},
	{"hand over, copy (C.CBytes+free)", "BinaryFromBytes", "mode=copy"},
	{"hand over, pin (Pin+Unpin)", "BinaryFromBytes", "mode=pin"},
	{"binary per value, copy", "BinaryLifecycle", "mode=alloc/bytes=copy"},
	{"binary per value, pin", "BinaryLifecycle", "mode=alloc/bytes=pin"},
	{"reused binary, copy", "BinaryLifecycle", "mode=reuse/bytes=copy"},
	{"reused binary, pin", "BinaryLifecycle", "mode=reuse/bytes=pin"},
}

func reportMicro(w io.Writer, r *run) {
	fmt.Fprintln(w, "Per-value costs: ns per value, median ±95% interval. A read takes the data and length of a")
	fmt.Fprintln(w, "binary over C memory and copies the bytes into Go.")
	fmt.Fprintln(w)
	tw := newTable(w)
	head := []string{"per value"}
	for _, s := range sizeOrder {
		head = append(head, "size="+strconv.Itoa(s))
	}
	tw.row(head...)
	for _, row := range microRows {
		cells := []string{row.label}
		any := false
		for _, s := range sizeOrder {
			v := r.micro[microKey{row.bench, row.variant, s}]
			if len(v) == 0 {
				cells = append(cells, "n/a")
				continue
			}
			any = true
			cells = append(cells, formatNs(summarize(v)))
		}
		if any {
			tw.row(cells...)
		}
	}
	tw.flush()
	for _, a := range []string{"accessor", "accessor-annotated"} {
		if d, ok := r.readCost(a); ok {
			fmt.Fprintf(w, "%s: a read (2 Go→C calls) costs %.1f ns more than reading the fields (16 bytes): %.1f ns per call.\n", a, d, d/2)
		}
	}
	for _, m := range []string{"copy", "pin"} {
		alloc := r.micro[microKey{"BinaryLifecycle", "mode=alloc/bytes=" + m, 16}]
		reuse := r.micro[microKey{"BinaryLifecycle", "mode=reuse/bytes=" + m, 16}]
		if len(alloc) > 0 && len(reuse) > 0 {
			a, u := summarize(alloc).center, summarize(reuse).center
			fmt.Fprintf(w, "reuse vs a binary per value, %s, 16 bytes: saves %.1f ns (%.0f%%).\n", m, a-u, 100*(a-u)/a)
		}
	}
}

// readCost is what an accessor read costs over a direct read, from the
// 16-byte medians.
func (r *run) readCost(access string) (float64, bool) {
	acc := r.micro[microKey{"BinaryRead", "access=" + access, 16}]
	dir := r.micro[microKey{"BinaryRead", "access=direct", 16}]
	if len(acc) == 0 || len(dir) == 0 {
		return 0, false
	}
	return summarize(acc).center - summarize(dir).center, true
}

// noiseLine says, per crypto, at which thread counts the accessor cost of an
// operation (its extra Go→C calls times the per-call cost) is smaller than
// the noise of the accessor figure (the relative half-width of its
// interval), and from how many calls per operation it would show.
func noiseLine(r *run) string {
	perRead, ok := r.readCost("accessor")
	if !ok {
		return "accessor cost vs noise: n/a (no BinaryRead results for accessor and direct)"
	}
	perCall := perRead / 2
	var parts []string
	var breakEven []float64
	for _, c := range cryptoOrder {
		var below, above, undefined []string
		var shares, noises []float64
		calls := math.NaN()
		for _, t := range r.threadCounts() {
			acc, dir := r.bulk[bulkKey{c, "accessor", t}], r.bulk[bulkKey{c, "direct", t}]
			if acc == nil || dir == nil {
				continue
			}
			calls = acc.goToC - dir.goToC
			est := summarize(acc.samples())
			cpuPerOp := float64(min(t, r.ncpu())) / est.center * 1e9 // ns of CPU per operation
			share := calls * perCall / cpuPerOp
			noise := est.noise()
			shares = append(shares, share)
			switch {
			case math.IsNaN(noise):
				undefined = append(undefined, strconv.Itoa(t))
			case share < noise:
				below = append(below, strconv.Itoa(t))
				noises = append(noises, noise)
				breakEven = append(breakEven, noise*cpuPerOp/perCall)
			default:
				above = append(above, strconv.Itoa(t))
				noises = append(noises, noise)
				breakEven = append(breakEven, noise*cpuPerOp/perCall)
			}
		}
		if math.IsNaN(calls) {
			continue
		}
		s := fmt.Sprintf("%s %.0f calls/op = %s, %s of an op, noise %s: below at threads %s, above at %s",
			c, calls, formatDuration(calls*perCall), pctRange(shares), pctRange(noises), listOr(below), listOr(above))
		if len(undefined) > 0 {
			s += ", undefined at " + strings.Join(undefined, ",")
		}
		parts = append(parts, s)
	}
	line := "accessor cost vs noise of the bulk figure (" + fmt.Sprintf("%.1f ns/call", perCall) + "): " + strings.Join(parts, "; ")
	if len(breakEven) > 0 {
		line += fmt.Sprintf("; it shows above about %s accessor calls per operation (%s per value).",
			formatCount(slices.Min(breakEven)), formatPerValue(slices.Min(breakEven)/1500))
	}
	return line
}

func formatEstimate(e estimate) string {
	if !e.defined() {
		return fmt.Sprintf("%s [n/a]", sig(e.center))
	}
	return fmt.Sprintf("%s [%s %s]", sig(e.center), sig(e.lo), sig(e.hi))
}

func formatRatio(r ratio) string {
	mark := "~"
	switch r.verdict() {
	case "higher":
		mark = "+"
	case "lower":
		mark = "-"
	case "undefined":
		return fmt.Sprintf("%.2f [n/a]", r.value)
	}
	return fmt.Sprintf("%.2f [%.2f %.2f] %s", r.value, r.lo, r.hi, mark)
}

func formatNs(e estimate) string {
	if !e.defined() {
		return sig(e.center) + " ±n/a"
	}
	return fmt.Sprintf("%s ±%.0f%%", sig(e.center), 100*e.noise())
}

// sig prints a positive number with three significant digits, at least
// the units.
func sig(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.Abs(x) >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	default:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
}

func formatDuration(ns float64) string {
	switch {
	case ns >= 1e6:
		return sig(ns/1e6) + " ms"
	case ns >= 1e3:
		return sig(ns/1e3) + " µs"
	default:
		return sig(ns) + " ns"
	}
}

func formatCount(x float64) string {
	if x >= 1000 {
		return strconv.FormatFloat(math.Round(x/100)*100, 'f', 0, 64)
	}
	return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
}

func formatPerValue(x float64) string {
	if x >= 10 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func pct(x float64) string {
	switch {
	case x >= 0.1:
		return strconv.FormatFloat(100*x, 'f', 0, 64) + "%"
	case x >= 0.001:
		return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
	default:
		return strconv.FormatFloat(100*x, 'f', 4, 64) + "%"
	}
}

func pctRange(v []float64) string {
	if len(v) == 0 {
		return "n/a"
	}
	lo, hi := slices.Min(v), slices.Max(v)
	if pct(lo) == pct(hi) {
		return pct(lo)
	}
	return pct(lo) + "-" + pct(hi)
}

func listOr(v []string) string {
	if len(v) == 0 {
		return "none"
	}
	return strings.Join(v, ",")
}

// table aligns tab-separated rows like text/tabwriter, without the padding
// tabwriter leaves at the ends of lines.
type table struct {
	buf bytes.Buffer
	tw  *tabwriter.Writer
	w   io.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

func (t *table) row(cells ...string) { fmt.Fprintln(t.tw, strings.Join(cells, "\t")+"\t") }

func (t *table) flush() {
	t.tw.Flush()
	for _, l := range strings.SplitAfter(t.buf.String(), "\n") {
		if l != "" {
			io.WriteString(t.w, strings.TrimRight(l, " \n")+"\n")
		}
	}
}

func orNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}

package main

import (
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"
)

// page is what the template renders: sections in order, each made of blocks
// (a heading, notes, a chart, a table). A section is present only when some
// input has its data.
type page struct {
	Title    string
	Sources  []string
	Sections []section
	// chartErr is the first chart that could not be drawn: exit 3.
	chartErr error
}

type section struct {
	ID, Title, Intro string
	Blocks           []block
}

type block struct {
	ID, Heading string
	Notes       []string
	SVG         template.HTML
	Table       *table
}

type table struct {
	Head []string
	Rows [][]tcell
}

type tcell struct {
	Text  string
	Class string // "good", "bad", "muted", "code"
}

func tc(s string) tcell { return tcell{Text: s} }

func (t *table) add(cells ...tcell) { t.Rows = append(t.Rows, cells) }

// chart keeps the first drawing error and returns what was drawn.
func (p *page) chart(svg template.HTML, err error) template.HTML {
	if err != nil && p.chartErr == nil {
		p.chartErr = err
	}
	return svg
}

// num formats a figure with the digits that mean something at its size.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 10:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

func nump(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return num(*v)
}

func interval(lo, hi *float64) string {
	if lo == nil || hi == nil {
		return "no interval"
	}
	return "[" + num(*lo) + ", " + num(*hi) + "]"
}

func pct(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", *v*100)
}

// shellQuote writes an argv as one might type it.
func shellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~!#") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

func commandOf(d *benchDoc) string {
	if len(d.Command) == 0 {
		return "not recorded (a document from before \"command\")"
	}
	return shellQuote(d.Command)
}

// kindOf names the run a document comes from, by what it holds.
func kindOf(d *benchDoc) string {
	var k []string
	switch {
	case d.Paired != nil && d.Comparison != nil:
		k = append(k, "paired blocks, judged against "+d.Comparison.Against)
	case d.Paired != nil:
		k = append(k, "paired blocks")
	case d.Comparison != nil:
		k = append(k, "judged against "+d.Comparison.Against)
	}
	if len(anatomyDiffs(d)) > 0 {
		k = append(k, "anatomy")
	}
	for _, c := range d.Cells {
		if c.Floors != nil {
			k = append(k, "floors")
			break
		}
	}
	for _, c := range d.Cells {
		if c.Latency != nil {
			k = append(k, "open loop (latency)")
			break
		}
	}
	if len(k) == 0 {
		k = append(k, fmt.Sprintf("%d cells", len(d.Cells)))
	}
	return strings.Join(k, ", ")
}

func docHeading(s source) string { return s.label + ": " + kindOf(&s.doc) }

// buildPage lays out every section the inputs have data for, decisions
// first.
func buildPage(in inputs) *page {
	p := &page{Title: "cgocost report"}
	for _, s := range in.docs {
		p.Sources = append(p.Sources, s.label)
	}
	if in.matrix != nil {
		p.Sources = append(p.Sources, in.matrixLabel+" (toolchain matrix)")
	}
	for _, build := range []func(*page, inputs) *section{
		decisionsSection, runsSection, cellsSection, ratiosSection,
		anatomySection, floorsSection, sweepSection, matrixSection,
	} {
		if s := build(p, in); s != nil && len(s.Blocks) > 0 {
			p.Sections = append(p.Sections, *s)
		}
	}
	return p
}

// --- (a) decisions -----------------------------------------------------------

// decisionKeys is the contract's order (notes: decisions-spec); keys a
// newer bench adds come after, in the order first seen.
var decisionKeys = []string{"async", "link", "language", "pooling", "malloc", "toolchain"}

// pickedDecision is a decision and the document it was taken from.
type pickedDecision struct {
	decision
	from string
}

// pickDecisions takes, per key, the first document whose decision is
// measured with an interval, or else the first measured without one ("too
// few samples to tell": an anatomy's few launches, before the compare run
// that answers), or else the first that has the key at all (not measured:
// its command says what would measure it).
func pickDecisions(docs []source) []pickedDecision {
	keys := append([]string(nil), decisionKeys...)
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	for _, s := range docs {
		for _, d := range s.doc.Decisions {
			if !known[d.Key] {
				known[d.Key] = true
				keys = append(keys, d.Key)
			}
		}
	}
	var out []pickedDecision
	for _, k := range keys {
		var first, measured, interval *pickedDecision
		for _, s := range docs {
			for _, d := range s.doc.Decisions {
				if d.Key != k {
					continue
				}
				pd := &pickedDecision{decision: d, from: s.label}
				if first == nil {
					first = pd
				}
				if d.Measured && measured == nil {
					measured = pd
				}
				if d.Measured && d.Low != nil && d.High != nil && interval == nil {
					interval = pd
				}
			}
		}
		switch {
		case interval != nil:
			out = append(out, *interval)
		case measured != nil:
			out = append(out, *measured)
		case first != nil:
			out = append(out, *first)
		}
	}
	return out
}

func str(p *string, none string) string {
	if p == nil || *p == "" {
		return none
	}
	return *p
}

func decisionsSection(p *page, in inputs) *section {
	picked := pickDecisions(in.docs)
	if len(picked) == 0 {
		return nil
	}
	sec := &section{ID: "decisions", Title: "Decisions",
		Intro: "What the runs answer, per question: from the first document that measured it; a question no document measured says which command would."}
	t := &table{Head: []string{"question", "answer", "figure", "estimate [interval]", "flips when (or what would measure it)", "from"}}
	var rows []dotRow
	for _, d := range picked {
		q := d.Question
		if q == "" {
			q = d.Key
		}
		if !d.Measured {
			t.add(tc(q), tcell{Text: "not measured in this run", Class: "muted"}, tcell{Text: "none", Class: "muted"},
				tc(""), tcell{Text: "measure it with: " + str(d.Command, "no command given"), Class: "code"}, tc(d.from))
			continue
		}
		est := nump(d.Estimate)
		if d.Estimate != nil {
			est += " " + interval(d.Low, d.High)
		}
		t.add(tc(q), tcell{Text: str(d.Answer, "no answer given"), Class: "answer"}, tcell{Text: str(d.Figure, "none"), Class: "code"},
			tc(est), tc(str(d.FlipsWhen, "")), tc(d.from))
		if d.Estimate != nil && *d.Estimate > 0 {
			rows = append(rows, dotRow{Label: d.Key + ": " + str(d.Answer, "?"), Point: *d.Estimate, Low: d.Low, High: d.High, Color: paletteColor(len(rows))})
		}
	}
	b := block{ID: "decisions-table", Table: t}
	if len(rows) > 0 {
		one := 1.0
		b.SVG = p.chart(dotIntervals("The measured decisions: each figure's ratio and interval", "ratio (1: no difference; log scale)", rows, dotOpts{Log: true, Ref: &one}))
	}
	sec.Blocks = append(sec.Blocks, b)
	return sec
}

// --- (b) machine and command -------------------------------------------------

func versions(d *benchDoc, get func(cell) string) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range d.Cells {
		v := get(c)
		if v == "" || v == "none" || v == "unknown" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none (no Go plugin)"
	}
	return strings.Join(out, ", ")
}

func intp(v *int) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprint(*v)
}

func runsSection(p *page, in inputs) *section {
	if len(in.docs) == 0 {
		return nil
	}
	sec := &section{ID: "runs", Title: "Runs: machine and command"}
	t := &table{Head: []string{"document", "command", "CPU", "kernel", "CPUs online", "Go", "plugin SDK", "samples"}}
	for _, s := range in.docs {
		d := &s.doc
		samples := "n/a"
		if d.Analysis != nil {
			samples = d.Analysis.Samples
		}
		if d.Paired != nil {
			samples = fmt.Sprintf("paired blocks, %s rounds", intp(d.Paired.Rounds))
		}
		t.add(tc(docHeading(s)), tcell{Text: commandOf(d), Class: "code"}, tc(d.Machine.CPUModel), tc(d.Machine.Kernel+" "+d.Machine.Arch),
			tc(intp(d.Machine.OnlineCPUs)), tc(versions(d, func(c cell) string { return c.GoVersion })),
			tc(versions(d, func(c cell) string { return c.SDKVersion })), tc(samples))
	}
	sec.Blocks = append(sec.Blocks, block{ID: "runs-table", Table: t})
	return sec
}

// --- (c) cells ---------------------------------------------------------------

func values(v []*float64) []float64 {
	var out []float64
	for _, x := range v {
		if x != nil && !math.IsNaN(*x) && !math.IsInf(*x, 0) {
			out = append(out, *x)
		}
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func cellsSection(p *page, in inputs) *section {
	sec := &section{ID: "cells", Title: "Cells: every sample",
		Intro: "Each cell's samples: the box spans the quartiles, the thick line is the median, the whiskers reach the last sample within 1.5 IQR; the dots are the samples themselves."}
	for i, s := range in.docs {
		d := &s.doc
		var groups []sampleGroup
		what := "launch medians (one per fresh process)"
		if d.Analysis != nil && d.Analysis.Samples != "" {
			what = d.Analysis.Samples
		}
		stat := map[string]*stats{}
		for _, c := range d.Cells {
			stat[c.Name] = c.Statistics
		}
		unit := "ns/extraction"
		if d.Paired != nil && len(d.Paired.Cells) > 0 {
			what = "paired blocks (one block: one cell, timed in a round of every cell)"
			for _, pc := range d.Paired.Cells {
				label := pc.Name
				if pc.Side == "against" {
					label += " [against]"
				}
				if v := values(pc.Blocks); len(v) > 0 {
					groups = append(groups, sampleGroup{Label: label, Values: v})
				}
			}
		} else {
			for _, c := range d.Cells {
				if v := values(c.Samples); len(v) > 0 {
					groups = append(groups, sampleGroup{Label: c.Name, Values: v})
				}
				if c.Statistics != nil && c.Statistics.Unit != "" {
					unit = c.Statistics.Unit
				}
			}
		}
		if len(groups) == 0 {
			continue
		}
		t := &table{Head: []string{"cell", "samples", "median of the samples", "the document's median [interval]"}}
		for _, g := range groups {
			st := stat[strings.TrimSuffix(g.Label, " [against]")]
			doc := "n/a"
			if st != nil && !strings.HasSuffix(g.Label, " [against]") {
				doc = nump(st.Median) + " " + interval(st.CILow, st.CIHigh)
				if st.CILevel != nil {
					doc += fmt.Sprintf(" at %.1f%%", *st.CILevel*100)
				}
			}
			t.add(tcell{Text: g.Label, Class: "code"}, tc(fmt.Sprint(len(g.Values))), tc(num(median(g.Values))), tc(doc))
		}
		b := block{ID: fmt.Sprintf("cells-%d", i+1), Heading: docHeading(s), Notes: []string{"samples: " + what}, Table: t}
		b.SVG = p.chart(boxStrip("Samples per cell, "+s.label, unit, groups))
		sec.Blocks = append(sec.Blocks, b)
	}
	return sec
}

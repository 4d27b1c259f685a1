package main

import (
	"fmt"
	"regexp"
	"strings"
)

// --- (d) ratios and verdicts -------------------------------------------------

// The noise bands bench uses when a document names none (c/model/options.h:
// OPT_PAIRED_THRESHOLD, OPT_UNPAIRED_THRESHOLD).
const (
	defaultPairedThreshold   = 0.02
	defaultUnpairedThreshold = 0.05
)

// threshold is the document's noise band, and where it comes from.
func threshold(d *benchDoc) (float64, string) {
	if d.Comparison != nil && d.Comparison.Threshold != nil {
		return *d.Comparison.Threshold, "the run's --threshold"
	}
	if d.Paired != nil {
		return defaultPairedThreshold, "bench's default for a paired verdict (no threshold in this document)"
	}
	return defaultUnpairedThreshold, "bench's default verdict threshold (no threshold in this document)"
}

// reading says where an interval lies against the band around 1.
func reading(lo, hi *float64, t float64) (string, string) {
	switch {
	case lo == nil || hi == nil:
		return "no interval", "muted"
	case *lo > 1+t:
		return "above the band", "bad"
	case *hi < 1-t:
		return "below the band", "good"
	default:
		return "overlaps the band: no difference beyond the threshold", "muted"
	}
}

var readingColor = map[string]int{"bad": 1, "good": 2, "warn": 3, "muted": 7}

func ratiosSection(p *page, in inputs) *section {
	sec := &section{ID: "ratios", Title: "Ratios and verdicts",
		Intro: "Each ratio with its interval (a forest plot), against the noise band around 1; the verdicts of a comparison as relative changes against the same band."}
	for i, s := range in.docs {
		d := &s.doc
		t, from := threshold(d)
		var rows []dotRow
		tab := &table{Head: []string{"ratio", "estimate", "interval", "level", "reading"}}
		add := func(name string, est, lo, hi, level *float64) {
			r, class := reading(lo, hi, t)
			lv := "n/a"
			if level != nil {
				lv = fmt.Sprintf("%.1f%%", *level*100)
			}
			tab.add(tcell{Text: name, Class: "code"}, tc(nump(est)), tc(interval(lo, hi)), tc(lv), tcell{Text: r, Class: class})
			if est != nil && *est > 0 {
				rows = append(rows, dotRow{Label: name, Point: *est, Low: lo, High: hi, Color: paletteColor(readingColor[class])})
			}
		}
		if d.Paired != nil && len(d.Paired.Ratios) > 0 {
			for _, r := range d.Paired.Ratios {
				add(r.Name, r.Estimate, r.Low, r.High, r.Coverage)
			}
		} else {
			for _, r := range d.Ratios {
				if r.Metric == "diff" || r.Statistics == nil {
					continue
				}
				add(r.Name, r.Statistics.Median, r.Statistics.CILow, r.Statistics.CIHigh, r.Statistics.CILevel)
			}
		}
		notes := []string{fmt.Sprintf("band: 1 ± %.0f%%, %s", t*100, from)}
		if len(rows) > 0 {
			one := 1.0
			band := [2]float64{1 - t, 1 + t}
			b := block{ID: fmt.Sprintf("ratios-%d", i+1), Heading: docHeading(s), Notes: notes, Table: tab}
			b.SVG = p.chart(dotIntervals("Ratios, "+s.label, "ratio (log scale; dashed: 1, shaded: the noise band)", rows, dotOpts{Log: true, Ref: &one, Band: &band}))
			sec.Blocks = append(sec.Blocks, b)
		}
		if c := d.Comparison; c != nil && len(c.Changes) > 0 {
			sec.Blocks = append(sec.Blocks, changesBlock(p, s, i, t))
		}
	}
	return sec
}

func verdictClass(v string) string {
	switch v {
	case "regressed":
		return "bad"
	case "improved":
		return "good"
	case "inconclusive":
		return "warn"
	default:
		return "muted"
	}
}

// inconclusiveNote says what an inconclusive verdict did to the exit status
// and how much longer a run would have needed.
func inconclusiveNote(c *comparison) string {
	n := "neither a regression nor its absence shown (exit 4)"
	if c.InconclusivePass {
		n = "neither a regression nor its absence shown (exit 0: --inconclusive pass)"
	}
	switch {
	case c.NeedS != nil && c.NeedFactor != nil:
		n += fmt.Sprintf("; about %.1f times the samples, some %.0f s more, would tell", *c.NeedFactor, *c.NeedS)
	case c.NeedFactor != nil:
		n += fmt.Sprintf("; about %.1f times the samples would tell", *c.NeedFactor)
	}
	return n
}

func changesBlock(p *page, s source, i int, t float64) block {
	c := s.doc.Comparison
	tab := &table{Head: []string{"judged", "kind", "change", "interval", "p", "verdict", "gated"}}
	var rows []dotRow
	for _, ch := range c.Changes {
		gated := "yes"
		if !ch.Gated {
			gated = "no: " + ch.NotGatedBecause
		}
		iv := "no interval"
		if ch.Low != nil && ch.High != nil {
			iv = "[" + pct(ch.Low) + ", " + pct(ch.High) + "]"
		}
		verdict := ch.Verdict
		if ch.Sentence != "" {
			verdict += ": " + ch.Sentence
		}
		tab.add(tcell{Text: ch.Scenario, Class: "code"}, tc(ch.Kind), tc(pct(ch.Point)), tc(iv), tc(nump(ch.P)),
			tcell{Text: verdict, Class: verdictClass(ch.Verdict)}, tc(gated))
		if ch.Point != nil {
			r := dotRow{Label: ch.Scenario, Point: *ch.Point * 100, Color: paletteColor(readingColor[verdictClass(ch.Verdict)])}
			if ch.Low != nil && ch.High != nil {
				lo, hi := *ch.Low*100, *ch.High*100
				r.Low, r.High = &lo, &hi
			}
			rows = append(rows, r)
		}
	}
	notes := []string{fmt.Sprintf("against %s; band ±%.0f%%", c.Against, t*100)}
	if c.Verdict != "" {
		v := "verdict: " + c.Verdict
		if c.UndefinedBecause != "" {
			v += " (" + c.UndefinedBecause + ")"
		}
		if c.Verdict == "inconclusive" {
			v += ": " + inconclusiveNote(c)
		}
		notes = append(notes, v)
	}
	b := block{ID: fmt.Sprintf("changes-%d", i+1), Heading: "Verdicts, " + s.label, Notes: notes, Table: tab}
	if len(rows) > 0 {
		zero := 0.0
		band := [2]float64{-t * 100, t * 100}
		b.SVG = p.chart(dotIntervals("Changes against "+c.Against, "change of the median (%; dashed: none, shaded: the noise band)", rows, dotOpts{Ref: &zero, Band: &band}))
	}
	return b
}

// --- (e) anatomy -------------------------------------------------------------

// "event-bare mode=sync diff": the step event's increment over bare.
var diffName = regexp.MustCompile(`^([a-z0-9]+)-([a-z0-9]+) mode=([a-z]+) diff$`)

type anatomyStep struct {
	step, prev, mode string
	r                ratio
}

func anatomyDiffs(d *benchDoc) []anatomyStep {
	var out []anatomyStep
	for _, r := range d.Ratios {
		if m := diffName.FindStringSubmatch(r.Name); m != nil && r.Metric == "diff" {
			out = append(out, anatomyStep{step: m[1], prev: m[2], mode: m[3], r: r})
		}
	}
	return out
}

// baseCell is the bare step of a mode: its cell, not the minimal driver's.
func baseCell(d *benchDoc, mode, work string) *cell {
	for i := range d.Cells {
		c := &d.Cells[i]
		if c.Mode.Requested == mode && strings.Contains(c.Name, "/work="+work+"/") && !strings.Contains(c.Name, "driver=minimal") {
			return c
		}
	}
	return nil
}

func anatomySection(p *page, in inputs) *section {
	sec := &section{ID: "anatomy", Title: "Anatomy of one extraction",
		Intro: "What one extraction is made of, step by step: the bare call, then each step's increment (the median over rounds of the step's cell minus the one before it)."}
	for i, s := range in.docs {
		d := &s.doc
		diffs := anatomyDiffs(d)
		if len(diffs) == 0 {
			continue
		}
		var modes []string
		var first string
		seenMode := map[string]bool{}
		for _, st := range diffs {
			if !seenMode[st.mode] {
				seenMode[st.mode] = true
				modes = append(modes, st.mode)
			}
		}
		// the steps in order, from the first mode's chain
		var steps []string
		for _, st := range diffs {
			if st.mode != modes[0] {
				continue
			}
			if len(steps) == 0 {
				first = st.prev
				steps = append(steps, st.prev)
			}
			steps = append(steps, st.step)
		}
		layers := make([]layer, len(steps))
		tab := &table{Head: []string{"mode", "step", "increment (ns)", "interval", "cell median (ns)"}}
		for k, name := range steps {
			layers[k].Name = name
			if k > 0 {
				layers[k].Name = "+ " + name
			}
			layers[k].Values = make([]float64, len(modes))
		}
		for j, m := range modes {
			if c := baseCell(d, m, first); c != nil && c.Statistics != nil && c.Statistics.Median != nil {
				layers[0].Values[j] = *c.Statistics.Median
				tab.add(tc(m), tc(first), tc(num(*c.Statistics.Median)), tc(interval(c.Statistics.CILow, c.Statistics.CIHigh)), tc(num(*c.Statistics.Median)))
			}
			for k := 1; k < len(steps); k++ {
				for _, st := range diffs {
					if st.mode != m || st.step != steps[k] || st.r.Statistics == nil || st.r.Statistics.Median == nil {
						continue
					}
					v := *st.r.Statistics.Median
					layers[k].Values[j] = v
					cm := "n/a"
					if c := baseCell(d, m, steps[k]); c != nil && c.Statistics != nil {
						cm = nump(c.Statistics.Median)
					}
					tab.add(tc(m), tc(steps[k]), tc(fmt.Sprintf("%+.1f", v)), tc(interval(st.r.Statistics.CILow, st.r.Statistics.CIHigh)), tc(cm))
				}
			}
		}
		notes := []string{"a negative increment (within the noise) is drawn as a bar reaching back into the one before it"}
		b := block{ID: fmt.Sprintf("anatomy-%d", i+1), Heading: docHeading(s), Notes: notes, Table: tab}
		b.SVG = p.chart(stackedBars("Anatomy of one extraction, "+s.label, "ns per extraction", modes, layers))
		sec.Blocks = append(sec.Blocks, b)
	}
	return sec
}

// --- (f) floors --------------------------------------------------------------

func floorsSection(p *page, in inputs) *section {
	sec := &section{ID: "floors", Title: "Floors",
		Intro: "The costs beneath every crossing, each the median batch per operation; the bar spans the fastest to the slowest batch."}
	for i, s := range in.docs {
		for j, c := range s.doc.Cells {
			f := c.Floors
			if f == nil {
				continue
			}
			var sp floorSpread
			if f.Spread != nil {
				sp = *f.Spread
			}
			handoff := "cache-line handoff between two CPUs"
			if len(f.HandoffCPUs) == 2 {
				handoff = fmt.Sprintf("cache-line handoff, CPUs %d and %d", f.HandoffCPUs[0], f.HandoffCPUs[1])
			}
			all := []struct {
				name string
				v    *float64
				s    *span
			}{
				{"plain C call", f.CCallNs, sp.CCall},
				{"raw C to Go call", f.GoRawNs, sp.GoRaw},
				{handoff, f.HandoffNs, sp.Handoff},
				{"reference handoff: bare", f.RefBareNs, sp.RefBare},
				{"reference handoff: event", f.RefEventNs, sp.RefEvent},
				{"reference handoff: result", f.RefResultNs, sp.RefResult},
				{"first C to Go call of the process (cold)", f.GoRawColdNs, nil},
				{"reference handoff: worker wake-up", f.RefWakeNs, nil},
			}
			tab := &table{Head: []string{"floor", "ns", "fastest batch", "slowest batch"}}
			var rows []dotRow
			for k, x := range all {
				if x.v == nil {
					continue
				}
				lo, hi := "", ""
				r := dotRow{Label: x.name, Point: *x.v, Color: paletteColor(k)}
				if x.s != nil && x.s.MinNs != nil && x.s.MaxNs != nil {
					lo, hi = num(*x.s.MinNs), num(*x.s.MaxNs)
					r.Low, r.High = x.s.MinNs, x.s.MaxNs
				}
				tab.add(tc(x.name), tc(num(*x.v)), tc(lo), tc(hi))
				if *x.v > 0 {
					rows = append(rows, r)
				}
			}
			if len(rows) == 0 {
				continue
			}
			notes := []string{"cell " + c.Name}
			if sp.Batches != nil {
				notes = append(notes, fmt.Sprintf("%d batches per floor", *sp.Batches))
			}
			b := block{ID: fmt.Sprintf("floors-%d-%d", i+1, j+1), Heading: docHeading(s), Notes: notes, Table: tab}
			b.SVG = p.chart(dotIntervals("Floors, "+c.Name, "ns per operation (log scale)", rows, dotOpts{Log: true}))
			sec.Blocks = append(sec.Blocks, b)
		}
	}
	return sec
}

// --- (g) latency sweep and toolchain matrix ---------------------------------

func fv(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func sweepSection(p *page, in inputs) *section {
	sec := &section{ID: "sweep", Title: "Latency against the rate",
		Intro: "An open-loop run: each request's latency from its due time, so a request held up by a slow one before it carries its wait."}
	for i, s := range in.docs {
		var pts []sweepPoint
		tab := &table{Head: []string{"cell", "load", "requested /s", "achieved /s", "p50 ns", "p99 ns", "p99.9 ns", "max ns", "CPU ns/event"}}
		for _, c := range s.doc.Cells {
			l := c.Latency
			if l == nil {
				continue
			}
			pt := sweepPoint{Mode: c.Mode.Requested, P50: fv(l.P50), P99: fv(l.P99), P999: fv(l.P999)}
			if l.Load == "rate" {
				pt.Rate = fv(l.RequestedRate)
			} else {
				pt.Rate, pt.Max = fv(l.AchievedRate), true
			}
			pts = append(pts, pt)
			tab.add(tcell{Text: c.Name, Class: "code"}, tc(l.Load), tc(nump(l.RequestedRate)), tc(nump(l.AchievedRate)),
				tc(nump(l.P50)), tc(nump(l.P99)), tc(nump(l.P999)), tc(nump(l.Max)), tc(nump(l.CPU)))
		}
		if len(pts) == 0 {
			continue
		}
		b := block{ID: fmt.Sprintf("sweep-%d", i+1), Heading: docHeading(s), Table: tab}
		b.SVG = p.chart(sweepChart(pts))
		sec.Blocks = append(sec.Blocks, b)
	}
	return sec
}

func matrixSection(p *page, in inputs) *section {
	m := in.matrix
	if m == nil {
		return nil
	}
	sec := &section{ID: "matrix", Title: "Toolchain matrix",
		Intro: "The same plugin built by each Go toolchain, each cell's median over launches with its interval (" + in.matrixLabel + ")."}
	tab := &table{Head: []string{"toolchain", "cell", "median ns", "interval", "raw C to Go call ns", "notes"}}
	var rows []dotRow
	for i, r := range m.Rows {
		for _, c := range r.Cells {
			label := r.GoVersion + " " + c.Lib + "/" + c.Requested
			if c.InEffect != c.Requested {
				label += " (ran " + c.InEffect + ")"
			}
			tab.add(tc(r.GoVersion), tcell{Text: c.Name, Class: "code"}, tc(nump(c.Median)), tc(interval(c.CILow, c.CIHigh)),
				tc(nump(r.RawCrossingNs)), tc(strings.Join(r.Notes, "; ")))
			if c.Median != nil && *c.Median > 0 {
				rows = append(rows, dotRow{Label: label, Point: *c.Median, Low: c.CILow, High: c.CIHigh, Color: paletteColor(i)})
			}
		}
	}
	var notes []string
	for _, s := range m.Skipped {
		notes = append(notes, "skipped "+s.Toolchain+": "+s.Reason)
	}
	b := block{ID: "matrix-1", Heading: fmt.Sprintf("%d toolchains, plugin SDK %s, %s", len(m.Rows), m.SDKVersion, m.Machine.CPUModel), Notes: notes, Table: tab}
	if len(rows) > 0 {
		b.SVG = p.chart(dotIntervals("Cells by toolchain", "ns per extraction (log scale)", rows, dotOpts{Log: true}))
	}
	sec.Blocks = append(sec.Blocks, b)
	return sec
}

package history

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// History is every series of a set of runs, analysed.
type History struct {
	Runs      []Run
	Results   []Result // the series long enough to analyse, in Build's order
	Short     []Series // those too short (fewer than two segments' points)
	Gated     []Judged // the gated series' verdicts
	Opt       Options
	Gate      string  // the prefix of the gated series' names
	Threshold float64 // percent
}

// Judged is a gated series' verdict.
type Judged struct {
	Result  *Result
	Verdict Verdict
}

// Analyse builds the series of runs, finds their change points and
// judges the series whose names begin with gate.
func AnalyseRuns(runs []Run, opt Options, gate string, thresholdPct float64) History {
	h := History{Runs: runs, Opt: opt, Gate: gate, Threshold: thresholdPct}
	for _, s := range Build(runs) {
		if len(s.Points) < 2*opt.MinSegment {
			h.Short = append(h.Short, s)
			continue
		}
		h.Results = append(h.Results, Analyse(s, opt))
	}
	for i := range h.Results {
		if gate != "" && strings.HasPrefix(h.Results[i].Series.Name, gate) {
			h.Gated = append(h.Gated, Judged{Result: &h.Results[i], Verdict: Gate(h.Results[i], thresholdPct)})
		}
	}
	return h
}

// Regressed reports whether a gated series' newest segment is a
// regression beyond the threshold (exit status 1).
func (h History) Regressed() bool {
	for _, g := range h.Gated {
		if g.Verdict.Regressed {
			return true
		}
	}
	return false
}

// Changed is the results with at least one change point.
func (h History) Changed() []*Result {
	var c []*Result
	for i := range h.Results {
		if len(h.Results[i].Changes) > 0 {
			c = append(c, &h.Results[i])
		}
	}
	return c
}

// num is a value with five significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 5, 64) }

func day(t time.Time) string { return t.UTC().Format("2006-01-02 15:04Z") }

// summary is the first lines: what was read and how it was analysed.
func (h History) summary() []string {
	first, last := h.Runs[0], h.Runs[len(h.Runs)-1]
	return []string{
		fmt.Sprintf("%d commits, %s (%s) to %s (%s); %d series analysed, %d with change points, %d too short (fewer than %d commits)",
			len(h.Runs), short(first.Commit), day(first.Time), short(last.Commit), day(last.Time),
			len(h.Results), len(h.Changed()), len(h.Short), 2*h.Opt.MinSegment),
		fmt.Sprintf("method: E-divisive means (Matteson and James 2014), each change point a permutation test of %d shuffles, p < %g, segments of %d commits or more, seed %d; sizes: Hodges-Lehmann shift between the segments either side, 95%% interval",
			h.Opt.Permutations, h.Opt.Alpha, h.Opt.MinSegment, h.Opt.Seed),
	}
}

func changeLine(c Change) string {
	return fmt.Sprintf("%s %s %-4s %s -> %s  %+.2f%% [%+.2f, %+.2f]  p %.3f", short(c.Commit), day(c.Time), c.Direction,
		num(c.Before), num(c.After), c.Percent.Estimate, c.Percent.Low, c.Percent.High, c.P)
}

func (h History) gateLines() []string {
	if h.Gate == "" {
		return nil
	}
	if len(h.Gated) == 0 {
		return []string{fmt.Sprintf("gate: no series named %s... with %d commits or more: nothing judged", h.Gate, 2*h.Opt.MinSegment)}
	}
	var l []string
	for _, g := range h.Gated {
		l = append(l, "gate: "+g.Verdict.Line)
	}
	return l
}

// Text writes the plain report.
func (h History) Text(w io.Writer) {
	for _, l := range h.summary() {
		fmt.Fprintln(w, l)
	}
	for _, r := range h.Results {
		s := r.Series
		if len(r.Changes) == 0 {
			fmt.Fprintf(w, "\n%s (%s, %d commits): no change point, median %s\n", s.Name, s.Unit, len(s.Points), num(medianOf(values(s.Points))))
			continue
		}
		fmt.Fprintf(w, "\n%s (%s, %d commits): %d change point(s)\n", s.Name, s.Unit, len(s.Points), len(r.Changes))
		for _, c := range r.Changes {
			fmt.Fprintf(w, "  %s\n", changeLine(c))
		}
	}
	if len(h.Gated) > 0 || h.Gate != "" {
		fmt.Fprintln(w)
	}
	for _, l := range h.gateLines() {
		fmt.Fprintln(w, l)
	}
}

// Markdown writes the report as GitHub-flavoured markdown (a job summary).
func (h History) Markdown(w io.Writer) {
	fmt.Fprintf(w, "## cgocost history\n\n")
	for _, l := range h.summary() {
		fmt.Fprintf(w, "%s\n\n", l)
	}
	if len(h.Changed()) == 0 {
		fmt.Fprintf(w, "No change point in any series.\n\n")
	} else {
		fmt.Fprintf(w, "| series | commit | time | direction | before | after | change [95%% interval] | p |\n|---|---|---|---|---|---|---|---|\n")
		for _, r := range h.Changed() {
			for _, c := range r.Changes {
				fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s | %+.2f%% [%+.2f, %+.2f] | %.3f |\n", mdEscape(r.Series.Name), short(c.Commit),
					day(c.Time), c.Direction, num(c.Before), num(c.After), c.Percent.Estimate, c.Percent.Low, c.Percent.High, c.P)
			}
		}
		fmt.Fprintln(w)
	}
	for _, l := range h.gateLines() {
		mark := ""
		if strings.Contains(l, "a regression beyond") {
			mark = "**regression** "
		}
		fmt.Fprintf(w, "- %s%s\n", mark, mdEscape(l))
	}
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

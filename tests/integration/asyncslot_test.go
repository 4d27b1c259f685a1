package integration

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Where the SDK's async slot of one caller's instance lay.
type asyncSlot struct {
	LineBytes  int     `json:"line_bytes"`
	LineOffset int     `json:"line_offset"`
	Lines      int     `json:"lines"`
	Why        *string `json:"why"`
}

// The parts of a run's JSON document that say where the SDK's async slot
// of each caller's instance lay.
type slotDoc struct {
	Cells []struct {
		Launches []struct {
			Plugins []struct {
				AsyncInEffect bool       `json:"async_in_effect"`
				AsyncSlot     *asyncSlot `json:"async_slot"`
			} `json:"plugins"`
		} `json:"launches"`
	} `json:"cells"`
}

// An async caller's slot is found in every kind of build (the archive,
// the c-shared library, a Go plugin loaded by path), with a place in its
// line that adds up (the SDK's 56 bytes from that offset span that many
// lines); a sync caller's is not looked for; the text report says the
// same as the document.
func TestAsyncSlotIsLocated(t *testing.T) {
	dir := buildDir(t)
	line := regexp.MustCompile(`# plugin 1: the SDK's async slot lies ([0-9]+) bytes into a ([0-9]+)-byte cache line: it spans ([0-9]+) lines?, which both sides write at every extraction`)
	for _, c := range []struct {
		exe  string
		args []string
	}{
		{"bench", []string{"--work", "bare"}},
		{"bench-shared", []string{"--work", "bare"}},
		{"bench-host", []string{"--plugin", filepath.Join(dir, "libmock.so")}},
	} {
		exe := filepath.Join(dir, c.exe)
		args := append([]string{"-a", "-n", "2000", "--warmup", "100", "-r", "2"}, c.args...)
		r := runTimeout(t, 2*time.Minute, exe, append(args, "--format", "json")...)
		if r.code != 0 {
			t.Fatalf("%s %v: exit %d: %s", c.exe, args, r.code, r.stderr)
		}
		var d slotDoc
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || len(d.Cells) != 1 || len(d.Cells[0].Launches) != 1 {
			t.Fatalf("%s: %v in %s", c.exe, err, r.stdout)
		}
		p := d.Cells[0].Launches[0].Plugins[0]
		if !p.AsyncInEffect {
			t.Skipf("%s: async not in effect (GOMAXPROCS 1?)", c.exe)
		}
		s := p.AsyncSlot
		if s == nil || s.LineBytes < 16 || s.Why != nil || s.LineOffset < 0 || s.LineOffset >= s.LineBytes ||
			s.Lines != (s.LineOffset+56+s.LineBytes-1)/s.LineBytes {
			t.Errorf("%s: async_slot %+v", c.exe, s)
			continue
		}
		r = runTimeout(t, 2*time.Minute, exe, args...)
		m := line.FindStringSubmatch(r.stdout)
		want := []string{fmt.Sprint(s.LineOffset), fmt.Sprint(s.LineBytes), fmt.Sprint(s.Lines)}
		if r.code != 0 || m == nil || strings.Join(m[1:], " ") != strings.Join(want, " ") {
			t.Errorf("%s: text report (exit %d) says %q, the document %v:\n%s", c.exe, r.code, m, want, r.stdout)
		}
	}
	r := runTimeout(t, 2*time.Minute, filepath.Join(dir, "bench"), "-n", "2000", "--format", "json")
	if r.code != 0 || strings.Contains(r.stdout, "async_slot") {
		t.Errorf("sync: exit %d, async_slot written: %s", r.code, r.stdout)
	}
}

// --slot-offset B places the SDK's slot array B bytes past a line in every
// process of the run: one run here (the slot of handle 1 at B: one line
// from 0 to 8, two beyond), with another allocator under the placer too,
// and --compare's cells, the textbook loop's included; what it cannot
// place is refused up front.
func TestSlotOffsetPlacesTheSlots(t *testing.T) {
	swapsMalloc(t) // the placer is a malloc in front of the allocator
	dir := buildDir(t)
	bench := filepath.Join(dir, "bench")
	place := func(what string, args ...string) []*asyncSlot {
		t.Helper()
		r := runTimeout(t, 3*time.Minute, bench, append(args, "--format", "json")...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", what, r.code, r.stderr)
		}
		var d slotDoc
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var slots []*asyncSlot
		for _, c := range d.Cells {
			for _, l := range c.Launches {
				for _, p := range l.Plugins {
					if p.AsyncSlot != nil {
						slots = append(slots, p.AsyncSlot)
					}
				}
			}
		}
		return slots
	}
	for _, c := range []struct {
		offset, lines int
		extra         []string
	}{{0, 1, nil}, {8, 1, nil}, {32, 2, nil}, {56, 2, []string{"--malloc", "jemalloc"}}} {
		args := append([]string{"-a", "--work", "bare", "-n", "2000", "--warmup", "100", "-r", "2",
			"--slot-offset", fmt.Sprint(c.offset)}, c.extra...)
		s := place(fmt.Sprint(args), args...)
		if len(s) != 1 || s[0].LineOffset != c.offset || s[0].Lines != c.lines || s[0].LineBytes != 64 {
			t.Errorf("%v: %+v, want the slot %d bytes into its line, %d lines", args, s, c.offset, c.lines)
		}
	}
	// --compare: every async Go cell (bench, bench-shared, the textbook loop)
	s := place("--compare", "--compare", "--time", "1", "--slot-offset", "8")
	if len(s) < 4 {
		t.Fatalf("--compare: %d async slots reported, want one a launch of 4 cells at least", len(s))
	}
	for _, x := range s {
		if x.LineOffset != 8 || x.Lines != 1 {
			t.Errorf("--compare --slot-offset 8: a slot %+v", x)
		}
	}
	for _, bad := range [][]string{{"-a", "--slot-offset", "4"}, {"-a", "--slot-offset", "64"},
		{"--slot-offset", "8"}, {"-a", "--slot-offset", "8", "--against", bench}} {
		r := runTimeout(t, time.Minute, bench, append([]string{"-n", "100"}, bad...)...)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "--slot-offset") {
			t.Errorf("%v: exit %d, stderr %q, want 2 and one line", bad, r.code, r.stderr)
		}
	}
}

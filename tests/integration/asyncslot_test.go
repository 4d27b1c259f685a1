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

// The parts of a run's JSON document that say where the SDK's async slot
// of each caller's instance lay.
type slotDoc struct {
	Cells []struct {
		Launches []struct {
			Plugins []struct {
				AsyncInEffect bool `json:"async_in_effect"`
				AsyncSlot     *struct {
					LineBytes  int     `json:"line_bytes"`
					LineOffset int     `json:"line_offset"`
					Lines      int     `json:"lines"`
					Why        *string `json:"why"`
				} `json:"async_slot"`
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

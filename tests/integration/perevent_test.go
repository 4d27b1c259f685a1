package integration

// --per-event K --host-calls per-field|batched (issue 23): an event's K
// fields as K calls of one field, or one call of K. The calls are counted
// by the plugin (mock.hostcalls: the Go mock with "count_calls", the C
// plugin always), values are verified in both, and bad input exits 2.

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

type perEventDoc struct {
	Options struct {
		PerEvent  uint32 `json:"per_event"`
		HostCalls string `json:"host_calls"`
		Fields    uint32 `json:"fields"`
	} `json:"options"`
	Cells []struct {
		Name string `json:"name"`
		Mode struct {
			InEffect string `json:"in_effect"`
		} `json:"mode"`
		Launches []struct {
			NsPerExtraction float64 `json:"ns_per_extraction"`
			PerEvent        *struct {
				Fields        uint32   `json:"fields"`
				HostCalls     string   `json:"host_calls"`
				NsPerEvent    float64  `json:"ns_per_event"`
				NsPerField    float64  `json:"ns_per_field"`
				CallsPerEvent *float64 `json:"calls_per_event"`
			} `json:"per_event"`
		} `json:"launches"`
	} `json:"cells"`
}

func perEventJSON(t *testing.T, exe string, args ...string) perEventDoc {
	t.Helper()
	r := run(t, exe, nil, append([]string{"--format", "json", "-n", "2000", "--warmup", "100"}, args...)...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	var d perEventDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, r.stdout)
	}
	if len(d.Cells) != 1 || len(d.Cells[0].Launches) != 1 || d.Cells[0].Launches[0].PerEvent == nil {
		t.Fatalf("%v: want one cell, one launch with a per_event record:\n%s", args, r.stdout)
	}
	return d
}

// The calls per event the plugin counted, checked against what was asked.
func checkCounted(t *testing.T, d perEventDoc, k uint32, hostCalls string, want float64) {
	t.Helper()
	c := d.Cells[0]
	p := c.Launches[0].PerEvent
	if p.Fields != k || p.HostCalls != hostCalls || d.Options.PerEvent != k || d.Options.HostCalls != hostCalls {
		t.Fatalf("per_event %+v, options %+v: want K %d, %s", *p, d.Options, k, hostCalls)
	}
	fields := "/fields=" + itoa(k) // a cell of one field says none
	if k == 1 {
		fields = ""
	}
	if !strings.HasSuffix(c.Name, fields+"/p=1/host-calls="+hostCalls) {
		t.Errorf("cell name %q does not say the event's K fields and how they were asked for", c.Name)
	}
	if p.CallsPerEvent == nil {
		t.Fatalf("%s: calls not counted by the plugin", c.Name)
	}
	if *p.CallsPerEvent != want {
		t.Fatalf("%s: the plugin counted %v plugin_extract_fields calls per event, want %v", c.Name, *p.CallsPerEvent, want)
	}
	if p.NsPerEvent != c.Launches[0].NsPerExtraction || math.Abs(p.NsPerField*float64(k)-p.NsPerEvent) > 1e-6*p.NsPerEvent {
		t.Errorf("%s: ns per event %v, per field %v, per extraction %v: inconsistent", c.Name, p.NsPerEvent,
			p.NsPerField, c.Launches[0].NsPerExtraction)
	}
}

func itoa(k uint32) string {
	b, _ := json.Marshal(k)
	return string(b)
}

// The Go mock counts the calls it serves: per-field makes K a event, batched
// one, sync and async, for every work kind that returns a value.
func TestPerEventCallsCountedByTheGoMock(t *testing.T) {
	dir := buildDir(t)
	for _, exe := range []string{"bench", "bench-shared"} {
		for _, async := range []bool{false, true} {
			for _, work := range []string{"u64", "str"} {
				for _, hc := range []struct {
					name string
					want float64
				}{{"per-field", 4}, {"batched", 1}} {
					cfg := `{"work":"` + work + `","count_calls":true,"async":false}`
					args := []string{"--per-event", "4", "--host-calls", hc.name, "--work", work}
					if async {
						cfg = strings.Replace(cfg, `"async":false`, `"async":true`, 1)
						args = append(args, "-a")
					}
					d := perEventJSON(t, filepath.Join(dir, exe), append(args, "--plugin-config", cfg)...)
					checkCounted(t, d, 4, hc.name, hc.want)
					if mode := map[bool]string{false: "sync", true: "async"}[async]; d.Cells[0].Mode.InEffect != mode {
						t.Errorf("%s: %s in effect, want %s", d.Cells[0].Name, d.Cells[0].Mode.InEffect, mode)
					}
				}
			}
		}
	}
}

// The C plugin always counts: through bench-host and --plugin.
func TestPerEventCallsCountedByTheCPlugin(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	for _, k := range []uint32{1, 3, 16} {
		for _, hc := range []string{"per-field", "batched"} {
			d := perEventJSON(t, host, "--plugin", filepath.Join(dir, "libcmock.so"), "--per-event", itoa(k),
				"--host-calls", hc, "--work", "u64")
			want := 1.0
			if hc == "per-field" {
				want = float64(k)
			}
			checkCounted(t, d, k, hc, want)
		}
	}
}

// Every value is checked in both modes: a corrupted one fails the run.
func TestPerEventValuesVerified(t *testing.T) {
	dir := buildDir(t)
	for _, hc := range []string{"per-field", "batched"} {
		for _, work := range []string{"u64", "str"} {
			r := run(t, filepath.Join(dir, "bench"), nil, "-n", "2000", "-r", "2", "--warmup", "0", "--work", work,
				"--per-event", "4", "--host-calls", hc, "--plugin-config",
				`{"work":"`+work+`","corrupt_every":1001}`)
			if r.code != 3 || !strings.Contains(r.stderr, "returned a wrong or missing value") {
				t.Errorf("%s %s: exit %d, stderr %q: want 3 and the wrong value named", hc, work, r.code, r.stderr)
			}
		}
		r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libcmock.so"), "-n",
			"2000", "-r", "2", "--warmup", "0", "--work", "u64", "--per-event", "3", "--host-calls", hc,
			"--plugin-config", `{"corrupt_every":999}`)
		if r.code != 3 || !strings.Contains(r.stderr, "wrong or missing value") {
			t.Errorf("C plugin %s: exit %d, stderr %q: want 3 and the wrong value named", hc, r.code, r.stderr)
		}
	}
}

// The text report: ns per event and per field, and the calls.
func TestPerEventText(t *testing.T) {
	dir := buildDir(t)
	for _, hc := range []string{"per-field", "batched"} {
		for _, async := range []string{"", "-a"} {
			args := []string{"-n", "2000", "--warmup", "100", "--per-event", "4", "--host-calls", hc}
			if async != "" {
				args = append(args, async)
			}
			r := run(t, filepath.Join(dir, "bench"), nil, args...)
			if r.code != 0 {
				t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
			}
			seedLines(t, r, 1, "2000")
			mode := map[string]string{"": "sync", "-a": "async"}[async]
			for _, want := range []string{"# per event: " + mode + ", ", " ns per event, ", " ns per field\n",
				map[string]string{"per-field": "4 calls of one field", "batched": "one call of 4"}[hc],
				"calls not counted by the plugin"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("%v: no %q in:\n%s", args, want, r.stdout)
				}
			}
		}
	}
	r := run(t, filepath.Join(dir, "bench"), nil, "-n", "1000", "--warmup", "10", "--per-event", "2", "--format", "gobench")
	if r.code != 0 || !strings.Contains(r.stdout, " ns/field\n") || !strings.Contains(r.stdout, "/host-calls=per-field-") {
		t.Errorf("gobench: exit %d, no ns/field metric or cell name:\n%s", r.code, r.stdout)
	}
}

// A foreign plugin: the K --field given, or the first K it declares that
// take no argument; fewer than K, or a field named twice in one batched
// call, is bad input.
func TestPerEventForeignPlugin(t *testing.T) {
	dir := buildDir(t)
	host := filepath.Join(dir, "bench-host")
	so := buildSharedLib(t, "twofields", fakePlugin("3.0.0",
		`[{"name":"x.a","type":"uint64","desc":"d"},{"name":"x.k","type":"uint64","desc":"d","arg":{"isRequired":true,"isKey":true}},{"name":"x.b","type":"uint64","desc":"d"}]`))
	for _, hc := range []string{"per-field", "batched"} {
		r := run(t, host, nil, "--plugin", so, "-n", "1000", "--warmup", "10", "--per-event", "2", "--host-calls", hc)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", hc, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "calls not counted by the plugin") {
			t.Errorf("%s: a plugin without mock.hostcalls claimed a count:\n%s", hc, r.stdout)
		}
	}
	r := run(t, host, nil, "--plugin", so, "-n", "1000", "--per-event", "2", "--host-calls", "per-field", "--field", "x.a",
		"--field", "x.a")
	if r.code != 0 {
		t.Errorf("per-field may ask one field twice: exit %d: %s", r.code, r.stderr)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--per-event", "3"}, "declares 2 fields that take no argument, fewer than K"},
		{[]string{"--per-event", "3", "--host-calls", "batched"}, "declares 2 fields that take no argument, fewer than K"},
		{[]string{"--per-event", "2", "--host-calls", "batched", "--field", "x.a", "--field", "x.a"}, "--field x.a is named twice"},
	}
	for _, c := range cases {
		args := append([]string{"--plugin", so, "-n", "1000"}, c.args...)
		oneLine(t, run(t, host, nil, args...), 2, c.want, args)
	}
}

func TestPerEventBadInput(t *testing.T) {
	dir := buildDir(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--per-event", "0"}, "--per-event: '0' must be at least 1"},
		{[]string{"--per-event", "257"}, "--per-event: '257' is too large (at most 256)"},
		{[]string{"--per-event", "x"}, "--per-event"},
		{[]string{"--host-calls", "batched"}, "--host-calls applies to --per-event K"},
		{[]string{"--per-event", "4", "--host-calls", "all"}, "'all' is not one of per-field, batched, both"},
		{[]string{"--per-event", "4", "--host-calls", "both", "--compare"}, "--host-calls both runs its own cells: not with --compare"},
		{[]string{"--per-event", "4", "--fields", "2"}, "not with --fields 2"},
		{[]string{"--per-event", "4", "--scenario", "lifecycle"}, "not with --scenario lifecycle"},
		{[]string{"--per-event", "4", "--rate", "100"}, "not with --rate"},
		{[]string{"--per-event", "4", "--gap-us", "10"}, "not with --gap-us"},
		{[]string{"--per-event", "4", "--anatomy"}, "--anatomy"},
	}
	for _, c := range cases {
		args := append([]string{"-n", "1000"}, c.args...)
		oneLine(t, run(t, filepath.Join(dir, "bench"), nil, args...), 2, c.want, args)
	}
	cmock := filepath.Join(dir, "libcmock.so")
	args := []string{"--plugin", cmock, "-n", "1000", "--per-event", "3", "--field", "mock.u64.0"}
	oneLine(t, run(t, filepath.Join(dir, "bench-host"), nil, args...), 2, "--per-event 3 with 1 --field", args)
}

type pairedPerEventDoc struct {
	Cells []struct {
		Name     string `json:"name"`
		Launches []struct {
			PerEvent *struct {
				HostCalls     string   `json:"host_calls"`
				CallsPerEvent *float64 `json:"calls_per_event"`
			} `json:"per_event"`
		} `json:"launches"`
	} `json:"cells"`
	Paired struct {
		Cells []struct {
			Name string `json:"name"`
		} `json:"cells"`
		Ratios []struct {
			Name        string `json:"name"`
			Numerator   int    `json:"numerator"`
			Denominator int    `json:"denominator"`
		} `json:"ratios"`
	} `json:"paired"`
}

// --host-calls both: per-field and batched in paired blocks, with
// batched/per-field. Through the C plugin, whose cells are sync only (a
// --plugin library runs in the mode asked): no async worker to stall on a
// loaded machine. The built-in's six cells (sync and async and the C
// plugin) are tests/unit/orchestrate/test_plan.c's.
func TestPerEventBothPaired(t *testing.T) {
	dir := buildDir(t)
	r := run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libcmock.so"), "--per-event", "2",
		"--host-calls", "both", "--time", "1", "--warmup", "100", "--lead-in-us", "100", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var d pairedPerEventDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	want := []string{
		"lib=libcmock/mode=sync/work=noop/fields=2/p=1/host-calls=per-field",
		"lib=libcmock/mode=sync/work=noop/fields=2/p=1/host-calls=batched",
	}
	if len(d.Paired.Cells) != len(want) || len(d.Cells) != len(want) {
		t.Fatalf("%d paired cells, %d cells, want %d:\n%s", len(d.Paired.Cells), len(d.Cells), len(want), r.stdout)
	}
	for i, w := range want {
		if d.Paired.Cells[i].Name != w || d.Cells[i].Name != w {
			t.Errorf("cell %d: %q / %q, want %q", i, d.Paired.Cells[i].Name, d.Cells[i].Name, w)
		}
		// the C plugin counts: 2 calls an event per-field, 1 batched
		calls := []float64{2, 1}[i]
		for _, l := range d.Cells[i].Launches {
			if l.PerEvent == nil || l.PerEvent.CallsPerEvent == nil || *l.PerEvent.CallsPerEvent != calls {
				t.Errorf("%s: calls per event not counted as %v: %+v", d.Cells[i].Name, calls, l.PerEvent)
			}
		}
	}
	if len(d.Paired.Ratios) != 1 || d.Paired.Ratios[0].Name != "batched/per-field bench-host sync wall" ||
		d.Paired.Ratios[0].Numerator != 1 || d.Paired.Ratios[0].Denominator != 0 {
		t.Errorf("ratios %+v, want batched/per-field bench-host sync wall, cell 1 over cell 0", d.Paired.Ratios)
	}
	r = run(t, filepath.Join(dir, "bench-host"), nil, "--plugin", filepath.Join(dir, "libcmock.so"), "--per-event", "2",
		"--host-calls", "both", "--time", "1", "--warmup", "100", "--lead-in-us", "100")
	if r.code != 0 || !strings.Contains(r.stdout, "per event of 2 fields") ||
		!strings.Contains(r.stdout, "batched/per-field bench-host sync wall: ") {
		t.Errorf("text: exit %d, no per-event table or saving:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --work json: the field decodes the payload (a JSON document of
// --payload-size bytes) and returns a value that depends on the event and
// the document's key, checked by the driver, in every library and mode.
func TestJSONFieldVerified(t *testing.T) {
	dir := buildDir(t)
	bench, host, cmock := filepath.Join(dir, "bench"), filepath.Join(dir, "bench-host"), filepath.Join(dir, "libcmock.so")
	for _, size := range []string{"256", "2048"} {
		for _, c := range []struct {
			exe  string
			args []string
		}{
			{bench, nil},
			{bench, []string{"-a"}},
			{filepath.Join(dir, "bench-shared"), nil},
			{host, []string{"--plugin", cmock}},
			{bench, []string{"--per-event", "3", "--host-calls", "per-field"}},
			{host, []string{"--plugin", cmock, "--per-event", "3", "--host-calls", "batched"}},
		} {
			args := append([]string{"-n", "500", "--warmup", "50", "--work", "json", "--payload-size", size}, c.args...)
			r := run(t, c.exe, nil, args...)
			if r.code != 0 {
				t.Errorf("%s %v: exit %d: %s", filepath.Base(c.exe), args, r.code, r.stderr)
				continue
			}
			seedLines(t, r, 1, "500")
			if !strings.Contains(r.stdout, "# work: json, ") {
				t.Errorf("%v: the work line does not say json:\n%s", args, r.stdout)
			}
		}
	}
	for _, hc := range []struct {
		name string
		want float64
	}{{"per-field", 3}, {"batched", 1}} {
		d := perEventJSON(t, bench, "--per-event", "3", "--host-calls", hc.name, "--work", "json", "--payload-size", "2048",
			"--plugin-config", `{"work":"json","count_calls":true}`)
		checkCounted(t, d, 3, hc.name, hc.want)
	}
	for _, c := range []struct {
		exe  string
		args []string
	}{
		{bench, []string{"--plugin-config", `{"work":"json","corrupt_every":301}`}},
		{host, []string{"--plugin", cmock, "--plugin-config", `{"corrupt_every":301}`}},
	} {
		args := append([]string{"-n", "1000", "-r", "2", "--warmup", "0", "--work", "json", "--payload-size", "512"}, c.args...)
		r := run(t, c.exe, nil, args...)
		if r.code != 3 || !strings.Contains(r.stderr, "wrong or missing value") {
			t.Errorf("%v: exit %d, stderr %q: want 3 and the wrong value named", args, r.code, r.stderr)
		}
	}
	args := []string{"-n", "1000", "--payload-size", "512"}
	oneLine(t, run(t, bench, nil, args...), 2, "--payload-size applies to a plugin library", args)
}

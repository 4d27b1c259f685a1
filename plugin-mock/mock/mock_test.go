package mock

import (
	"runtime"
	"testing"
	"time"
)

func TestParseConfigAsyncOnlyWhenAsked(t *testing.T) {
	cases := []struct {
		in    string
		async bool
		work  string
	}{
		{"", false, WorkNoop},
		{"async", true, WorkNoop},
		{"  async\n", true, WorkNoop},
		{`{"async":true}`, true, WorkNoop},
		{`{"async":false}`, false, WorkNoop},
		{`{}`, false, WorkNoop},
		{`{"work":"u64"}`, false, WorkU64},
		{`{"async":true,"work":"str"}`, true, WorkStr},
	}
	for _, c := range cases {
		got, err := ParseConfig(c.in)
		if err != nil {
			t.Fatalf("ParseConfig(%q): %v", c.in, err)
		}
		if got.Async != c.async || got.Work != c.work {
			t.Errorf("ParseConfig(%q) = %+v, want async=%v work=%s", c.in, got, c.async, c.work)
		}
	}
}

func TestParseConfigRejects(t *testing.T) {
	for _, in := range []string{
		"sync", "ASYNC", `{"async":"yes"}`, `{"work":"sleep"}`, `{"asynk":true}`,
		`{"extra_ns":-1}`, `{"extra_ns":2000000000}`, `{"async":true} {}`, `[true]`,
	} {
		if c, err := ParseConfig(in); err == nil {
			t.Errorf("ParseConfig(%q) = %+v, want an error", in, c)
		}
	}
}

func TestValuesDependOnEventAndArg(t *testing.T) {
	if U64Value(1, 0) == U64Value(2, 0) || U64Value(1, 0) == U64Value(1, 1) {
		t.Fatal("U64Value does not separate events or arguments")
	}
	if U64Value(0, 7) != 7 {
		t.Fatalf("U64Value(0,7) = %d", U64Value(0, 7))
	}
	if StrValue(0, 0) != "cgocost-0" || StrValue(15, 0) != "cgocost-f" || StrValue(15, 1) != "cgocost-0" {
		t.Fatalf("StrValue: %q %q %q", StrValue(0, 0), StrValue(15, 0), StrValue(15, 1))
	}
}

func TestValuesDoNotAllocate(t *testing.T) {
	var sink uint64
	var s string
	n := testing.AllocsPerRun(1000, func() {
		sink += U64Value(sink, 3)
		s = StrValue(sink, 1)
	})
	if n != 0 {
		t.Fatalf("value functions allocate %.1f objects per call", n)
	}
	_ = s
}

// Spin burns CPU, so it is checked against the CPU time of the thread that
// runs it, not the wall clock: on a loaded machine (a load average of 5 on
// 2 CPUs) a 2 ms spin can wait tens of milliseconds for a CPU, but the CPU
// time it burns is still 2 ms. The bounds are those the wall-clock check
// had: a calibration off by more than 2x down or 10x up fails.
func TestSpinIsCalibrated(t *testing.T) {
	runtime.LockOSThread() // the thread whose CPU time is read is the one spinning
	defer runtime.UnlockOSThread()
	Spin(1) // calibrate
	// the least CPU of several runs: an interrupt only ever adds to a run
	best := time.Duration(1 << 62)
	for i := 0; i < 5; i++ {
		start := threadCPU(t)
		Spin(2_000_000)
		if d := threadCPU(t) - start; d < best {
			best = d
		}
	}
	if best < time.Millisecond || best > 20*time.Millisecond {
		t.Fatalf("Spin(2ms) burnt %v of CPU at best", best)
	}
	start := threadCPU(t)
	Spin(0)
	Spin(-5)
	if d := threadCPU(t) - start; d > 50*time.Millisecond {
		t.Fatalf("Spin(0) burnt %v of CPU", d)
	}
}

// threadCPU is ThreadCPU, or the end of the test.
func threadCPU(t *testing.T) time.Duration {
	t.Helper()
	d, ok := ThreadCPU()
	if !ok {
		t.Fatal("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
	}
	return d
}

func TestFieldLayout(t *testing.T) {
	seen := map[string]bool{}
	for id := 0; id < NumFields; id++ {
		n := FieldName(id)
		if n == "" || seen[n] {
			t.Fatalf("field %d: name %q empty or repeated", id, n)
		}
		seen[n] = true
	}
	if FieldName(FieldTid) != "mock.tid" || FieldName(WorkField(KindU64, 0)) != "mock.u64.0" ||
		FieldName(WorkField(KindStr, 255)) != "mock.str.255" {
		t.Fatalf("unexpected names: %s %s %s", FieldName(FieldTid), FieldName(WorkField(KindU64, 0)),
			FieldName(WorkField(KindStr, 255)))
	}
	if FieldName(WorkField(KindBare, 0)) != "mock.bare.0" || FieldName(WorkField(KindEvent, 2)) != "mock.event.2" {
		t.Fatalf("unexpected names: %s %s", FieldName(WorkField(KindBare, 0)), FieldName(WorkField(KindEvent, 2)))
	}
	for _, w := range []string{WorkBare, WorkEvent} {
		if c, err := ParseConfig(`{"work":"` + w + `"}`); err != nil || c.Work != w {
			t.Errorf("work %q: %v %v", w, c, err)
		}
	}
	for _, c := range []struct{ kind, lane int }{{KindNoop, 0}, {KindU64, 7}, {KindStr, MaxLanes - 1}, {KindBare, 3}, {KindEvent, MaxLanes - 1}} {
		k, l, ok := SplitWorkField(WorkField(c.kind, c.lane))
		if !ok || k != c.kind || l != c.lane {
			t.Errorf("SplitWorkField(WorkField(%d,%d)) = %d,%d,%v", c.kind, c.lane, k, l, ok)
		}
	}
	if _, _, ok := SplitWorkField(FieldGoAllocs); ok {
		t.Error("a probe field split as a work field")
	}
	if _, _, ok := SplitWorkField(NumFields); ok {
		t.Error("an identifier past the list split as a work field")
	}
	if _, _, ok := SplitWorkField(FieldHostCalls); ok || FieldName(FieldHostCalls) != "mock.hostcalls" {
		t.Error("mock.hostcalls split as a work field, or misnamed")
	}
	if _, ok := JSONLane(FieldGoroutine); ok || FieldName(FieldGoroutine) != "mock.goroutine" ||
		FieldName(WorkField(KindJSON, MaxLanes-1)) != "mock.json.255" {
		t.Error("mock.goroutine taken for a json lane, or misnamed")
	}
	if FieldName(WorkField(KindJSON, 3)) != "mock.json.3" || FieldType(WorkField(KindJSON, 3)) != "uint64" {
		t.Error("mock.json misnamed or mistyped")
	}
	a, err := DecodeAudit([]byte(`{"kind":"Event","verb":"get","user":{"username":"u","groups":["g"]},"key":1592639710,"pad":"xx"}`))
	if err != nil || a.Key != 0x5eedc0de || a.User.Username != "u" || a.Verb != "get" {
		t.Errorf("DecodeAudit: %+v %v", a, err)
	}
	if _, err := DecodeAudit([]byte(`{"key":`)); err == nil {
		t.Error("a truncated document decoded")
	}
	if JSONValue(7, 2, 0x5eedc0de) != U64Value(7, 2)^0x5eedc0de {
		t.Error("JSONValue")
	}
	if c, err := ParseConfig(`{"count_calls":true}`); err != nil || !c.CountCalls {
		t.Errorf("count_calls: %v %v", c, err)
	}
	if FieldType(WorkField(KindStr, 3)) != "string" || FieldType(WorkField(KindU64, 3)) != "uint64" {
		t.Error("wrong field types")
	}
}

func TestCorruptEvery(t *testing.T) {
	c, err := ParseConfig(`{"corrupt_every":3}`)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for i := uint64(1); i <= 9; i++ {
		if c.Corrupt(i) {
			got = append(got, i)
		}
	}
	if len(got) != 3 || got[0] != 3 || got[2] != 9 {
		t.Fatalf("corrupted calls %v, want [3 6 9]", got)
	}
	if (Config{}).Corrupt(3) {
		t.Fatal("the default configuration corrupts values")
	}
}

func TestAllocBytesConfig(t *testing.T) {
	c, err := ParseConfig(`{"alloc_bytes":4096}`)
	if err != nil || c.AllocBytes != 4096 {
		t.Fatalf("alloc_bytes: %+v, %v", c, err)
	}
	if _, err := ParseConfig(`{"alloc_bytes":-1}`); err == nil {
		t.Fatal("a negative alloc_bytes was accepted")
	}
	before := testing.AllocsPerRun(10, func() { Alloc(4096) })
	if before < 1 {
		t.Fatalf("Alloc(4096) allocated %v objects per call, want at least 1", before)
	}
	if n := testing.AllocsPerRun(10, func() { Alloc(0) }); n != 0 {
		t.Fatalf("Alloc(0) allocated %v objects per call", n)
	}
}

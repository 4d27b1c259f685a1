package mock

import (
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

func TestSpinLastsAtLeastAsLong(t *testing.T) {
	start := time.Now()
	Spin(2_000_000)
	if d := time.Since(start); d < 2*time.Millisecond {
		t.Fatalf("Spin(2ms) returned after %v", d)
	}
	start = time.Now()
	Spin(0)
	Spin(-5)
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Fatalf("Spin(0) took %v", d)
	}
}

package main

import "testing"

func TestCallCounterTellsCallsApart(t *testing.T) {
	const base = uintptr(0x10000)
	c := newCallCounter(nil)
	// one call of 4 fields, twice: 2 calls
	for e := 0; e < 2; e++ {
		for i := uintptr(0); i < 4; i++ {
			c.see(base + i*fieldStride)
		}
	}
	if c.calls != 2 {
		t.Fatalf("batched: %d calls, want 2", c.calls)
	}
	// 4 calls of one field through one struct
	c = newCallCounter(nil)
	for i := 0; i < 4; i++ {
		c.see(base)
	}
	if c.calls != 4 {
		t.Fatalf("per-field: %d calls, want 4", c.calls)
	}
	if fieldStride != 64 {
		t.Fatalf("ss_plugin_extract_field is 64 bytes on amd64 and arm64, got %d", fieldStride)
	}
}

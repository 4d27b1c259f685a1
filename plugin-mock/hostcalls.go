package main

// The mock's count of plugin_extract_fields calls (mock.hostcalls), on only
// with the "count_calls" configuration key: a test tells K calls of one
// field from one call of K fields by it, counted where the calls arrive
// rather than assumed by the host.
//
// The SDK walks one call's fields in array order and hands each field's
// ss_plugin_extract_field to the request it gets from the plugin's
// ExtractRequestPool (SetPtr). So a request begins a new call unless its
// struct is the one right after the previous request's: one call of K fields
// passes K adjacent structs, K calls of one field (one struct reused, as
// libsinsp's filter check does) pass K non-adjacent ones. A host making
// single-field calls through consecutive elements of one array would be
// counted as one call; cgocost's per-field loop reuses one struct.

/*
#include <stdint.h>
// the plugin API's ss_plugin_extract_field (plugin_types.h, API 3.x), for
// its size: the stride of one call's field array
typedef struct {
	void *res;
	uint64_t res_len;
	uint32_t field_id;
	const char *field;
	const char *arg_key;
	uint64_t arg_index;
	uint32_t arg_present;
	uint32_t ftype;
	uint32_t flist;
} cgocost_extract_field_layout;
*/
import "C"

import (
	"unsafe"

	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk"
)

const fieldStride = uintptr(C.sizeof_cgocost_extract_field_layout)

// callCounter wraps the SDK's request pool: every request it hands out
// reports the struct it is given.
type callCounter struct {
	inner sdk.ExtractRequestPool
	reqs  map[int]*countedRequest
	last  uintptr
	calls uint64
}

// newCallCounter counts over inner, the SDK's own pool. The plugin sets it
// as its pool in Init, which the SDK's plugin_init then keeps: no method
// on the path of an uncounted extraction changes.
func newCallCounter(inner sdk.ExtractRequestPool) *callCounter {
	return &callCounter{inner: inner, reqs: make(map[int]*countedRequest)}
}

func (c *callCounter) Get(i int) sdk.ExtractRequest {
	r, ok := c.reqs[i]
	if !ok {
		r = &countedRequest{ExtractRequest: c.inner.Get(i), c: c}
		c.reqs[i] = r
	}
	return r
}

func (c *callCounter) MakeOffsetArrayPtrs(p unsafe.Pointer, n uint32) {
	c.inner.MakeOffsetArrayPtrs(p, n)
}

func (c *callCounter) Free() { c.inner.Free() }

// see reports the struct of the next field request: a new call unless it
// follows the previous request's struct.
func (c *callCounter) see(p uintptr) {
	if c.last == 0 || p != c.last+fieldStride {
		c.calls++
	}
	c.last = p
}

type countedRequest struct {
	sdk.ExtractRequest
	c *callCounter
}

func (r *countedRequest) SetPtr(p unsafe.Pointer) {
	r.c.see(uintptr(p))
	r.ExtractRequest.SetPtr(p)
}

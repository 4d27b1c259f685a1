package mongocrypt

/*
#cgo pkg-config: libmongocrypt
#cgo noescape cgocost_binary_data
#cgo nocallback cgocost_binary_data
#cgo noescape cgocost_binary_len
#cgo nocallback cgocost_binary_len
#include "binding.h"
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// read returns the data pointer and length of b, read as a says.
func read(a Access, b *C.mongocrypt_binary_t) (unsafe.Pointer, int) {
	switch a {
	case Direct:
		return b.data, int(b.len)
	case AccessorAnnotated:
		crossed(2)
		return unsafe.Pointer(C.cgocost_binary_data(b)), int(C.cgocost_binary_len(b))
	default:
		crossed(2)
		return unsafe.Pointer(C.mongocrypt_binary_data(b)), int(C.mongocrypt_binary_len(b))
	}
}

// view returns the bytes b views, read as a says. The slice aliases memory
// owned by C: it is valid only as long as b's data is, and must be copied to
// outlive it.
func view(a Access, b *C.mongocrypt_binary_t) []byte {
	p, n := read(a, b)
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

// goBinary is a mongocrypt_binary_t that views Go bytes handed to C as its
// Bytes mode says. The zero value is empty; init, use b, then destroy.
type goBinary struct {
	b      *C.mongocrypt_binary_t
	mem    unsafe.Pointer // Copy: the C copy of the bytes
	pinner runtime.Pinner // Pin: keeps the Go bytes in place while b views them
	pinned bool
}

// init makes g a binary viewing data. With Pin, data must not be modified
// until destroy.
func (g *goBinary) init(m Bytes, data []byte) error {
	if uint64(len(data)) > math.MaxUint32 {
		return fmt.Errorf("mongocrypt: %d bytes do not fit a mongocrypt_binary_t (at most %d)", len(data), uint32(math.MaxUint32))
	}
	if len(data) == 0 {
		// The library refuses a NULL data pointer, even for zero bytes.
		g.b = newOutBinary()
		return nil
	}
	var p *C.uint8_t
	switch m {
	case Pin:
		g.pinner.Pin(&data[0])
		g.pinned = true
		made(handlePin)
		p = (*C.uint8_t)(unsafe.Pointer(&data[0]))
	default:
		crossed(1)
		g.mem = C.CBytes(data)
		made(handleCMemory)
		p = (*C.uint8_t)(g.mem)
	}
	crossed(1)
	g.b = C.mongocrypt_binary_new_from_data(p, C.uint32_t(len(data)))
	made(handleBinary)
	return nil
}

// destroy releases the binary, then the bytes behind it.
func (g *goBinary) destroy() {
	if g.b != nil {
		crossed(1)
		C.mongocrypt_binary_destroy(g.b)
		freed(handleBinary)
		g.b = nil
	}
	if g.mem != nil {
		crossed(1)
		C.free(g.mem)
		freed(handleCMemory)
		g.mem = nil
	}
	if g.pinned {
		g.pinner.Unpin()
		freed(handlePin)
		g.pinned = false
	}
}

// newOutBinary returns an empty binary for the library to point at its
// output.
func newOutBinary() *C.mongocrypt_binary_t {
	crossed(1)
	b := C.mongocrypt_binary_new()
	made(handleBinary)
	return b
}

func destroyBinary(b *C.mongocrypt_binary_t) {
	crossed(1)
	C.mongocrypt_binary_destroy(b)
	freed(handleBinary)
}

// reusedView is one mongocrypt_binary_t pointed in turn at each value by
// writing its fields from Go (no crossing), instead of a new binary per
// value. It relies on the layout checked by CheckDirectLayout. With Copy the
// value is copied into one C buffer that grows as needed; with Pin the binary
// views the pinned Go bytes.
type reusedView struct {
	m      Bytes
	b      *C.mongocrypt_binary_t
	buf    unsafe.Pointer
	bufLen int
	pinner runtime.Pinner
	pinned bool
}

func newReusedView(m Bytes) (*reusedView, error) {
	if err := CheckDirectLayout(); err != nil {
		return nil, err
	}
	return &reusedView{m: m, b: newOutBinary()}, nil
}

// set points the view at data until release.
func (r *reusedView) set(data []byte) error {
	if uint64(len(data)) > math.MaxUint32 {
		return fmt.Errorf("mongocrypt: %d bytes do not fit a mongocrypt_binary_t", len(data))
	}
	if len(data) == 0 {
		r.b.data, r.b.len = nil, 0
		return nil
	}
	switch r.m {
	case Pin:
		r.pinner.Pin(&data[0])
		r.pinned = true
		made(handlePin)
		r.b.data = unsafe.Pointer(&data[0])
	default:
		if len(data) > r.bufLen {
			crossed(1)
			p := C.realloc(r.buf, C.size_t(len(data)))
			if p == nil {
				return fmt.Errorf("mongocrypt: out of C memory for %d bytes", len(data))
			}
			if r.buf == nil {
				made(handleCMemory)
			}
			r.buf, r.bufLen = p, len(data)
		}
		copy(unsafe.Slice((*byte)(r.buf), len(data)), data)
		r.b.data = r.buf
	}
	r.b.len = C.uint32_t(len(data))
	return nil
}

// release clears the view; with Pin it unpins the bytes, after C memory no
// longer points at them.
func (r *reusedView) release() {
	r.b.data, r.b.len = nil, 0
	if r.pinned {
		r.pinner.Unpin()
		freed(handlePin)
		r.pinned = false
	}
}

func (r *reusedView) destroy() {
	r.release()
	destroyBinary(r.b)
	r.b = nil
	if r.buf != nil {
		crossed(1)
		C.free(r.buf)
		freed(handleCMemory)
		r.buf, r.bufLen = nil, 0
	}
}

// cBuffer is n bytes of C memory filled with a pattern, viewed by a binary:
// a stand-in for the binaries libmongocrypt hands to the hooks.
type cBuffer struct {
	b   *C.mongocrypt_binary_t
	mem unsafe.Pointer
	n   int
}

func newCBuffer(n int) *cBuffer {
	c := &cBuffer{n: n}
	// At least one byte: the library refuses a NULL data pointer.
	crossed(1)
	c.mem = C.malloc(C.size_t(max(n, 1)))
	made(handleCMemory)
	s := unsafe.Slice((*byte)(c.mem), n)
	for i := range s {
		s[i] = byte(i*7 + n)
	}
	crossed(1)
	c.b = C.mongocrypt_binary_new_from_data((*C.uint8_t)(c.mem), C.uint32_t(n))
	made(handleBinary)
	return c
}

func (c *cBuffer) free() {
	destroyBinary(c.b)
	crossed(1)
	C.free(c.mem)
	freed(handleCMemory)
	c.b, c.mem = nil, nil
}

// handOver makes data readable by C for a moment and takes it back, as m
// says, without a binary: Copy is C.CBytes and free, Pin is Pin and Unpin.
// It returns the first byte as C sees it, so the work cannot be skipped.
func handOver(m Bytes, data []byte) byte {
	if len(data) == 0 {
		return 0
	}
	if m == Pin {
		var p runtime.Pinner
		p.Pin(&data[0])
		first := *(*byte)(unsafe.Pointer(&data[0]))
		p.Unpin()
		return first
	}
	crossed(2)
	mem := C.CBytes(data)
	first := *(*byte)(mem)
	C.free(mem)
	return first
}

// cBinary names the C type for the package's tests, which cannot use cgo.
type cBinary = C.mongocrypt_binary_t

package mongocrypt

/*
#include "binding.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// binaryReader reads the data pointer and length of a binary one way.
type binaryReader func(b *C.mongocrypt_binary_t) (unsafe.Pointer, uint32)

func readFields(b *C.mongocrypt_binary_t) (unsafe.Pointer, uint32) {
	return b.data, uint32(b.len)
}

func readAccessors(b *C.mongocrypt_binary_t) (unsafe.Pointer, uint32) {
	crossed(2)
	return unsafe.Pointer(C.mongocrypt_binary_data(b)), uint32(C.mongocrypt_binary_len(b))
}

// LayoutError says that reading the fields of mongocrypt_binary_t as laid
// out in binary.h gives something else than the library's accessors, so the
// direct mode would read garbage.
type LayoutError struct {
	Probe                   string
	FieldData, AccessorData uintptr
	FieldLen, AccessorLen   uint32
	LibraryVersion          string
}

func (e *LayoutError) Error() string {
	return fmt.Sprintf("mongocrypt: access=direct refused: the assumed mongocrypt_binary_t layout "+
		"{void *data; uint32_t len} disagrees with libmongocrypt %s on the %s probe "+
		"(fields: data=%#x len=%d; accessors: data=%#x len=%d); use access=accessor",
		e.LibraryVersion, e.Probe, e.FieldData, e.FieldLen, e.AccessorData, e.AccessorLen)
}

// LibraryVersion is the version string of the libmongocrypt in use.
func LibraryVersion() string {
	crossed(1)
	return C.GoString(C.mongocrypt_version(nil))
}

// The probes: an empty binary from mongocrypt_binary_new, an empty view, one
// byte, and a large buffer whose length has a distinct byte in each position.
var layoutProbes = []struct {
	name string
	size int // -1: mongocrypt_binary_new
}{
	{"empty (mongocrypt_binary_new)", -1},
	{"empty view", 0},
	{"1 byte", 1},
	{"large (1 MiB + 677 bytes)", 1<<20 + 0x2a5},
}

// checkLayout compares fields (how the direct mode reads) with the library's
// accessors on every probe and returns a *LayoutError for the first
// disagreement.
func checkLayout(fields binaryReader) error {
	for _, p := range layoutProbes {
		var err error
		if p.size < 0 {
			b := newOutBinary()
			err = compareReads(p.name, b, fields)
			destroyBinary(b)
		} else {
			c := newCBuffer(p.size)
			err = compareReads(p.name, c.b, fields)
			c.free()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func compareReads(probe string, b *C.mongocrypt_binary_t, fields binaryReader) error {
	fd, fl := fields(b)
	ad, al := readAccessors(b)
	if fd == ad && fl == al {
		return nil
	}
	return &LayoutError{
		Probe:     probe,
		FieldData: uintptr(fd), FieldLen: fl,
		AccessorData: uintptr(ad), AccessorLen: al,
		LibraryVersion: LibraryVersion(),
	}
}

var layoutVerdict struct {
	once sync.Once
	err  error
}

// CheckDirectLayout verifies once per process that the completed
// mongocrypt_binary_t layout agrees with the library, and returns the
// verdict: nil, or a *LayoutError that the direct mode refuses to run with.
func CheckDirectLayout() error {
	layoutVerdict.once.Do(func() { layoutVerdict.err = checkLayout(readFields) })
	return layoutVerdict.err
}

package mongocrypt

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

func TestDirectLayoutHolds(t *testing.T) {
	if err := CheckDirectLayout(); err != nil {
		t.Fatal(err)
	}
}

// Direct and accessor reads agree on buffers of many sizes, and on every
// binary the library hands to the Go hooks during a decryption.
func TestReadsAgree(t *testing.T) {
	accounted(t)
	sizes := []int{0, 1 << 16, 1<<20 + 3}
	for s := 1; s <= 600; s += 1 + s/8 {
		sizes = append(sizes, s)
	}
	for _, s := range sizes {
		c := newCBuffer(s)
		fd, fl := readFields(c.b)
		ad, al := readAccessors(c.b)
		if fd != ad || fl != al || int(fl) != s {
			t.Errorf("size %d: fields data=%p len=%d, accessors data=%p len=%d", s, fd, fl, ad, al)
		}
		for _, a := range Accesses {
			if v := view(a, c.b); len(v) != s || (s > 0 && unsafe.Pointer(&v[0]) != c.mem) {
				t.Errorf("size %d: view(%v) is off", s, a)
			}
		}
		c.free()
	}

	verifyHookReads.Store(true)
	defer verifyHookReads.Store(false)
	hookReadChecks.Store(0)
	hookReadMismatches.Store(0)
	cr := mustCrypt(t, Options{Crypto: GoCrypto, Access: Direct})
	n := min(*flagValues, 200)
	out, err := cr.Decrypt(bulkDoc(t, cr, n))
	if err == nil {
		err = CheckBulk(out, n)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := hookReadChecks.Load(); got < int64(7*n) {
		t.Errorf("only %d library binaries checked for %d values", got, n)
	}
	if bad := hookReadMismatches.Load(); bad != 0 {
		t.Errorf("%d of %d library binaries read differently through the fields", bad, hookReadChecks.Load())
	}
}

// Fakes of a mismatching layout: the check must catch each.
var fakeLayouts = map[string]binaryReader{
	// {uint32_t len; void *data;}
	"swapped": func(b *cBinary) (unsafe.Pointer, uint32) {
		p := unsafe.Pointer(b)
		return *(*unsafe.Pointer)(unsafe.Add(p, 8)), *(*uint32)(p)
	},
	// {void *data; uint64_t len;} read as a 32-bit length one word late
	"len one word late": func(b *cBinary) (unsafe.Pointer, uint32) {
		p := unsafe.Pointer(b)
		return *(*unsafe.Pointer)(p), *(*uint32)(unsafe.Add(p, 12))
	},
	// right offsets, but the length is counted in the pointer's word
	"len in data": func(b *cBinary) (unsafe.Pointer, uint32) {
		d, _ := readFields(b)
		return d, uint32(uintptr(d))
	},
}

func TestLayoutCheckCatchesMismatch(t *testing.T) {
	accounted(t)
	for name, fake := range fakeLayouts {
		err := checkLayout(fake)
		var le *LayoutError
		if !errors.As(err, &le) {
			t.Errorf("%s: the check passed a mismatching layout (err %v)", name, err)
			continue
		}
		msg := err.Error()
		for _, want := range []string{"access=direct refused", "mongocrypt_binary_t", le.Probe, LibraryVersion()} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: message %q lacks %q", name, msg, want)
			}
		}
	}
}

// With a mismatching layout the direct mode refuses to run; the other modes
// do not depend on the layout and still run.
func TestDirectRefusesMismatchingLayout(t *testing.T) {
	accounted(t)
	var checks atomic.Int32
	fakeCheck := func() error {
		checks.Add(1)
		return checkLayout(fakeLayouts["swapped"])
	}
	key := newKey(t)
	for _, c := range Cryptos {
		cr, err := newCrypt(Options{Crypto: c, Access: Direct, LocalKey: key}, fakeCheck)
		var le *LayoutError
		if !errors.As(err, &le) {
			if cr != nil {
				cr.Close()
			}
			t.Fatalf("%v/direct with a mismatching layout: got %v, want a *LayoutError", c, err)
		}
		for _, a := range []Access{Accessor, AccessorAnnotated} {
			cr, err := newCrypt(Options{Crypto: c, Access: a, LocalKey: key}, fakeCheck)
			if err != nil {
				t.Fatalf("%v/%v: %v", c, a, err)
			}
			cr.Close()
		}
	}
	if got := checks.Load(); got != int32(len(Cryptos)) {
		t.Errorf("the layout check ran %d times, want once per direct Crypt", got)
	}
}

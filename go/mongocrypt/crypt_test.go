package mongocrypt

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestParseModes(t *testing.T) {
	for _, c := range Cryptos {
		if got, err := ParseCrypto(c.String()); err != nil || got != c {
			t.Errorf("ParseCrypto(%q) = %v, %v", c, got, err)
		}
	}
	for _, a := range Accesses {
		if got, err := ParseAccess(a.String()); err != nil || got != a {
			t.Errorf("ParseAccess(%q) = %v, %v", a, got, err)
		}
	}
	for _, m := range ByteModes {
		if got, err := ParseBytes(m.String()); err != nil || got != m {
			t.Errorf("ParseBytes(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := ParseAccess("fields"); err == nil {
		t.Error("ParseAccess accepted an unknown mode")
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	accounted(t)
	for _, o := range []Options{
		{LocalKey: make([]byte, 95)},
		{Crypto: 7, LocalKey: make([]byte, LocalKeySize)},
		{Access: -1, LocalKey: make([]byte, LocalKeySize)},
		{Bytes: 2, LocalKey: make([]byte, LocalKeySize)},
	} {
		if cr, err := New(o); err == nil {
			cr.Close()
			t.Errorf("New(%+v) succeeded", o)
		}
	}
}

// Every crypto and access mode decrypts every value of the bulk document to
// its plaintext.
func TestDecryptAllValues(t *testing.T) {
	accounted(t)
	n := *flagValues
	for _, c := range Cryptos {
		for _, a := range Accesses {
			t.Run(fmt.Sprintf("crypto=%s/access=%s", c, a), func(t *testing.T) {
				cr := mustCrypt(t, Options{Crypto: c, Access: a})
				out, err := cr.Decrypt(bulkDoc(t, cr, n))
				if err != nil {
					t.Fatal(err)
				}
				if err := CheckBulk(out, n); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// The Go hooks implement the same cryptography as the library: with the same
// keys, deterministic encryption gives the same bytes, and each side
// decrypts what the other encrypted.
func TestGoCryptoMatchesNative(t *testing.T) {
	accounted(t)
	n := min(*flagValues, 200)
	native := mustCrypt(t, Options{Crypto: Native, Access: Accessor})
	goc := sharing(t, native, Options{Crypto: GoCrypto, Access: Direct})
	docN, docG := bulkDoc(t, native, n), bulkDoc(t, goc, n)
	if !bytes.Equal(docN, docG) {
		t.Fatal("native and go crypto encrypt the same values differently")
	}
	outN, err := native.Decrypt(docG)
	if err != nil {
		t.Fatal(err)
	}
	outG, err := goc.Decrypt(docN)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(outN, outG) {
		t.Fatal("native and go crypto decrypt to different documents")
	}
	if err := CheckBulk(outG, n); err != nil {
		t.Fatal(err)
	}
}

// Handing the bytes to C by copy or by pinning changes nothing in the
// results.
func TestCopyAndPinAgree(t *testing.T) {
	accounted(t)
	n := *flagValues
	for _, c := range Cryptos {
		t.Run("crypto="+c.String(), func(t *testing.T) {
			cp := mustCrypt(t, Options{Crypto: c, Access: Accessor, Bytes: Copy})
			pin := sharing(t, cp, Options{Crypto: c, Access: Direct, Bytes: Pin})
			docC, docP := bulkDoc(t, cp, n), bulkDoc(t, pin, n)
			if !bytes.Equal(docC, docP) {
				t.Fatal("copy and pin give different encrypted documents")
			}
			outC, err := cp.Decrypt(docP)
			if err != nil {
				t.Fatal(err)
			}
			outP, err := pin.Decrypt(docC)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(outC, outP) {
				t.Fatal("copy and pin decrypt to different documents")
			}
			if err := CheckBulk(outP, n); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A binary made from Go bytes, whichever way they were handed over, and a
// reused view show C exactly those bytes.
func TestBinaryFromGoBytes(t *testing.T) {
	accounted(t)
	if err := CheckDirectLayout(); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 1, 15, 16, 17, 1000, 65536} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*31 + 5)
		}
		for _, m := range ByteModes {
			var g goBinary
			if err := g.init(m, data); err != nil {
				t.Fatal(err)
			}
			got := view(Accessor, g.b)
			if !bytes.Equal(got, data) {
				t.Errorf("size %d, %v: the binary shows other bytes", size, m)
			}
			if m == Pin && size > 0 && unsafe.SliceData(got) != unsafe.SliceData(data) {
				t.Errorf("size %d: pin copied the bytes", size)
			}
			if m == Copy && size > 0 && unsafe.SliceData(got) == unsafe.SliceData(data) {
				t.Errorf("size %d: copy did not copy", size)
			}
			g.destroy()

			r, err := newReusedView(m)
			if err != nil {
				t.Fatal(err)
			}
			for round := range 3 {
				if err := r.set(data[:size*round/2]); err != nil {
					t.Fatal(err)
				}
				if got := view(Accessor, r.b); !bytes.Equal(got, data[:size*round/2]) {
					t.Errorf("size %d, %v, round %d: the reused view shows other bytes", size, m, round)
				}
				r.release()
			}
			r.destroy()
		}
		if handOver(Copy, data) != handOver(Pin, data) {
			t.Errorf("size %d: handOver differs between copy and pin", size)
		}
	}
}

// Many goroutines decrypt with one Crypt at once; run it with -race.
func TestConcurrentDecryption(t *testing.T) {
	accounted(t)
	n := min(*flagValues, 300)
	for _, c := range Cryptos {
		t.Run("crypto="+c.String(), func(t *testing.T) {
			for _, a := range []Access{Accessor, Direct} {
				cr := mustCrypt(t, Options{Crypto: c, Access: a, Bytes: Pin})
				doc := bulkDoc(t, cr, n)
				var wg sync.WaitGroup
				errs := make(chan error, 8)
				for g := range 8 {
					wg.Go(func() {
						for range 3 {
							out, err := cr.Decrypt(doc)
							if err == nil {
								err = CheckBulk(out, n)
							}
							if err != nil {
								errs <- fmt.Errorf("goroutine %d, access %v: %w", g, a, err)
								return
							}
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}
			}
		})
	}
}

// withValue returns doc with the i-th value's binary data changed by f.
func withValue(t *testing.T, doc []byte, i int, f func([]byte) []byte) []byte {
	t.Helper()
	elems, err := bson.Raw(doc).Elements()
	if err != nil {
		t.Fatal(err)
	}
	d := make(bson.D, len(elems))
	for j, e := range elems {
		d[j] = bson.E{Key: e.Key(), Value: e.Value()}
		if j == i {
			sub, data := e.Value().Binary()
			d[j].Value = bson.Binary{Subtype: sub, Data: f(bytes.Clone(data))}
		}
	}
	out, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantLibraryError(t *testing.T, err error, want string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	if !strings.Contains(strings.ToLower(e.Message), want) {
		t.Fatalf("library message %q (in %q) does not mention %q", e.Message, err, want)
	}
}

// A corrupt ciphertext is a Go error carrying the library's message, in
// every crypto and access mode.
func TestCorruptCiphertext(t *testing.T) {
	accounted(t)
	n := min(*flagValues, 20)
	for _, c := range Cryptos {
		for _, a := range Accesses {
			t.Run(fmt.Sprintf("crypto=%s/access=%s", c, a), func(t *testing.T) {
				cr := mustCrypt(t, Options{Crypto: c, Access: a})
				doc := bulkDoc(t, cr, n)
				flipped := withValue(t, doc, n/2, func(b []byte) []byte { b[len(b)-20] ^= 0x40; return b })
				_, err := cr.Decrypt(flipped)
				wantLibraryError(t, err, "hmac")
				truncated := withValue(t, doc, n/2, func(b []byte) []byte { return b[:len(b)-7] })
				_, err = cr.Decrypt(truncated)
				wantLibraryError(t, err, "ciphertext")
				if _, err := cr.Decrypt([]byte{1, 2, 3}); !IsLibraryError(err) {
					t.Errorf("a malformed document gave %v, want an *Error", err)
				}
				// The Crypt still works afterwards.
				out, err := cr.Decrypt(doc)
				if err == nil {
					err = CheckBulk(out, n)
				}
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// Decrypting with the wrong key is a Go error: a master key that cannot
// unwrap the data key, or a key vault without the document's key.
func TestWrongKey(t *testing.T) {
	accounted(t)
	n := min(*flagValues, 20)
	for _, c := range Cryptos {
		t.Run("crypto="+c.String(), func(t *testing.T) {
			owner := mustCrypt(t, Options{Crypto: c})
			doc := bulkDoc(t, owner, n)

			wrongMaster := mustCrypt(t, Options{Crypto: c, Access: Direct})
			wrongMaster.keyVault = owner.keyVault
			_, err := wrongMaster.Decrypt(doc)
			wantLibraryError(t, err, "hmac")

			otherVault := mustCrypt(t, Options{Crypto: c, LocalKey: owner.opts.LocalKey})
			_, err = otherVault.Decrypt(doc)
			wantLibraryError(t, err, "unexpected key")
		})
	}
}

// The Go hooks turn bad input into a status message instead of a crash.
func TestHookErrors(t *testing.T) {
	accounted(t)
	for _, a := range Accesses {
		ok, msg, n := callAESHook(a, 32, 16, 64, 64)
		if !ok || msg != "" || n != 64 {
			t.Errorf("%v: a good call gave ok=%v msg=%q written=%d", a, ok, msg, n)
		}
		for _, bad := range []struct {
			key, iv, in, out int
			want             string
		}{
			{31, 16, 64, 64, "key is 31 bytes"},
			{32, 8, 64, 64, "IV is 8 bytes"},
			{32, 16, 60, 64, "not a whole number of blocks"},
			{32, 16, 64, 48, "shorter than the input"},
		} {
			ok, msg, _ := callAESHook(a, bad.key, bad.iv, bad.in, bad.out)
			if ok || !strings.HasPrefix(msg, "Go crypto hook aes_256_cbc_decrypt: ") || !strings.Contains(msg, bad.want) {
				t.Errorf("%v, %+v: ok=%v msg=%q", a, bad, ok, msg)
			}
		}
	}
}

// Instrumentation counts every cgo call the binding makes (checked against
// the runtime's own count), the C→Go calls into the hooks, and the extra
// crossings of the accessor modes.
func TestCrossingCounts(t *testing.T) {
	accounted(t)
	n := min(*flagValues, 100)
	perMode := map[Crypto]map[Access]Counts{}
	for _, c := range Cryptos {
		perMode[c] = map[Access]Counts{}
		for _, a := range Accesses {
			cr := mustCrypt(t, Options{Crypto: c, Access: a})
			doc := bulkDoc(t, cr, n)
			if _, err := cr.Decrypt(doc); err != nil { // keys are now cached
				t.Fatal(err)
			}
			before, cgo0 := ReadCounts(), runtime.NumCgoCall()
			if _, err := cr.Decrypt(doc); err != nil {
				t.Fatal(err)
			}
			after, cgo1 := ReadCounts(), runtime.NumCgoCall()
			got := Counts{GoToC: after.GoToC - before.GoToC, CToGo: after.CToGo - before.CToGo}
			if got.GoToC != cgo1-cgo0 {
				t.Errorf("%v/%v: counted %d Go→C calls, the runtime made %d", c, a, got.GoToC, cgo1-cgo0)
			}
			perMode[c][a] = got
		}
	}
	for _, a := range Accesses {
		if got := perMode[Native][a].CToGo; got != 0 {
			t.Errorf("native/%v: %d calls into Go hooks", a, got)
		}
		if got := perMode[GoCrypto][a].CToGo; got != int64(2*n) {
			t.Errorf("go/%v: %d calls into Go hooks for %d values, want 2 per value", a, got, n)
		}
	}
	// The result binary is read once; with go crypto each value also reads
	// 3 binaries in hmac_sha_512 and 4 in aes_256_cbc_decrypt.
	for c, extra := range map[Crypto]int64{Native: 2, GoCrypto: 2 + 14*int64(n)} {
		for _, a := range []Access{Accessor, AccessorAnnotated} {
			if d := perMode[c][a].GoToC - perMode[c][Direct].GoToC; d != extra {
				t.Errorf("%v: %v makes %d more Go→C calls than direct, want %d", c, a, d, extra)
			}
		}
	}
}

func TestHandlesAllDestroyed(t *testing.T) {
	accounted(t)
	cr, err := New(Options{Crypto: GoCrypto, Access: AccessorAnnotated, Bytes: Pin, LocalKey: newKey(t)})
	if err != nil {
		t.Fatal(err)
	}
	doc := bulkDoc(t, cr, 10)
	if _, err := cr.Decrypt(doc); err != nil {
		t.Fatal(err)
	}
	if _, err := cr.Decrypt(doc[:len(doc)-3]); err == nil {
		t.Fatal("a cut document decrypted")
	}
	cr.Close()
	cr.Close() // a second Close does nothing
	if _, err := cr.Decrypt(doc); err == nil {
		t.Fatal("a closed Crypt decrypted")
	}
	for _, h := range ReadCounts().Handles {
		switch h.Kind {
		case "mongocrypt_t", "mongocrypt_ctx_t", "mongocrypt_binary_t", "mongocrypt_status_t", "pinned Go buffer":
			if h.Created == 0 {
				t.Errorf("no %s counted: the accounting is not wired", h.Kind)
			}
		}
		if h.Created != h.Destroyed {
			t.Errorf("%s: %d created, %d destroyed", h.Kind, h.Created, h.Destroyed)
		}
	}
}

package mongocrypt

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
)

var (
	flagValues = flag.Int("mongocrypt.values", BulkSize,
		"encrypted values per bulk document in tests (the race and cgocheck2 runs use fewer)")
	flagBulkBytes = flag.String("mongocrypt.bytes", "copy",
		"how BenchmarkBulkDecryption hands the document to C: copy or pin")
	flagReps = flag.Int("mongocrypt.reps", 10,
		"repetitions per thread count in BenchmarkBulkDecryption (the median is reported)")
	flagWarmup = flag.Duration("mongocrypt.warmup", 1e9,
		"warm-up of each crypto and access pair in BenchmarkBulkDecryption")
	flagPass = flag.Int("mongocrypt.pass", 0,
		"rotates the order of the access modes in BenchmarkBulkDecryption by this many places, so that separate runs (passes) do not always measure a mode at the same point")
)

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		// Configuration lines for benchfmt/benchstat, before the results.
		fmt.Printf("libmongocrypt: %s\n", LibraryVersion())
		fmt.Printf("mongocrypt-bytes: %s\n", *flagBulkBytes)
		fmt.Printf("mongocrypt-reps: %d\n", *flagReps)
		fmt.Printf("ncpu: %d\n", runtime.NumCPU())
		fmt.Printf("threads: GOMAXPROCS set to the thread count, one goroutine per P (RunParallel), as in the Go driver's benchmark; %d CPUs\n", runtime.NumCPU())
	}
	os.Exit(m.Run())
}

// accounted turns the counters on for the test and checks at its end that
// every handle the binding created was destroyed.
func accounted(t testing.TB) {
	t.Helper()
	prev := Instrument(true)
	ResetCounts()
	t.Cleanup(func() {
		for _, h := range ReadCounts().Handles {
			if h.Created != h.Destroyed {
				t.Errorf("%s: %d created, %d destroyed", h.Kind, h.Created, h.Destroyed)
			}
		}
		Instrument(prev)
	})
}

func newKey(t testing.TB) []byte {
	t.Helper()
	k, err := NewLocalKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustCrypt(t testing.TB, o Options) *Crypt {
	t.Helper()
	if o.LocalKey == nil {
		o.LocalKey = newKey(t)
	}
	cr, err := New(o)
	if err != nil {
		t.Fatalf("New(%v/%v/%v): %v", o.Crypto, o.Access, o.Bytes, err)
	}
	t.Cleanup(cr.Close)
	return cr
}

// sharing returns a Crypt with options o that uses the master key and the
// data key of base, so that both encrypt identically.
func sharing(t testing.TB, base *Crypt, o Options) *Crypt {
	t.Helper()
	o.LocalKey = base.opts.LocalKey
	cr := mustCrypt(t, o)
	cr.keyVault = base.keyVault
	cr.keyID = base.keyID
	return cr
}

func bulkDoc(t testing.TB, cr *Crypt, n int) []byte {
	t.Helper()
	doc, err := BulkDocument(cr, n)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

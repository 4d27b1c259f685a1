package mongocrypt

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Thread counts of the Go driver's bulk decryption benchmark. A "thread" is
// GOMAXPROCS: the cell runs with GOMAXPROCS set to the count and one
// goroutine per P (RunParallel), as the driver's benchmark does.
var bulkThreads = []int{1, 2, 8, 64}

// BenchmarkBulkDecryption decrypts a document of BulkSize encrypted values,
// per crypto and access mode, at each thread count. Each cell runs
// -mongocrypt.reps repetitions of b.N operations and reports the median
// throughput as ops/s (ns/op is its inverse); the repetitions are logged as
// "reps ops/s:" for the table's intervals. allocs/op and B/op are those of
// the last repetition. go-c-calls/op and c-go-calls/op are the crossings of
// one counted operation. other-cpus is how many CPUs other processes kept
// busy on average during the repetitions (the machine may be shared).
func BenchmarkBulkDecryption(b *testing.B) {
	bytesMode, err := ParseBytes(*flagBulkBytes)
	if err != nil {
		b.Fatal(err)
	}
	order := slices.Clone(Accesses)
	if n := len(order); n > 0 {
		k := (*flagPass%n + n) % n
		order = append(order[k:], order[:k]...)
	}
	for _, c := range Cryptos {
		b.Run("crypto="+c.String(), func(b *testing.B) {
			for _, a := range order {
				b.Run("access="+a.String(), func(b *testing.B) {
					benchBulk(b, Options{Crypto: c, Access: a, Bytes: bytesMode})
				})
			}
		})
	}
}

func benchBulk(b *testing.B, o Options) {
	cr := mustCrypt(b, o)
	doc := bulkDoc(b, cr, BulkSize)
	out, err := cr.Decrypt(doc) // also caches the data key
	if err == nil {
		err = CheckBulk(out, BulkSize)
	}
	if err != nil {
		b.Fatal(err)
	}
	crossings := countOne(b, cr, doc)

	for start := time.Now(); time.Since(start) < *flagWarmup; {
		if _, err := cr.Decrypt(doc); err != nil {
			b.Fatal(err)
		}
	}

	for _, threads := range bulkThreads {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			prev := runtime.GOMAXPROCS(threads)
			defer runtime.GOMAXPROCS(prev)
			b.ReportAllocs()
			rates := make([]float64, *flagReps)
			watch := startCPUWatch()
			for r := range rates {
				b.ResetTimer()
				b.StartTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := cr.Decrypt(doc); err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.StopTimer()
				rates[r] = float64(b.N) / b.Elapsed().Seconds()
			}
			med := median(rates)
			b.ReportMetric(med, "ops/s")
			b.ReportMetric(1e9/med, "ns/op")
			b.ReportMetric(float64(crossings.GoToC), "go-c-calls/op")
			b.ReportMetric(float64(crossings.CToGo), "c-go-calls/op")
			if others, ok := watch.others(); ok {
				b.ReportMetric(others, "other-cpus")
			}
			b.Logf("reps ops/s: %s", formatFloats(rates))
		})
	}
}

// countOne runs one decryption with the counters on and returns its
// crossings.
func countOne(b *testing.B, cr *Crypt, doc []byte) Counts {
	prev := Instrument(true)
	defer Instrument(prev)
	before := ReadCounts()
	if _, err := cr.Decrypt(doc); err != nil {
		b.Fatal(err)
	}
	after := ReadCounts()
	return Counts{GoToC: after.GoToC - before.GoToC, CToGo: after.CToGo - before.CToGo}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func formatFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strings.Join(parts, " ")
}

var microSizes = []int{16, 1024, 65536}

func pattern(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(i)
	}
	return p
}

// BenchmarkBinaryRead reads a binary the library could have handed over
// (C memory) the way each access mode does, and copies its bytes into Go:
// what the binding does with a result.
func BenchmarkBinaryRead(b *testing.B) {
	for _, a := range Accesses {
		for _, size := range microSizes {
			b.Run(fmt.Sprintf("access=%s/size=%d", a, size), func(b *testing.B) {
				if a == Direct {
					if err := CheckDirectLayout(); err != nil {
						b.Fatal(err)
					}
				}
				c := newCBuffer(size)
				defer c.free()
				dst := make([]byte, size)
				for b.Loop() {
					copy(dst, view(a, c.b))
				}
			})
		}
	}
}

// BenchmarkGoCopy is the pure-Go copy of the same sizes, for scale.
func BenchmarkGoCopy(b *testing.B) {
	for _, size := range microSizes {
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			src, dst := pattern(size), make([]byte, size)
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}

var sink byte

// BenchmarkBinaryFromBytes hands Go bytes to C and takes them back, without
// a binary: copy is C.CBytes and free, pin is runtime.Pinner Pin and Unpin.
func BenchmarkBinaryFromBytes(b *testing.B) {
	for _, m := range ByteModes {
		for _, size := range microSizes {
			b.Run(fmt.Sprintf("mode=%s/size=%d", m, size), func(b *testing.B) {
				data := pattern(size)
				b.ReportAllocs()
				for b.Loop() {
					sink += handOver(m, data)
				}
			})
		}
	}
}

// BenchmarkBinaryLifecycle is the whole per-value path from Go bytes to a
// mongocrypt_binary_t and back: alloc creates and destroys a binary per
// value (mongocrypt_binary_new_from_data, mongocrypt_binary_destroy); reuse
// points one binary at each value by writing its fields (no crossing; copy
// then copies into one reused C buffer).
func BenchmarkBinaryLifecycle(b *testing.B) {
	for _, mode := range []string{"alloc", "reuse"} {
		for _, m := range ByteModes {
			for _, size := range microSizes {
				b.Run(fmt.Sprintf("mode=%s/bytes=%s/size=%d", mode, m, size), func(b *testing.B) {
					data := pattern(size)
					b.ReportAllocs()
					if mode == "alloc" {
						for b.Loop() {
							var g goBinary
							if err := g.init(m, data); err != nil {
								b.Fatal(err)
							}
							g.destroy()
						}
						return
					}
					r, err := newReusedView(m)
					if err != nil {
						b.Fatal(err)
					}
					defer r.destroy()
					for b.Loop() {
						if err := r.set(data); err != nil {
							b.Fatal(err)
						}
						r.release()
					}
				})
			}
		}
	}
}

# The libmongocrypt path (docs/mongocrypt.md): a cgo binding of
# libmongocrypt in go/mongocrypt, its benchmarks (including the allocator
# swap of make alloc-matrix), and the table built from them by
# go/cmd/mongocrypt-table.
#
#   make bench-mongocrypt   bulk decryption (crypto x access x threads) and the
#                           per-value costs, printed as one table (about 3 minutes)
#   make count-mongocrypt   instructions and system calls per operation of
#                           the per-value benchmarks (valgrind, perf)
#   make test-mongocrypt    the tests, again under -race, again with
#                           GOEXPERIMENT=cgocheck2 (part of `make test`)

MONGOCRYPT_PKG := ./go/mongocrypt
MONGOCRYPT_TABLE_PKG := ./go/cmd/mongocrypt-table
MONGOCRYPT_OUT ?= $(BUILD)/mongocrypt

# Bulk decryption: operations per repetition (RunParallel's b.N); each of the
# 24 cells runs 10 repetitions and reports their median. The whole benchmark
# runs MONGOCRYPT_BULK_PASSES times, each a separate process with the access
# modes in a rotated order: a cell's passes are about a minute apart, so a slow
# spell of the (shared, virtual) machine does not land on one cell only. The
# table pools the repetitions of all passes. (-test.count would not do this:
# it repeats each cell back to back.)
MONGOCRYPT_BULK_OPS ?= 40
MONGOCRYPT_BULK_PASSES ?= 3
# Repetitions per cell and warm-up per cell (the benchmark's defaults; the
# smoke form of docs/long-commands.txt sets them small).
MONGOCRYPT_BULK_REPS ?= 10
MONGOCRYPT_BULK_WARMUP ?= 1s
# How the bulk document is handed to C: copy (as the Go driver does) or pin.
MONGOCRYPT_BYTES ?= copy
# Per-value benchmarks: time per sample and samples (benchstat needs 6 for an
# interval).
MONGOCRYPT_MICRO_TIME ?= 100ms
MONGOCRYPT_MICRO_COUNT ?= 6
# Values per bulk document in the -race and cgocheck2 runs.
MONGOCRYPT_SMALL_VALUES ?= 100

# libmongocrypt 1.10 and later define struct _mongocrypt_binary_t in the
# header; then the binding must not complete it itself. Probed when used.
MONGOCRYPT_TAGS = $(shell printf '#include <mongocrypt.h>\nunsigned long cgocost_probe = sizeof(struct _mongocrypt_binary_t);\n' \
	| $(CC) -x c -c -o /dev/null $$(pkg-config --cflags libmongocrypt) - 2>/dev/null && echo -tags=mongocrypt_public_binary)

# Counting (make count-mongocrypt): operations of the shorter run (the
# longer makes twice as many), pairs of runs, and the benchmarks counted:
# each access mode reading a 16-byte binary, each byte mode handing 16
# bytes over, and the whole per-value path of a binary made per value or
# reused. 16 bytes: the crossing, not the copy.
MONGOCRYPT_COUNT_N ?= 100000
MONGOCRYPT_COUNT_PAIRS ?= 2
MONGOCRYPT_COUNT_BENCHMARKS ?= \
	BenchmarkBinaryRead/access=accessor/size=16 \
	BenchmarkBinaryRead/access=accessor-annotated/size=16 \
	BenchmarkBinaryRead/access=direct/size=16 \
	BenchmarkBinaryFromBytes/mode=copy/size=16 \
	BenchmarkBinaryFromBytes/mode=pin/size=16 \
	BenchmarkBinaryLifecycle/mode=alloc/bytes=copy/size=16 \
	BenchmarkBinaryLifecycle/mode=alloc/bytes=pin/size=16 \
	BenchmarkBinaryLifecycle/mode=reuse/bytes=copy/size=16 \
	BenchmarkBinaryLifecycle/mode=reuse/bytes=pin/size=16

.PHONY: bench-mongocrypt count-mongocrypt test-mongocrypt

bench-mongocrypt: | setup-mongocrypt ## libmongocrypt: bulk decryption and per-value costs, one table (about 3 minutes)
	@mkdir -p $(MONGOCRYPT_OUT)
	$(GOCMD) test -c $(MONGOCRYPT_TAGS) -o $(MONGOCRYPT_OUT)/mongocrypt.test $(MONGOCRYPT_PKG)
	$(GOCMD) build -o $(MONGOCRYPT_OUT)/mongocrypt-table $(MONGOCRYPT_TABLE_PKG)
	@echo "bench-mongocrypt: bulk decryption, $(MONGOCRYPT_BULK_PASSES) passes x 24 cells x $(MONGOCRYPT_BULK_REPS) repetitions x $(MONGOCRYPT_BULK_OPS) operations (about 2.5 minutes)" >&2
	@sh scripts/bench_mongocrypt.sh $(MONGOCRYPT_OUT)/mongocrypt.test $(MONGOCRYPT_OUT)/bulk.txt \
		$(MONGOCRYPT_BULK_PASSES) $(MONGOCRYPT_BULK_OPS) $(MONGOCRYPT_BYTES) $(MONGOCRYPT_BULK_REPS) $(MONGOCRYPT_BULK_WARMUP)
	@echo "bench-mongocrypt: per-value costs, 30 benchmarks x $(MONGOCRYPT_MICRO_COUNT) samples x $(MONGOCRYPT_MICRO_TIME)" >&2
	@$(MONGOCRYPT_OUT)/mongocrypt.test -test.run '^$$' \
		-test.bench '^Benchmark(BinaryRead|GoCopy|BinaryFromBytes|BinaryLifecycle)$$' \
		-test.benchtime $(MONGOCRYPT_MICRO_TIME) -test.count $(MONGOCRYPT_MICRO_COUNT) \
		> $(MONGOCRYPT_OUT)/micro.txt 2>&1 \
		|| { cat $(MONGOCRYPT_OUT)/micro.txt >&2; echo "bench-mongocrypt: the per-value benchmarks failed" >&2; exit 3; }
	@$(MONGOCRYPT_OUT)/mongocrypt-table $(MONGOCRYPT_OUT)/bulk.txt $(MONGOCRYPT_OUT)/micro.txt > $(MONGOCRYPT_OUT)/table.txt
	@cat $(MONGOCRYPT_OUT)/table.txt
	@echo "bench-mongocrypt: raw results in $(MONGOCRYPT_OUT)/bulk.txt and micro.txt (go tool benchstat reads them)" >&2

count-mongocrypt: | setup-mongocrypt+count ## libmongocrypt: instructions and system calls per operation, no clock (about 2 minutes)
	@mkdir -p $(MONGOCRYPT_OUT)
	$(GOCMD) test -c $(MONGOCRYPT_TAGS) -o $(MONGOCRYPT_OUT)/mongocrypt.test $(MONGOCRYPT_PKG)
	@sh scripts/count_mongocrypt.sh $(MONGOCRYPT_OUT)/mongocrypt.test $(MONGOCRYPT_OUT)/counts.txt \
		$(MONGOCRYPT_COUNT_N) $(MONGOCRYPT_COUNT_PAIRS) $(MONGOCRYPT_COUNT_BENCHMARKS)
	@cat $(MONGOCRYPT_OUT)/counts.txt
	@echo "count-mongocrypt: $(MONGOCRYPT_OUT)/counts.txt (go tool benchstat reads instr/op and syscalls/op)" >&2

test-mongocrypt: | setup-mongocrypt ## the libmongocrypt tests, again under -race and cgocheck2
	$(GOCMD) test $(MONGOCRYPT_TAGS) $(MONGOCRYPT_PKG) $(MONGOCRYPT_TABLE_PKG)
	$(GOCMD) test $(MONGOCRYPT_TAGS) -race $(MONGOCRYPT_PKG) -args -mongocrypt.values=$(MONGOCRYPT_SMALL_VALUES)
	GOEXPERIMENT=cgocheck2 $(GOCMD) test $(MONGOCRYPT_TAGS) $(MONGOCRYPT_PKG) -args -mongocrypt.values=$(MONGOCRYPT_SMALL_VALUES)

TEST_EXTRA += test-mongocrypt

# The count gate of a Go binding of a C library (docs/ci.md, "Gating a Go
# binding of a C library"), with the libmongocrypt binding as the example:
# the same Go benchmarks counted (instructions per operation, valgrind) in
# the base build's test binary and in this tree's, then judged.
#
#   make gate-mongocrypt                           this tree against itself
#   make gate-mongocrypt MONGOCRYPT_GATE_BASE=../base   against a base checkout
#
# make's own status is 2 on any failure; the last line says which verdict
# (scripts/gate_counts.sh: 0 no regression, 1 regression, 4 inconclusive),
# and a CI job that acts on them runs the script itself (docs/ci.md).

MONGOCRYPT_GATE_BASE ?= .
MONGOCRYPT_GATE_THRESHOLD ?= 1
MONGOCRYPT_GATE_BENCHMARKS ?= \
	BenchmarkBinaryRead/access=accessor/size=16 \
	BenchmarkBinaryFromBytes/mode=pin/size=16 \
	BenchmarkBinaryRead/access=accessor-annotated/size=16
MONGOCRYPT_GATE_OUT = $(abspath $(MONGOCRYPT_OUT))/gate

.PHONY: gate-mongocrypt
gate-mongocrypt: | setup-mongocrypt+count ## the Go->C count gate: the binding's benchmarks counted in a base build and this one, judged (about 2 minutes)
	@mkdir -p $(MONGOCRYPT_GATE_OUT)
	cd $(MONGOCRYPT_GATE_BASE) && $(GOCMD) test -c $(MONGOCRYPT_TAGS) -o $(MONGOCRYPT_GATE_OUT)/base.test $(MONGOCRYPT_PKG)
	$(GOCMD) test -c $(MONGOCRYPT_TAGS) -o $(MONGOCRYPT_GATE_OUT)/head.test $(MONGOCRYPT_PKG)
	@sh scripts/count_mongocrypt.sh $(MONGOCRYPT_GATE_OUT)/base.test $(MONGOCRYPT_GATE_OUT)/base.txt \
		$(MONGOCRYPT_COUNT_N) $(MONGOCRYPT_COUNT_PAIRS) $(MONGOCRYPT_GATE_BENCHMARKS)
	@sh scripts/count_mongocrypt.sh $(MONGOCRYPT_GATE_OUT)/head.test $(MONGOCRYPT_GATE_OUT)/head.txt \
		$(MONGOCRYPT_COUNT_N) $(MONGOCRYPT_COUNT_PAIRS) $(MONGOCRYPT_GATE_BENCHMARKS)
	@sh scripts/gate_counts.sh $(MONGOCRYPT_GATE_OUT)/base.txt $(MONGOCRYPT_GATE_OUT)/head.txt $(MONGOCRYPT_GATE_THRESHOLD)

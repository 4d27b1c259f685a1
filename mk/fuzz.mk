# libFuzzer targets for the three parsers that take outside input
# (tests/fuzz): the option parser (argv), the baseline loader (JSON) and the
# --judge reader. They link the Go-free layers (those below plugin in
# c/LAYERS) and the Go-free files of the option parser above them (cli's
# args, parsers, rules and usage, orchestrate's child arguments), and are
# built with clang-14 (scripts/setup.sh installs it with libFuzzer) under
# ASan and UBSan.
#
#   make fuzz FUZZ_S=60   each target for FUZZ_S seconds (default 60) from
#                         tests/fuzz/corpus/; fails on any crash, hang, leak
#                         or sanitizer report
#   make test-fuzz        the same for a few seconds each (part of make test)

FUZZ_CC ?= clang-14
FUZZ_S ?= 60
FUZZ_SMOKE_S ?= 5
FUZZ_TARGETS := options baseline judge
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
FUZZ_LAYER_SRCS := $(foreach l,$(GO_FREE_LAYERS),$(wildcard c/$(l)/*.c)) c/cli/args.c c/cli/parsers.c c/cli/rules.c c/cli/usage.c c/orchestrate/childargs.c
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ic $(shell pkg-config --cflags jansson) -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: fuzz test-fuzz
TEST_EXTRA += test-fuzz

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LAYER_SRCS) $(DRIVER_HDRS)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LAYER_SRCS) $(shell pkg-config --libs jansson) -lm

fuzz: $(FUZZ_BINS) ## the libFuzzer targets, FUZZ_S seconds each (default 60); fails on any finding
	@sh scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_S) $(FUZZ_TARGETS)

test-fuzz: $(FUZZ_BINS) ## the libFuzzer targets for a few seconds each
	@sh scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_SMOKE_S) $(FUZZ_TARGETS)

# libFuzzer targets for the parsers that take outside input (tests/fuzz):
# the option parser (argv), the baseline loader (JSON), the --judge reader,
# the --events file, a plugin's plugin_get_fields list, the --field spec and
# the coordinator's reading of a paired child's replies and documents, the
# ELF symbol-table reader that finds the SDK's async slots. They
# link the Go-free layers (those below plugin in c/LAYERS) and the Go-free
# files above them (cli's args, parsers, rules, ownplugin, source and usage, plugin's field
# look-ups, orchestrate's child arguments and child messages), and are built
# with clang-14 (scripts/setup.sh installs it with libFuzzer) under ASan and
# UBSan. Go's native fuzzing covers the Go readers of the driver's JSON
# (go/cmd/latency, go/cmd/matrix): PACKAGE:FuzzName in FUZZ_GO.
#
#   make fuzz FUZZ_S=60   each target for FUZZ_S seconds (default 60) from
#                         tests/fuzz/corpus/ (Go: the f.Add seeds and
#                         testdata/fuzz/), FUZZ_JOBS at a time (default: the
#                         CPUs); fails on any crash, hang, leak, sanitizer
#                         report or failing Go input
#   make test-fuzz        the same for a few seconds each (part of make test)

FUZZ_CC ?= clang-14
FUZZ_S ?= 60
FUZZ_SMOKE_S ?= 5
# targets run at once; empty: the number of CPUs
FUZZ_JOBS ?=
FUZZ_TARGETS := options baseline judge events fieldlist fieldspec childmsg childerr cpulist elf
FUZZ_GO := go/cmd/latency:FuzzReadSweep go/cmd/matrix:FuzzParseDocument
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
FUZZ_LAYER_SRCS := $(foreach l,$(GO_FREE_LAYERS),$(wildcard c/$(l)/*.c)) c/cli/args.c c/cli/parsers.c c/cli/rules.c c/cli/ownplugin.c c/cli/source.c c/cli/usage.c \
	c/plugin/fieldlist.c c/plugin/sdkslot.c c/orchestrate/child.c c/orchestrate/childcpu.c c/orchestrate/childargs.c c/orchestrate/childmsg.c
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ic $(shell pkg-config --cflags jansson 2>/dev/null) -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: fuzz test-fuzz
TEST_EXTRA += test-fuzz

# The layers' files are compiled once, into objects every target links
# (each target compiling all of them took two minutes of make test).
FUZZ_OBJS := $(patsubst c/%.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_LAYER_SRCS))

$(FUZZ_DIR)/obj/%.o: c/%.c $(DRIVER_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) $(DRIVER_HDRS)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_OBJS) $(shell pkg-config --libs jansson) -lm

# clang-14 and libFuzzer (scripts/packages.txt, purpose fuzz) before the
# first fuzz object compiles
$(FUZZ_OBJS) $(FUZZ_BINS): | setup-fuzz

fuzz: $(FUZZ_BINS) ## the libFuzzer and Go fuzz targets, FUZZ_S seconds each (default 60), FUZZ_JOBS at a time; fails on any finding
	@GO='$(GOCMD)' FUZZ_JOBS='$(FUZZ_JOBS)' sh scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_S) $(FUZZ_TARGETS) $(FUZZ_GO)

test-fuzz: $(FUZZ_BINS) ## the fuzz targets for a few seconds each
	@GO='$(GOCMD)' FUZZ_JOBS='$(FUZZ_JOBS)' sh scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_SMOKE_S) $(FUZZ_TARGETS) $(FUZZ_GO)

# The C driver, c/preload and the unit tests built with AddressSanitizer and
# UndefinedBehaviorSanitizer into build/sanitize/, then the cmocka tests and
# the integration tests run against those binaries (docs/methodology.md,
# "Sanitizers", says what is checked and why).
#
#   make sanitize   build and run (part of make test)
#
# ASan replaces malloc, so the runs that swap it (--malloc, --allocators,
# --count-allocs) cannot run under it: the tests skip them when
# CGOCOST_SANITIZER=address, and run them against a UBSan-only build in
# build/sanitize/ubsan/. The Go plugin is not rebuilt: cgo's own C is
# compiled by go build, not with these flags, so build/'s libmock is copied.

SAN_BUILD := $(BUILD)/sanitize
SAN_UB_BUILD := $(SAN_BUILD)/ubsan
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
# detect_leaks=1 with the suppressions of tests/sanitize/lsan.supp (C memory
# Go code allocates is Go's); verify_asan_link_order=0 for the preloads the
# driver may re-execute with.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:abort_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_ALLOC_TESTS := Allocat|Allocs|Malloc|Signals|SlotOffset
# Under ASan the integration suite runs a chosen set of end-to-end cases,
# one or a few for each C path (make test in five minutes, issue 35: the
# whole suite under ASan took 613 s of make test at load 6, the longest
# stream); every test runs unsanitized in test-integration. The set: every
# mode and work kind of both libraries; bench-host with a plugin, a crash,
# the C plugin's handoff, repeated loads; the SDK's slots and the mode of a
# foreign plugin read from outside; a paired --compare, a paired verdict,
# one generation's n/a, the coordinator's clean-up; bad input of every kind
# of run; every export, the report tool as a child, lost and refused
# outputs; baselines and --judge; stalls, hangs, interrupts and signals;
# per-event runs and the json field (jansson); sweeps and rates; the
# lifecycle scenario; the source section; --fit's files; the progress line
# on a terminal; --help. The allocator swaps run under UBSan below.
SAN_TESTS := TestEveryModeAndWorkBothLibraries|TestBenchHostEveryWorkKind|TestPluginBadInput|TestPluginCrashMidRun|TestBuiltinExecutablesWithPlugin|TestCPluginAsync|TestRepeatLoadCountsLoads|TestAsyncSlotIsLocated|TestSamplePluginDefaultIsAsyncInEffect|TestSamplePluginTurningAsyncOnIsNeverReportedSync|TestSamplePluginStrippedNotVerifiable|TestSamplePluginCompareSyncAsync|TestSamplePluginGateBadInput|TestPairedCompare|TestAgainstCatchesThreefoldSlowdown|TestCompareOneGenerationSaysNA|TestPairedCoordinatorLeavesNoProcess|TestBadInputExitsTwo|TestBadPathsBeforeMeasuring|TestCountRefusals|TestCountGateRefusals|TestWorkerCPUBadInput|TestRateBadInput|TestPerEventBadInput|TestExportEveryFormatFromOneRun|TestExportHTMLByTheReportTool|TestWriteErrorsOnStdout|TestFileSizeLimitIsAFailedWrite|TestExportThroughASymlinkRefused|TestExportFailedAfterARegressionIsExitThree|TestSaveBaselineKeepsDevicesAndFIFOs|TestBadBaselinesExitTwoAndFailedRunsKeepFiles|TestJudgeScalesAndRefusesBadFiles|TestJudgeInconclusive|TestStallTimeoutEndsEveryHang|TestStallTimeoutEndsAStuckRun|TestInterruptOutlivesTheLaunchItKilled|TestSignalsLeaveNoProcess|TestPerEventText|TestPerEventBothPaired|TestJSONFieldVerified|TestSweepTable|TestRateRunPrintsPercentiles|TestLifecycleBothModesBothLibraries|TestSourceSection|TestFitSameFileTwice|TestProgressOnATerminal|TestHelp

.PHONY: sanitize
TEST_EXTRA += sanitize

sanitize: $(BUILD)/libmock.a $(BUILD)/libmock.so $(TIMES_TOOL) ## the driver, preload and unit tests under ASan+UBSan, then their tests
	@mkdir -p $(SAN_BUILD) $(SAN_UB_BUILD)
	@cp -p $(BUILD)/libmock.a $(BUILD)/libmock.so $(BUILD)/libmock.h $(BUILD)/.modules $(SAN_BUILD)/
	@cp -p $(BUILD)/libmock.a $(BUILD)/libmock.so $(BUILD)/libmock.h $(BUILD)/.modules $(SAN_UB_BUILD)/
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CFLAGS='$(SAN_FLAGS) -fsanitize=address,undefined' \
		all $(patsubst $(BUILD)/%,$(SAN_BUILD)/%,$(UNIT_BINS))
	@$(MAKE) --no-print-directory BUILD=$(SAN_UB_BUILD) CFLAGS='$(SAN_FLAGS) -fsanitize=undefined' all
	$(SAN_ENV) $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) test-unit
	$(call timed,integration-asan,$(SAN_ENV) CGOCOST_SANITIZER=address CGOCOST_BUILD=$(abspath $(SAN_BUILD)) \
		$(GOCMD) $(INTEGRATION_GOTEST) -json -run '^($(SAN_TESTS))$$' ./tests/integration/...)
	$(SAN_ENV) CGOCOST_SANITIZER=undefined CGOCOST_BUILD=$(abspath $(SAN_UB_BUILD)) \
		$(GOCMD) test -count=1 -run '$(SAN_ALLOC_TESTS)' ./tests/integration/...
	@echo "sanitize: unit tests and $(words $(subst |, ,$(SAN_TESTS))) end-to-end tests (SAN_TESTS) passed under ASan+UBSan, the allocator swaps under UBSan"

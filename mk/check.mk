# make check: the inner loop, under a minute from a built tree (make all):
# what a change to any layer breaks first, without the long poles of make
# test (the docs' commands and smoke forms, the sanitizer builds, the
# counting gate's valgrind runs, the tests that wait for a hang or a stall).
#
#   make check   format, the unit tests of every layer, tests/layers, the
#                schema against a handful of modes, the docs' static checks,
#                and a handful of end-to-end runs (CHECK_E2E)
#   make test    everything, before a push (eight minutes or more on a 2-vCPU guest)
#
# The end-to-end runs: every mode and work kind in one launch of both
# libraries, a paired --compare (3 s) and one launch by launch, bad input
# refused before anything runs, a verdict against a build, a judged pair of
# files, every export from one run, a lost stdout.
CHECK_E2E := TestEveryModeAndWorkBothLibraries|TestPairedCompare|TestCompareTableAndRatios|TestBadInputExitsTwo|TestBadPathsBeforeMeasuring|TestAgainstCatchesThreefoldSlowdown|TestJudgeInconclusive|TestExportEveryFormatFromOneRun|TestWriteErrorsOnStdout|TestHelp

.PHONY: check
check: $(EXES) $(BUILD)/libcgocost_count.so $(UNIT_BINS) ## the one-minute inner loop: unit tests, layers, schema, docs' static checks, a few end-to-end runs
	@date +%s >$(BUILD)/.check-start
	@test -z "$$(gofmt -l plugin-mock tests go 2>/dev/null)" || { echo "gofmt needed:"; gofmt -l plugin-mock tests go; exit 1; }
	@$(MAKE) --no-print-directory test-unit >$(BUILD)/check-unit.log 2>&1 || { cat $(BUILD)/check-unit.log; echo "check: a unit test failed (above)"; exit 1; }
	@echo "check: $$(grep -c '^== ' $(BUILD)/check-unit.log) unit test programs passed ($(BUILD)/check-unit.log)"
	CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -count=1 -short ./tests/layers/ ./tests/schema/ ./tests/docs/ \
		./go/internal/history/ ./go/cmd/testtimes/
	CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -count=1 -run '^($(CHECK_E2E))$$' ./tests/integration/
	@echo "check: passed in $$(( $$(date +%s) - $$(cat $(BUILD)/.check-start) )) s (make test runs everything)"

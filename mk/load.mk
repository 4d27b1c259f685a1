# The timing-adjacent tests under load (issue 21: no test may depend on a
# quiet machine; CI runs on a shared one): scripts/under_load.sh starts
# LOAD_LOOPS busy loops (default 4 on this 2-CPU machine, a load average of
# about 5) at the same priority, runs the tests, and kills the loops for
# sure at the end, on failure and on interrupt too.
#
#   make test-under-load   run by .ci/run after make test (2 to 3 minutes)
#
# What runs, and why those: the tests that read a clock or judge a
# measurement, where load can change a result (the others check exit codes,
# messages and structure, which load cannot change), about 50 s on a quiet
# machine, 2 to 3 minutes under the load:
#   - plugin-mock's tests: Spin's calibration;
#   - tests/integration: the verdicts of --against, launch by launch and
#     paired, and --compare's paired ratios; the coordinator's and the
#     signals' "no process left" (waits with deadlines); the watchdogs
#     (--stall-timeout, the open loop's schedule watchdog); the open loop's
#     percentiles, gaps and sweep; async's worker at a low rate;
#     oversubscription; the floors; fresh launches.
# Not run again under load: TestBaselineOtherMachineJudgedByRatios (30 s
# for a 300% threshold, plumbing by its own account), TestAnatomy and
# TestPairedCompare (tables and structure), and tests/docs' short commands
# (a minute quiet, several minutes loaded; their verdicts are the runs
# above). make test runs them all once, unloaded.

LOAD_LOOPS ?= 4
UNDER_LOAD_TESTS ?= Against|PairedCoordinator|Signals|InterruptOutlives|CompareTable|Stall|Rate|Sweep|LowRateAsync|Poisson|Oversubscription|PinnedCallerAndFloors|LaunchesAreFresh

.PHONY: test-under-load test-under-load-run
# Not in TEST_EXTRA: make test already takes most of its 10 minutes, so
# .ci/run runs this after it, as a step of its own.

test-under-load: $(EXES) ## the timing-adjacent tests with LOAD_LOOPS busy loops beside them
	@LOAD_LOOPS='$(LOAD_LOOPS)' sh scripts/under_load.sh $(MAKE) --no-print-directory test-under-load-run

# what runs under the load (no load of its own)
test-under-load-run:
	$(GOCMD) test -count=1 ./plugin-mock/...
	CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -count=1 -run '$(UNDER_LOAD_TESTS)' ./tests/integration/...

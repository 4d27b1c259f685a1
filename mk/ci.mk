# The CI recipe (docs/ci.md): the example GitHub Actions workflow,
# .github/workflows/cgocost.yml, linted by actionlint and checked against
# the commands docs/ci.md shows (tests/docs, TestWorkflow), so that the two
# cannot drift apart.
#
#   make test-workflow    both (part of `make test`; seconds, plus about 8 s
#                         the first time, to fetch and build actionlint)
#
# actionlint comes from the Go module proxy at a pinned version, run by the
# machine's Go (like MATRIX_GO: whatever GO names), so that go.mod does not
# carry a tool the build never uses. Its shellcheck and pyflakes passes are
# off: they run only where those programs happen to be installed, and a
# lint that passes here must pass on every machine.

ACTIONLINT_VERSION ?= v1.7.12
ACTIONLINT_GO ?= go
ACTIONLINT = $(ACTIONLINT_GO) run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
WORKFLOWS := $(wildcard .github/workflows/*.yml)

.PHONY: test-workflow
test-workflow: ## lint the CI workflow (actionlint) and check its commands are docs/ci.md's
	$(ACTIONLINT) -shellcheck= -pyflakes= $(WORKFLOWS)
	$(ACTIONLINT_GO) test -count=1 -run 'TestWorkflow' ./tests/docs/
	@echo "test-workflow: $(words $(WORKFLOWS)) workflow linted by actionlint $(ACTIONLINT_VERSION), its commands those of docs/ci.md"

TEST_EXTRA += test-workflow

# docs/schema.json, the JSON Schema of the document bench prints with
# --format json, checked against the driver's output in several modes, the
# matrix tool's fixtures and the matrix tool's reader (tests/schema).

.PHONY: test-schema
TEST_EXTRA += test-schema

test-schema: ## the output of every mode against docs/schema.json
test-schema: $(EXES) $(BUILD)/libcgocost_count.so
	CGOCOST_BUILD=$(abspath $(BUILD)) $(GOCMD) test -count=1 ./tests/schema/...

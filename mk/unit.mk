# cmocka unit tests: tests/unit/test_<name>.c, each linked with every driver
# object (not main.o) and the c-archive, so a test can call any C piece.

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

$(BUILD)/tests/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) $(DRIVER_OBJS) $(BUILTIN_MOCK_OBJ) $(DRIVER_HDRS) $(BUILD)/libmock.a
	@mkdir -p $(BUILD)/tests
	$(COMPILE) $(CMOCKA_CFLAGS) -Itests/unit -o $@ $< $(DRIVER_OBJS) $(BUILTIN_MOCK_OBJ) $(BUILD)/libmock.a $(LDLIBS) $(CMOCKA_LIBS)

test-unit: $(UNIT_BINS) ## the cmocka unit tests
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

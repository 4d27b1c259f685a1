/* fuzz_cpulist.c — libFuzzer target for the kernel CPU-list parser
 * (base/topology.c's cpu_list_parse, which reads sysfs files a container or
 * an odd kernel may fill with anything): the input is the list (up to its
 * first NUL). What it accepts counts the CPUs it sets, and reads back the
 * same from the list written out again; what it refuses leaves the set
 * empty. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"

static int popcount(const struct cpu_set_bits *s)
{
	int n = 0;
	for (int c = 0; c < TOPO_MAX_CPUS; c++)
		n += cpu_bits_has(s, c);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[8192], again[8 * TOPO_MAX_CPUS];
	struct cpu_set_bits s, t;
	size_t k = 0;
	int n;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	n = cpu_list_parse(text, &s);
	if (n < 0) {
		if (popcount(&s) != 0)
			abort(); /* a refused list sets nothing */
		return 0;
	}
	if (n != popcount(&s))
		abort();
	again[0] = '\0';
	for (int c = 0; c < TOPO_MAX_CPUS; c++)
		if (cpu_bits_has(&s, c))
			k += (size_t)snprintf(again + k, sizeof(again) - k, "%s%d", k ? "," : "", c);
	if (cpu_list_parse(again, &t) != n || memcmp(&s, &t, sizeof(s)) != 0)
		abort();
	return 0;
}

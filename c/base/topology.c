/* base/topology.c — see topology.h. */
#include "base/topology.h"

#include "base/sysinfo.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int cpu_bits_has(const struct cpu_set_bits *s, int cpu)
{
	if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
		return 0;
	return (int)((s->w[cpu / 64] >> (cpu % 64)) & 1u);
}

static void cpu_bits_set(struct cpu_set_bits *s, int cpu)
{
	s->w[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

/* A decimal CPU number at *p, below TOPO_MAX_CPUS; advances *p. -1: none. */
static int cpu_number(const char **p)
{
	long v = 0;
	int digits = 0;

	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v >= TOPO_MAX_CPUS)
			return -1;
		(*p)++;
		digits++;
	}
	return digits ? (int)v : -1;
}

int cpu_list_parse(const char *text, struct cpu_set_bits *s)
{
	const char *p = text;
	int count = 0;

	memset(s, 0, sizeof(*s));
	if (text == NULL)
		return -1;
	if (*p == '\0' || strcmp(p, "\n") == 0)
		return 0;
	for (;;) {
		int lo = cpu_number(&p), hi;
		if (lo < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if ((hi = cpu_number(&p)) < lo)
				goto bad;
		}
		for (int c = lo; c <= hi; c++)
			if (!cpu_bits_has(s, c)) {
				cpu_bits_set(s, c);
				count++;
			}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		if (*p != '\0')
			goto bad;
		return count;
	}
bad:
	memset(s, 0, sizeof(*s));
	return -1;
}

const char *cpu_class_name(enum cpu_class c)
{
	static const char *const names[CPU_CLASSES] = { "self",	     "smt_sibling",   "same_llc",
							"other_llc", "other_package", "unknown" };
	return c >= 0 && c < CPU_CLASSES ? names[c] : "unknown";
}

/* Reads root/rel (a small sysfs file) into buf; 0, or -1. */
static int read_small(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -1;
	return read_proc(path, buf, len);
}

/* A small non-negative integer file (a package, die or cache level); -1. */
static int read_int(const char *root, const char *rel)
{
	char buf[32];
	const char *p = buf;
	int v;

	if (read_small(root, rel, buf, sizeof(buf)) != 0)
		return -1;
	v = cpu_number(&p); /* below TOPO_MAX_CPUS: enough for ids and levels */
	return v >= 0 && (*p == '\n' || *p == '\0') ? v : -1;
}

static int read_list(const char *root, const char *rel, struct cpu_set_bits *s)
{
	char buf[4096];

	if (read_small(root, rel, buf, sizeof(buf)) != 0)
		return -1;
	return cpu_list_parse(buf, s);
}

/* The last-level cache: the highest level among cpuN/cache/index* (index
 * numbers are dense on Linux; a gap ends the scan). When that level's CPU
 * list does not read, the last-level cache is unknown (a lower level would
 * pass for it). */
static void read_llc(const char *root, int cpu, struct cpu_topo *t)
{
	char rel[128];
	int top = 0, readable = 0;

	for (int k = 0; k < 16; k++) {
		int level;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, k);
		if ((level = read_int(root, rel)) < 0)
			break;
		if (level <= top)
			continue;
		top = level;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, k);
		readable = read_list(root, rel, &t->llc) > 0;
	}
	t->llc_level = readable ? top : 0;
	if (!readable)
		memset(&t->llc, 0, sizeof(t->llc));
}

void topology_read(const char *root, int cpu, struct cpu_topo *t)
{
	char rel[128];

	memset(t, 0, sizeof(*t));
	t->package = t->die = -1;
	if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
		return;
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	t->package = read_int(root, rel);
	t->known = t->package >= 0;
	if (!t->known)
		return;
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
	t->die = read_int(root, rel);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
	t->has_smt = read_list(root, rel, &t->siblings) > 0;
	if (!t->has_smt) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		t->has_smt = read_list(root, rel, &t->siblings) > 0;
	}
	read_llc(root, cpu, t);
}

enum cpu_class topology_class_of(const struct cpu_topo *caller, int caller_cpu, const struct cpu_topo *other,
				 int other_cpu)
{
	if (caller_cpu == other_cpu)
		return CPU_SELF;
	if (!caller->known || !other->known)
		return CPU_UNKNOWN;
	if (caller->package != other->package)
		return CPU_OTHER_PACKAGE;
	if (caller->has_smt && cpu_bits_has(&caller->siblings, other_cpu))
		return CPU_SMT_SIBLING;
	if (caller->llc_level > 0)
		return cpu_bits_has(&caller->llc, other_cpu) ? CPU_SAME_LLC : CPU_OTHER_LLC;
	/* no cache files: another die of the package has another cache */
	if (caller->die >= 0 && other->die >= 0 && caller->die != other->die)
		return CPU_OTHER_LLC;
	return CPU_UNKNOWN;
}

int topology_table(const char *root, int caller, const int *cpus, int n, struct topo_class_row rows[CPU_CLASSES])
{
	struct topo_class_row by[CPU_CLASSES];
	struct cpu_topo a, b;
	int nrows = 0;

	for (int c = 0; c < CPU_CLASSES; c++)
		by[c] = (struct topo_class_row){ (enum cpu_class)c, 0, -1 };
	topology_read(root, caller, &a);
	for (int i = 0; i < n; i++) {
		enum cpu_class c = CPU_SELF;
		if (cpus[i] != caller) {
			topology_read(root, cpus[i], &b);
			c = topology_class_of(&a, caller, &b, cpus[i]);
		}
		if (by[c].count++ == 0)
			by[c].example = cpus[i];
	}
	for (int c = 0; c < CPU_CLASSES; c++)
		if (by[c].count)
			rows[nrows++] = by[c];
	return nrows;
}

enum cpu_class topology_classify(const char *root, int caller, int other)
{
	struct cpu_topo a, b;

	if (caller == other)
		return CPU_SELF;
	topology_read(root, caller, &a);
	topology_read(root, other, &b);
	return topology_class_of(&a, caller, &b, other);
}

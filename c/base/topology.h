/* base/topology.h — where two CPUs sit relative to each other, read from
 * the kernel's sysfs topology (devices/system/cpu/cpuN/topology and
 * cpuN/cache/indexK under a root directory, "/" on a real machine, a fake
 * tree in the tests): the same core (SMT siblings), the same last-level
 * cache, another last-level cache of the same package, another package. A
 * cache line crossing between two CPUs costs what this class says. */
#ifndef CGOCOST_BASE_TOPOLOGY_H
#define CGOCOST_BASE_TOPOLOGY_H

#include <stdint.h>

/* The CPUs a topology knows about: numbers 0 .. TOPO_MAX_CPUS-1. */
#define TOPO_MAX_CPUS 1024

struct cpu_set_bits {
	uint64_t w[TOPO_MAX_CPUS / 64];
};

int cpu_bits_has(const struct cpu_set_bits *s, int cpu);

/* Parses a kernel CPU list ("0-3,8-11", a trailing newline allowed, ""
 * the empty set) into s. Returns how many CPUs it names, or -1 for
 * anything else (a reversed range, a number past TOPO_MAX_CPUS, a stray
 * character); s is then empty. */
int cpu_list_parse(const char *text, struct cpu_set_bits *s);

enum cpu_class {
	CPU_SELF,	   /* the caller's own CPU */
	CPU_SMT_SIBLING,   /* another hardware thread of the caller's core */
	CPU_SAME_LLC,	   /* another core sharing the caller's last-level cache */
	CPU_OTHER_LLC,	   /* the same package, another last-level cache (CCX, die) */
	CPU_OTHER_PACKAGE, /* another socket */
	CPU_UNKNOWN,	   /* no topology files for one of the two CPUs */
	CPU_CLASSES
};

/* "self", "smt_sibling", "same_llc", "other_llc", "other_package",
 * "unknown": the JSON and text word of a class. */
const char *cpu_class_name(enum cpu_class c);

/* What sysfs says about one CPU. */
struct cpu_topo {
	int known;     /* its topology directory holds a package id */
	int package;   /* physical_package_id */
	int die;       /* die_id; -1 when absent */
	int has_smt;   /* thread_siblings_list (or core_cpus_list) was read */
	int llc_level; /* the highest cache level with a shared_cpu_list; 0: none */
	struct cpu_set_bits siblings, llc;
};

/* Reads CPU cpu's topology under root ("/" for this machine); t->known is
 * 0 when there is none. Never fails otherwise: a file missing or garbled
 * leaves its fact unknown. */
void topology_read(const char *root, int cpu, struct cpu_topo *t);

/* The class of CPU other relative to CPU caller, both read under root. */
enum cpu_class topology_classify(const char *root, int caller, int other);

/* One class present among a set of CPUs relative to a caller: how many of
 * the set are of it, and the first of them. */
struct topo_class_row {
	enum cpu_class cls;
	int count, example;
};

/* The classes present among cpus[0..n) relative to CPU caller (the caller
 * itself, when listed, is CPU_SELF), in class order, read under root:
 * how many rows were filled. */
int topology_table(const char *root, int caller, const int *cpus, int n, struct topo_class_row rows[CPU_CLASSES]);

/* The same, from two CPUs' facts already read. */
enum cpu_class topology_class_of(const struct cpu_topo *caller, int caller_cpu, const struct cpu_topo *other,
				 int other_cpu);

#endif

/* sysinfo.h — facts about the machine and the calling thread. */
#ifndef CGOCOST_BASE_SYSINFO_H
#define CGOCOST_BASE_SYSINFO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct machine {
	char cpu_model[128];
	char kernel[128];
	char arch[72];
	int online_cpus;
	int allowed_cpus;  /* CPUs in this process's affinity mask */
	int allowed[1024]; /* their numbers, ascending */
	/* --worker-cpu: the caller's CPU and the worker side's, and the
	 * worker's topology class relative to the caller (base/topology.h's
	 * word); worker_cpu -1: not pinned, the rest unset */
	int caller_cpu, worker_cpu;
	char worker_class[16];
};

int machine_read(struct machine *m);
int machine_cpu_allowed(const struct machine *m, int cpu);

pid_t thread_id(void);
int current_cpu(void);
/* Pins the calling thread to one CPU; 0 or -1 with errno. */
int pin_to_cpu(int cpu);
/* Moves every other thread of this process off CPU cpu (onto the other
 * CPUs it may use): a paired run's placement, caller alone on its CPU.
 * Returns how many threads were moved, or -1 (errno) if none could be. */
int pin_others_away(pid_t self, int cpu);
/* The first CPU this process may run on; -1 if unknown. */
int first_allowed_cpu(void);
/* Pins every thread of this process but the n in keep to CPU cpu (the
 * async worker side of --worker-cpu). Returns how many threads were
 * pinned, or -1 (errno) if none could be. */
int pin_others_to(const pid_t *keep, int n, int cpu);
/* The CPUs the threads of this process but the n in keep may run on,
 * their union as each thread's kernel mask says (sched_getaffinity per
 * thread), into cpus (ascending, at most max); how many, or -1. What
 * --worker-cpu verifies: threads started after the pin (the Go runtime
 * makes them when it likes) inherit their creator's mask, which may be a
 * caller's. */
int others_allowed_cpus(const pid_t *keep, int n, int *cpus, int max);

/* Adds cpu to the ascending list of distinct CPUs cpus[0..*n), at most max
 * (one more past max is dropped). */
void cpu_list_add(int *cpus, int *n, int max, int cpu);

/* Reads a small /proc file (path) into buf, NUL-terminated, with open and
 * read (no stdio, no allocation); 0, or -1 when it cannot be read or is
 * empty. */
int read_proc(const char *path, char *buf, size_t len);

/* Machine-wide steal ticks (USER_HZ) from /proc/stat; -1 if unknown. */
int64_t steal_ticks(void);
/* CPU migrations of the calling thread (se.nr_migrations); -1 if unknown.
 * Both read /proc with open/read, no stdio: they allocate nothing, so they
 * may run inside a window whose allocations are counted. */
int64_t thread_migrations(void);

/* This process's resident set (kB) and OS threads, from /proc/self/status;
 * -1 each when unknown. */
void proc_rss_threads(long *rss_kb, long *threads);

#endif

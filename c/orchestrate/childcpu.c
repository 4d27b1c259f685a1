/* orchestrate/childcpu.c — see childcpu.h. */
#include "orchestrate/childcpu.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sysinfo.h"

int proc_stat_parse(const char *line, long *pgrp, uint64_t *ticks)
{
	const char *p = strrchr(line, ')');
	unsigned long long utime, stime;
	long long cutime, cstime;
	long group;

	/* after the name: state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime cutime cstime */
	if (p == NULL ||
	    sscanf(p + 1, " %*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &group, &utime, &stime,
		   &cutime, &cstime) != 5 ||
	    cutime < 0 || cstime < 0)
		return -1;
	*pgrp = group;
	/* with the children it waited for: a process of the group that ends
	 * (a wrapper's burst of work) moves its time to its parent's, and the
	 * group's sum does not drop */
	*ticks = utime + stime + (unsigned long long)cutime + (unsigned long long)cstime;
	return 0;
}

/* The run-queue wait of process pid's threads, added to *sum: 0, or -1 if
 * none could be read. */
static int process_wait_ns(const char *pid, uint64_t *sum)
{
	char dir[300];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(dir, sizeof(dir), "/proc/%s/task", pid);
	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[600], line[256];
		unsigned long long run, wait;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/schedstat", dir, e->d_name);
		if (read_proc(path, line, sizeof(line)) != 0 || sscanf(line, "%llu %llu", &run, &wait) != 2)
			continue;
		*sum += wait;
		found = 1;
	}
	closedir(d);
	return found ? 0 : -1;
}

/* One walk over /proc: the CPU ticks of group pgid's processes (with the
 * children they waited for) into *ticks and, when wait is not NULL, their
 * threads' run-queue wait into *wait. GROUP_FOUND when a process of the
 * group was found, | GROUP_WAIT when a wait was read; -1 without /proc. */
enum { GROUP_FOUND = 1, GROUP_WAIT = 2 };

static int group_walk(pid_t pgid, uint64_t *ticks, uint64_t *wait)
{
	int found = 0;
	struct dirent *e;
	DIR *dir;

	*ticks = 0;
	if (wait)
		*wait = 0;
	if (pgid <= 0 || (dir = opendir("/proc")) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		char path[300], line[1024];
		long group;
		uint64_t t;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (read_proc(path, line, sizeof(line)) != 0 || proc_stat_parse(line, &group, &t) != 0 ||
		    group != (long)pgid)
			continue;
		*ticks += t;
		found |= GROUP_FOUND;
		if (wait && process_wait_ns(e->d_name, wait) == 0)
			found |= GROUP_WAIT;
	}
	closedir(dir);
	return found;
}

/* Whether a sum of ns grew by share of a CPU over interval_ms. */
static int grew(int64_t before, int64_t now, int interval_ms, double share)
{
	return before >= 0 && now >= 0 && (double)(now - before) >= share * 1e6 * interval_ms;
}

static int64_t ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? (int64_t)(ticks * (1000000000ULL / (uint64_t)hz)) : -1;
}

int64_t child_group_cpu_ns(pid_t pgid)
{
	uint64_t ticks;

	return group_walk(pgid, &ticks, NULL) > 0 ? ticks_ns(ticks) : -1;
}

int child_group_busy(pid_t pgid, int64_t *cpu_ns, int interval_ms, double share)
{
	int64_t before = *cpu_ns;

	*cpu_ns = child_group_cpu_ns(pgid);
	return grew(before, *cpu_ns, interval_ms, share);
}

int64_t child_group_wait_ns(pid_t pgid)
{
	uint64_t ticks, wait;
	int found = group_walk(pgid, &ticks, &wait);

	return found > 0 && (found & GROUP_WAIT) ? (int64_t)wait : -1;
}

int child_group_working(pid_t pgid, int64_t *ns, int interval_ms, double share)
{
	uint64_t ticks, wait;
	int64_t before = *ns;
	int found = group_walk(pgid, &ticks, &wait);

	/* one walk for both; no schedstat (a kernel without it): the CPU
	 * time alone */
	*ns = found > 0 ? ticks_ns(ticks) : -1;
	if (*ns >= 0 && (found & GROUP_WAIT))
		*ns += (int64_t)wait;
	return grew(before, *ns, interval_ms, share);
}

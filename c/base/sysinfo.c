/* sysinfo.c — reads the machine: CPU model, kernel, CPUs online and allowed. */
#include "base/sysinfo.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static void cpu_model_read(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0) {
			char *colon = strchr(line, ':');
			if (colon) {
				colon++;
				while (*colon == ' ' || *colon == '\t')
					colon++;
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(buf, len, "%s", colon);
			}
			break;
		}
	}
	fclose(f);
}

int machine_read(struct machine *m)
{
	struct utsname u;
	cpu_set_t set;

	memset(m, 0, sizeof(*m));
	m->caller_cpu = m->worker_cpu = -1;
	cpu_model_read(m->cpu_model, sizeof(m->cpu_model));
	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
	}
	m->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && m->allowed_cpus < (int)(sizeof(m->allowed) / sizeof(m->allowed[0])); c++)
		if (CPU_ISSET(c, &set))
			m->allowed[m->allowed_cpus++] = c;
	return 0;
}

int machine_cpu_allowed(const struct machine *m, int cpu)
{
	for (int i = 0; i < m->allowed_cpus; i++)
		if (m->allowed[i] == cpu)
			return 1;
	return 0;
}

pid_t thread_id(void)
{
	return (pid_t)syscall(SYS_gettid);
}

int current_cpu(void)
{
	return sched_getcpu();
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int pin_others_away(pid_t self, int cpu)
{
	cpu_set_t set, process_cpus;
	DIR *dir;
	struct dirent *e;
	int moved = 0;

	/* the caller's own mask is its one CPU: start from the main thread's */
	if (sched_getaffinity(getpid(), sizeof(process_cpus), &process_cpus) != 0)
		return -1;
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != cpu && CPU_ISSET(c, &process_cpus))
			CPU_SET(c, &set);
	if (CPU_COUNT(&set) == 0 || (dir = opendir("/proc/self/task")) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid > 0 && tid != self && sched_setaffinity(tid, sizeof(set), &set) == 0)
			moved++;
	}
	closedir(dir);
	return moved;
}

int first_allowed_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return -1;
}

static int kept(const pid_t *keep, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (keep[i] == tid)
			return 1;
	return 0;
}

int pin_others_to(const pid_t *keep, int n, int cpu)
{
	cpu_set_t set;
	DIR *dir;
	struct dirent *e;
	int pinned = 0;

	if (cpu < 0 || cpu >= CPU_SETSIZE || (dir = opendir("/proc/self/task")) == NULL)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	while ((e = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid > 0 && !kept(keep, n, tid) && sched_setaffinity(tid, sizeof(set), &set) == 0)
			pinned++;
	}
	closedir(dir);
	return pinned ? pinned : -1;
}

int others_allowed_cpus(const pid_t *keep, int n, int *cpus, int max)
{
	cpu_set_t all, one;
	DIR *dir;
	struct dirent *e;
	int count = 0, read = 0;

	if ((dir = opendir("/proc/self/task")) == NULL)
		return -1;
	CPU_ZERO(&all);
	while ((e = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid <= 0 || kept(keep, n, tid) || sched_getaffinity(tid, sizeof(one), &one) != 0)
			continue; /* a thread that ended meanwhile */
		CPU_OR(&all, &all, &one);
		read++;
	}
	closedir(dir);
	if (read == 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && count < max; c++)
		if (CPU_ISSET(c, &all))
			cpus[count++] = c;
	return count;
}

void cpu_list_add(int *cpus, int *n, int max, int cpu)
{
	int j = 0;

	while (j < *n && cpus[j] < cpu)
		j++;
	if ((j < *n && cpus[j] == cpu) || *n >= max)
		return;
	memmove(&cpus[j + 1], &cpus[j], (size_t)(*n - j) * sizeof(*cpus));
	cpus[j] = cpu;
	(*n)++;
}

/* No stdio, so that the driver's own bookkeeping allocates nothing inside
 * a counted window. */
int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got > 0 ? 0 : -1;
}

/* Machine-wide steal ticks from the first line of /proc/stat; -1 if unknown. */
int64_t steal_ticks(void)
{
	char buf[512];
	unsigned long long v[8];

	if (read_proc("/proc/stat", buf, sizeof(buf)) != 0)
		return -1;
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]) != 8)
		return -1;
	return (int64_t)v[7];
}

/* se.nr_migrations of the calling thread; -1 if the kernel does not say. */
int64_t thread_migrations(void)
{
	char buf[8192];
	const char *line;

	if (read_proc("/proc/thread-self/sched", buf, sizeof(buf)) != 0)
		return -1;
	line = strstr(buf, "se.nr_migrations");
	if (line == NULL || (line = strchr(line, ':')) == NULL)
		return -1;
	return strtoll(line + 1, NULL, 10);
}

void proc_rss_threads(long *rss_kb, long *threads)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	*rss_kb = *threads = -1;
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			*rss_kb = strtol(line + 6, NULL, 10);
		else if (strncmp(line, "Threads:", 8) == 0)
			*threads = strtol(line + 8, NULL, 10);
	}
	fclose(f);
}

/* base/threadcpu.c — see threadcpu.h. */
#include "base/threadcpu.h"

#include <dirent.h>
#include <stdlib.h>

#include "base/clock.h"

clockid_t threadcpu_clock(pid_t tid)
{
	/* the kernel's CPU clock ids: the id, inverted, above three bits that
	 * say per thread (4) and which clock (2: the scheduler's runtime) */
	return (clockid_t)((~(unsigned)tid << 3) | 4u | 2u);
}

/* A thread's CPU time in ns, or -1 when it has ended. */
static int64_t read_one(pid_t tid)
{
	struct timespec ts;

	if (clock_gettime(threadcpu_clock(tid), &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int threadcpu_list(struct threadcpu *t)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;

	t->n = 0;
	if (dir == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL && t->n < THREADCPU_MAX) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid > 0)
			t->tid[t->n++] = tid;
	}
	closedir(dir);
	return 0;
}

void threadcpu_mark(struct threadcpu *t)
{
	for (int i = 0; i < t->n; i++)
		t->ns[i] = read_one(t->tid[i]);
}

uint64_t threadcpu_since(const struct threadcpu *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->n; i++) {
		int64_t ns = t->ns[i] < 0 ? -1 : read_one(t->tid[i]);
		if (ns > t->ns[i])
			sum += (uint64_t)(ns - t->ns[i]);
	}
	return sum;
}

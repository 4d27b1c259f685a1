/* timing/watchdog.c — see watchdog.h. */
#include "timing/watchdog.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "plugin/goruntime.h"

struct watchdog {
	struct progress *p;
	uint32_t n;
	uint64_t timeout_ns;
	const char *const *phase_names;
	const char *hint;
	int exit_status;
	_Atomic int stop;
	pthread_t thread;
	pthread_mutex_t mu; /* the tick is a timed wait, so that stop is seen at once */
	pthread_cond_t cv;
};

static char dump_buf[1 << 20];

static void *dump_thread(void *arg)
{
	int *n = arg;
	*n = goruntime_stacks(dump_buf, (int)sizeof(dump_buf));
	return NULL;
}

/* Writes the Go runtime's goroutine stacks to a new file in $TMPDIR (or
 * /tmp), if the runtime answers within 3 s; returns what to say of them:
 * the file, or why there is none. The file is made by mkstemps (a fresh
 * name, mode 0600, never through a symbolic link someone left there). */
static const char *dump_goroutines(char *path, size_t len)
{
	pthread_t t;
	struct timespec until;
	int n = -1, fd;
	const char *dir = getenv("TMPDIR");

	if (!goruntime_can_dump())
		return NULL;
	if (pthread_create(&t, NULL, dump_thread, &n) != 0)
		return "none (no thread for the dump)";
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 3;
	if (pthread_timedjoin_np(t, NULL, &until) != 0 || n <= 0)
		return "none (the Go runtime did not answer within 3 s)";
	snprintf(path, len, "%s/cgocost-stall-%d-XXXXXX.txt", dir && *dir ? dir : "/tmp", (int)getpid());
	fd = mkstemps(path, 4);
	if (fd < 0)
		return "none (cannot create a file in $TMPDIR, else /tmp)";
	if (write(fd, dump_buf, (size_t)n) != n) {
		close(fd);
		unlink(path);
		return "none (cannot write the file in $TMPDIR, else /tmp)";
	}
	close(fd);
	return path;
}

static void stalled(struct watchdog *w, uint32_t i, uint64_t idle_ns)
{
	char path[4096];
	const char *dump = dump_goroutines(path, sizeof(path));

	fprintf(stderr, "bench: plugin %u made no progress for %.0f s in %s%s%s%s; giving up (see --stall-timeout)\n",
		i + 1, (double)idle_ns / 1e9, w->phase_names[atomic_load(&w->p[i].phase)], w->hint,
		dump ? "; goroutine stacks: " : "", dump ? dump : "");
	_exit(w->exit_status);
}

static void *watch(void *arg)
{
	struct watchdog *w = arg;
	while (!atomic_load(&w->stop)) {
		uint64_t now = now_ns();
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 200000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_mutex_lock(&w->mu);
		if (!atomic_load(&w->stop))
			pthread_cond_timedwait(&w->cv, &w->mu, &until);
		pthread_mutex_unlock(&w->mu);
		if (atomic_load(&w->stop))
			break;
		for (uint32_t i = 0; i < w->n; i++) {
			struct progress *p = &w->p[i];
			uint64_t last = atomic_load_explicit(&p->at_ns, memory_order_relaxed);
			if (atomic_load(&p->done) || last == 0 || now < last ||
			    now - last < w->timeout_ns + atomic_load(&p->slack_ns))
				continue;
			stalled(w, i, now - last);
		}
	}
	return NULL;
}

struct watchdog *watchdog_start(struct progress *p, uint32_t n, uint32_t timeout_s, const char *const *phase_names,
				const char *hint, int exit_status)
{
	struct watchdog *w;

	if (timeout_s == 0 || (w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	*w = (struct watchdog){ .p = p,
				.n = n,
				.timeout_ns = (uint64_t)timeout_s * 1000000000u,
				.phase_names = phase_names,
				.hint = hint ? hint : "",
				.exit_status = exit_status };
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

void watchdog_stop(struct watchdog *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	atomic_store(&w->stop, 1);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

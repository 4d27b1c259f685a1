/* base/interrupt.c — see interrupt.h. */
#include "base/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEXT_MAX 512

/* Two buffers per text: the writer fills the one not in use, then switches
 * the index, so the handler never reads a half-written text. */
struct text {
	char buf[2][TEXT_MAX];
	volatile sig_atomic_t cur;
};

static struct text prog_text, doing, tempfile;
/* the children to kill: a launch's in slot 0, a paired run's in 0..N */
static volatile sig_atomic_t slots[INTERRUPT_SLOTS];
/* dying: the handler has begun (no fork may start after it); forking: the
 * threads between interrupt_fork_begin and _end, whose new child is in no
 * slot yet */
static atomic_int dying, forking;
static long linger_ms; /* INTERRUPT_LINGER_ENV, read at install */

static void publish(struct text *t, const char *s)
{
	int next = !t->cur;
	snprintf(t->buf[next], TEXT_MAX, "%s", s ? s : "");
	t->cur = next;
}

static void put(char *line, size_t *len, const char *s)
{
	size_t n = strlen(s);
	if (*len + n >= 1024)
		n = 1024 - *len - 1;
	memcpy(line + *len, s, n);
	*len += n;
}

static void on_signal(int sig)
{
	static const char *const names[] = { [SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGTERM] = "SIGTERM" };
	static atomic_flag once = ATOMIC_FLAG_INIT;
	char line[1024];
	size_t len = 0;
	int killed = 0;
	const char *tmp = tempfile.buf[tempfile.cur], *what = doing.buf[doing.cur];

	if (atomic_flag_test_and_set(&once))
		for (;;)
			pause(); /* another thread handles the first signal and exits */

	/* no fork starts from now on; one under way ends with its child in a
	 * slot (a forking thread blocks these signals, so this is not it) */
	atomic_store(&dying, 1);
	while (atomic_load(&forking) > 0) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < INTERRUPT_SLOTS; i++)
		if (slots[i] > 0) {
			kill(-(pid_t)slots[i], SIGKILL);
			kill((pid_t)slots[i], SIGKILL);
			killed = 1;
		}
	for (int i = 0; i < INTERRUPT_SLOTS; i++)
		if (slots[i] > 0)
			while (waitpid((pid_t)slots[i], NULL, 0) < 0 && errno == EINTR)
				;
	/* what they left outside their groups was adopted once they died */
	for (int i = 0; i < INTERRUPT_SLOTS; i++)
		slots[i] = 0;
	interrupt_kill_adopted();
	if (tmp[0])
		unlink(tmp);
	put(line, &len, prog_text.buf[prog_text.cur]);
	put(line, &len, ": interrupted by ");
	put(line, &len, sig < (int)(sizeof(names) / sizeof(names[0])) && names[sig] ? names[sig] : "a signal");
	if (what[0]) {
		put(line, &len, " during ");
		put(line, &len, what);
	}
	if (killed)
		put(line, &len, "; the running launch was killed");
	if (tmp[0])
		put(line, &len, "; the unfinished save was removed, the old file is kept");
	put(line, &len, "\n");
	if (write(2, line, len) < 0) {
		/* nothing more to do: the status says it */
	}
	if (linger_ms > 0) {
		struct timespec ts = { linger_ms / 1000, (linger_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	_exit(128 + sig);
}

void interrupt_install(const char *prog)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	const char *linger = getenv(INTERRUPT_LINGER_ENV);

	publish(&prog_text, prog);
	linger_ms = linger ? strtol(linger, NULL, 10) : 0;
	if (linger_ms < 0 || linger_ms > 60000)
		linger_ms = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* SA_ONSTACK: the signal may land on a Go thread, whose stack is small */
	sa.sa_flags = SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		struct sigaction old;
		/* a signal the caller ignores (nohup, a shell's background job)
		 * stays ignored */
		if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(signals[i], &sa, NULL);
	}
}

void interrupt_doing(const char *what)
{
	publish(&doing, what);
}

void interrupt_child_slot(int slot, pid_t pid)
{
	if (slot >= 0 && slot < INTERRUPT_SLOTS)
		slots[slot] = pid;
}

void interrupt_fork_begin(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, old);
	atomic_fetch_add(&forking, 1);
	if (atomic_load(&dying)) {
		/* the handler is killing what runs and will exit: start nothing */
		atomic_fetch_sub(&forking, 1);
		for (;;)
			pause();
	}
}

void interrupt_hold_if_dying(void)
{
	if (atomic_load(&dying))
		for (;;)
			pause();
}

void interrupt_fork_end(const sigset_t *old)
{
	atomic_fetch_sub(&forking, 1);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void interrupt_adopt_orphans(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* The number that is a whole name ("1234"), or -1. */
static long number(const char *s)
{
	long v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* The parent of /proc/<name> (its stat's fourth field), or -1. */
static long parent_of(int proc, const char *name)
{
	char path[64], buf[512];
	size_t n = strlen(name);
	ssize_t got;
	int fd;
	const char *p;

	if (n + sizeof("/stat") > sizeof(path))
		return -1;
	memcpy(path, name, n);
	memcpy(path + n, "/stat", sizeof("/stat"));
	if ((fd = openat(proc, path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	/* "pid (comm) S ppid ...": comm may hold anything, the last ')' ends it */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ' || p[2] == '\0' || p[3] != ' ')
		return -1;
	p += 4;
	for (n = 0; p[n] >= '0' && p[n] <= '9'; n++)
		;
	memcpy(path, p, n < sizeof(path) - 1 ? n : sizeof(path) - 1);
	path[n < sizeof(path) - 1 ? n : sizeof(path) - 1] = '\0';
	return number(path);
}

struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

void interrupt_kill_adopted(void)
{
	char dents[4096];
	long self = (long)getpid(), n;
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (proc < 0)
		return;
	while ((n = syscall(SYS_getdents64, proc, dents, sizeof(dents))) > 0)
		for (long off = 0; off < n;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(void *)(dents + off);
			long pid = number(d->name);
			int ours = 0;
			off += d->reclen;
			for (int i = 0; pid > 0 && i < INTERRUPT_SLOTS; i++)
				ours |= slots[i] == pid;
			if (pid <= 0 || ours || parent_of(proc, d->name) != self)
				continue;
			/* and its group, if it leads one (a child started just
			 * before the handler's scan, its wrapper's sleep with it) */
			kill(-(pid_t)pid, SIGKILL);
			kill((pid_t)pid, SIGKILL);
			while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	close(proc);
}

void interrupt_tempfile(const char *path)
{
	publish(&tempfile, path);
}

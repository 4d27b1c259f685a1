/* orchestrate/child.c — see child.h: starting, feeding, reaping and judging
 * the driver's child processes. */
#include "orchestrate/child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "orchestrate/childcpu.h"
#include "timing/blockmsg.h" /* the fds of a CHILD_SERVER */

/* --- starting ------------------------------------------------------------ */

void child_init(struct child *c, int slot)
{
	memset(c, 0, sizeof(*c));
	c->slot = slot;
	c->out = c->err = c->cmd = c->reply = -1;
	c->rc = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A temporary file, unlinked, close-on-exec, above the standard fds. */
static int temp_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL)
		return -1;
	fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 10);
	fclose(f);
	return fd;
}

/* In the child after fork: the protocol of child.h, then argv. from[i]
 * becomes fd to[i]; each is first moved above every target, so that no
 * dup2 closes a source still to come. */
static size_t output_max = CHILD_OUTPUT_MAX;

void child_output_limit(size_t bytes)
{
	output_max = bytes;
}

static void become(char *const argv[], pid_t parent, const sigset_t *mask, int files, const int *from, const int *to,
		   int n)
{
	int hi[5];
	struct rlimit fsize = { output_max, output_max };

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL); /* as the parent's thread had it before the fork */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* its output files (CHILD_SERVER) cannot outgrow the cap either */
	if (files)
		setrlimit(RLIMIT_FSIZE, &fsize);
	for (int i = 0; i < n; i++)
		if ((hi[i] = fcntl(from[i], F_DUPFD, 20)) < 0)
			_exit(127);
	for (int i = 0; i < n; i++)
		if (dup2(hi[i], to[i]) < 0)
			_exit(127);
	for (int i = 0; i < n; i++)
		close(hi[i]);
	execv(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The descriptors of a child: ours (mine) and its own ends (theirs, with
 * the fd each becomes in it). CHILD_PIPES: stdout, stderr; CHILD_SERVER:
 * stdout and stderr files, then the commands and replies pipes. */
static int make_fds(struct child *c, int theirs[4], int to[4], char *err, size_t errlen)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };

	if (c->io == CHILD_PIPES) {
		if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
			snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
			close_fd(&po[0]), close_fd(&po[1]);
			return -1;
		}
		c->out = po[0], c->err = pe[0];
		theirs[0] = po[1], theirs[1] = pe[1];
		to[0] = 1, to[1] = 2;
		return 2;
	}
	c->out = temp_fd();
	c->err = temp_fd();
	if (c->out < 0 || c->err < 0 || pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "cannot create the files and pipes of a child: %s", strerror(errno));
		close_fd(&po[0]), close_fd(&po[1]);
		close_fd(&c->out), close_fd(&c->err);
		return -1;
	}
	/* po: our commands to its fd 3; pe: its replies from its fd 4 */
	c->cmd = po[1], c->reply = pe[0];
	theirs[0] = c->out, theirs[1] = c->err, theirs[2] = po[0], theirs[3] = pe[1];
	to[0] = 1, to[1] = 2, to[2] = BLOCKS_CMD_FD, to[3] = BLOCKS_REPLY_FD;
	return 4;
}

/* child_spawn, its stdin in (-1: the driver's). */
static int spawn(struct child *c, enum child_io io, char *const argv[], int in, char *err, size_t errlen)
{
	int theirs[5], to[5], made, n;
	pid_t parent = getpid(), pid;
	sigset_t mask;

	child_init(c, c->slot);
	c->io = io;
	interrupt_adopt_orphans();
	if ((made = make_fds(c, theirs, to, err, errlen)) < 0)
		return -1;
	n = made;
	if (in >= 0)
		theirs[n] = in, to[n++] = 0; /* the caller's: left open here */
	interrupt_fork_begin(&mask);
	pid = fork();
	if (pid < 0) {
		interrupt_fork_end(&mask);
		snprintf(err, errlen, "cannot fork: %s", strerror(errno));
		if (io == CHILD_PIPES)
			close_fd(&theirs[0]), close_fd(&theirs[1]);
		else
			close_fd(&theirs[2]), close_fd(&theirs[3]);
		child_close(c);
		return -1;
	}
	if (pid == 0)
		become(argv, parent, &mask, io == CHILD_SERVER, theirs, to, n);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	interrupt_child_slot(c->slot, pid);
	interrupt_fork_end(&mask);
	c->pid = pid;
	/* its ends of the pipes are its own now; the files stay ours too */
	for (int i = io == CHILD_PIPES ? 0 : 2; i < made; i++)
		close(theirs[i]);
	return 0;
}

int child_spawn(struct child *c, enum child_io io, char *const argv[], char *err, size_t errlen)
{
	return spawn(c, io, argv, -1, err, errlen);
}

int child_spawn_stdin(struct child *c, enum child_io io, char *const argv[], int in, char *err, size_t errlen)
{
	return spawn(c, io, argv, in, err, errlen);
}

/* --- reading and reaping -------------------------------------------------- */

struct buf {
	char *data;
	size_t len, cap;
};

/* One read of fd into b: 1 more may come, 0 the end (or an error), -1 out
 * of memory. */
static int buf_read(struct buf *b, int fd)
{
	char tmp[65536];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (d == NULL)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, tmp, (size_t)n);
	b->len += (size_t)n;
	b->data[b->len] = '\0';
	return 1;
}

static char *buf_take(struct buf *b)
{
	if (b->data == NULL)
		return strdup("");
	return b->data;
}

static void kill_group(struct child *c)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
}

/* The milliseconds left of timeout_ms since t0 (-1: no timeout). */
static int left_ms(int timeout_ms, uint64_t t0)
{
	uint64_t spent = (now_ns() - t0) / 1000000;
	if (timeout_ms < 0)
		return -1;
	return spent >= (uint64_t)timeout_ms ? 0 : timeout_ms - (int)spent;
}

/* --- the deadline ------------------------------------------------------------ */

void child_deadline_start(struct child_deadline *d, const struct child *c, int bound_ms)
{
	memset(d, 0, sizeof(*d));
	d->bound_ms = d->until_ms = bound_ms;
	d->t0_ns = now_ns();
	/* read only where a slice may follow: a bound of 0 has none */
	d->cpu_ns = -1;
	if (bound_ms > 0 && c->pid > 0)
		child_group_working(c->pid, &d->cpu_ns, 0, CHILD_BUSY_MIN_SHARE);
}

int child_deadline_waited_ms(const struct child_deadline *d)
{
	uint64_t ms = (now_ns() - d->t0_ns) / 1000000;
	return ms >= INT_MAX ? INT_MAX : (int)ms;
}

int child_deadline_left_ms(struct child_deadline *d, const struct child *c)
{
	long long most = (long long)CHILD_BUSY_MAX_FACTOR * d->bound_ms, until;
	int spent;

	if (d->bound_ms < 0)
		return -1;
	spent = child_deadline_waited_ms(d);
	if (!d->over && spent < d->until_ms)
		return d->until_ms - spent;
	if (d->over || d->bound_ms == 0 || c->pid <= 0 || d->until_ms >= most) {
		d->over = 1;
		return 0;
	}
	/* at the deadline so far: did the group work since the last look? */
	d->busy = child_group_working(c->pid, &d->cpu_ns, spent - d->looked_ms, CHILD_BUSY_MIN_SHARE);
	d->looked_ms = spent;
	until = (long long)spent + CHILD_BUSY_SLICE_MS;
	if (!d->busy || spent >= most) {
		d->over = 1;
		return 0;
	}
	d->until_ms = (int)(until < most ? until : most);
	return d->until_ms - spent;
}

/* A child killed at its deadline d. */
static void past_deadline(struct child *c, const struct child_deadline *d)
{
	c->timed_out = 1;
	c->waited_ms = child_deadline_waited_ms(d);
	c->busy = d->busy;
}

/* Whether the child itself has exited (not reaped yet: a zombie). */
static int leader_exited(const struct child *c)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	return c->pid > 0 && waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       info.si_pid == c->pid;
}

/* Reads both pipes until they close; past deadline d the child's group is
 * killed, and what is still buffered read for at most a second more. So is
 * the group once the child itself has exited: what it left behind (a
 * wrapper's `sleep 1000 &`) would hold the pipes open for ever. The
 * deadline is looked at after every poll: a child that prints all the
 * time is no less bounded. */
static void collect(struct child *c, struct child_deadline *d)
{
	struct buf b[2] = { { 0 } };
	struct pollfd fds[2] = { { .fd = c->out, .events = POLLIN }, { .fd = c->err, .events = POLLIN } };
	int open_fds = 2, killed = 0;
	uint64_t killed_at = 0;

	while (open_fds > 0) {
		int left = killed ? left_ms(1000, killed_at) : child_deadline_left_ms(d, c);
		int n;
		if (left == 0) {
			if (killed)
				break;
			kill_group(c);
			past_deadline(c, d);
			killed = 1, killed_at = now_ns();
			continue;
		}
		n = poll(fds, 2, left >= 0 && left < 100 ? left : 100);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			if (!killed && leader_exited(c)) {
				kill_group(c);
				killed = 1, killed_at = now_ns();
			}
			continue;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (buf_read(&b[i], fds[i].fd) <= 0) {
				fds[i].fd = -1;
				open_fds--;
			} else if (b[i].len > output_max && !c->flooded) {
				/* a child that would fill the parent's memory */
				kill_group(c);
				c->flooded = killed = 1;
				fds[0].fd = fds[1].fd = -1;
				open_fds = 0;
			}
		}
	}
	close_fd(&c->out);
	close_fd(&c->err);
	c->output = buf_take(&b[0]);
	c->errors = buf_take(&b[1]);
}

/* All that a file holds, NUL-terminated (malloc'd); NULL if unreadable. */
static char *slurp(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf;
	size_t got = 0;

	if (len < 0 || lseek(fd, 0, SEEK_SET) < 0 || (buf = malloc((size_t)len + 1)) == NULL)
		return NULL;
	while (got < (size_t)len) {
		ssize_t n = read(fd, buf + got, (size_t)len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return buf;
}

/* child_reap within deadline d. */
static int reap_by(struct child *c, struct child_deadline *d)
{
	int status = 0;
	pid_t got = 0;

	if (c->pid <= 0)
		return c->rc;
	if (d->bound_ms >= 0)
		while ((got = waitpid(c->pid, &status, WNOHANG)) == 0 && child_deadline_left_ms(d, c) > 0) {
			struct timespec ts = { 0, 5000000 };
			nanosleep(&ts, NULL);
		}
	if (got == 0) {
		if (d->bound_ms >= 0) {
			kill_group(c);
			past_deadline(c, d);
		}
		while ((got = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
			;
	}
	/* the handler killed it (or reaped it first: ECHILD): its exit, not
	 * this launch's failure, is what the process reports */
	interrupt_hold_if_dying();
	if (got == c->pid) {
		kill(-got, SIGKILL);	  /* what it left in its group dies with it: no orphan */
		interrupt_kill_adopted(); /* and what it left outside, adopted at its end */
	}
	interrupt_child_slot(c->slot, 0);
	c->pid = 0;
	c->rc = -1;
	c->signo = 0;
	if (got < 0)
		return -1;
	if (WIFSIGNALED(status))
		c->signo = WTERMSIG(status);
	else
		c->rc = WEXITSTATUS(status);
	return c->rc;
}

int child_reap(struct child *c, int timeout_ms)
{
	struct child_deadline d;

	child_deadline_start(&d, c, timeout_ms);
	return reap_by(c, &d);
}

enum child_kind child_end(struct child *c, int timeout_ms, char *why, size_t whylen)
{
	struct child_deadline d;

	child_deadline_start(&d, c, timeout_ms);
	if (c->io == CHILD_PIPES && c->output == NULL)
		collect(c, &d);
	reap_by(c, &d);
	if (c->io == CHILD_SERVER && c->output == NULL) {
		/* a file at the cap was stopped there (RLIMIT_FSIZE): a flood,
		 * not read into memory */
		if (lseek(c->out, 0, SEEK_END) >= (off_t)output_max || lseek(c->err, 0, SEEK_END) >= (off_t)output_max)
			c->flooded = 1;
		c->output = c->flooded ? strdup("") : slurp(c->out);
		c->errors = c->flooded ? strdup("") : slurp(c->err);
	}
	if (c->flooded) {
		snprintf(why, whylen, "printed more than %zu bytes (the cap on a child's output): killed", output_max);
		return CHILD_FAILED;
	}
	return child_classify(c->rc, c->signo, c->errors ? c->errors : "", why, whylen);
}

void child_close(struct child *c)
{
	if (c->pid > 0) {
		kill_group(c);
		child_reap(c, 0);
	}
	interrupt_child_slot(c->slot, 0);
	close_fd(&c->out);
	close_fd(&c->err);
	close_fd(&c->cmd);
	close_fd(&c->reply);
	free(c->output);
	free(c->errors);
	c->output = c->errors = NULL;
}

enum child_kind child_run_within(struct child *c, char *const argv[], int timeout_ms, char *why, size_t whylen)
{
	child_init(c, 0);
	if (child_spawn(c, CHILD_PIPES, argv, why, whylen) != 0) {
		c->rc = -1;
		return child_classify(-1, 0, "", why, whylen);
	}
	return child_end(c, timeout_ms, why, whylen);
}

enum child_kind child_run(struct child *c, char *const argv[], char *why, size_t whylen)
{
	return child_run_within(c, argv, -1, why, whylen);
}

/* --- how it ended ------------------------------------------------------------ */

/* The last non-empty line of a child's stderr: its one-line message. */
static void last_line(const char *s, char *buf, size_t len)
{
	const char *end = s + strlen(s);
	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* Drops a trailing " (see PROG --help)" from a message. */
static void drop_help_hint(char *s)
{
	size_t n = strlen(s);
	char *open;

	/* a message that is only the hint keeps it: an empty reason says nothing */
	if (n < 7 || strcmp(s + n - 7, "--help)") != 0 || (open = strrchr(s, '(')) == NULL || open < s + 2 ||
	    open[-1] != ' ' || strncmp(open, "(see ", 5) != 0)
		return;
	open[-1] = '\0';
}

/* The first lines of a Go runtime's fatal report ("panic: ...", "fatal
 * error: ..."), joined; "" when there is none. */
static void go_fatal_lines(const char *s, char *buf, size_t len)
{
	const char *p = strstr(s, "panic: "), *f = strstr(s, "fatal error: ");
	size_t used = 0;

	buf[0] = '\0';
	if (p == NULL || (f && f < p))
		p = f;
	for (int line = 0; p && *p && line < 3 && used + 1 < len; line++) {
		size_t n = strcspn(p, "\n");
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", line ? " | " : "", (int)n, p);
		p += n;
		while (*p == '\n')
			p++;
	}
}

enum child_kind child_classify(int rc, int signo, const char *errout, char *why, size_t len)
{
	char msg[400], fatal[400];
	const char *colon;

	last_line(errout ? errout : "", msg, sizeof(msg));
	go_fatal_lines(errout ? errout : "", fatal, sizeof(fatal));
	if (rc < 0 && signo == SIGALRM) {
		/* the child said where it hung ("bench: hung while loading
		 * LIB, in plugin_init ..."), or it is an older build that did not */
		colon = strstr(msg, ": hung while loading ");
		if (colon)
			snprintf(why, len, "%s", colon + 2);
		else
			snprintf(why, len, "hung while loading a plugin library (no progress for --stall-timeout)");
		return CHILD_HUNG;
	}
	if (rc < 0 && signo) {
		snprintf(why, len, "killed by signal %d (%s)%s%s", signo, strsignal(signo), fatal[0] ? ": " : "",
			 fatal);
		return CHILD_CRASHED;
	}
	if (rc < 0) {
		snprintf(why, len, "could not run");
		return CHILD_FAILED;
	}
	switch (rc) {
	case EXIT_OK:
		why[0] = '\0';
		return CHILD_OK;
	case EXIT_CHILD_BAD_INPUT:
		if (msg[0] == '\0') { /* not a bench: bench always says what was bad */
			snprintf(why, len, "exit %d (bad input) with no message", rc);
			return CHILD_FAILED;
		}
		/* the child's message without its program name, and without
		 * its hint: the parent adds its own */
		colon = strstr(msg, ": ");
		snprintf(why, len, "%s", colon ? colon + 2 : msg);
		drop_help_hint(why);
		return CHILD_BAD_INPUT;
	case EXIT_CHILD_STALLED:
		snprintf(why, len, "%s", msg[0] ? msg : "a caller stalled");
		return CHILD_STALLED;
	case EXIT_BAD_INPUT: /* the Go runtime's exit status after a fatal panic */
		if (fatal[0] == '\0') {
			/* no panic and no fatal error: the program itself said
			 * no, as a usage error (an --against executable that is
			 * no bench of this cgocost: bench-minimal, a script) */
			snprintf(why, len, "it refused its arguments (exit 2, no Go runtime error): %s",
				 msg[0] ? msg : "no message");
			return CHILD_FAILED;
		}
		snprintf(why, len, "the Go runtime ended the process (exit 2): %s", fatal);
		return CHILD_PANICKED;
	default:
		snprintf(why, len, "exit %d: %s", rc, msg[0] ? msg : "no message");
		return CHILD_FAILED;
	}
}

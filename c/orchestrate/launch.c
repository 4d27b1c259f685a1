/* orchestrate/launch.c — see launch.h. */
#include "orchestrate/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/status.h"
#include "model/codec.h"
#include "timing/record.h"

struct buf {
	char *data;
	size_t len, cap;
};

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

int launch_capture(char *const argv[], char **out, char **errout, int *signo, char *err, size_t errlen)
{
	int po[2], pe[2], status;
	pid_t pid, parent;
	struct buf bo = { 0 }, be = { 0 };
	struct pollfd fds[2];
	int open_fds = 2;

	*out = *errout = NULL;
	*signo = 0;
	if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot fork: %s", strerror(errno));
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		/* a process group of its own, which the parent kills whole when
		 * interrupted; and killed by the kernel if the parent dies first */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	interrupt_child(pid);
	close(po[1]);
	close(pe[1]);
	fds[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (buf_read(i == 0 ? &bo : &be, fds[i].fd) <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			interrupt_child(0);
			snprintf(err, errlen, "cannot wait for %s: %s", argv[0], strerror(errno));
			free(bo.data);
			free(be.data);
			return -1;
		}
	interrupt_child(0);
	*out = buf_take(&bo);
	*errout = buf_take(&be);
	if (WIFSIGNALED(status)) {
		*signo = WTERMSIG(status);
		snprintf(err, errlen, "%s was killed by signal %d (%s)", argv[0], WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		return -1;
	}
	return WEXITSTATUS(status);
}

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

enum launch_kind launch_classify(int rc, int signo, const char *errout, char *why, size_t len)
{
	char msg[400], fatal[400];
	const char *colon;

	last_line(errout ? errout : "", msg, sizeof(msg));
	go_fatal_lines(errout ? errout : "", fatal, sizeof(fatal));
	if (rc < 0 && signo == SIGALRM) {
		snprintf(why, len, "hung while loading a plugin library (no progress for --stall-timeout)");
		return LAUNCH_HUNG;
	}
	if (rc < 0 && signo) {
		snprintf(why, len, "killed by signal %d (%s)%s%s", signo, strsignal(signo), fatal[0] ? ": " : "",
			 fatal);
		return LAUNCH_CRASHED;
	}
	if (rc < 0) {
		snprintf(why, len, "could not run");
		return LAUNCH_FAILED;
	}
	switch (rc) {
	case EXIT_OK:
		why[0] = '\0';
		return LAUNCH_OK;
	case EXIT_CHILD_BAD_INPUT:
		/* the child's message without its program name */
		colon = strstr(msg, ": ");
		snprintf(why, len, "%s", colon ? colon + 2 : msg);
		return LAUNCH_BAD_INPUT;
	case EXIT_STALLED:
		snprintf(why, len, "%s", msg[0] ? msg : "a caller stalled");
		return LAUNCH_STALLED;
	case EXIT_BAD_INPUT: /* the Go runtime's exit status after a fatal panic */
		snprintf(why, len, "the Go runtime ended the process (exit 2): %s", fatal[0] ? fatal : msg);
		return LAUNCH_PANICKED;
	default:
		snprintf(why, len, "exit %d: %s", rc, msg[0] ? msg : "no message");
		return LAUNCH_FAILED;
	}
}

/* Runs a child and hands its stdout to parse. Returns EXIT_OK; the child's
 * own failure, classified (bad input 2, a stall 4, anything else 3), with
 * its reason in err; or EXIT_RUN_FAILED when parse refuses what it printed. */
static int launch_parsed(char *const argv[], int (*parse)(const char *out, void *ctx, char *why, size_t whylen),
			 void *ctx, char *err, size_t errlen)
{
	char *out, *errout, why[600] = "";
	int signo, rc = launch_capture(argv, &out, &errout, &signo, err, errlen);
	enum launch_kind kind = launch_classify(rc, signo, errout, why, sizeof(why));

	if (kind != LAUNCH_OK) {
		if (kind == LAUNCH_BAD_INPUT)
			snprintf(err, errlen, "%s", why);
		else
			snprintf(err, errlen, "launch of %s %s: %s", argv[0],
				 kind == LAUNCH_CRASHED || kind == LAUNCH_PANICKED ? "crashed" : "failed", why);
		rc = kind == LAUNCH_BAD_INPUT ? EXIT_BAD_INPUT
		     : kind == LAUNCH_STALLED ? EXIT_STALLED
					      : EXIT_RUN_FAILED;
	} else if (out == NULL || parse(out, ctx, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "launch of %s printed %s", argv[0], why);
		rc = EXIT_RUN_FAILED;
	} else {
		rc = EXIT_OK;
	}
	free(out);
	free(errout);
	return rc;
}

static int parse_document(const char *out, void *ctx, char *why, size_t whylen)
{
	char msg[400];
	if (doc_loads(ctx, out, strlen(out), msg, sizeof(msg)) == 0)
		return 0;
	snprintf(why, whylen, "no valid document (%s)", msg);
	return -1;
}

int launch_document(char *const argv[], struct doc *d, char *err, size_t errlen)
{
	return launch_parsed(argv, parse_document, d, err, errlen);
}

struct minimal_ctx {
	struct doc *d;
	const struct options *o;
	int async;
	const char *exe;
};

static int parse_minimal(const char *out, void *ctx, char *why, size_t whylen)
{
	struct minimal_ctx *m = ctx;
	if (record_minimal(m->d, out, m->o, m->async, m->exe) == 0)
		return 0;
	snprintf(why, whylen, "no seed line and verified mode");
	return -1;
}

int launch_minimal(char *const argv[], const struct options *o, int async, struct doc *d, char *err, size_t errlen)
{
	struct minimal_ctx m = { .d = d, .o = o, .async = async, .exe = argv[0] };
	return launch_parsed(argv, parse_minimal, &m, err, errlen);
}

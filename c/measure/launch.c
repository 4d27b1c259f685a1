/* measure/launch.c — see launch.h. */
#include "measure/launch.h"

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

int launch_capture(char *const argv[], char **out, char **errout, char *err, size_t errlen)
{
	int po[2], pe[2], status;
	pid_t pid, parent;
	struct buf bo = { 0 }, be = { 0 };
	struct pollfd fds[2];
	int open_fds = 2;

	*out = *errout = NULL;
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

int launch_document(char *const argv[], struct doc *d, char *err, size_t errlen)
{
	char *out, *errout, msg[400], why[300];
	int rc = launch_capture(argv, &out, &errout, err, errlen);

	if (rc < 0)
		return EXIT_RUN_FAILED;
	if (rc != 0) {
		last_line(errout, msg, sizeof(msg));
		snprintf(err, errlen, "launch of %s failed (exit %d): %s", argv[0], rc, msg[0] ? msg : "no message");
		free(out);
		free(errout);
		return rc == EXIT_BAD_INPUT || rc == EXIT_STALLED ? rc : EXIT_RUN_FAILED;
	}
	rc = EXIT_OK;
	if (doc_loads(d, out, strlen(out), why, sizeof(why)) != 0) {
		snprintf(err, errlen, "launch of %s printed no valid document (%s)", argv[0], why);
		rc = EXIT_RUN_FAILED;
	}
	free(out);
	free(errout);
	return rc;
}

int self_path(char *buf, size_t len)
{
	char tmp[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", tmp, sizeof(tmp) - 1);
	if (n <= 0)
		return -1;
	tmp[n] = '\0';
	return snprintf(buf, len, "%s", tmp) >= (int)len ? -1 : 0;
}

int sibling_path(const char *exe, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(exe, '/');
	int dir = slash ? (int)(slash - exe) : 0;
	int n = slash ? snprintf(buf, len, "%.*s/%s", dir, exe, name) : snprintf(buf, len, "%s", name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

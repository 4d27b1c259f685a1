/* cli/exports.c — see exports.h. */
#include "cli/exports.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomicfile.h"
#include "base/fdio.h"
#include "base/selfpath.h"
#include "cli/cli.h"
#include "model/codec.h"
#include "orchestrate/child.h"
#include "report/export.h"
#include "report/output.h"

/* --- the tool of the html export ----------------------------------------- */

/* Where cgocost-report is: $CGOCOST_REPORT, or beside this executable. 0,
 * or -1 (the path cannot be made). */
static int tool_path(char *buf, size_t len)
{
	const char *env = getenv(EXPORT_TOOL_ENV);
	char self[PATH_MAX];

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return strlen(env) < len ? 0 : -1;
	}
	if (self_path(self, sizeof(self)) != 0)
		return -1;
	return sibling_path(self, "cgocost-report", buf, len);
}

/* How long the tool may take, in ms: $CGOCOST_REPORT_TIMEOUT seconds, or
 * the default. 0, or -1 with a message. */
static int tool_timeout_ms(int *ms, char *err, size_t errlen)
{
	const char *env = getenv(EXPORT_TIMEOUT_ENV);
	char *end;
	double s = EXPORT_HTML_TIMEOUT_S;

	if (env && *env) {
		errno = 0;
		s = strtod(env, &end);
		if (errno || end == env || *end || !(s > 0) || s > EXPORT_MAX_TIMEOUT_S) {
			snprintf(err, errlen, "%s: '%.40s' is not a number of seconds in (0, %g]", EXPORT_TIMEOUT_ENV,
				 env, EXPORT_MAX_TIMEOUT_S);
			return -1;
		}
	}
	*ms = (int)(s * 1000 + 0.5);
	if (*ms < 1)
		*ms = 1;
	return 0;
}

static int executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* --- the checks before the run -------------------------------------------- */

/* path with its directory resolved (realpath) and its last name as given:
 * the file a save replaces (a symbolic link there is refused by
 * atomic_write_check, so two names of one file differ only by the links of
 * their directories, which realpath resolves).
 * path itself when its directory cannot be resolved. */
static void canonical(const char *path, char *buf, size_t len)
{
	char *a = strdup(path), *b = strdup(path), dir[PATH_MAX];

	if (a && b && realpath(dirname(a), dir) != NULL)
		snprintf(buf, len, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, basename(b));
	else
		snprintf(buf, len, "%s", path);
	free(a);
	free(b);
}

/* The file of export i is another's, or a baseline's: 1 with a message. */
static int same_file(const struct options *o, const struct export_spec *e, int i, char *err, size_t errlen)
{
	char mine[PATH_MAX + 1], other[PATH_MAX + 1];
	const char *names[2] = { o->save_baseline, o->baseline };
	const char *labels[2] = { "--save-baseline", "--baseline" };

	canonical(e[i].file, mine, sizeof(mine));
	for (int j = 0; j < i; j++) {
		if (export_to_stdout(&e[j]))
			continue;
		canonical(e[j].file, other, sizeof(other));
		if (strcmp(mine, other) == 0) {
			snprintf(err, errlen, "--export %s and --export %s name the same file %s", o->exports[j],
				 o->exports[i], mine);
			return 1;
		}
	}
	for (int j = 0; j < 2; j++) {
		if (names[j] == NULL)
			continue;
		canonical(names[j], other, sizeof(other));
		if (strcmp(mine, other) == 0) {
			snprintf(err, errlen, "--export %s and %s %s name the same file", o->exports[i], labels[j],
				 names[j]);
			return 1;
		}
	}
	return 0;
}

int exports_check(const struct options *o, char *err, size_t errlen)
{
	struct export_spec e[OPT_MAX_EXPORTS];
	char why[PATH_MAX + 256], tool[PATH_MAX];
	int ms;

	for (int i = 0; i < o->nexports; i++) {
		if (export_parse(o->exports[i], &e[i], err, errlen) != 0)
			return -1;
		if (e[i].format == EXPORT_HTML) {
			if (tool_timeout_ms(&ms, why, sizeof(why)) != 0) {
				snprintf(err, errlen, "--export %s: %s", o->exports[i], why);
				return -1;
			}
			if (getenv(EXPORT_TOOL_ENV) && *getenv(EXPORT_TOOL_ENV) &&
			    !executable(getenv(EXPORT_TOOL_ENV))) {
				snprintf(err, errlen, "--export html: %s: %s=%s is not an executable file", e[i].file,
					 EXPORT_TOOL_ENV, getenv(EXPORT_TOOL_ENV));
				return -1;
			}
			if (tool_path(tool, sizeof(tool)) != 0 || !executable(tool)) {
				snprintf(err, errlen,
					 "--export html: %s: needs cgocost-report beside bench (make all builds it)",
					 e[i].file);
				return -1;
			}
		}
		if (export_to_stdout(&e[i]))
			continue;
		if (atomic_write_check(e[i].file, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "--export %s: %s", o->exports[i], why);
			return -1;
		}
		if (same_file(o, e, i, err, errlen))
			return -1;
	}
	return 0;
}

/* --- the writing after the report ------------------------------------------ */

/* The last non-empty line of s, at most len - 1 bytes. */
static void last_line(const char *s, char *buf, size_t len)
{
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (start = end; start > s && start[-1] != '\n';)
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* The page cgocost-report makes of d, malloc'd in *page. 0, or -1 with why. */
static int html_page(const struct doc *d, char **page, char *why, size_t whylen)
{
	char tool[PATH_MAX], msg[400], sub[512];
	char *json = NULL, *argv[3];
	int fd = -1, ms, rc = -1;
	struct child c;

	*page = NULL;
	if (tool_path(tool, sizeof(tool)) != 0 || tool_timeout_ms(&ms, why, whylen) != 0) {
		if (why[0] == '\0')
			snprintf(why, whylen, "cannot find cgocost-report");
		return -1;
	}
	if ((json = doc_dumps(d, 1)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	fd = memfd_create("cgocost-report-input", MFD_CLOEXEC);
	if (fd < 0 || fd_write_all(fd, json, strlen(json)) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
		snprintf(why, whylen, "cannot hold the JSON for %s: %s", tool, strerror(errno));
		goto out;
	}
	argv[0] = tool, argv[1] = "-", argv[2] = NULL;
	child_init(&c, 0);
	if (child_spawn_stdin(&c, CHILD_PIPES, argv, fd, sub, sizeof(sub)) != 0) {
		snprintf(why, whylen, "%s: %s", tool, sub);
		goto out;
	}
	child_end(&c, ms, sub, sizeof(sub));
	last_line(c.errors ? c.errors : "", msg, sizeof(msg));
	if (c.flooded)
		snprintf(why, whylen, "%s: %s", tool, sub);
	else if (c.timed_out)
		/* a busy tool was waited for past ms (orchestrate/child.h) */
		snprintf(why, whylen, "%s did not end within %g s%s: killed", tool,
			 c.busy ? c.waited_ms / 1000.0 : ms / 1000.0, c.busy ? ", though it kept using CPU" : "");
	else if (c.signo)
		snprintf(why, whylen, "%s: killed by signal %d (%s)", tool, c.signo, strsignal(c.signo));
	else if (c.rc != 0)
		snprintf(why, whylen, "%s: exit %d: %s", tool, c.rc, msg[0] ? msg : "no message");
	else if (c.output == NULL || c.output[0] == '\0')
		snprintf(why, whylen, "%s: exit 0 but no page on its stdout", tool);
	else {
		*page = c.output;
		c.output = NULL;
		rc = 0;
	}
	child_close(&c);
out:
	if (fd >= 0)
		close(fd);
	free(json);
	return rc;
}

/* The export e of d in memory, malloc'd in *data. 0, or -1 with why. */
static int render(const struct export_spec *e, const struct doc *d, char **data, size_t *len, char *why, size_t whylen)
{
	FILE *mem;
	int rc;

	*data = NULL;
	*len = 0;
	if (e->format == EXPORT_HTML) {
		if (html_page(d, data, why, whylen) != 0)
			return -1;
		*len = strlen(*data);
		return 0;
	}
	if ((mem = open_memstream(data, len)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	rc = export_render(mem, e->format, d);
	if (fclose(mem) != 0 || rc != 0) {
		free(*data);
		*data = NULL;
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/* Writes one export; 0, or -1 with why. */
static int write_one(const struct export_spec *e, const struct doc *d, char *why, size_t whylen)
{
	char *data;
	size_t len;
	int rc;

	why[0] = '\0';
	if (render(e, d, &data, &len, why, whylen) != 0)
		return -1;
	if (export_to_stdout(e)) {
		errno = 0;
		rc = output_write(stdout, data, len);
		if (rc != 0)
			snprintf(why, whylen, "cannot write to stdout: %s", strerror(errno ? errno : EIO));
	} else {
		rc = atomic_write_file(e->file, data, len, why, whylen);
	}
	free(data);
	return rc;
}

int exports_write(const struct options *o, const struct doc *d)
{
	struct export_spec e;
	char why[PATH_MAX + 1024];
	int failed = 0;

	for (int i = 0; i < o->nexports; i++) {
		if (export_parse(o->exports[i], &e, why, sizeof(why)) != 0 || write_one(&e, d, why, sizeof(why)) != 0) {
			fprintf(stderr, "%s: --export %s: %s: not written\n", prog, o->exports[i], why);
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}

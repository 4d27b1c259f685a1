/* orchestrate/progress.c — see progress.h. */
#include "orchestrate/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/clock.h"
#include "stats/signrank.h"

int progress_wanted(const struct options *o, int err_is_tty)
{
	if (o->no_progress)
		return 0;
	return o->progress || err_is_tty;
}

void progress_begin(struct progress *p, const struct options *o, double budget_s)
{
	struct winsize ws;
	int tty = isatty(STDERR_FILENO);

	memset(p, 0, sizeof(*p));
	p->err = stderr;
	p->on = progress_wanted(o, tty);
	p->budget_s = budget_s;
	p->t0 = now_ns();
	if (tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		p->cols = ws.ws_col;
}

const char *progress_text(char *buf, size_t len, double elapsed_s, double budget_s, const char *done,
			  const char *figure)
{
	int at;

	if (budget_s > 0)
		at = snprintf(buf, len, "bench: %.1f s (budget %g s); %s", elapsed_s, budget_s, done);
	else
		at = snprintf(buf, len, "bench: %.1f s; %s", elapsed_s, done);
	if (at > 0 && (size_t)at < len && figure && figure[0])
		snprintf(buf + at, len - (size_t)at, "; %s", figure);
	return buf;
}

void progress_show(struct progress *p, const char *done, const char *figure)
{
	char line[PROGRESS_LINE_MAX];
	uint64_t t = now_ns();

	if (!p->on || t - p->t0 < PROGRESS_AFTER_NS || (p->shown && t - p->last < PROGRESS_EVERY_NS))
		return;
	progress_text(line, sizeof(line), (double)(t - p->t0) / 1e9, p->budget_s, done, figure);
	/* one row of the terminal, or the carriage return cannot erase it */
	if (p->cols > 0 && strlen(line) >= (size_t)p->cols)
		line[p->cols - 1] = '\0';
	fprintf(p->err, "\r\033[K%s", line);
	fflush(p->err);
	p->shown = 1;
	p->last = t;
}

void progress_end(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", p->err);
	fflush(p->err);
	p->shown = 0;
}

const char *progress_paired_figure(const struct paired_rec *pr, char *buf, size_t len)
{
	const struct pair_ratio_rec *r = NULL;
	struct signrank_ci ci;
	double *x;

	buf[0] = '\0';
	for (size_t k = 0; k < pr->nratios && r == NULL; k++)
		if (pr->ratios[k].judged)
			r = &pr->ratios[k];
	if (r == NULL && pr->nratios > 0)
		r = &pr->ratios[0];
	if (r == NULL || pr->ngenerations == 0 || (x = malloc((pr->ngenerations + 1) * sizeof(double))) == NULL)
		return buf;
	if (paired_generation_ratios(pr, r, pr->cells[r->num].block_ns, pr->cells[r->den].block_ns, x) == 0 &&
	    signrank_ratio_interval(x, pr->ngenerations, 0.95, &ci) == 0 && isfinite(ci.point)) {
		if (isfinite(ci.lo) && isfinite(ci.hi))
			snprintf(buf, len, "%s %.3f [%.3f, %.3f]", r->name, ci.point, ci.lo, ci.hi);
		else
			snprintf(buf, len, "%s %.3f [n/a]", r->name, ci.point);
	}
	free(x);
	return buf;
}

/* report/mdtext.c — see mdtext.h. */
#include "report/mdtext.h"

#include <string.h>

void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

static size_t longest_backticks(const char *s)
{
	size_t run = 0, most = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	return most;
}

static void backticks(FILE *out, size_t n)
{
	while (n-- > 0)
		fputc('`', out);
}

void md_code(FILE *out, const char *s)
{
	size_t fence = longest_backticks(s) + 1, len = strlen(s);
	int pad = len > 0 && (s[0] == '`' || s[len - 1] == '`');

	if (len == 0)
		return;
	backticks(out, fence);
	if (pad)
		fputc(' ', out);
	md_text(out, s);
	if (pad)
		fputc(' ', out);
	backticks(out, fence);
}

static int shell_plain(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_./=,:@%+-", *s) != NULL))
			return 0;
	return 1;
}

/* One argument as the shell reads it back: as it is, or in single quotes
 * (a quote inside as '\''); line breaks as spaces (one line). */
static void shell_word(FILE *out, const char *s)
{
	if (shell_plain(s)) {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

void md_command_block(FILE *out, char *const *argv, size_t n)
{
	size_t fence = 3;

	for (size_t i = 0; i < n; i++) {
		size_t run = longest_backticks(argv[i]) + 1;
		if (run > fence)
			fence = run;
	}
	backticks(out, fence);
	fputs("sh\n", out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(' ', out);
		shell_word(out, argv[i]);
	}
	fputc('\n', out);
	backticks(out, fence);
	fputc('\n', out);
}

/* report/mdtext.h — the markdown report's spelling of text: a table cell's
 * content with '|' escaped and line breaks made spaces, a code span that
 * survives any backticks in what it quotes, and a command line quoted for
 * a shell in a fenced block. */
#ifndef CGOCOST_REPORT_MDTEXT_H
#define CGOCOST_REPORT_MDTEXT_H

#include <stddef.h>
#include <stdio.h>

/* s as table-cell text: '|' as "\|", CR and LF as spaces. */
void md_text(FILE *out, const char *s);

/* s as a code span for a table cell (the same escapes): fenced by one
 * backtick more than its longest run of backticks, padded by a space when
 * it starts or ends with one. "" writes nothing. */
void md_code(FILE *out, const char *s);

/* argv[0..n) as one shell command line (arguments with anything but
 * [A-Za-z0-9_./=,:@%+-] single-quoted) in a fenced code block, its fence
 * longer than any run of backticks in the line. */
void md_command_block(FILE *out, char *const *argv, size_t n);

#endif

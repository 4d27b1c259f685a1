/* cli/exports.h — --export FORMAT=FILE: every export of a run made from its
 * one document after the console report, each file written atomically;
 * html by the Go tool cgocost-report beside bench, fed the document's JSON
 * (a child process of orchestrate/child.h). The words were read by the
 * rules (cli/rules.c); here the files and the tool are checked before
 * anything is measured, and written at the end. */
#ifndef CGOCOST_CLI_EXPORTS_H
#define CGOCOST_CLI_EXPORTS_H

#include <stddef.h>

#include "model/model.h"
#include "model/options.h"

/* The environment that overrides where cgocost-report is (a path) and how
 * long it may take (seconds; default EXPORT_HTML_TIMEOUT_S). */
#define EXPORT_TOOL_ENV	      "CGOCOST_REPORT"
#define EXPORT_TIMEOUT_ENV    "CGOCOST_REPORT_TIMEOUT"
#define EXPORT_HTML_TIMEOUT_S 60.0
#define EXPORT_MAX_TIMEOUT_S  3600.0

/* Before anything is measured: every FILE can be written (atomic_write_check:
 * not a directory, a device or a FIFO, in an existing directory where a
 * file can be made), no two name the same file by different spellings, nor
 * the --baseline or --save-baseline file; an html export has its tool and a
 * valid timeout. 0, or -1 with a one-line message in err. */
int exports_check(const struct options *o, char *err, size_t errlen);

/* After the console report: each export of o written, in the order given
 * ("-" to stdout); one that fails is said on stderr (prog: --export W: why)
 * and the others are still written. 0, or -1 when any failed (the run then
 * exits 3: its data is lost). */
int exports_write(const struct options *o, const struct doc *d);

#endif

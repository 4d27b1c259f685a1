/* model/codec_identity.h — what names a launch's cells, read from its
 * document's text: every cell's name, and the options record less what the
 * two sides of a comparison are given differently on purpose (the injected
 * slowdowns, extra_ns and async_extra_ns, which reach the build under test
 * only) and the folders of the plugin libraries (each build may load its
 * own sibling libcmock.so), and with cell names alike but for their lib=
 * part (bench against bench-shared: the same cells, linked another way,
 * paired by position). Two launches that measured the same cells have
 * the same identity: the coordinator of --against compares the two sides'
 * (orchestrate/plan.c) before any verdict. */
#ifndef CGOCOST_MODEL_CODEC_IDENTITY_H
#define CGOCOST_MODEL_CODEC_IDENTITY_H

#include <stddef.h>

/* The identity of the document in text: compact JSON, keys sorted,
 * malloc'd; NULL when text is no document with options and cells. */
char *doc_identity(const char *text, size_t len);

/* 0 when a and b are the same identity (an option that one of them does
 * not record, being older than it, is no difference). Else 1, with the
 * first cell of a
 * in cell, and in what the first difference, b's value then a's: an option
 * ("work \"bare\", not \"noop\"") or a cell ("the cell lib=..., not
 * lib=..."). */
int identity_diff(const char *a, const char *b, char *cell, size_t celllen, char *what, size_t whatlen);

#endif

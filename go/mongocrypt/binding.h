/*
 * C side of the cgocost libmongocrypt binding. Included by every cgo preamble
 * of the package and by hooks.c, so it holds declarations only (plus two
 * static inline forwarders).
 */
#ifndef CGOCOST_MONGOCRYPT_BINDING_H
#define CGOCOST_MONGOCRYPT_BINDING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <mongocrypt.h>

/*
 * libmongocrypt 1.7 (Debian 12) declares mongocrypt_binary_t as an opaque
 * struct. Later releases publish its definition: a pointer to the viewed bytes
 * followed by their length. Complete the type with that layout so that Go can
 * read the fields; the package checks at start-up, on probe buffers, that the
 * fields agree with what the library's accessors return, and the direct mode
 * refuses to run if they do not.
 *
 * Built with the tag mongocrypt_public_binary (set by mk/mongocrypt.mk when
 * the installed header defines the struct itself), the header's own
 * definition is used instead.
 */
#ifndef CGOCOST_BINARY_LAYOUT_FROM_HEADER
struct _mongocrypt_binary_t {
	void *data;
	uint32_t len;
};
#endif

/*
 * The access mode "accessor-annotated": the same two library calls, reached
 * through names of our own so that `#cgo noescape` and `#cgo nocallback` can
 * be attached to them without changing the plain "accessor" mode, which calls
 * the library's names. gcc inlines the forwarders into cgo's call stubs.
 */
static inline uint8_t *cgocost_binary_data(const mongocrypt_binary_t *b)
{
	return mongocrypt_binary_data(b);
}

static inline uint32_t cgocost_binary_len(const mongocrypt_binary_t *b)
{
	return mongocrypt_binary_len(b);
}

/*
 * Registers the crypto hooks written in Go (hooks.go) on crypt. access is the
 * binding's access mode (0 accessor, 1 accessor-annotated, 2 direct); the
 * hooks receive a pointer to it as their context. Returns the library's
 * result, or false without calling it for an unknown mode.
 */
bool cgocost_set_go_crypto_hooks(mongocrypt_t *crypt, int access);

#endif

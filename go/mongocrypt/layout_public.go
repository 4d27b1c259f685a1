//go:build mongocrypt_public_binary

package mongocrypt

// Built with the tag mongocrypt_public_binary, binding.h leaves
// mongocrypt_binary_t to the header, which defines it from libmongocrypt 1.10
// on. mk/mongocrypt.mk sets the tag when a compile probe finds the struct
// complete; the start-up layout check still runs.

// #cgo CFLAGS: -DCGOCOST_BINARY_LAYOUT_FROM_HEADER
import "C"

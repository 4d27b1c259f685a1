package mongocrypt

/*
#include "binding.h"
*/
import "C"

import "unsafe"

// callAESHook calls the Go AES-256-CBC decryption hook the way the library
// does, on C buffers of the given sizes, and returns its result, the status
// message it set and the bytes it reported written. Tests use it to reach
// the error paths that a well-behaved library never takes.
func callAESHook(a Access, keyLen, ivLen, inLen, outLen int) (ok bool, msg string, written int) {
	key, iv, in, out := newCBuffer(keyLen), newCBuffer(ivLen), newCBuffer(inLen), newCBuffer(outLen)
	defer func() {
		key.free()
		iv.free()
		in.free()
		out.free()
	}()
	st, free := newStatus()
	defer free()
	mode := C.int(a)
	var n C.uint32_t
	r := cgocostAes256CbcDecrypt(unsafe.Pointer(&mode), key.b, iv.b, in.b, out.b, &n, st)
	var l C.uint32_t
	crossed(1)
	m := C.mongocrypt_status_message(st, &l)
	return bool(r), C.GoStringN(m, C.int(l)), int(n)
}

package mongocrypt

/*
#include "binding.h"
*/
import "C"

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"sync/atomic"
	"unsafe"
)

// The crypto hooks of the "go" crypto mode, called by libmongocrypt from C.
// Each reads its binaries with the Crypt's access mode (the hook context
// points at it), works on the C memory in place, and reports failures
// through the library's status. A panic is recovered and reported the same
// way: it must not unwind through C frames.

// verifyHookReads makes every hook compare the direct and accessor reads of
// each binary it receives; mismatches are counted in hookReadMismatches.
// Tests use it to check the layout on the library's own binaries.
var (
	verifyHookReads    atomic.Bool
	hookReadChecks     atomic.Int64
	hookReadMismatches atomic.Int64
)

func hookView(a Access, b *C.mongocrypt_binary_t) []byte {
	if verifyHookReads.Load() {
		fd, fl := readFields(b)
		ad, al := readAccessors(b)
		hookReadChecks.Add(1)
		if fd != ad || fl != al {
			hookReadMismatches.Add(1)
		}
	}
	return view(a, b)
}

func hookAccess(ctx unsafe.Pointer) Access { return Access(*(*C.int)(ctx)) }

//export cgocostAes256CbcEncrypt
func cgocostAes256CbcEncrypt(ctx unsafe.Pointer, key, iv, in, out *C.mongocrypt_binary_t, written *C.uint32_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("aes_256_cbc_encrypt", status, &ok)
	a := hookAccess(ctx)
	n, err := aesCBC(true, hookView(a, key), hookView(a, iv), hookView(a, in), hookView(a, out))
	if err != nil {
		return failHook(status, "aes_256_cbc_encrypt", err)
	}
	*written = C.uint32_t(n)
	return true
}

//export cgocostAes256CbcDecrypt
func cgocostAes256CbcDecrypt(ctx unsafe.Pointer, key, iv, in, out *C.mongocrypt_binary_t, written *C.uint32_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("aes_256_cbc_decrypt", status, &ok)
	a := hookAccess(ctx)
	n, err := aesCBC(false, hookView(a, key), hookView(a, iv), hookView(a, in), hookView(a, out))
	if err != nil {
		return failHook(status, "aes_256_cbc_decrypt", err)
	}
	*written = C.uint32_t(n)
	return true
}

//export cgocostHmacSha512
func cgocostHmacSha512(ctx unsafe.Pointer, key, in, out *C.mongocrypt_binary_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("hmac_sha_512", status, &ok)
	a := hookAccess(ctx)
	if err := hmacInto(sha512.New, sha512.Size, hookView(a, key), hookView(a, in), hookView(a, out)); err != nil {
		return failHook(status, "hmac_sha_512", err)
	}
	return true
}

//export cgocostHmacSha256
func cgocostHmacSha256(ctx unsafe.Pointer, key, in, out *C.mongocrypt_binary_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("hmac_sha_256", status, &ok)
	a := hookAccess(ctx)
	if err := hmacInto(sha256.New, sha256.Size, hookView(a, key), hookView(a, in), hookView(a, out)); err != nil {
		return failHook(status, "hmac_sha_256", err)
	}
	return true
}

//export cgocostSha256
func cgocostSha256(ctx unsafe.Pointer, in, out *C.mongocrypt_binary_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("sha_256", status, &ok)
	a := hookAccess(ctx)
	dst := hookView(a, out)
	if len(dst) < sha256.Size {
		return failHook(status, "sha_256", fmt.Errorf("output is %d bytes, want at least %d", len(dst), sha256.Size))
	}
	sum := sha256.Sum256(hookView(a, in))
	copy(dst, sum[:])
	return true
}

//export cgocostRandom
func cgocostRandom(ctx unsafe.Pointer, out *C.mongocrypt_binary_t, count C.uint32_t, status *C.mongocrypt_status_t) (ok C.bool) {
	calledBack()
	defer recoverHook("random", status, &ok)
	dst := hookView(hookAccess(ctx), out)
	if int(count) > len(dst) {
		return failHook(status, "random", fmt.Errorf("%d bytes requested into an output of %d", count, len(dst)))
	}
	if _, err := rand.Read(dst[:count]); err != nil {
		return failHook(status, "random", err)
	}
	return true
}

// aesCBC en- or decrypts in into out with AES-256-CBC, without padding (the
// library pads and unpads), and returns the bytes written.
func aesCBC(encrypt bool, key, iv, in, out []byte) (int, error) {
	switch {
	case len(key) != 32:
		return 0, fmt.Errorf("key is %d bytes, want 32", len(key))
	case len(iv) != aes.BlockSize:
		return 0, fmt.Errorf("IV is %d bytes, want %d", len(iv), aes.BlockSize)
	case len(in)%aes.BlockSize != 0:
		return 0, fmt.Errorf("input of %d bytes is not a whole number of blocks", len(in))
	case len(out) < len(in):
		return 0, fmt.Errorf("output of %d bytes is shorter than the input (%d)", len(out), len(in))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return 0, err
	}
	var m cipher.BlockMode
	if encrypt {
		m = cipher.NewCBCEncrypter(block, iv)
	} else {
		m = cipher.NewCBCDecrypter(block, iv)
	}
	m.CryptBlocks(out[:len(in)], in)
	return len(in), nil
}

// hmacInto writes the HMAC of in under key into out, in place.
func hmacInto(h func() hash.Hash, size int, key, in, out []byte) error {
	if len(out) < size {
		return fmt.Errorf("output is %d bytes, want at least %d", len(out), size)
	}
	m := hmac.New(h, key)
	m.Write(in)
	m.Sum(out[:0]) // appends within out's capacity: no allocation, no copy
	return nil
}

// failHook sets the library's status to a client error naming the hook and
// returns false, which the library turns into a failed operation.
func failHook(status *C.mongocrypt_status_t, hook string, err error) C.bool {
	if status == nil {
		return false
	}
	msg := "Go crypto hook " + hook + ": " + err.Error() + "\x00"
	crossed(1)
	C.mongocrypt_status_set(status, C.MONGOCRYPT_STATUS_ERROR_CLIENT, 1,
		(*C.char)(unsafe.Pointer(unsafe.StringData(msg))), -1)
	return false
}

func recoverHook(hook string, status *C.mongocrypt_status_t, ok *C.bool) {
	if r := recover(); r != nil {
		*ok = failHook(status, hook, fmt.Errorf("panic: %v", r))
	}
}

package mongocrypt

/*
#include "binding.h"
*/
import "C"

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"unsafe"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// LocalKeySize is the size of the local KMS provider's master key.
const LocalKeySize = 96

// Algorithm is the explicit encryption algorithm the binding uses.
const Algorithm = "AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic"

// Options configure a Crypt.
type Options struct {
	Crypto Crypto
	Access Access
	Bytes  Bytes
	// LocalKey is the master key of the local KMS provider (LocalKeySize
	// bytes), for example from NewLocalKey.
	LocalKey []byte
}

// NewLocalKey returns a random master key for the local KMS provider.
func NewLocalKey() ([]byte, error) {
	k := make([]byte, LocalKeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	return k, nil
}

// Error is a failure reported by libmongocrypt (or by the Go crypto hooks
// through the library's status), with the library's status message.
type Error struct {
	Op      string // what the binding was doing, e.g. "decrypt: finalize"
	Code    uint32 // the status code, 0 if the binding itself failed
	Message string // the status message
}

func (e *Error) Error() string {
	if e.Code == 0 {
		return "mongocrypt: " + e.Op + ": " + e.Message
	}
	return fmt.Sprintf("mongocrypt: %s: %s (code %d)", e.Op, e.Message, e.Code)
}

// Crypt is a libmongocrypt handle with a local KMS provider and one data key
// created through the library. It is safe for concurrent use: every
// operation has its own context. Close it when done.
type Crypt struct {
	c        *C.mongocrypt_t
	opts     Options
	keyVault [][]byte // key documents, fed when a context needs keys
	keyID    []byte   // the data key's UUID
}

// New creates a Crypt: the handle, its KMS provider, the Go crypto hooks if
// asked for, and a data key. With access=direct it first checks the
// mongocrypt_binary_t layout and refuses to run if the check fails.
func New(opts Options) (*Crypt, error) {
	return newCrypt(opts, CheckDirectLayout)
}

func newCrypt(opts Options, layoutCheck func() error) (*Crypt, error) {
	if opts.Crypto < 0 || int(opts.Crypto) >= len(cryptoNames) {
		return nil, fmt.Errorf("mongocrypt: unknown crypto %v", opts.Crypto)
	}
	if opts.Access < 0 || int(opts.Access) >= len(accessNames) {
		return nil, fmt.Errorf("mongocrypt: unknown access %v", opts.Access)
	}
	if opts.Bytes < 0 || int(opts.Bytes) >= len(bytesNames) {
		return nil, fmt.Errorf("mongocrypt: unknown bytes mode %v", opts.Bytes)
	}
	if len(opts.LocalKey) != LocalKeySize {
		return nil, fmt.Errorf("mongocrypt: local KMS key is %d bytes, want %d", len(opts.LocalKey), LocalKeySize)
	}
	if opts.Access == Direct {
		if err := layoutCheck(); err != nil {
			return nil, err
		}
	}
	crossed(1)
	cr := &Crypt{c: C.mongocrypt_new(), opts: opts}
	made(handleCrypt)
	if err := cr.setUp(); err != nil {
		cr.Close()
		return nil, err
	}
	return cr, nil
}

func (cr *Crypt) setUp() error {
	kms, err := bson.Marshal(bson.D{{Key: "local", Value: bson.D{
		{Key: "key", Value: bson.Binary{Subtype: 0, Data: cr.opts.LocalKey}},
	}}})
	if err != nil {
		return err
	}
	ok, err := cr.withBinary(kms, func(b *C.mongocrypt_binary_t) C.bool {
		return C.mongocrypt_setopt_kms_providers(cr.c, b)
	})
	if err != nil {
		return err
	}
	if !ok {
		return cr.err("setopt_kms_providers")
	}
	if cr.opts.Crypto == GoCrypto {
		crossed(1)
		if !C.cgocost_set_go_crypto_hooks(cr.c, C.int(cr.opts.Access)) {
			return cr.err("setopt_crypto_hooks")
		}
	}
	crossed(1)
	if !C.mongocrypt_init(cr.c) {
		return cr.err("init")
	}
	return cr.createDataKey()
}

// Close destroys the handle. The Crypt must not be used afterwards.
func (cr *Crypt) Close() {
	if cr.c != nil {
		crossed(1)
		C.mongocrypt_destroy(cr.c)
		freed(handleCrypt)
		cr.c = nil
	}
}

// Options returns the options the Crypt was created with.
func (cr *Crypt) Options() Options { return cr.opts }

// KeyID returns the UUID of the data key.
func (cr *Crypt) KeyID() []byte { return bytes.Clone(cr.keyID) }

func (cr *Crypt) createDataKey() error {
	const op = "create data key"
	ctx, err := cr.newCtx(op)
	if err != nil {
		return err
	}
	defer destroyCtx(ctx)
	kek, err := bson.Marshal(bson.D{{Key: "provider", Value: "local"}})
	if err != nil {
		return err
	}
	ok, err := cr.withBinary(kek, func(b *C.mongocrypt_binary_t) C.bool {
		return C.mongocrypt_ctx_setopt_key_encryption_key(ctx, b)
	})
	if err != nil {
		return err
	}
	if !ok {
		return ctxErr(op+": setopt_key_encryption_key", ctx)
	}
	crossed(1)
	if !C.mongocrypt_ctx_datakey_init(ctx) {
		return ctxErr(op+": datakey_init", ctx)
	}
	doc, err := cr.run(op, ctx)
	if err != nil {
		return err
	}
	id, err := bson.Raw(doc).LookupErr("_id")
	if err != nil {
		return &Error{Op: op, Message: "key document without _id: " + err.Error()}
	}
	sub, uuid, isBin := id.BinaryOK()
	if !isBin || sub != bson.TypeBinaryUUID || len(uuid) != 16 {
		return &Error{Op: op, Message: "key document _id is not a UUID"}
	}
	cr.keyVault = [][]byte{doc}
	cr.keyID = bytes.Clone(uuid)
	return nil
}

// EncryptString encrypts s explicitly with the data key and Algorithm and
// returns the encrypted BSON value (a binary of subtype 6).
func (cr *Crypt) EncryptString(s string) (bson.RawValue, error) {
	const op = "encrypt"
	ctx, err := cr.newCtx(op)
	if err != nil {
		return bson.RawValue{}, err
	}
	defer destroyCtx(ctx)
	ok, err := cr.withBinary(cr.keyID, func(b *C.mongocrypt_binary_t) C.bool {
		return C.mongocrypt_ctx_setopt_key_id(ctx, b)
	})
	if err != nil {
		return bson.RawValue{}, err
	}
	if !ok {
		return bson.RawValue{}, ctxErr(op+": setopt_key_id", ctx)
	}
	alg := Algorithm + "\x00"
	crossed(1)
	if !C.mongocrypt_ctx_setopt_algorithm(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(alg))), -1) {
		return bson.RawValue{}, ctxErr(op+": setopt_algorithm", ctx)
	}
	msg, err := bson.Marshal(bson.D{{Key: "v", Value: s}})
	if err != nil {
		return bson.RawValue{}, err
	}
	ok, err = cr.withBinary(msg, func(b *C.mongocrypt_binary_t) C.bool {
		return C.mongocrypt_ctx_explicit_encrypt_init(ctx, b)
	})
	if err != nil {
		return bson.RawValue{}, err
	}
	if !ok {
		return bson.RawValue{}, ctxErr(op+": explicit_encrypt_init", ctx)
	}
	out, err := cr.run(op, ctx)
	if err != nil {
		return bson.RawValue{}, err
	}
	v, err := bson.Raw(out).LookupErr("v")
	if err != nil {
		return bson.RawValue{}, &Error{Op: op, Message: "result without v: " + err.Error()}
	}
	return v, nil
}

// Decrypt decrypts every encrypted value of the BSON document doc through a
// decryption context and returns the decrypted document.
func (cr *Crypt) Decrypt(doc []byte) ([]byte, error) {
	const op = "decrypt"
	ctx, err := cr.newCtx(op)
	if err != nil {
		return nil, err
	}
	defer destroyCtx(ctx)
	ok, err := cr.withBinary(doc, func(b *C.mongocrypt_binary_t) C.bool {
		return C.mongocrypt_ctx_decrypt_init(ctx, b)
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ctxErr(op+": decrypt_init", ctx)
	}
	return cr.run(op, ctx)
}

func (cr *Crypt) newCtx(op string) (*C.mongocrypt_ctx_t, error) {
	if cr.c == nil {
		return nil, &Error{Op: op, Message: "use of a closed Crypt"}
	}
	crossed(1)
	ctx := C.mongocrypt_ctx_new(cr.c)
	if ctx == nil {
		return nil, cr.err(op + ": ctx_new")
	}
	made(handleCtx)
	return ctx, nil
}

func destroyCtx(ctx *C.mongocrypt_ctx_t) {
	crossed(1)
	C.mongocrypt_ctx_destroy(ctx)
	freed(handleCtx)
}

// run drives a context's state machine to the end and returns a Go copy of
// its result. Keys come from the Crypt's key vault; the local KMS provider
// needs no KMS requests.
func (cr *Crypt) run(op string, ctx *C.mongocrypt_ctx_t) ([]byte, error) {
	for {
		crossed(1)
		switch st := C.mongocrypt_ctx_state(ctx); st {
		case C.MONGOCRYPT_CTX_NEED_MONGO_KEYS:
			if err := cr.feedKeys(op, ctx); err != nil {
				return nil, err
			}
		case C.MONGOCRYPT_CTX_READY:
			return cr.finalize(op, ctx)
		case C.MONGOCRYPT_CTX_ERROR:
			return nil, ctxErr(op, ctx)
		default:
			return nil, &Error{Op: op, Message: fmt.Sprintf("context in state %d, which this binding does not handle (it only uses local keys)", int(st))}
		}
	}
}

func (cr *Crypt) feedKeys(op string, ctx *C.mongocrypt_ctx_t) error {
	for _, k := range cr.keyVault {
		ok, err := cr.withBinary(k, func(b *C.mongocrypt_binary_t) C.bool {
			return C.mongocrypt_ctx_mongo_feed(ctx, b)
		})
		if err != nil {
			return err
		}
		if !ok {
			return ctxErr(op+": mongo_feed", ctx)
		}
	}
	crossed(1)
	if !C.mongocrypt_ctx_mongo_done(ctx) {
		return ctxErr(op+": mongo_done", ctx)
	}
	return nil
}

func (cr *Crypt) finalize(op string, ctx *C.mongocrypt_ctx_t) ([]byte, error) {
	out := newOutBinary()
	defer destroyBinary(out)
	crossed(1)
	if !C.mongocrypt_ctx_finalize(ctx, out) {
		return nil, ctxErr(op+": finalize", ctx)
	}
	res := bytes.Clone(view(cr.opts.Access, out))
	if res == nil {
		return nil, &Error{Op: op + ": finalize", Message: "empty result"}
	}
	return res, nil
}

// The status of a failed call, as an *Error.
const (
	statusOfCrypt = iota
	statusOfCtx
)

func (cr *Crypt) err(op string) error {
	return statusError(op, statusOfCrypt, unsafe.Pointer(cr.c))
}

func ctxErr(op string, ctx *C.mongocrypt_ctx_t) error {
	return statusError(op, statusOfCtx, unsafe.Pointer(ctx))
}

// withBinary hands data to one library call as a mongocrypt_binary_t made
// in the Crypt's bytes mode, and destroys the binary right after the call.
func (cr *Crypt) withBinary(data []byte, call func(*C.mongocrypt_binary_t) C.bool) (bool, error) {
	var in goBinary
	if err := in.init(cr.opts.Bytes, data); err != nil {
		return false, err
	}
	crossed(1)
	ok := call(in.b)
	in.destroy()
	return bool(ok), nil
}

// newStatus makes a status handle, counted as a crossing and a handle;
// free destroys it.
func newStatus() (st *C.mongocrypt_status_t, free func()) {
	crossed(1)
	st = C.mongocrypt_status_new()
	made(handleStatus)
	return st, func() {
		crossed(1)
		C.mongocrypt_status_destroy(st)
		freed(handleStatus)
	}
}

func statusError(op string, of int, h unsafe.Pointer) error {
	st, free := newStatus()
	defer free()
	crossed(1)
	if of == statusOfCtx {
		C.mongocrypt_ctx_status((*C.mongocrypt_ctx_t)(h), st)
	} else {
		C.mongocrypt_status((*C.mongocrypt_t)(h), st)
	}
	var n C.uint32_t
	crossed(2)
	msg := C.mongocrypt_status_message(st, &n)
	code := C.mongocrypt_status_code(st)
	e := &Error{Op: op, Code: uint32(code), Message: C.GoStringN(msg, C.int(n))}
	if e.Message == "" {
		e.Message = "failed without a status message"
	}
	return e
}

// IsLibraryError reports whether err is (or wraps) an *Error.
func IsLibraryError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

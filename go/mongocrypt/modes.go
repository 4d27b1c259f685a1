package mongocrypt

import "fmt"

// Crypto selects who does the cryptography for libmongocrypt.
type Crypto int

const (
	// Native lets libmongocrypt use its own crypto (OpenSSL's libcrypto in
	// Debian's build), as the MongoDB Go driver does.
	Native Crypto = iota
	// GoCrypto registers crypto hooks written in Go with the standard
	// library: every value decrypted calls back from C into Go, and the hooks
	// read their key, IV, input and output through mongocrypt_binary_t.
	GoCrypto
)

var cryptoNames = [...]string{Native: "native", GoCrypto: "go"}

func (c Crypto) String() string { return modeName(cryptoNames[:], c, "Crypto") }

// ParseCrypto maps "native" or "go" to a Crypto.
func ParseCrypto(s string) (Crypto, error) {
	return parseMode[Crypto](cryptoNames[:], s, "crypto", "native or go")
}

// Access selects how Go reads and writes the data and length of a
// mongocrypt_binary_t. One setting applies everywhere in a Crypt: in the
// crypto hooks and on results.
type Access int

const (
	// Accessor calls mongocrypt_binary_data and mongocrypt_binary_len: two
	// Go→C crossings per binary.
	Accessor Access = iota
	// AccessorAnnotated makes the same two calls through declarations marked
	// `#cgo noescape` and `#cgo nocallback`.
	AccessorAnnotated
	// Direct reads the struct fields from Go: no crossing. It relies on the
	// layout completed in binding.h and refuses to run if the start-up check
	// finds that layout disagreeing with the library.
	Direct
)

var accessNames = [...]string{Accessor: "accessor", AccessorAnnotated: "accessor-annotated", Direct: "direct"}

func (a Access) String() string { return modeName(accessNames[:], a, "Access") }

// ParseAccess maps "accessor", "accessor-annotated" or "direct" to an Access.
func ParseAccess(s string) (Access, error) {
	return parseMode[Access](accessNames[:], s, "access", "accessor, accessor-annotated or direct")
}

// Bytes selects how Go bytes are handed to C as a mongocrypt_binary_t.
type Bytes int

const (
	// Copy copies them into C memory (C.CBytes) and frees that memory when
	// the binary is destroyed, as the MongoDB Go driver does.
	Copy Bytes = iota
	// Pin lets the binary view the Go slice itself, pinned with a
	// runtime.Pinner for the whole life of the binary: zero-copy.
	Pin
)

var bytesNames = [...]string{Copy: "copy", Pin: "pin"}

func (m Bytes) String() string { return modeName(bytesNames[:], m, "Bytes") }

// ParseBytes maps "copy" or "pin" to a Bytes mode.
func ParseBytes(s string) (Bytes, error) {
	return parseMode[Bytes](bytesNames[:], s, "bytes mode", "copy or pin")
}

// Cryptos, Accesses and ByteModes list every mode, in a fixed order.
var (
	Cryptos   = []Crypto{Native, GoCrypto}
	Accesses  = []Access{Accessor, AccessorAnnotated, Direct}
	ByteModes = []Bytes{Copy, Pin}
)

// modeName is the name of a mode, or Type(n) for a value out of range.
func modeName[T ~int](names []string, v T, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// parseMode maps a mode's name back to the mode.
func parseMode[T ~int](names []string, s, what, want string) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, want)
}

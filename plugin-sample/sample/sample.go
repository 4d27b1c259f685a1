// Package sample holds the sample plugin's logic: its configuration and the
// work its field does. No cgo, no SDK: it is tested with plain `go test`.
package sample

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// FieldUser is the plugin's one field.
const FieldUser = "sample.user"

// Config is the plugin's configuration (its JSON document).
type Config struct {
	// Async turns the SDK's async extraction on; true when not given.
	Async bool `json:"async"`
}

// ParseConfig reads the configuration; an empty one is the defaults.
func ParseConfig(s string) (Config, error) {
	c := Config{Async: true}
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return Config{}, fmt.Errorf("bad configuration: %w", err)
	}
	return c, nil
}

// ParseSpin reads the link-time slowdown: empty is none.
func ParseSpin(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is no count of nanoseconds", s)
	}
	return n, nil
}

// Spin busy-waits ns nanoseconds (nothing for 0).
func Spin(ns int64) {
	if ns <= 0 {
		return
	}
	for end := time.Now().UnixNano() + ns; time.Now().UnixNano() < end; {
	}
}

type payload struct {
	User string `json:"user"`
}

// User decodes a payload and returns its "user" member, if it has one.
func User(r io.Reader) (string, bool) {
	var p payload
	b, err := io.ReadAll(r)
	if err != nil || json.Unmarshal(b, &p) != nil || p.User == "" {
		return "", false
	}
	return p.User, true
}

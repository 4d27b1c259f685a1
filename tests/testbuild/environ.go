package testbuild

import (
	"os"
	"strings"
)

// EnvOutsideMake is the test's environment for a make (or a command that
// runs one) of its own: without the variables an outer make passes down
// (MAKEFLAGS, MFLAGS, MAKELEVEL: its jobserver and its level, which would
// make the inner make a part of the outer one), and without any variable
// whose NAME=VALUE starts with one of drop.
func EnvOutsideMake(drop ...string) []string {
	drop = append(drop, "MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=")
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, p := range drop {
			if strings.HasPrefix(kv, p) {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

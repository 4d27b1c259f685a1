package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Output is a tool's standard output, checked: a write that fails (a full
// device, a broken pipe) is kept as the output's error, and so is a closed
// standard output, which the Go runtime hides (it opens /dev/null for read
// and write in place of a closed fd 0, 1 or 2 before main runs: a report
// written there would vanish with exit 0). A tool ends with exit 3 when Err
// is not nil (the rule of the C driver: lost output is a failed run).
type Output struct {
	f      *os.File
	err    error
	closed bool
}

// Stdout is standard output, checked.
func Stdout() *Output {
	return &Output{f: os.Stdout, closed: closedByRuntime(os.Stdout)}
}

// errClosed says why nothing could be written.
var errClosed = errors.New("standard output is closed (the Go runtime holds its number with /dev/null)")

func (o *Output) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	if o.closed {
		o.err = errClosed
		return 0, o.err
	}
	n, err := o.f.Write(p)
	if err != nil {
		o.err = fmt.Errorf("cannot write to standard output: %v", cause(err))
	}
	return n, o.err
}

// Err is the first write's failure, or nil.
func (o *Output) Err() error { return o.err }

// closedByRuntime tells whether f is what the runtime put in place of a
// closed descriptor: /dev/null opened for reading and writing. A shell's
// `> /dev/null` opens it for writing only, and is kept as an output.
func closedByRuntime(f *os.File) bool {
	var st, null syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &st) != nil || syscall.Stat(os.DevNull, &null) != nil {
		return false
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
		return false
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDWR
}

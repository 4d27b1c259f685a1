package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// BadPathError is a path no file can be saved at: bad input, exit status 2
// in every tool and in the C driver (c/base/atomicfile.h), found before
// anything is read or drawn.
type BadPathError struct{ msg string }

func (e *BadPathError) Error() string { return e.msg }

// IsBadPath tells whether err is (or wraps) a BadPathError.
func IsBadPath(err error) bool {
	var b *BadPathError
	return errors.As(err, &b)
}

func badPath(format string, a ...any) error {
	return &BadPathError{fmt.Sprintf(format, a...)}
}

// unreplaceable says, in the C driver's words, why what is at path must not
// be replaced by a file, or "" when a save may replace it (nothing there, a
// regular file, or a directory, which Check refuses by itself). A symbolic
// link is refused, not followed: a save replaces the file at a name, so
// writing through a link would replace the link and leave its file as it
// was; a dangling or looping link is refused the same way.
func unreplaceable(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	m := fi.Mode()
	switch {
	case m.IsRegular(), m.IsDir():
		return ""
	case m&os.ModeSymlink != 0:
		return "a symbolic link (name the file it points to)"
	case m&os.ModeNamedPipe != 0:
		return "not a regular file (a named FIFO)"
	case m&os.ModeDevice != 0:
		return "not a regular file (a device)"
	case m&os.ModeSocket != 0:
		return "not a regular file (a socket)"
	}
	return "not a regular file"
}

// Check tells whether WriteFile(path) can work, before there is anything to
// write: a non-empty name, not a directory, not a symbolic link, a device
// node, a FIFO or a socket (which a save would replace with a file), in an
// existing directory where a file can be created (a temporary one is made
// and removed). nil, or a *BadPathError whose message is one line naming
// path.
func Check(path string) error {
	if path == "" {
		return badPath("an empty file name")
	}
	if kind := unreplaceable(path); kind != "" {
		return badPath("%s: %s; a save would replace it with a file", path, kind)
	}
	if strings.HasSuffix(path, "/") {
		return badPath("%s: is a directory, not a file", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return badPath("%s: is a directory, not a file", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return badPath("%s: its directory %s: %v", path, dir, cause(err))
	}
	if !fi.IsDir() {
		return badPath("%s: its directory %s: not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return badPath("%s: cannot create a file in %s: %v", path, dir, cause(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// cause is the system's reason of a path error, without the path again.
func cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

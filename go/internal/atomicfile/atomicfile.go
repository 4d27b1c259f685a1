// Package atomicfile writes a file the way the project writes every file
// (c/base/atomicfile.h for the C side): a reader sees the old file or the
// new one, never a half-written one, and a failed write leaves nothing.
//
// One rule for every output, in the Go tools and the C driver alike: a
// path that cannot take a file (a directory, a missing directory, a
// symbolic link, a device, a FIFO or a socket) is bad input, exit 2,
// refused by Check before anything is read; a write that fails at the end
// (a full disk, a closed or full standard output) is a failed run, exit 3.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data: a temporary file in the same
// directory, synced, then renamed over path, and the directory synced. On
// any failure the temporary file is removed and path is left as it was.
// What Check refuses as unreplaceable (a symbolic link, a device, a FIFO,
// a socket) is refused here too (a *BadPathError), also when it appears
// while the file is written.
func WriteFile(path string, data []byte) (err error) {
	if kind := unreplaceable(path); kind != "" {
		return badPath("%s: %s; not replaced", path, kind)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", tmp, err)
	}
	if err = f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %v", tmp, err)
	}
	if err = f.Close(); err != nil {
		return err
	}
	if kind := unreplaceable(path); kind != "" {
		return badPath("%s: %s; not replaced", path, kind)
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// encodeMatrix is build/matrix.json: one row per toolchain, undefined
// values as null, ASCII only.
func encodeMatrix(m *matrix) ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding matrix.json: %v", err)
	}
	return append(b, '\n'), nil
}

// writeFileAtomic replaces path with data: a temporary file in the same
// directory, synced, then renamed over path, so a reader sees the old file
// or the new one and never a half-written one.
func writeFileAtomic(path string, data []byte) (err error) {
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
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockFile is the file under the data directory that a running dev server
// holds locked (flock) and that names its process: a second make dev on
// the same data refuses to start, and make dev-reset refuses to wipe the
// data under a running one.
const lockFile = "devserver.pid"

// dataLock holds the data directory for this process.
type dataLock struct{ f *os.File }

// lockData locks dir (creating it) for this process, or says which
// process holds it.
func lockData(dir string) (*dataLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another make dev (pid %s) already serves the data in %s: stop it first (Ctrl-C), or give this one another -data directory", strings.TrimSpace(string(b)), dir)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
	}
	return &dataLock{f: f}, nil
}

// release removes the lock file and unlocks it.
func (l *dataLock) release() {
	_ = os.Remove(l.f.Name())
	_ = l.f.Close()
}

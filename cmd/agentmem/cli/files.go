package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// writeFileAtomic replaces the file name in root with data so that
// readers (and a killed agentmem) only ever see the old or the new file
// whole: it writes a temporary file in the same directory, syncs it and
// renames it over name. Everything happens inside root: a symbolic link on
// the way that leads out of it is refused, never followed. An existing
// file keeps its permissions; a new one gets perm. When name already holds
// exactly data, nothing is written and changed is false. A symbolic link
// at name itself is replaced by the file, never written through.
func writeFileAtomic(root *os.Root, name string, data []byte, perm fs.FileMode) (changed bool, err error) {
	path := filepath.Join(root.Name(), name)
	if info, err := root.Lstat(name); err == nil {
		if info.Mode().IsRegular() {
			perm = info.Mode().Perm()
			if old, err := root.ReadFile(name); err == nil && bytes.Equal(old, data) {
				return false, nil
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	tmp, tmpName, err := createTemp(root, name)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = root.Remove(tmpName)
		}
	}()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Chmod(tmpName, perm)
	}
	if err == nil {
		err = root.Rename(tmpName, name)
	}
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}

// createTemp creates a new hidden file beside name in root, named after
// it (".NAME.agentmem-RANDOM"), as os.CreateTemp does in a directory.
func createTemp(root *os.Root, name string) (*os.File, string, error) {
	dir, base := filepath.Split(name)
	for range 100 {
		tmpName := filepath.Join(dir, "."+base+".agentmem-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := root.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmpName, err
	}
	return nil, "", fmt.Errorf("create a temporary file beside %s: too many attempts", name)
}

// readRegularFile reads the file at path, following a symbolic link, and
// refuses anything but a regular file: a device or a named pipe (a
// workspace's CLAUDE.md linked to /dev/zero, or a FIFO) would make the
// read run out of memory or block for ever, past any timeout.
func readRegularFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if m := info.Mode(); !m.IsRegular() {
		kind := "something else"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe"
		case m&fs.ModeSocket != 0:
			kind = "a socket"
		case m&fs.ModeDevice != 0:
			kind = "a device"
		}
		return nil, fmt.Errorf("%s, not a regular file", kind)
	}
	return os.ReadFile(path)
}

// readTail reads r to the end and returns at most its last max bytes and
// the total number of bytes read, holding no more than 2*max in memory.
// A regular file is read from max bytes before its end.
func readTail(r io.Reader, max int) ([]byte, int64, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > int64(max) {
			if _, err := f.Seek(info.Size()-int64(max), io.SeekStart); err == nil {
				data, err := io.ReadAll(f)
				return tailOf(data, max), info.Size() - int64(max) + int64(len(data)), err
			}
		}
	}
	var total int64
	buf := make([]byte, 0, min(max, 64<<10))
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		total += int64(n)
		buf = append(buf, chunk[:n]...)
		if len(buf) > 2*max {
			buf = append(buf[:0], buf[len(buf)-max:]...)
		}
		if errors.Is(err, io.EOF) {
			return tailOf(buf, max), total, nil
		}
		if err != nil {
			return nil, total, err
		}
	}
}

func tailOf(b []byte, max int) []byte {
	if len(b) > max {
		return b[len(b)-max:]
	}
	return b
}

package layout_test

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binaryMagic are the first bytes of the executables and archives a build
// writes (ELF, Mach-O, PE, a Go archive).
var binaryMagic = [][]byte{
	[]byte("\x7fELF"),
	{0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf},
	[]byte("MZ"),
	[]byte("!<arch>\n"),
}

// TestNoBuildOutputIsTracked: no file of the repository is a compiled
// program (a 14 MB CLI and a 54 MB dev server binary were once committed
// at the root). It reads what git tracks, or, outside a git checkout,
// every file but the ignored tool and data folders.
func TestNoBuildOutputIsTracked(t *testing.T) {
	t.Parallel()
	var files []string
	if out, err := exec.Command("git", "ls-files", "-z").Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		skip := map[string]bool{".git": true, "node_modules": true, ".data": true, "bin": true, ".build": true, "cdk.out": true, ".test-output": true}
		err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && skip[d.Name()] {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("found %d files; the repository has hundreds", len(files))
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 8)
		n, _ := io.ReadFull(fh, head)
		fh.Close()
		for _, m := range binaryMagic {
			if n >= len(m) && bytes.Equal(head[:len(m)], m) {
				t.Errorf("%s is a compiled program: delete it from git (git rm --cached) and ignore it in .gitignore", f)
			}
		}
	}
}

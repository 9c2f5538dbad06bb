package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseInterspersed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args      []string
		wantPos   []string
		wantWrite bool
		wantTag   string
		wantErr   bool
	}{
		{[]string{"p", "a", "--write"}, []string{"p", "a"}, true, "", false},
		{[]string{"--write", "p", "a"}, []string{"p", "a"}, true, "", false},
		{[]string{"p", "--tag", "x", "a", "text", "more"}, []string{"p", "a", "text", "more"}, false, "x", false},
		{[]string{"p", "--", "--write", "-x"}, []string{"p", "--write", "-x"}, false, "", false},
		{[]string{"p", "-tag=y", "a"}, []string{"p", "a"}, false, "y", false},
		{[]string{"p", "--nope"}, nil, false, "", true},
		{[]string{"p", "--tag"}, nil, false, "", true},
		{nil, nil, false, "", false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		write := fs.Bool("write", false, "")
		tag := fs.String("tag", "", "")
		pos, err := parseInterspersed(fs, tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && (!slices.Equal(pos, tt.wantPos) || *write != tt.wantWrite || *tag != tt.wantTag) {
			t.Errorf("%q: got %q write=%v tag=%q, want %q %v %q", tt.args, pos, *write, *tag, tt.wantPos, tt.wantWrite, tt.wantTag)
		}
	}
}

// FuzzParseInterspersed: arguments that do not start with "-" always come
// back as positional arguments, in order.
func FuzzParseInterspersed(f *testing.F) {
	f.Add("p\x00--write\x00a\x00--tag\x00x\x00b")
	f.Add("--\x00-x\x00y")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Bool("write", false, "")
		fs.String("tag", "", "")
		pos, err := parseInterspersed(fs, args)
		if err != nil {
			return
		}
		var plain []string
		for i, a := range args {
			if a == "--" {
				plain = append(plain, args[i+1:]...)
				break
			}
			if !strings.HasPrefix(a, "-") && (i == 0 || (args[i-1] != "--tag" && args[i-1] != "-tag")) {
				plain = append(plain, a)
			}
		}
		for _, p := range plain {
			if !slices.Contains(pos, p) {
				t.Fatalf("%q: positional %q lost (got %q)", args, p, pos)
			}
		}
	})
}

func TestParseTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		pipeline bool
		want     time.Duration
		wantErr  bool
	}{
		{"", true, 3 * time.Second, false},
		{"", false, 30 * time.Second, false},
		{"500ms", true, 500 * time.Millisecond, false},
		{"2.5", false, 2500 * time.Millisecond, false},
		{" 10s ", false, 10 * time.Second, false},
		{"0", false, 0, true},
		{"2h", false, 0, true},
		{"soon", false, 0, true},
	}
	for _, tt := range tests {
		got, err := parseTimeout(tt.in, tt.pipeline)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("parseTimeout(%q, %v): got %v, %v; want %v, error %v", tt.in, tt.pipeline, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestTruncateUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"},
		{"ééé", 4, "éé"},
		{"\xff\xffabc", 3, "\xff\xffa"},
	}
	for _, tt := range tests {
		if got := truncateUTF8(tt.s, tt.max); got != tt.want {
			t.Errorf("truncateUTF8(%q, %d): got %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
	if got := truncateUTF8(strings.Repeat("✓", 400), MaxTaskBytes); len(got) > MaxTaskBytes || !utf8.ValidString(got) {
		t.Errorf("task cut to %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestWriteFileAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	path := filepath.Join(dir, "f.md")
	changed, err := writeFileAtomic(root, "f.md", []byte("one"), 0o640)
	if err != nil || !changed {
		t.Fatalf("create: %v %v", changed, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("new file mode %v, want 0640", info.Mode().Perm())
	}
	if changed, err := writeFileAtomic(root, "f.md", []byte("one"), 0o600); err != nil || changed {
		t.Errorf("same content: changed %v, %v", changed, err)
	}
	if changed, err := writeFileAtomic(root, "f.md", []byte("two"), 0o600); err != nil || !changed {
		t.Errorf("new content: changed %v, %v", changed, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("content %q", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("replaced file mode %v, want the old 0640", info.Mode().Perm())
	}
	// A directory in the way: an error, and no temporary file left.
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := writeFileAtomic(root, "d", []byte("x"), 0o644); err == nil {
		t.Errorf("writing over a directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestReadTail(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("0123456789", 10000) // 100 000 bytes
	file := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, r := range map[string]io.Reader{"file": f, "stream": strings.NewReader(data)} {
		got, total, err := readTail(r, 1000)
		if err != nil || total != 100000 || string(got) != data[len(data)-1000:] {
			t.Errorf("%s: %d bytes of %d, %v", name, len(got), total, err)
		}
	}
	got, total, _ := readTail(strings.NewReader("short"), 1000)
	if string(got) != "short" || total != 5 {
		t.Errorf("short: %q %d", got, total)
	}
}

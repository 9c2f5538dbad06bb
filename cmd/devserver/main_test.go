package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/dynamotest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "devserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "devserver")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := dynamotest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestReadyOnlyWhenHealthy: the server says it is ready once its health
// route answers 200, serves, and stops on Ctrl-C.
func TestReadyOnlyWhenHealthy(t *testing.T) {
	cfg := dynamotest.Config(t)
	port := freePort(t)
	cmd := exec.Command(binary, "-port", strconv.Itoa(port), "-data", t.TempDir())
	cmd.Env = append(os.Environ(), dynamotest.Env(cfg)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	var out []string
	ready := false
	for sc.Scan() {
		out = append(out, sc.Text())
		if strings.HasPrefix(sc.Text(), "agentmem API ready at http://127.0.0.1:"+strconv.Itoa(port)) {
			ready = true
			break
		}
	}
	if !ready {
		t.Fatalf("no ready line; output:\n%s", strings.Join(out, "\n"))
	}
	if !strings.Contains(strings.Join(out, "\n"), "creating the tables") {
		t.Errorf("the server did not say what it was doing:\n%s", strings.Join(out, "\n"))
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/health", port))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("health after ready: %v %v", resp, err)
	}
	resp.Body.Close()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after Ctrl-C: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("no exit 20 s after Ctrl-C")
	}
}

// TestRefusesBusyPortAndLockedData: a busy port or data another dev
// server holds is an error before DynamoDB Local starts.
func TestRefusesBusyPortAndLockedData(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port

	locked := t.TempDir()
	lock, err := lockData(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.release()
	pid, _ := os.ReadFile(filepath.Join(locked, lockFile))
	if strings.TrimSpace(string(pid)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("the lock file holds %q, want this process's pid", pid)
	}

	tests := []struct {
		name string
		args []string
		want string
		data string
	}{
		{"busy port", []string{"-port", strconv.Itoa(busyPort)}, fmt.Sprintf("port %d on 127.0.0.1 is in use (another make dev?)", busyPort), t.TempDir()},
		{"locked data", []string{"-port", strconv.Itoa(freePort(t)), "-data", locked}, "another make dev (pid " + strconv.Itoa(os.Getpid()) + ") already serves the data in " + locked, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.data != "" {
				args = append(args, "-data", tt.data)
			}
			cmd := exec.Command(binary, args...)
			// No DYNAMODB_ENDPOINT: the server would start DynamoDB
			// Local, but must fail before that.
			cmd.Env = withoutEndpoint(os.Environ())
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tt.want) || strings.Contains(string(out), "starting DynamoDB Local") {
				t.Errorf("got %v:\n%s\nwant a failure saying %q before DynamoDB Local starts", err, out, tt.want)
			}
			if tt.data != "" {
				if _, err := os.Stat(filepath.Join(tt.data, "dynamodb")); err == nil {
					t.Errorf("DynamoDB Local's data directory was created")
				}
			}
		})
	}
}

func withoutEndpoint(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DYNAMODB_ENDPOINT=") {
			out = append(out, kv)
		}
	}
	return out
}

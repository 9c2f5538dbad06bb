package cli_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
)

func TestConsoleRefusesBadAddressesAndAnAbsentAPI(t *testing.T) {
	t.Parallel()
	noBrowser := func(context.Context, string) error {
		t.Error("the browser was opened")
		return nil
	}
	tests := []struct {
		name string
		url  string
		args []string
		code int
		want string
	}{
		{"every interface", "http://127.0.0.1:1", []string{"--addr", "0.0.0.0:7370"}, cli.ExitUsage, "not a loopback address"},
		{"no host", "http://127.0.0.1:1", []string{"--addr", ":7370"}, cli.ExitUsage, "not a loopback address"},
		{"another machine's address", "http://127.0.0.1:1", []string{"--addr", "192.168.1.20:7370"}, cli.ExitUsage, "not a loopback address"},
		{"no port", "http://127.0.0.1:1", []string{"--addr", "127.0.0.1"}, cli.ExitUsage, "is not HOST:PORT"},
		{"an argument", "http://127.0.0.1:1", []string{"now"}, cli.ExitUsage, "unexpected argument"},
		{"no API URL", "", []string{"--no-open"}, cli.ExitFailure, "AGENTMEM_API_URL is not set"},
		{"an API that does not answer", stoppedURL(t), []string{"--no-open", "--addr", "127.0.0.1:0"}, cli.ExitFailure, "the API does not answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, opts{url: tt.url, openBrowser: noBrowser}, append([]string{"console"}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got %d %q, want %d with %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
}

// TestConsoleServesUntilInterrupted runs agentmem console against the
// real API: it prints the address with the run's token and opens it, the
// address logs a browser in, the pages' calls reach the API, and an
// interrupt stops it with status 0.
func TestConsoleServesUntilInterrupted(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	opened := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		env := map[string]string{"AGENTMEM_API_URL": a.URL, "AGENTMEM_AUTH": "none"}
		done <- cli.Main(ctx, []string{"console", "--addr", "127.0.0.1:0"}, cli.Env{
			Stdout: outW, Stderr: &lockedWriter{w: &stderr}, Getenv: func(k string) string { return env[k] },
			OpenBrowser: func(_ context.Context, url string) error {
				opened <- url
				return nil
			},
		})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	var printed []string
	for len(printed) < 2 && lines.Scan() {
		printed = append(printed, lines.Text())
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if len(printed) != 2 || !strings.HasPrefix(printed[0], "agentmem console for "+a.URL+" (none)") || !strings.Contains(printed[1], "/?token=") {
		t.Fatalf("printed %q", printed)
	}
	address := printed[1]
	select {
	case got := <-opened:
		if got != address {
			t.Errorf("opened %q, printed %q", got, address)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the browser was not opened")
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	resp, err := browser.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "agentmem console") {
		t.Fatalf("the printed address: %d %.200s", resp.StatusCode, page)
	}
	base, _, _ := strings.Cut(address, "/?")
	req, _ := http.NewRequest("GET", base+"/api/stats", nil)
	req.Header.Set("X-Agentmem-Console", "1")
	resp, err = browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"totals"`) {
		t.Errorf("a page's call: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != cli.ExitOK {
			t.Errorf("interrupted console: exit %d, want 0; stderr %q", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the console did not stop")
	}
}

// lockedWriter serializes writes, for a command that writes from several
// goroutines while the test reads.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Command progress runs a command and, while the command prints nothing
// for a while, says that it is still at work: the first `make dev` and
// `make test` compile for minutes before anything else is printed.
//
// Usage:
//
//	go run ./tools/progress [-every 30s] -what "compiling the dev server" -hint "a first build takes about 3 minutes" -- COMMAND [ARGS...]
//
// The command's standard output and error pass through unchanged; its
// exit status is progress's.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

func main() {
	every := flag.Duration("every", 30*time.Second, "say so after this long without output")
	what := flag.String("what", "working", "what the command is doing, for the notice")
	hint := flag.String("hint", "", "how long it takes, for the notice")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: progress [flags] -- COMMAND [ARGS...]\n\nRuns COMMAND and says it is still at work while it prints nothing.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	// Ctrl-C reaches the command through the terminal's process group;
	// progress waits for it to stop.
	signal.Ignore(syscall.SIGINT)
	os.Exit(run(flag.Args(), *every, *what, *hint, os.Stdout, os.Stderr))
}

// run runs args, printing a notice on stderr each time the command has
// been quiet for every, and returns its exit status.
func run(args []string, every time.Duration, what, hint string, stdout, stderr io.Writer) int {
	w := &watched{last: time.Now()}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stdout = w.wrap(stdout)
	cmd.Stderr = w.wrap(stderr)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "progress: %v\n", err)
		return 1
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every / 10)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				if w.quietSince(now) >= every {
					note := fmt.Sprintf("... still %s (%s so far", what, now.Sub(start).Round(time.Second))
					if hint != "" {
						note += "; " + hint
					}
					w.note(stderr, note+")\n")
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(stderr, "progress: %v\n", err)
		return 1
	}
	return 0
}

// watched records when the command last printed.
type watched struct {
	mu   sync.Mutex
	last time.Time
}

func (w *watched) wrap(out io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.last = time.Now()
		return out.Write(p)
	})
}

func (w *watched) quietSince(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return now.Sub(w.last)
}

// note prints a notice and counts it as output, so that the next one
// comes a full period later.
func (w *watched) note(out io.Writer, s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = time.Now()
	io.WriteString(out, s)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

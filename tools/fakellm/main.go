// Command fakellm is a development stand-in for an OpenAI-compatible chat
// completions endpoint, so that Deep Dream and extraction can be tried
// against `make dev` without a model. It answers agentmem's prompts by
// copying from them: a dream prompt gets a consolidation whose bullets are
// the current memory and sentences of the daily records, word for word
// (with -invent, plus one made-up bullet, to watch the fabrication guard
// drop it); a compress prompt gets the listed memories joined per section
// with their ids; an extraction prompt gets the JSON answer format with
// sentences of the run output as learnings.
//
// Usage:
//
//	go run ./tools/fakellm [-addr 127.0.0.1:8088] [-invent]
//
// then start the API with
//
//	AGENTMEM_LLM=openai AGENTMEM_LLM_ENDPOINT=http://127.0.0.1:8088/v1 AGENTMEM_LLM_MODEL=fakellm make dev
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8088", "address to listen on")
	invent := flag.Bool("invent", false, "add one invented bullet to every dream answer (the fabrication guard drops it)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: fakellm [flags]\n\nAn OpenAI-compatible stand-in that answers agentmem's prompts by copying from them.\nPoint the API at it with AGENTMEM_LLM=openai AGENTMEM_LLM_ENDPOINT=http://<addr>/v1 AGENTMEM_LLM_MODEL=fakellm.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w (use -addr to pick another port)", err)
	}
	srv := &http.Server{Handler: newHandler(answerer{invent: *invent}, log), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Printf("fakellm ready at http://%s/v1 (invent=%v; Ctrl-C stops)\n", ln.Addr(), *invent)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// newHandler serves POST /v1/chat/completions (llmtest.Handler, the
// OpenAI wire format) and GET /v1/models.
func newHandler(a answerer, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []map[string]any{{"id": "fakellm", "object": "model", "owned_by": "agentmem"}}})
	})
	mux.Handle("/v1/chat/completions", llmtest.Handler(func(_ context.Context, prompt string) llmtest.Reply {
		text := a.answer(prompt)
		log.Info("answered", "promptBytes", len(prompt), "answerBytes", len(text))
		return llmtest.Reply{Text: text}
	}))
	return mux
}

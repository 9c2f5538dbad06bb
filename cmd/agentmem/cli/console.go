package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/console"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// DefaultConsoleAddr is where agentmem console listens unless --addr says
// otherwise.
const DefaultConsoleAddr = "127.0.0.1:7370"

func init() {
	Register(&Command{
		Name: "console", Group: GroupOther, OwnTimeout: true, Server: true,
		Summary: "serve the agentmem console: review and curate memories, dreams and personalities in a browser",
		Description: `Serves a web application on a local address and opens it in the browser: an overview of every agent and project (counts, size, last change, pending dreams), an agent in a project (the MEMORY.md its next run receives, the personality section, the memories with filters, search, edit, pin and delete, the daily log, the session context), the dream diary with each dream as a diff (added, updated, retired, kept, dropped with the reason) and its revert, a memory's page with the dreams that wrote or replaced it, and the personalities.

The pages call the API through the console, which signs each call as every agentmem command does (SigV4 with your AWS credentials, or none with AGENTMEM_AUTH=none): no credential reaches the browser, and the console relays only the API's own routes. It listens on a loopback address only and answers only the browser that opened the address it prints (a token for this run, kept in a cookie), so that other sites, and whoever lacks that address, cannot use your credentials through it. The pages are embedded in the binary and load nothing from the network.

It runs until interrupted (Ctrl-C). --timeout (AGENTMEM_TIMEOUT) bounds each relayed call; by default 60s, as a dream can take up to 30s.`,
		Examples: []string{
			"agentmem console",
			"agentmem console --addr 127.0.0.1:0 --no-open    # any free port; open the printed address yourself",
			"AGENTMEM_AUTH=none AGENTMEM_API_URL=http://127.0.0.1:3000 agentmem console    # against make dev",
		},
		New: func() Runner { return &consoleCommand{} },
	})
}

type consoleCommand struct {
	addr   string
	noOpen bool
}

func (c *consoleCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", DefaultConsoleAddr, "loopback `HOST:PORT` to listen on (port 0: any free one)")
	fs.BoolVar(&c.noOpen, "no-open", false, "print the address instead of opening the browser")
}

// openBrowser opens url in the person's browser (Env.OpenBrowser, when
// set, replaces it).
func openBrowser(ctx context.Context, url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.CommandContext(ctx, "open", url)
	case "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", url)
	}
	return cmd.Start()
}

func (c *consoleCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs("the console takes only flags"); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return Usagef("--addr %q is not HOST:PORT (e.g. %s)", c.addr, DefaultConsoleAddr)
	}
	if err := console.CheckLoopback(host); err != nil {
		return Usagef("--addr: %v", err)
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	apiURL := strings.TrimSpace(in.globals.apiURL)
	if u, err := url.Parse(apiURL); err == nil {
		apiURL = u.Redacted()
	}
	// The API must answer (any status: IAM may refuse a route); a console
	// that cannot reach it would only show errors.
	probe, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = client.Forward(probe, apiclient.ForwardRequest{Method: http.MethodGet, Path: "/api/stats", RawQuery: "limit=1"})
	cancel()
	var transport *apiclient.TransportError
	if errors.As(err, &transport) {
		return fmt.Errorf("the API does not answer: %w (check AGENTMEM_API_URL or --api-url)", err)
	} else if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (choose another address with --addr, e.g. 127.0.0.1:0 for any free port)", c.addr, err)
	}
	relayTimeout := console.DefaultRelayTimeout
	if strings.TrimSpace(in.globals.timeout) != "" {
		relayTimeout = in.Timeout()
	}
	auth := strings.ToLower(strings.TrimSpace(in.globals.auth))
	if auth == "" {
		auth = apiclient.AuthSigV4
	}
	srv, err := console.New(console.Config{
		Client: client, Addr: ln.Addr().String(), RelayTimeout: relayTimeout,
		Info: console.Info{APIURL: apiURL, Auth: auth, Version: in.Build.version()},
		Log:  slog.New(slog.NewTextHandler(in.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		ln.Close()
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	in.Printf("agentmem console for %s (%s)\n%s\n", apiURL, auth, srv.URL())
	in.Notef("console: open the address above in your browser; Ctrl-C stops the console")
	if !c.noOpen {
		open := in.OpenBrowser
		if open == nil {
			open = openBrowser
		}
		if err := open(ctx, srv.URL()); err != nil {
			in.Notef("console: could not open a browser (%v); open the address yourself", err)
		}
	}
	select {
	case err := <-served:
		return fmt.Errorf("console server: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(shut)
	in.Notef("console: stopped")
	return nil
}

package lambdarun_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/infra/lambdarun"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// build compiles a main package for the host (the stand-in runs it here;
// `make build` cross-compiles the same way for linux/arm64) with the
// flags of `make build`.
func build(t testing.TB, pkg, out string) {
	t.Helper()
	if err := goBuild(out, pkg); err != nil {
		t.Fatal(err)
	}
}

// goBuild runs go build with the flags of `make build` (CGO_ENABLED=0):
// out is the binary, or with several packages a folder ending in a
// separator, which gets one binary per package, named after its folder.
func goBuild(out string, pkgs ...string) error {
	cmd := exec.Command("go", append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", out}, pkgs...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", strings.Join(pkgs, " "), err, msg)
	}
	return nil
}

// TestRuntimeAPI checks the stand-in itself against a tiny aws-lambda-go
// function: responses, function errors, request ids, and a process that
// dies before asking for an event.
func TestRuntimeAPI(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "bootstrap")
	build(t, "./testdata/echo", bin)
	rt, err := lambdarun.Start(lambdarun.Options{Binary: bin, FunctionName: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	for i, tc := range []struct {
		event, wantEcho, wantErr string
	}{
		{`{"echo":"one"}`, "one", ""},
		{`{"fail":"boom"}`, "", "boom"},
		{`{"echo":"after an error"}`, "after an error", ""},
	} {
		res, err := rt.Invoke(ctx, []byte(tc.event))
		if err != nil {
			t.Fatalf("invoke %s: %v\nlogs:\n%s", tc.event, err, rt.Logs())
		}
		switch {
		case tc.wantErr != "":
			if res.Err == nil || res.Err.Message != tc.wantErr {
				t.Errorf("%s: got error %v, payload %s; want error %q", tc.event, res.Err, res.Payload, tc.wantErr)
			}
		default:
			var got struct{ Echo, RequestID string }
			if res.Err != nil || json.Unmarshal(res.Payload, &got) != nil {
				t.Fatalf("%s: got %s, %v", tc.event, res.Payload, res.Err)
			}
			if got.Echo != tc.wantEcho {
				t.Errorf("%s: echo %q, want %q", tc.event, got.Echo, tc.wantEcho)
			}
			if want := "req-" + string(rune('1'+i)); got.RequestID != want {
				t.Errorf("%s: request id %q, want %q", tc.event, got.RequestID, want)
			}
		}
	}

	dead, err := lambdarun.Start(lambdarun.Options{Binary: bin, Env: []string{"ECHO_EXIT_AT_START=1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	if _, err := dead.Invoke(ctx, []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("invoke on a process that exited: got %v, want an exit error", err)
	}
}

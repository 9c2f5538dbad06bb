// Command deadcodecheck fails on code that no program of the module
// reaches. It runs deadcode (golang.org/x/tools/cmd/deadcode, pinned as a
// tool in go.mod) over the module: every function that no main package
// reaches must be listed, with the reason it stays, in the allowlist
// (.ci/deadcode-allow.txt), and a listed function that a program reaches
// again fails the check too, so the list can only shrink. `make vet` runs
// it.
//
// deadcode loads every program from source, the CDK app's AWS CDK
// bindings included: about 25 s and 3 GB on a 2-core machine. A clean
// result is remembered under the user's cache directory, keyed by the Go
// version, go.mod, go.sum, the allowlist and every non-test Go file of the
// module, so that a run with none of them changed takes no time; -force
// runs deadcode anyway.
//
// Usage:
//
//	go run ./tools/deadcodecheck [-allow .ci/deadcode-allow.txt] [-force]
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	allowPath := flag.String("allow", ".ci/deadcode-allow.txt", "the allowlist `file`: package, function and why, one a line")
	force := flag.Bool("force", false, "run deadcode even when nothing changed since its last clean run")
	flag.Parse()
	if err := run(*allowPath, *force); err != nil {
		fmt.Fprintln(os.Stderr, "deadcodecheck:", err)
		os.Exit(1)
	}
}

func run(allowPath string, force bool) error {
	raw, err := os.ReadFile(allowPath)
	if err != nil {
		return err
	}
	allow, err := parseAllow(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%s: %w", allowPath, err)
	}
	// The toolchain and the build configuration deadcode loads with.
	goEnv, err := output("go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT")
	if err != nil {
		return err
	}
	key, err := cacheKey(".", goEnv, raw)
	if err != nil {
		return err
	}
	stamp := ""
	if dir, err := os.UserCacheDir(); err == nil {
		stamp = filepath.Join(dir, "agentmem", "deadcodecheck", key)
	}
	if !force && stamp != "" {
		if _, err := os.Stat(stamp); err == nil {
			fmt.Println("deadcode: clean (nothing changed since its last clean run)")
			return nil
		}
	}
	module, err := output("go", "list", "-m")
	if err != nil {
		return err
	}
	out, err := output("go", "tool", "deadcode", "-json", "./...")
	if err != nil {
		return err
	}
	dead, err := parseReport([]byte(out), strings.TrimSpace(module))
	if err != nil {
		return err
	}
	if problems := check(dead, allow); len(problems) > 0 {
		return fmt.Errorf("%d problem(s), allowlist %s:\n  %s", len(problems), allowPath, strings.Join(problems, "\n  "))
	}
	fmt.Printf("deadcode: clean (%d unreachable functions, all in %s)\n", len(dead), allowPath)
	if stamp != "" {
		if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err == nil {
			_ = os.WriteFile(stamp, nil, 0o644)
		}
	}
	return nil
}

// A function is one function or method of a package, as deadcode names
// it: the package path relative to the module ("shared/dynamostore", "."
// for the root) and the name ("Store.RecountTotals", "Decode").
type function struct {
	pkg, name string
}

func (f function) String() string { return f.pkg + " " + f.name }

// An allowance is a line of the allowlist: a function, or a whole package
// (name "*", for test helpers only tests use), and the reason it stays.
type allowance struct {
	function
	reason string
	line   int
}

// parseAllow reads the allowlist: one "package function reason" a line,
// "#" comments and blank lines ignored. A function may be "*": every
// unreachable function of the package.
func parseAllow(r io.Reader) ([]allowance, error) {
	var out []allowance
	seen := map[function]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			return nil, fmt.Errorf("line %d: want a package, a function and the reason it stays: %q", n, line)
		}
		a := allowance{function: function{pkg: fields[0], name: fields[1]}, reason: strings.Join(fields[2:], " "), line: n}
		if prev, dup := seen[a.function]; dup {
			return nil, fmt.Errorf("line %d: %s is already listed on line %d", n, a.function, prev)
		}
		seen[a.function] = n
		out = append(out, a)
	}
	return out, sc.Err()
}

// parseReport reads `deadcode -json`'s packages into functions.
func parseReport(raw []byte, module string) ([]function, error) {
	var pkgs []struct {
		Path  string
		Funcs []struct {
			Name      string
			Generated bool
		}
	}
	if err := json.Unmarshal(raw, &pkgs); err != nil {
		return nil, fmt.Errorf("read deadcode's report: %w", err)
	}
	var out []function
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.Path, module), "/")
		if rel == "" {
			rel = "."
		}
		for _, f := range p.Funcs {
			if !f.Generated {
				out = append(out, function{pkg: rel, name: f.Name})
			}
		}
	}
	return out, nil
}

// check compares the unreachable functions with the allowlist: each dead
// function not allowed is a problem, and so is each allowance that no
// longer matches a dead function.
func check(dead []function, allow []allowance) []string {
	byFunc := map[function]bool{}
	wholePkg := map[string]bool{}
	for _, a := range allow {
		if a.name == "*" {
			wholePkg[a.pkg] = true
		} else {
			byFunc[a.function] = true
		}
	}
	isDead := map[function]bool{}
	deadPkg := map[string]bool{}
	var problems []string
	for _, f := range dead {
		isDead[f] = true
		deadPkg[f.pkg] = true
		if !byFunc[f] && !wholePkg[f.pkg] {
			problems = append(problems, fmt.Sprintf("%s is unreachable from every program: delete it, or list it in the allowlist with the reason it stays", f))
		}
	}
	for _, a := range allow {
		if (a.name == "*" && !deadPkg[a.pkg]) || (a.name != "*" && !isDead[a.function]) {
			problems = append(problems, fmt.Sprintf("%s (allowlist line %d) is no longer unreachable: delete its line", a.function, a.line))
		}
	}
	slices.Sort(problems)
	return problems
}

// cacheKey hashes what deadcode's answer depends on: the toolchain and
// build configuration (goEnv), the allowlist, go.mod, go.sum and every
// non-test Go file of the module under root (node_modules and test data
// aside).
func cacheKey(root, goEnv string, allowlist []byte) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d\n", goEnv, len(allowlist))
	h.Write(allowlist)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if name != "go.mod" && name != "go.sum" && (!strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(path), len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// output runs a command and returns its standard output; its standard
// error goes to ours.
func output(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return string(out), nil
}

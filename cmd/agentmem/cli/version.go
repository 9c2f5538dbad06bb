package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

func init() {
	Register(&Command{
		Name: "version", Group: GroupOther,
		Summary:     "print the version, commit and build date of this binary (also agentmem --version)",
		Description: `Prints one line: the version, the commit the binary was built from ("+modified" when the checkout had uncommitted changes) and its date, the Go version and the platform. go build in a git checkout records the commit and the commit's date; a release build sets the version and the build date with -ldflags "-X main.version=v1.2.0 -X main.commit=$(git rev-parse HEAD) -X main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)".`,
		Examples:    []string{"agentmem version", "agentmem --version"},
		New:         func() Runner { return &versionCommand{} },
	})
}

type versionCommand struct{ json bool }

func (c *versionCommand) Flags(fs *flag.FlagSet) { JSONFlag(fs, &c.json) }

func (c *versionCommand) Run(_ context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	if c.json {
		b, _, modified := in.Build.fill(debug.ReadBuildInfo)
		return writeJSON(in.Stdout, struct {
			Version  string `json:"version"`
			Commit   string `json:"commit,omitempty"`
			Modified bool   `json:"modified,omitempty"`
			Date     string `json:"date,omitempty"`
			Go       string `json:"go"`
			Platform string `json:"platform"`
		}{firstNonEmpty(b.Version, "dev"), b.Commit, modified, b.Date, runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH})
	}
	in.Printf("%s\n", in.Build)
	return nil
}

// Build says which build of agentmem this is. main fills it from the
// variables -ldflags "-X main.version=... -X main.commit=... -X
// main.date=..." set; what stays empty comes from the build information
// Go records in the binary (the module version, vcs.revision, vcs.time
// and vcs.modified).
type Build struct {
	Version string // e.g. v1.2.0
	Commit  string // the VCS revision
	Date    string // when the binary was built, RFC 3339
}

// fill completes b from the binary's build information, read by read
// (debug.ReadBuildInfo), and returns it with where its date comes from:
// "built", "committed" (the commit's date) or "" (unknown), and whether
// the checkout was modified.
func (b Build) fill(read func() (*debug.BuildInfo, bool)) (out Build, dateKind string, modified bool) {
	if b.Date != "" {
		dateKind = "built"
	}
	bi, ok := read()
	if !ok {
		return b, dateKind, false
	}
	if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = bi.Main.Version
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	if b.Commit == "" && vcs["vcs.revision"] != "" {
		b.Commit = vcs["vcs.revision"]
		modified = vcs["vcs.modified"] == "true"
	}
	if b.Date == "" && vcs["vcs.time"] != "" {
		b.Date, dateKind = vcs["vcs.time"], "committed"
	}
	return b, dateKind, modified
}

// version is the version alone ("dev" for a build without one).
func (b Build) version() string {
	b, _, _ = b.fill(debug.ReadBuildInfo)
	return firstNonEmpty(b.Version, "dev")
}

// String is the line agentmem version prints, e.g.
// "agentmem v1.2.0 (commit 2119dec..., built 2026-03-01T12:00:00Z, go1.26.8 linux/amd64)".
func (b Build) String() string { return b.line(debug.ReadBuildInfo) }

func (b Build) line(read func() (*debug.BuildInfo, bool)) string {
	b, dateKind, modified := b.fill(read)
	var parts []string
	switch {
	case b.Commit == "":
		parts = append(parts, "commit unknown")
	case modified:
		parts = append(parts, "commit "+b.Commit+"+modified")
	default:
		parts = append(parts, "commit "+b.Commit)
	}
	if dateKind == "" {
		parts = append(parts, "date unknown")
	} else {
		parts = append(parts, dateKind+" "+b.Date)
	}
	parts = append(parts, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("agentmem %s (%s)", firstNonEmpty(b.Version, "dev"), strings.Join(parts, ", "))
}

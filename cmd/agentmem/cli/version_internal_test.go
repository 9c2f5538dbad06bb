package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestBuildLine(t *testing.T) {
	t.Parallel()
	goPart := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	stamped := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/agentmem/agentmem", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "2119decaa3ab695450b14611e525c3e1670d6f49"},
			{Key: "vcs.time", Value: "2026-03-01T12:00:00Z"},
			{Key: "vcs.modified", Value: "false"},
		},
	}
	modified := &debug.BuildInfo{Main: stamped.Main, Settings: append([]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, stamped.Settings[:3]...)}
	released := &debug.BuildInfo{Main: debug.Module{Path: "github.com/agentmem/agentmem", Version: "v1.4.0"}}
	tests := []struct {
		name  string
		build Build
		info  *debug.BuildInfo // nil: no build information
		want  string
	}{
		{"nothing known", Build{}, nil, "agentmem dev (commit unknown, date unknown, " + goPart + ")"},
		{"no VCS stamp", Build{}, &debug.BuildInfo{Main: stamped.Main}, "agentmem dev (commit unknown, date unknown, " + goPart + ")"},
		{"go build in a checkout", Build{}, stamped, "agentmem dev (commit 2119decaa3ab695450b14611e525c3e1670d6f49, committed 2026-03-01T12:00:00Z, " + goPart + ")"},
		{"uncommitted changes", Build{}, modified, "agentmem dev (commit 2119decaa3ab695450b14611e525c3e1670d6f49+modified, committed 2026-03-01T12:00:00Z, " + goPart + ")"},
		{"go install of a release", Build{}, released, "agentmem v1.4.0 (commit unknown, date unknown, " + goPart + ")"},
		{"-ldflags over the stamp", Build{Version: "v1.5.0", Commit: "abc1234", Date: "2026-03-02T08:00:00Z"}, stamped, "agentmem v1.5.0 (commit abc1234, built 2026-03-02T08:00:00Z, " + goPart + ")"},
		{"-ldflags date only", Build{Date: "2026-03-02T08:00:00Z"}, stamped, "agentmem dev (commit 2119decaa3ab695450b14611e525c3e1670d6f49, built 2026-03-02T08:00:00Z, " + goPart + ")"},
		{"-ldflags version only", Build{Version: "v2.0.0"}, released, "agentmem v2.0.0 (commit unknown, date unknown, " + goPart + ")"},
	}
	for _, tt := range tests {
		read := func() (*debug.BuildInfo, bool) { return tt.info, tt.info != nil }
		if got := tt.build.line(read); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

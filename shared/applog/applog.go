// Package applog builds the process's structured logger from the
// environment: JSON lines in Lambda (LOG_FORMAT=json, the default there),
// text for people (LOG_FORMAT=text), at LOG_LEVEL (debug, info, warn, error).
package applog

import (
	"io"
	"log/slog"
	"strings"

	"github.com/agentmem/agentmem/shared/settings"
)

// New returns a logger writing to w as getenv configures it.
func New(w io.Writer, getenv func(string) string) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(settings.LogLevel.Get(getenv))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	format := strings.ToLower(settings.LogFormat.Get(getenv))
	if format == "" && settings.LambdaFunctionName.Get(getenv) == "" {
		format = "text"
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// Log messages that CloudWatch counts: the stack turns each into a metric
// with a metric filter on the function's log group ({ $.msg = "..." }) and
// alarms on it, so the code logging them and the filter share this one
// definition.
const (
	// DreamFailed is logged once for each dream that failed (the model,
	// the store), whether Lambda saw an error or not.
	DreamFailed = "dream failed"
)

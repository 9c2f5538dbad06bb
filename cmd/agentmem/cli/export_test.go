package cli

import (
	"context"
	"time"
)

// SetScopesPage sets how many scopes agentmem stats asks for per page and
// returns a function that restores it.
func SetScopesPage(n int) (restore func()) {
	old := scopesPage
	scopesPage = n
	return func() { scopesPage = old }
}

// SetSlowAfter sets how long a request waits before the "still waiting"
// notice and returns a function that restores it.
func SetSlowAfter(d time.Duration) (restore func()) {
	old := slowAfter
	slowAfter = d
	return func() { slowAfter = old }
}

// SetOpenBrowser replaces how agentmem console opens the browser and
// returns a function that restores it.
func SetOpenBrowser(open func(ctx context.Context, url string) error) (restore func()) {
	old := openBrowser
	openBrowser = open
	return func() { openBrowser = old }
}

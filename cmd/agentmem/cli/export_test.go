package cli

import "context"

// SetScopesPage sets how many scopes agentmem stats asks for per page and
// returns a function that restores it.
func SetScopesPage(n int) (restore func()) {
	old := scopesPage
	scopesPage = n
	return func() { scopesPage = old }
}

// SetOpenBrowser replaces how agentmem console opens the browser and
// returns a function that restores it.
func SetOpenBrowser(open func(ctx context.Context, url string) error) (restore func()) {
	old := openBrowser
	openBrowser = open
	return func() { openBrowser = old }
}

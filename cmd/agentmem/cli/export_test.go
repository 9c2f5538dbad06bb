package cli

// SetScopesPage sets how many scopes agentmem stats asks for per page and
// returns a function that restores it.
func SetScopesPage(n int) (restore func()) {
	old := scopesPage
	scopesPage = n
	return func() { scopesPage = old }
}

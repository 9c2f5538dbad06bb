package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// didYouMean returns ` (did you mean "x"?)` for the candidate closest to
// word, when one is close enough to be a slip (a typo, a transposition,
// a missing or extra letter, or a prefix of a longer name); "" otherwise.
func didYouMean(word string, candidates []string) string {
	if best := closest(word, candidates); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// closest returns the candidate closest to word, or "".
func closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	best, bestDist := "", 0
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(w, lc)
		allowed := 1
		if len(w) >= 4 {
			allowed = 2
		}
		if len(w) >= 3 && strings.HasPrefix(lc, w) {
			d = min(d, 1) // an unambiguous start of the name
		}
		if d <= allowed && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and transpositions of adjacent
// characters cost one each.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// commandNames lists the names of a command table.
func commandNames(list []*Command) []string {
	names := make([]string, len(list))
	for i, c := range list {
		names[i] = c.Name
	}
	return names
}

// flagError explains a flag parse error, suggesting the flag meant when
// the one given does not exist.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "flag provided but not defined: ")
	if !ok {
		return Usagef("%s", msg)
	}
	name = strings.TrimLeft(name, "-")
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f.Name) })
	if best := closest(name, flags); best != "" {
		return Usagef("unknown flag --%s; did you mean --%s?", name, best)
	}
	return Usagef("unknown flag --%s", name)
}

// explainAPIError adds to err what a person needs to fix a call that
// reached something other than the agentmem API, or the API under a
// wrong base URL: both are failures (exit 1), never "not found" (exit 3).
func explainAPIError(err error, apiURL string) error {
	var apiErr *apiclient.Error
	var syntax *json.SyntaxError
	hint := ""
	switch {
	case apiclient.HasCode(err, agentmem.ENoRoute):
		hint = "the API has no such route: --api-url (AGENTMEM_API_URL) must be the API's base URL"
		if u, perr := url.Parse(apiURL); perr == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api") {
			hint += fmt.Sprintf(", without /api (try %s)", strings.TrimSuffix(strings.TrimRight(apiURL, "/"), "/api"))
		}
	case errors.As(err, &apiErr) && apiErr.Err.Code == apiclient.CodeHTTP && apiErr.Status == 404:
		hint = fmt.Sprintf("%s answered 404 without an agentmem error: is it the agentmem API? (--api-url, AGENTMEM_API_URL)", apiURL)
	case errors.As(err, &syntax):
		hint = fmt.Sprintf("the answer is not agentmem's JSON: is %s the agentmem API? (--api-url, AGENTMEM_API_URL)", apiURL)
	}
	if hint == "" {
		return err
	}
	return &wrongAPIError{err: err, hint: hint}
}

// wrongAPIError is a call that did not reach the agentmem API as meant.
type wrongAPIError struct {
	err  error
	hint string
}

func (e *wrongAPIError) Error() string { return e.err.Error() + "; " + e.hint }

// Unwrap returns the call's error. ExitCode sees a wrongAPIError as a
// failure, whatever its code.
func (e *wrongAPIError) Unwrap() error { return e.err }

package routes_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

// TestEveryRouteHasAContract keeps Contracts in step with the route table:
// the OpenAPI document describes every route from its contract, so a new
// route fails here, with the entry to add, until it has one.
func TestEveryRouteHasAContract(t *testing.T) {
	t.Parallel()
	for _, r := range routes.All {
		if _, ok := routes.ContractOf(r.Name); !ok {
			t.Errorf("route %s (%s) has no contract: add to Contracts in shared/routes/contracts.go, e.g.\n"+
				"\t%s: {Tag: \"...\", // one of Tags\n"+
				"\t\tQuery:   []routes.Param{projectIDParam, ...},  // every query parameter the handler reads\n"+
				"\t\tBody:    typeOf[agentmem.XInput](),             // the JSON request body, if any\n"+
				"\t\tAnswers: []routes.Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.X](), Doc: \"...\"}},\n"+
				"\t\tErrors:  []string{agentmem.ENotFound}},         // codes beyond invalid, payload_too_large, internal\n"+
				"then regenerate docs/openapi.json with make docs",
				r.Name, r.Key(), r.Name)
		}
	}
	known := map[routes.Name]bool{}
	for _, r := range routes.All {
		known[r.Name] = true
	}
	var tags []string
	for _, tag := range routes.Tags {
		tags = append(tags, tag.Name)
	}
	for name, c := range routes.Contracts {
		if !known[name] {
			t.Errorf("Contracts has %s, which is not a route of the table", name)
		}
		if !slices.Contains(tags, c.Tag) {
			t.Errorf("route %s: tag %q is not one of routes.Tags %v", name, c.Tag, tags)
		}
		if len(c.Answers) == 0 {
			t.Errorf("route %s: no answers", name)
		}
		seen := map[int]bool{}
		for _, a := range c.Answers {
			switch {
			case http.StatusText(a.Status) == "":
				t.Errorf("route %s: answer status %d is not an HTTP status", name, a.Status)
			case seen[a.Status]:
				t.Errorf("route %s: two answers with status %d", name, a.Status)
			case a.Status == http.StatusNoContent && (a.JSON != nil || a.Markdown):
				t.Errorf("route %s: a 204 answer has no body", name)
			case a.Status != http.StatusNoContent && a.JSON == nil && !a.Markdown:
				t.Errorf("route %s: answer %d has neither a JSON type nor Markdown", name, a.Status)
			case a.Doc == "":
				t.Errorf("route %s: answer %d has no Doc", name, a.Status)
			}
			seen[a.Status] = true
		}
		params := map[string]bool{}
		for _, p := range c.Query {
			if p.Name == "" || p.Doc == "" || params[p.Name] {
				t.Errorf("route %s: query parameter %q is unnamed, undocumented or repeated", name, p.Name)
			}
			params[p.Name] = true
		}
	}
}

// TestContractMethods: a GET or DELETE takes no body, and a body is what
// a POST or PUT takes.
func TestContractMethods(t *testing.T) {
	t.Parallel()
	for _, r := range routes.All {
		c, ok := routes.ContractOf(r.Name)
		if !ok {
			continue // TestEveryRouteHasAContract says so
		}
		hasBody := c.Body != nil
		if (r.Method == http.MethodGet || r.Method == http.MethodDelete) && hasBody {
			t.Errorf("route %s: %s with a request body", r.Name, r.Method)
		}
		if r.Method == http.MethodPut && !hasBody {
			t.Errorf("route %s: PUT without a request body", r.Name)
		}
	}
}

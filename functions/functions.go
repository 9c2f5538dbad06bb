// Package functions lists agentmem's API functions, so that the local dev
// server and end-to-end tests serve exactly what Lambda serves. Each
// function lives in its own folder with a main package (the "bootstrap"
// binary) and a handler package.
package functions

import (
	"fmt"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/functions/extraction/extractionapi"
	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/functions/personalities/personalityapi"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/routes"
)

// API maps each function to its handler constructor.
var API = map[routes.Function]lambdamain.NewFunc{
	routes.Memories:      memoryapi.New,
	routes.Personalities: personalityapi.New,

	// Extraction (issue 3).
	routes.Extraction: extractionapi.New,

	// Deep Dream (issue 4).
	routes.Dream: dreamapi.New,
}

// Handlers builds every function's Lambda entry point from one set of
// dependencies.
func Handlers(deps lambdamain.Deps) (map[routes.Function]httpapi.LambdaFunc, error) {
	out := map[routes.Function]httpapi.LambdaFunc{}
	for fn, newFn := range API {
		h, err := newFn(deps)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", fn, err)
		}
		h.RestrictAgents(deps.AgentAccess)
		out[fn] = h.Handle
	}
	return out, nil
}

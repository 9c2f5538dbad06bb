// Command extraction is the extraction Lambda function (binary
// "bootstrap"): POST /api/agents/{agentName}/extractions. It only wires;
// the handler is package extractionapi.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/functions/extraction/extractionapi"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm/providers"
)

func main() {
	if err := lambdamain.Run(extractionapi.New, lambdamain.WithLLM(providers.FromEnv), lambdamain.WithEmbedder(embedders.FromEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "extraction:", err)
		os.Exit(1)
	}
}

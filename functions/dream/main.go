// Command dream is the dream Lambda function (binary "bootstrap"): the Deep
// Dream routes, the nightly dispatcher and the SQS worker in one binary. It
// only wires; the handlers are package dreamapi.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm/providers"
)

func main() {
	err := lambdamain.RunEntry(dreamapi.NewEntry, lambdamain.WithLLM(providers.FromEnv), lambdamain.WithEmbedder(embedders.FromEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dream:", err)
		os.Exit(1)
	}
}

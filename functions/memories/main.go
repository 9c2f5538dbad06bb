// Command memories is the memories Lambda function (binary "bootstrap"). It only
// wires; the handler is package memoryapi.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/agentmem/agentmem/shared/lambdamain"
)

func main() {
	if err := lambdamain.Run(memoryapi.New, lambdamain.WithEmbedder(embedders.FromEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "memories:", err)
		os.Exit(1)
	}
}

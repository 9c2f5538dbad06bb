// Command extraction is the extraction Lambda function (binary
// "bootstrap"): POST /api/agents/{agentName}/extractions. It only wires;
// the handler is package extractionapi.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/functions/extraction/extractionapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
)

func main() {
	if err := lambdamain.Run(extractionapi.New); err != nil {
		fmt.Fprintln(os.Stderr, "extraction:", err)
		os.Exit(1)
	}
}

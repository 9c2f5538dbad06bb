// Command personalities is the personalities Lambda function (binary "bootstrap"). It only
// wires; the handler is package personalityapi.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/functions/personalities/personalityapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
)

func main() {
	if err := lambdamain.Run(personalityapi.New); err != nil {
		fmt.Fprintln(os.Stderr, "personalities:", err)
		os.Exit(1)
	}
}

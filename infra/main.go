// Command infra is agentmem's AWS CDK app (cdk.json runs it: `make synth`,
// `make deploy`). Its settings are CDK context values; see docs/DEPLOY.md.
package main

import (
	"fmt"
	"os"

	"github.com/agentmem/agentmem/infra/stack"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
)

func main() {
	// No jsii.Close(): in jsii-runtime-go v1.139.0 it races with the
	// runtime's own wait on the kernel process ("waitid: no child
	// processes"); the kernel exits when this process does.
	app := awscdk.NewApp(nil)
	cfg, err := stack.ConfigFromContext(func(key string) any { return app.Node().TryGetContext(jsii.String(key)) })
	if err == nil {
		_, err = stack.New(app, cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "infra:", err)
		os.Exit(1)
	}
	stack.AddNagChecks(app)
	app.Synth(nil)
}

package stack

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdklabs/cdk-nag-go/cdknag/v2"
)

// AddNagChecks applies cdk-nag's AwsSolutions rules to everything in scope.
// Findings become synthesis errors and warnings; the stack records a
// written reason next to each resource it suppresses a rule for.
func AddNagChecks(scope constructs.IConstruct) {
	awscdk.Aspects_Of(scope).Add(cdknag.NewAwsSolutionsChecks(&cdknag.NagPackProps{Verbose: jsii.Bool(true)}), nil)
}

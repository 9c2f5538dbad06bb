package stack

import (
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"
)

// AgentRoutes are the routes the agent task role may call: those of
// shared/routes marked Agent.
func AgentRoutes() []routes.Route {
	var out []routes.Route
	for _, r := range routes.All {
		if r.Agent {
			out = append(out, r)
		}
	}
	return out
}

// addAgentGrant defines the managed policy granting execute-api:Invoke on
// exactly the agent routes (ARNs from the API's arnForExecuteApi, one per
// method and path, path parameters as "*"), exports it, and attaches it to
// the ECS task role given by context or to a role created for the purpose.
func (s *Stack) addAgentGrant() {
	var arns []string
	for _, r := range AgentRoutes() {
		arns = append(arns, *s.API.ArnForExecuteApi(jsii.String(r.Method), jsii.String(executeAPIPath(r.Path)), jsii.String(StageName)))
	}
	if s.Config.AgentTaskRoleARN != "" {
		s.AgentRole = awsiam.Role_FromRoleArn(s.Stack, jsii.String("AgentTaskRole"), jsii.String(s.Config.AgentTaskRoleARN), &awsiam.FromRoleArnOptions{
			Mutable: jsii.Bool(true),
		})
	} else {
		s.AgentRole = awsiam.NewRole(s.Stack, jsii.String("AgentTaskRole"), &awsiam.RoleProps{
			AssumedBy: awsiam.NewServicePrincipal(jsii.String("ecs-tasks.amazonaws.com"), &awsiam.ServicePrincipalOpts{
				Conditions: &map[string]interface{}{"StringEquals": map[string]interface{}{"aws:SourceAccount": awscdk.Aws_ACCOUNT_ID()}},
			}),
			Description: jsii.String("ECS task role for agents using agentmem (execute-api:Invoke on the agent routes)"),
		})
	}
	s.AgentPolicy = awsiam.NewManagedPolicy(s.Stack, jsii.String("AgentApiPolicy"), &awsiam.ManagedPolicyProps{
		Description: jsii.String("agentmem: execute-api:Invoke on the routes an agent task needs (bootstrap, memories, extraction, daily log, session context, search, stats)"),
		Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("execute-api:Invoke"),
			Resources: jsii.Strings(arns...),
		})},
		Roles: &[]awsiam.IRole{s.AgentRole},
	})
	var findings []string
	for _, r := range AgentRoutes() {
		findings = append(findings, "Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<"+
			*s.Stack.GetLogicalId(s.API.Node().DefaultChild().(awscdk.CfnElement))+">/"+StageName+"/"+r.Method+executeAPIPath(r.Path))
	}
	nagSuppress(s.AgentPolicy, false, nagReason{id: "AwsSolutions-IAM5",
		reason:    "Each ARN is one method and route of the API; the only wildcards stand for path parameters ({agentName}, {projectId}, ...), which IAM cannot name in advance.",
		appliesTo: findings})
}

package stack

import (
	"sort"
	"strconv"
	"strings"

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

// agentPathParam is the path parameter naming the agent a route acts for.
const agentPathParam = "{agentName}"

// addAgentGrant defines the agents' grants on the API.
//
// Shared mode (always): the managed policy AgentApiPolicy allows
// execute-api:Invoke on exactly the agent routes (ARNs from the API's
// arnForExecuteApi, one per method and path, path parameters as "*"); it
// is exported, and attached to the ECS task role given by context or to a
// role created for the purpose. Every agent running under that role may
// call every agent's routes.
//
// Per-agent mode (agentRoles): each role of the mapping gets a policy of
// its own allowing the agent routes with {agentName} set to its agents'
// names (the session routes, shared by a project's agents, stay "*"), so
// that IAM refuses one agent's task the routes of another; the functions
// get the mapping (AGENTMEM_AGENT_ROLES) and refuse such a caller too
// (403), whatever other policy it holds.
func (s *Stack) addAgentGrant() {
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
	s.AgentPolicy = s.agentPolicy("AgentApiPolicy",
		"agentmem: execute-api:Invoke on the routes an agent task needs (bootstrap, memories, extraction, daily log, session context, search, stats), for every agent",
		nil, s.AgentRole)

	// Per-agent mode: one policy per role, for its agents only.
	byRole := map[string][]string{}
	for agent, arn := range s.Config.AgentRoles.Roles() {
		byRole[arn] = append(byRole[arn], agent)
	}
	arns := make([]string, 0, len(byRole))
	for arn := range byRole {
		arns = append(arns, arn)
	}
	sort.Strings(arns)
	s.AgentPolicies = map[string]awsiam.ManagedPolicy{}
	for i, arn := range arns {
		agents := byRole[arn]
		sort.Strings(agents)
		id := "AgentRole" + strconv.Itoa(i+1) + logicalName(strings.Join(agents, "-"), "")
		role := awsiam.Role_FromRoleArn(s.Stack, jsii.String(id), jsii.String(arn), &awsiam.FromRoleArnOptions{Mutable: jsii.Bool(true)})
		pol := s.agentPolicy(id+"ApiPolicy",
			"agentmem: execute-api:Invoke on the agent routes of "+strings.Join(agents, ", ")+" only",
			agents, role)
		s.AgentPolicies[arn] = pol
	}
}

// agentPolicy defines a managed policy allowing the agent routes to role:
// for every agent ({agentName} as "*") when agents is nil, else for those
// agents only. Its cdk-nag IAM5 findings (the wildcards standing for path
// parameters) are suppressed with that reason.
func (s *Stack) agentPolicy(id, description string, agents []string, role awsiam.IRole) awsiam.ManagedPolicy {
	var arns, findings []string
	apiID := *s.Stack.GetLogicalId(s.API.Node().DefaultChild().(awscdk.CfnElement))
	for _, r := range AgentRoutes() {
		names := agents
		if names == nil || !strings.Contains(r.Path, agentPathParam) {
			names = []string{"*"}
		}
		for _, name := range names {
			path := executeAPIPath(strings.ReplaceAll(r.Path, agentPathParam, name))
			arns = append(arns, *s.API.ArnForExecuteApi(jsii.String(r.Method), jsii.String(path), jsii.String(StageName)))
			if strings.Contains(path, "*") {
				findings = append(findings, "Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<"+apiID+">/"+StageName+"/"+r.Method+path)
			}
		}
	}
	pol := awsiam.NewManagedPolicy(s.Stack, jsii.String(id), &awsiam.ManagedPolicyProps{
		Description: jsii.String(description),
		Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("execute-api:Invoke"),
			Resources: jsii.Strings(arns...),
		})},
		Roles: &[]awsiam.IRole{role},
	})
	if len(findings) > 0 {
		nagSuppress(pol, false, nagReason{id: "AwsSolutions-IAM5",
			reason:    "Each ARN is one method and route of the API; the only wildcards stand for path parameters ({agentName} in the shared policy, {projectId}, {sessionId}, {jobId}, ...), which IAM cannot name in advance.",
			appliesTo: findings})
	}
	return pol
}

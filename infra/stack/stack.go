// Package stack is agentmem's AWS CDK stack: the three DynamoDB tables, one
// Lambda function per folder of functions/ (routes.Functions), the HTTP API
// with every route of shared/routes on its function under IAM
// authorization, the Deep Dream schedule and queue, the ECS task grant on
// exactly the agent routes, alarms and outputs. Everything that the code
// already knows (routes, functions, table keys and indexes) is derived from
// it, never repeated here.
package stack

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Stack is the built stack and the constructs other parts refer to.
type Stack struct {
	awscdk.Stack
	Config Config
	// Schema is the tables' schema under their physical names.
	Schema dynamostore.Schema
	Tables map[string]awsdynamodb.Table // by TableSchema.Name
	// TableKey is the customer managed key of the tables, or nil.
	TableKey  awskms.IKey
	Functions map[routes.Function]awslambda.Function
	// LogGroups are the functions' log groups; AccessLogs the API's.
	LogGroups  map[routes.Function]awslogs.LogGroup
	AccessLogs awslogs.LogGroup
	API        awsapigatewayv2.HttpApi
	APIStage   awsapigatewayv2.HttpStage
	// DreamQueue feeds the dream worker; DreamDLQ takes what it fails;
	// DispatchDLQ takes the nightly dispatches that failed.
	DreamQueue, DreamDLQ, DispatchDLQ awssqs.Queue
	// AgentPolicy grants execute-api:Invoke on the agent routes; it is
	// attached to AgentRole and exported for other stacks.
	AgentPolicy awsiam.ManagedPolicy
	AgentRole   awsiam.IRole
	// AgentPolicies are the per-agent policies (agentRoles), by role ARN.
	AgentPolicies map[string]awsiam.ManagedPolicy
}

// New defines the stack in scope. It checks first that every function's
// bootstrap binary exists under cfg.AssetDir (make build).
func New(scope constructs.Construct, cfg Config) (*Stack, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	for _, fn := range cfg.Functions {
		path := filepath.Join(cfg.AssetDir, string(fn), "bootstrap")
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("function %s: no %s: `make build` builds one for every functions/<fn>/main.go (or set -c %s=DIR)", fn, path, CtxAssetDir)
		}
	}
	s := &Stack{
		Config: cfg,
		Stack: awscdk.NewStack(scope, jsii.String(cfg.StackName), &awscdk.StackProps{
			Description: jsii.String("agentmem: long-term memory and personalities for AI coding agents (tables, functions, HTTP API, Deep Dream)"),
		}),
		Tables:    map[string]awsdynamodb.Table{},
		Functions: map[routes.Function]awslambda.Function{},
		LogGroups: map[routes.Function]awslogs.LogGroup{},
	}
	s.Schema = dynamostore.Config{
		MemoriesTable:      cfg.TableName(dynamostore.DefaultMemoriesTable),
		PersonalitiesTable: cfg.TableName(dynamostore.DefaultPersonalitiesTable),
		JournalTable:       cfg.TableName(dynamostore.DefaultJournalTable),
	}.Schema()

	s.addTables()
	if err := s.addFunctions(); err != nil {
		return nil, err
	}
	if err := s.addAPI(); err != nil {
		return nil, err
	}
	if fn, ok := s.Functions[routes.Dream]; ok {
		s.addDream(fn)
	}
	s.addAgentGrant()
	s.addAlarms()
	s.addOutputs()
	return s, nil
}

// removalPolicy is RETAIN unless the stage is a throwaway one.
func (s *Stack) removalPolicy() awscdk.RemovalPolicy {
	if s.Config.Throwaway {
		return awscdk.RemovalPolicy_DESTROY
	}
	return awscdk.RemovalPolicy_RETAIN
}

func (s *Stack) addOutputs() {
	out := func(id, value, description string, export bool) {
		props := &awscdk.CfnOutputProps{Value: jsii.String(value), Description: jsii.String(description)}
		if export {
			props.ExportName = jsii.String(s.Config.StackName + "-" + id)
		}
		awscdk.NewCfnOutput(s.Stack, jsii.String(id), props)
	}
	out("ApiUrl", *s.APIStage.Url(), "base URL of the agentmem API (AGENTMEM_API_URL)", true)
	out("MemoriesTableName", *s.Tables[s.Schema.Memories.Name].TableName(), "agent-memories table", false)
	out("PersonalitiesTableName", *s.Tables[s.Schema.Personalities.Name].TableName(), "agent-personalities table", false)
	out("JournalTableName", *s.Tables[s.Schema.Journal.Name].TableName(), "agent-journal table", false)
	out("AgentApiPolicyArn", *s.AgentPolicy.ManagedPolicyArn(), "managed policy granting execute-api:Invoke on the agent routes", true)
	out("AgentTaskRoleArn", *s.AgentRole.RoleArn(), "the role granted the agent routes", false)
	if s.DreamQueue != nil {
		out("DreamQueueUrl", *s.DreamQueue.QueueUrl(), "the Deep Dream work queue", false)
	}
}

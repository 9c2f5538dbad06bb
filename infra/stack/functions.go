package stack

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/agentmem/agentmem/shared/tablegrants"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdklabs/cdk-nag-go/cdknag/v2"
)

// functionSpec sizes one function. Routes come from shared/routes,
// timeouts from routes.Timeouts; which settings a function reads (and so
// whether it calls a model or embeds) from shared/settings; what it may do
// on each table from shared/tablegrants (the one declaration, which the
// functions' tests check against the calls their code makes).
type functionSpec struct {
	description string
	memoryMB    int
	llmTimeout  string // AGENTMEM_LLM_TIMEOUT of a function that reads the LLM settings
	env         map[*settings.Setting]string
}

// functionSpecs: API functions stay under API Gateway's 30 s integration
// limit; the dream function is also the SQS worker, so its timeout is the
// longest dream it may run (the queue's visibility timeout is six times it).
var functionSpecs = map[routes.Function]functionSpec{
	routes.Memories: {
		description: "agentmem memories: CRUD, MEMORY.md, bootstrap, daily log, session context, search, stats, bulk deletes",
		memoryMB:    512,
	},
	routes.Personalities: {
		description: "agentmem personalities: CRUD",
		memoryMB:    256,
	},
	routes.Extraction: {
		description: "agentmem extraction: learnings from an agent run's output",
		memoryMB:    512,
		llmTimeout:  "25s",
	},
	routes.Dream: {
		description: "agentmem Deep Dream: API, nightly dispatcher (EventBridge Scheduler) and SQS worker, bulk delete jobs",
		memoryMB:    1024,
		llmTimeout:  "240s",
		// A dream's lease on its scope must outlast the function that
		// holds it, so a killed worker's scope frees itself only after
		// the worker is surely gone.
		env: map[*settings.Setting]string{settings.DreamLease: "330s"},
	},
}

// timeoutSeconds is a function's Lambda timeout (routes.Timeouts).
func timeoutSeconds(fn routes.Function) int { return int(routes.Timeouts[fn] / time.Second) }

// addFunctions defines one function per routes.Function: provided.al2023 on
// arm64 from <AssetDir>/<fn>/bootstrap, its own role with only the
// statements it needs, its own log group with a retention, JSON logs.
func (s *Stack) addFunctions() error {
	for _, fn := range s.Config.Functions {
		spec, ok := functionSpecs[fn]
		if !ok {
			return fmt.Errorf("function %s has no entry in infra/stack functionSpecs: declare its memory there", fn)
		}
		if _, ok := tablegrants.ByFunction[fn]; !ok {
			return fmt.Errorf("function %s has no entry in shared/tablegrants ByFunction: declare its table access there", fn)
		}
		id := logicalName(string(fn), "")
		logGroup := awslogs.NewLogGroup(s.Stack, jsii.String(id+"Logs"), &awslogs.LogGroupProps{
			Retention:     awslogs.RetentionDays(retentionDays[s.Config.LogRetentionDays]),
			RemovalPolicy: s.removalPolicy(),
		})
		role := awsiam.NewRole(s.Stack, jsii.String(id+"Role"), &awsiam.RoleProps{
			AssumedBy:   awsiam.NewServicePrincipal(jsii.String("lambda.amazonaws.com"), nil),
			Description: jsii.String("agentmem " + string(fn) + " function"),
		})
		logGroup.GrantWrite(role)
		statements, wildcards := s.functionStatements(fn)
		for _, st := range statements {
			role.AddToPolicy(st)
		}
		if len(wildcards) > 0 {
			nagSuppress(role, true, nagReason{id: "AwsSolutions-IAM5",
				reason:    "A cross-region inference profile routes each call to the foundation model in one of several regions; the region is a wildcard, and the statement only applies through that profile (bedrock:InferenceProfileArn condition).",
				appliesTo: wildcards})
		}
		env, err := s.functionEnv(fn, spec)
		if err != nil {
			return err
		}
		props := &awslambda.FunctionProps{
			Description:           jsii.String(spec.description),
			Runtime:               awslambda.Runtime_PROVIDED_AL2023(),
			Architecture:          awslambda.Architecture_ARM_64(),
			Handler:               jsii.String("bootstrap"),
			Code:                  awslambda.Code_FromAsset(jsii.String(filepath.Join(s.Config.AssetDir, string(fn))), nil),
			Timeout:               awscdk.Duration_Seconds(jsii.Number(float64(timeoutSeconds(fn)))),
			MemorySize:            jsii.Number(float64(spec.memoryMB)),
			Role:                  role,
			LogGroup:              logGroup,
			LoggingFormat:         awslambda.LoggingFormat_JSON,
			ApplicationLogLevelV2: awslambda.ApplicationLogLevel_INFO,
			SystemLogLevelV2:      awslambda.SystemLogLevel_WARN,
			Environment:           env,
		}
		if fn == routes.Extraction {
			// Each run calls the model: cap them, within the model's
			// rate limit and the account's concurrency.
			props.ReservedConcurrentExecutions = jsii.Number(float64(s.Config.ExtractionConcurrency))
		}
		f := awslambda.NewFunction(s.Stack, jsii.String(id+"Function"), props)
		// The function depends on its role through GetAtt already; an
		// explicit DependsOn on it too is what cfn-lint warns about
		// (W3005). Keep only the one on the role's policy, which nothing
		// else orders.
		if pol := role.Node().TryFindChild(jsii.String("DefaultPolicy")); pol != nil {
			cfn := f.Node().DefaultChild().(awscdk.CfnResource)
			cfn.AddOverride(jsii.String("DependsOn"), []string{*s.Stack.GetLogicalId(pol.Node().DefaultChild().(awscdk.CfnElement))})
		}
		s.Functions[fn] = f
		s.LogGroups[fn] = logGroup
	}
	return nil
}

// functionEnv is a function's environment, from the settings it reads
// (shared/settings): every one of them is declared, empty unless the stack
// has a value for it, so that `sam local invoke --env-vars` (which only
// sets variables the template declares) can set any of them, and never
// one the function does not read. Values: the table names for
// dynamostore.ConfigFromEnv, the log level, the LLM settings for
// llm.ConfigFromEnv and the embeddings settings where it reads them, the
// agent role mapping, the retention days, and its spec's own. Names
// Lambda reserves are left out; a value for a setting the function does
// not read, or for a secret, is refused: secrets are never written into a
// template.
func (s *Stack) functionEnv(fn routes.Function, spec functionSpec) (*map[string]*string, error) {
	reader := settings.Binary(fn)
	env := map[string]string{}
	for _, st := range settings.For(reader) {
		if !st.Reserved {
			env[st.Name] = ""
		}
	}
	var errs []string
	set := func(st *settings.Setting, v string) {
		switch {
		case v == "":
		case !st.ReadBy(reader):
			errs = append(errs, fmt.Sprintf("%s does not read %s (shared/settings)", fn, st))
		case st.Secret:
			errs = append(errs, fmt.Sprintf("%s is a secret and is never written into a template", st))
		case st.Reserved:
			errs = append(errs, fmt.Sprintf("%s is set by Lambda", st))
		default:
			env[st.Name] = v
		}
	}
	set(settings.MemoriesTable, s.Schema.Memories.Name)
	set(settings.PersonalitiesTable, s.Schema.Personalities.Name)
	set(settings.JournalTable, s.Schema.Journal.Name)
	set(settings.LogLevel, "info")
	if settings.LLM.ReadBy(reader) {
		set(settings.LLM, s.Config.LLM)
		set(settings.LLMModel, s.Config.LLMModel)
		set(settings.LLMEndpoint, s.Config.LLMEndpoint)
		set(settings.LLMTimeout, spec.llmTimeout)
	}
	if settings.Embeddings.ReadBy(reader) {
		set(settings.Embeddings, s.Config.Embeddings)
		if s.Config.Embeddings == EmbeddingsBedrock {
			set(settings.EmbeddingsModel, s.Config.EmbeddingsModel)
		}
	}
	if s.Config.AgentRoles != nil {
		set(settings.AgentRoles, s.Config.AgentRoles.String())
	}
	if d := s.Config.DailyRetentionDays; d >= 0 {
		set(settings.DailyRetentionDays, strconv.Itoa(d))
	}
	if d := s.Config.DreamRetentionDays; d >= 0 {
		set(settings.DreamRetentionDays, strconv.Itoa(d))
	}
	for st, v := range spec.env {
		set(st, v)
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("environment of function %s: %s", fn, strings.Join(errs, "; "))
	}
	out := map[string]*string{}
	for k, v := range env {
		out[k] = jsii.String(v)
	}
	return &out, nil
}

// functionStatements are the statements of a function's role besides its
// log group: its tables (and their key), and bedrock:InvokeModel on exactly
// the configured models.
//
// wildcards are the cdk-nag IAM5 findings the statements raise, each with
// its reason: the foundation models behind inference profiles.
func (s *Stack) functionStatements(fn routes.Function) (out []awsiam.PolicyStatement, wildcards []string) {
	names := map[tablegrants.Table]string{
		tablegrants.Memories:      s.Schema.Memories.Name,
		tablegrants.Personalities: s.Schema.Personalities.Name,
		tablegrants.Journal:       s.Schema.Journal.Name,
	}
	for _, table := range tablegrants.Tables {
		grant, ok := tablegrants.ByFunction[fn][table]
		if !ok || len(grant.Actions) == 0 {
			continue
		}
		for _, ts := range s.Schema.Tables() {
			if ts.Name == names[table] {
				out = append(out, s.tableStatements(ts, grant)...)
			}
		}
	}
	if s.TableKey != nil {
		out = append(out, awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings(keyActions...),
			Resources: jsii.Strings(*s.TableKey.KeyArn()),
		}))
	}
	var models []string
	if settings.LLM.ReadBy(settings.Binary(fn)) && s.Config.LLM == llm.ProviderBedrock {
		models = append(models, s.Config.LLMModel)
	}
	if settings.Embeddings.ReadBy(settings.Binary(fn)) && s.Config.Embeddings == EmbeddingsBedrock {
		models = append(models, s.Config.EmbeddingsModel)
	}
	for _, model := range models {
		out = append(out, bedrockInvoke(model)...)
		if prefix, foundation := inferenceProfile(model); prefix != "" {
			wildcards = append(wildcards, "Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/"+foundation)
		}
	}
	return out, wildcards
}

// inferenceProfilePrefixes are the geographies of Bedrock cross-region
// inference profiles ("global.anthropic...", "us.anthropic...").
var inferenceProfilePrefixes = []string{"global", "us", "us-gov", "eu", "apac", "jp", "au", "ca"}

// inferenceProfile splits a model id into its inference profile prefix and
// the foundation model id; prefix is "" for a plain foundation model id.
func inferenceProfile(model string) (prefix, foundation string) {
	head, rest, ok := strings.Cut(model, ".")
	if !ok {
		return "", model
	}
	for _, p := range inferenceProfilePrefixes {
		if head == p && strings.Contains(rest, ".") {
			return head, rest
		}
	}
	return "", model
}

// bedrockInvoke grants bedrock:InvokeModel (which Converse and Titan
// embeddings use) on exactly one model. A foundation model in the stack's
// region is one ARN. An inference profile is its ARN plus the foundation
// model in the regions the profile routes to, only through that profile
// (bedrock:InferenceProfileArn condition).
func bedrockInvoke(model string) []awsiam.PolicyStatement {
	prefix, foundation := inferenceProfile(model)
	if prefix == "" {
		return []awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("bedrock:InvokeModel"),
			Resources: jsii.Strings(*awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:${AWS::Region}::foundation-model/"+model), nil)),
		})}
	}
	profile := *awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:${AWS::Region}:${AWS::AccountId}:inference-profile/"+model), nil)
	return []awsiam.PolicyStatement{
		awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("bedrock:InvokeModel"),
			Resources: jsii.Strings(profile),
		}),
		awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions: jsii.Strings("bedrock:InvokeModel"),
			Resources: jsii.Strings(
				*awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:*::foundation-model/"+foundation), nil),
				*awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:::foundation-model/"+foundation), nil),
			),
			Conditions: &map[string]interface{}{
				"StringEquals": map[string]interface{}{"bedrock:InferenceProfileArn": profile},
			},
		}),
	}
}

// nagReason is one cdk-nag suppression: the rule, why it does not apply,
// and (for IAM5) the findings it covers.
type nagReason struct {
	id, reason string
	appliesTo  []string
}

// nagSuppress records suppressions on a construct (and its children).
func nagSuppress(construct any, children bool, reasons ...nagReason) {
	var list []*cdknag.NagPackSuppression
	for _, r := range reasons {
		sup := &cdknag.NagPackSuppression{Id: jsii.String(r.id), Reason: jsii.String(r.reason)}
		if len(r.appliesTo) > 0 {
			applies := make([]interface{}, len(r.appliesTo))
			for i, a := range r.appliesTo {
				applies[i] = a
			}
			sup.AppliesTo = &applies
		}
		list = append(list, sup)
	}
	cdknag.NagSuppressions_AddResourceSuppressions(construct, &list, jsii.Bool(children))
}

package stack_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/infra/stack"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// TestNagClean: cdk-nag's AwsSolutions pack finds no error in either
// stack, and every suppression carries a written reason.
func TestNagClean(t *testing.T) {
	for name, s := range synth(t) {
		t.Run(name, func(t *testing.T) {
			for _, m := range s.messages {
				switch m.level {
				case "error":
					t.Errorf("%s: %s", m.path, m.text)
				case "warning":
					t.Logf("warning %s: %s", m.path, m.text)
				}
			}
			suppressions := 0
			for id, r := range obj(s.template["Resources"]) {
				for _, sup := range list(obj(obj(obj(r)["Metadata"])["cdk_nag"])["rules_to_suppress"]) {
					suppressions++
					reason, _ := obj(sup)["reason"].(string)
					if len(strings.Fields(reason)) < 8 {
						t.Errorf("%s: suppression of %v has no real reason: %q", id, obj(sup)["id"], reason)
					}
				}
			}
			if suppressions == 0 {
				t.Errorf("no suppressions found: is cdk-nag's metadata still where this test looks?")
			}
		})
	}
}

// TestResourceCounts: the stack defines what routes and functions say,
// nothing more.
func TestResourceCounts(t *testing.T) {
	want := map[string]int{
		"AWS::DynamoDB::Table":            3,
		"AWS::Lambda::Function":           len(routes.Functions),
		"AWS::ApiGatewayV2::Api":          1,
		"AWS::ApiGatewayV2::Stage":        1,
		"AWS::ApiGatewayV2::Route":        len(routes.All),
		"AWS::ApiGatewayV2::Authorizer":   0, // IAM authorization needs no authorizer resource
		"AWS::Scheduler::Schedule":        1,
		"AWS::SQS::Queue":                 3,
		"AWS::SQS::QueuePolicy":           3,
		"AWS::Lambda::EventSourceMapping": 1,
		"AWS::Lambda::EventInvokeConfig":  1,
		// Errors and throttles per function; the two dead-letter queues,
		// the queue's age, the 5xx rate, the 429s, failed dreams;
		// throttling per table.
		"AWS::CloudWatch::Alarm":  2*len(routes.Functions) + 6 + 3,
		"AWS::Logs::MetricFilter": 2,
	}
	for name, s := range synth(t) {
		check(t, name+" managed policies", func() {
			// The shared agent policy, and one per role of agentRoles.
			s.assert.ResourceCountIs(jsii.String("AWS::IAM::ManagedPolicy"), jsii.Number(float64(1+len(s.st.AgentPolicies))))
		})
		for typ, n := range want {
			check(t, name+" "+typ, func() { s.assert.ResourceCountIs(jsii.String(typ), jsii.Number(float64(n))) })
		}
	}
}

// TestFunctions: one function per routes.Function, arm64
// provided.al2023 from its own asset, JSON logs into its own log group
// with the configured retention, the table names in its environment.
func TestFunctions(t *testing.T) {
	for name, s := range synth(t) {
		logGroups := s.resources("AWS::Logs::LogGroup")
		for _, fn := range routes.Functions {
			t.Run(name+"/"+string(fn), func(t *testing.T) {
				f := s.st.Functions[fn]
				if f == nil {
					t.Fatalf("no function %s", fn)
				}
				p := props(s.resources("AWS::Lambda::Function")[s.logicalID(f)])
				if got := renderAll(p["Architectures"]); !reflect.DeepEqual(got, []string{"arm64"}) {
					t.Errorf("architectures %v, want [arm64]", got)
				}
				for key, want := range map[string]string{"Runtime": "provided.al2023", "Handler": "bootstrap"} {
					if got := render(p[key]); got != want {
						t.Errorf("%s %q, want %q", key, got, want)
					}
				}
				lc := obj(p["LoggingConfig"])
				if got := render(lc["LogFormat"]); got != "JSON" {
					t.Errorf("log format %q, want JSON", got)
				}
				lg := strings.Trim(render(lc["LogGroup"]), "${}")
				if got := props(logGroups[lg])["RetentionInDays"]; got != float64(s.cfg.LogRetentionDays) {
					t.Errorf("log group %s retention %v, want %d", lg, got, s.cfg.LogRetentionDays)
				}
				timeout, _ := p["Timeout"].(float64)
				if time.Duration(timeout)*time.Second != routes.Timeouts[fn] {
					t.Errorf("timeout %v, want routes.Timeouts' %v", p["Timeout"], routes.Timeouts[fn])
				}
				reserved, _ := p["ReservedConcurrentExecutions"].(float64)
				if want := map[bool]float64{true: float64(s.cfg.ExtractionConcurrency)}[fn == routes.Extraction]; reserved != want {
					t.Errorf("reserved concurrency %v, want %v", p["ReservedConcurrentExecutions"], want)
				}
				if fn != routes.Dream && timeout >= 30 {
					t.Errorf("timeout %vs: an API function must answer within API Gateway's 30 s", timeout)
				}
				env := obj(obj(p["Environment"])["Variables"])
				for key, table := range map[string]string{
					"MEMORIES_TABLE":      s.st.Schema.Memories.Name,
					"PERSONALITIES_TABLE": s.st.Schema.Personalities.Name,
					"JOURNAL_TABLE":       s.st.Schema.Journal.Name,
				} {
					if got := render(env[key]); got != table {
						t.Errorf("%s=%q, want %q", key, got, table)
					}
				}
				llmFn := fn == routes.Extraction || fn == routes.Dream
				if got := render(env["AGENTMEM_LLM"]); llmFn && got != s.cfg.LLM || !llmFn && env["AGENTMEM_LLM"] != nil {
					t.Errorf("AGENTMEM_LLM=%q (llm function: %v, configured %q)", got, llmFn, s.cfg.LLM)
				}
				if llmFn && render(env["AGENTMEM_LLM_MODEL"]) != s.cfg.LLMModel {
					t.Errorf("AGENTMEM_LLM_MODEL=%q, want %q", render(env["AGENTMEM_LLM_MODEL"]), s.cfg.LLMModel)
				}
				// Every function that writes memories embeds them.
				writer := fn != routes.Personalities
				if got := render(env["AGENTMEM_EMBEDDINGS"]); writer && got != s.cfg.Embeddings || !writer && env["AGENTMEM_EMBEDDINGS"] != nil {
					t.Errorf("AGENTMEM_EMBEDDINGS=%q (writes memories: %v, configured %q)", got, writer, s.cfg.Embeddings)
				}
				// SAM's --env-vars sets only variables the template
				// declares: every setting the function reads is declared.
				for _, st := range settings.For(settings.Binary(fn)) {
					if _, ok := env[st.Name]; ok == st.Reserved {
						t.Errorf("%s declared %v, want %v", st, ok, !st.Reserved)
					}
				}
				if got, want := render(env["AGENTMEM_DAILY_RETENTION_DAYS"]), map[bool]string{true: strconv.Itoa(s.cfg.DailyRetentionDays)}[s.cfg.DailyRetentionDays >= 0]; got != want {
					t.Errorf("AGENTMEM_DAILY_RETENTION_DAYS=%q, want %q", got, want)
				}
				if got, want := render(env["AGENTMEM_AGENT_ROLES"]), map[bool]string{true: s.cfg.AgentRoles.String()}[s.cfg.AgentRoles != nil]; got != want {
					t.Errorf("AGENTMEM_AGENT_ROLES=%q, want %q", got, want)
				}
				if fn == routes.Dream {
					lease, err := time.ParseDuration(render(env["AGENTMEM_DREAM_LEASE"]))
					if err != nil || lease <= time.Duration(timeout)*time.Second {
						t.Errorf("AGENTMEM_DREAM_LEASE=%q: want a lease longer than the %vs timeout", render(env["AGENTMEM_DREAM_LEASE"]), timeout)
					}
				}
			})
		}
	}
}

// TestRoutes: every route of shared/routes is on the API with AWS_IAM
// authorization, integrated with the function that serves it.
func TestRoutes(t *testing.T) {
	for name, s := range synth(t) {
		byKey := map[string]map[string]any{}
		for _, r := range s.resources("AWS::ApiGatewayV2::Route") {
			byKey[render(props(r)["RouteKey"])] = props(r)
		}
		integrations := s.resources("AWS::ApiGatewayV2::Integration")
		for _, r := range routes.All {
			p, ok := byKey[r.Key()]
			if !ok {
				t.Errorf("%s: route %s (%s) is not on the API", name, r.Name, r.Key())
				continue
			}
			if got := render(p["AuthorizationType"]); got != "AWS_IAM" {
				t.Errorf("%s: %s authorization %q, want AWS_IAM", name, r.Key(), got)
			}
			integID := strings.TrimPrefix(render(p["Target"]), "integrations/")
			integID = strings.Trim(integID, "${}")
			ip := props(integrations[integID])
			if got, want := render(ip["IntegrationUri"]), "${"+s.logicalID(s.st.Functions[r.Function])+".Arn}"; got != want {
				t.Errorf("%s: %s integrated with %s, want function %s (%s)", name, r.Key(), got, r.Function, want)
			}
			if got := render(ip["PayloadFormatVersion"]); got != "2.0" {
				t.Errorf("%s: %s payload format %q, want 2.0", name, r.Key(), got)
			}
		}
		if len(byKey) != len(routes.All) {
			t.Errorf("%s: %d routes on the API, want %d", name, len(byKey), len(routes.All))
		}
	}
}

// TestStage: one auto-deployed $default stage, throttled as configured,
// with JSON access logs; CORS only when origins are configured.
func TestStage(t *testing.T) {
	for name, s := range synth(t) {
		check(t, name+" stage", func() {
			s.assert.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Stage"), &map[string]any{
				"StageName":  stack.StageName,
				"AutoDeploy": true,
				"DefaultRouteSettings": map[string]any{
					"ThrottlingRateLimit":  s.cfg.ThrottleRate,
					"ThrottlingBurstLimit": s.cfg.ThrottleBurst,
				},
				"AccessLogSettings": map[string]any{"DestinationArn": assertions.Match_AnyValue()},
			})
		})
		for _, st := range s.resources("AWS::ApiGatewayV2::Stage") {
			var format map[string]string
			if err := json.Unmarshal([]byte(render(obj(props(st)["AccessLogSettings"])["Format"])), &format); err != nil {
				t.Errorf("%s: access log format is not JSON: %v", name, err)
			}
			if format["userArn"] == "" || format["status"] == "" || format["routeKey"] == "" {
				t.Errorf("%s: access log format %v lacks caller, status or route", name, format)
			}
		}
		for _, api := range s.resources("AWS::ApiGatewayV2::Api") {
			cors := props(api)["CorsConfiguration"]
			if got, want := cors != nil, len(s.cfg.CORSOrigins) > 0; got != want {
				t.Errorf("%s: CORS configured %v, want %v", name, got, want)
			}
		}
	}
}

// roleActions renders what a function's role may do: for each resource
// (a table by its schema name, "<table>/index/<name>", the function's log
// group, the dream queue, the table key, or the ARN as rendered), the
// sorted actions; conditions by resource too.
func (s *synthesized) roleActions(t *testing.T, fn routes.Function) (actions map[string][]string, conditions map[string]string) {
	t.Helper()
	names := map[string]string{}
	for name, table := range s.st.Tables {
		names["${"+s.logicalID(table)+".Arn}"] = strings.TrimPrefix(strings.TrimSuffix(name, "-"+s.cfg.Stage), "agent-")
	}
	names["${"+s.logicalID(s.st.LogGroups[fn])+".Arn}"] = "log group"
	names["${"+s.logicalID(s.st.DreamQueue)+".Arn}"] = "dream queue"
	names["${"+s.logicalID(s.st.DispatchDLQ)+".Arn}"] = "dispatch dead-letter queue"
	if s.cfg.TableKMSKeyARN != "" {
		names[s.cfg.TableKMSKeyARN] = "table key"
	}
	label := func(arn string) string {
		for id, name := range names {
			if arn == id {
				return name
			}
			if strings.HasPrefix(arn, id+"/index/") {
				return name + strings.TrimPrefix(arn, id)
			}
		}
		return arn
	}
	role := strings.Trim(render(props(s.resources("AWS::Lambda::Function")[s.logicalID(s.st.Functions[fn])])["Role"]), "${}")
	role = strings.TrimSuffix(role, ".Arn")
	set := map[string]map[string]bool{}
	conditions = map[string]string{}
	for _, pol := range s.resources("AWS::IAM::Policy") {
		if !contains(renderAll(props(pol)["Roles"]), "${"+role+"}") {
			continue
		}
		for _, st := range list(obj(props(pol)["PolicyDocument"])["Statement"]) {
			if obj(st)["Effect"] != "Allow" {
				t.Errorf("%s: statement %v is not an Allow", fn, st)
			}
			for _, arn := range renderAll(obj(st)["Resource"]) {
				l := label(arn)
				if set[l] == nil {
					set[l] = map[string]bool{}
				}
				for _, a := range renderAll(obj(st)["Action"]) {
					set[l][a] = true
				}
				if c := obj(st)["Condition"]; c != nil && !strings.HasPrefix(l, "arn:") {
					raw, _ := json.Marshal(c)
					conditions[l] = string(raw)
				}
			}
		}
	}
	actions = map[string][]string{}
	for l, acts := range set {
		actions[l] = keys(acts)
	}
	return actions, conditions
}

// TestRoleActions lists, for each function's role, every action it may
// take on each table, index, queue and log group: exactly what its code
// calls (a transaction needs each of its items' actions), nothing CDK
// would add by default (no Scan, no BatchWriteItem on memories, no
// DescribeTable, the pending-index for the dispatcher only).
func TestRoleActions(t *testing.T) {
	logs := []string{"logs:CreateLogStream", "logs:PutLogEvents"}
	queue := []string{"sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"}
	want := map[routes.Function]map[string][]string{
		routes.Memories: {
			"memories":                {"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
			"memories/index/id-index": {"dynamodb:Query"},
			"personalities":           {"dynamodb:GetItem"},
			"journal":                 {"dynamodb:BatchWriteItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
			"dream queue":             queue,
			"log group":               logs,
		},
		routes.Personalities: {
			"personalities":                  {"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem"},
			"personalities/index/name-index": {"dynamodb:Query"},
			"journal":                        {"dynamodb:GetItem", "dynamodb:PutItem"},
			"log group":                      logs,
		},
		routes.Extraction: {
			"memories":                {"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
			"memories/index/id-index": {"dynamodb:Query"},
			// BatchWriteItem: eviction deletes the evicted memory's
			// history (purgeHistory).
			"journal":   {"dynamodb:BatchWriteItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
			"log group": logs,
		},
		routes.Dream: {
			"memories":                {"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"},
			"memories/index/id-index": {"dynamodb:Query"},
			// DeleteItem: a revert bringing back a retired memory deletes
			// its gone record in the restore's transaction.
			"journal":                     {"dynamodb:BatchWriteItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
			"journal/index/pending-index": {"dynamodb:Query"},
			// It sends to its queue and is its event source.
			"dream queue": {"sqs:ChangeMessageVisibility", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:ReceiveMessage", "sqs:SendMessage"},
			// Lambda sends the failed asynchronous dispatches there.
			"dispatch dead-letter queue": queue,
			"log group":                  logs,
		},
	}
	for name, s := range synth(t) {
		for _, fn := range routes.Functions {
			t.Run(name+"/"+string(fn), func(t *testing.T) {
				got, conds := s.roleActions(t, fn)
				for res := range got {
					if strings.Contains(res, "bedrock") || res == "table key" {
						delete(got, res) // TestFunctionPermissions checks those
					}
				}
				if !reflect.DeepEqual(got, want[fn]) {
					t.Errorf("actions\n got %v\nwant %v", got, want[fn])
				}
				for res, acts := range got {
					for _, a := range acts {
						if strings.Contains(a, "*") || a == "dynamodb:Scan" || a == "dynamodb:DescribeTable" {
							t.Errorf("%s: %s may %s", fn, res, a)
						}
					}
				}
				// The personalities function touches the journal only for
				// idempotency records and the cursor key.
				wantCond := ""
				if fn == routes.Personalities {
					wantCond = `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["idem#*","config#*"]}}`
				}
				if conds["journal"] != wantCond {
					t.Errorf("journal condition %s, want %q", conds["journal"], wantCond)
				}
			})
		}
	}
}

// TestFunctionPermissions: each function's role may invoke exactly the
// configured Bedrock models of the functions that use them, and use the
// table key when there is one.
func TestFunctionPermissions(t *testing.T) {
	for name, s := range synth(t) {
		for _, fn := range routes.Functions {
			actions, _ := s.roleActions(t, fn)
			var invoke []string
			for res, acts := range actions {
				if contains(acts, "bedrock:InvokeModel") {
					invoke = append(invoke, res)
				}
			}
			if key := actions["table key"]; (s.cfg.TableKMSKeyARN != "") != (len(key) > 0) {
				t.Errorf("%s/%s: table key actions %v with key %q", name, fn, key, s.cfg.TableKMSKeyARN)
			}
			var wantModels []string
			if (fn == routes.Extraction || fn == routes.Dream) && s.cfg.LLM == "bedrock" {
				wantModels = append(wantModels, s.cfg.LLMModel)
			}
			if fn != routes.Personalities && s.cfg.Embeddings == stack.EmbeddingsBedrock {
				wantModels = append(wantModels, s.cfg.EmbeddingsModel)
			}
			if len(wantModels) == 0 && len(invoke) > 0 {
				t.Errorf("%s/%s: may invoke %v, want no model", name, fn, invoke)
			}
			for _, arn := range invoke {
				ok := false
				for _, m := range wantModels {
					_, base, _ := strings.Cut(m, ".")
					ok = ok || strings.HasSuffix(arn, "/"+m) || strings.HasSuffix(arn, "foundation-model/"+base)
				}
				if !ok {
					t.Errorf("%s/%s: may invoke %s, want only %v", name, fn, arn, wantModels)
				}
			}
			for _, m := range wantModels {
				if !containsSuffix(invoke, "/"+m) {
					t.Errorf("%s/%s: may not invoke %s (grants %v)", name, fn, m, invoke)
				}
			}
		}
	}
}

// TestAgentGrant: the managed policy allows execute-api:Invoke on exactly
// the routes marked Agent, no more: every agent route's request matches a
// granted ARN and no other route's request does. It is exported and
// attached to the task role (the given one, or one made for ECS tasks).
func TestAgentGrant(t *testing.T) {
	for name, s := range synth(t) {
		t.Run(name, func(t *testing.T) {
			var granted []string
			var roles []string
			for id, pol := range s.resources("AWS::IAM::ManagedPolicy") {
				if id != s.logicalID(s.st.AgentPolicy) {
					continue // per-agent policies: TestPerAgentGrant
				}
				for _, st := range list(obj(props(pol)["PolicyDocument"])["Statement"]) {
					if got := renderAll(obj(st)["Action"]); !reflect.DeepEqual(got, []string{"execute-api:Invoke"}) {
						t.Errorf("actions %v, want [execute-api:Invoke]", got)
					}
					if obj(st)["Effect"] != "Allow" || obj(st)["Condition"] != nil {
						t.Errorf("statement %v: want a plain Allow", st)
					}
					granted = append(granted, renderAll(obj(st)["Resource"])...)
				}
				roles = append(roles, renderAll(props(pol)["Roles"])...)
			}
			prefix := "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${" + s.logicalID(s.st.API) + "}/" + stack.StageName + "/"
			agentRoutes := 0
			for _, r := range routes.All {
				request := prefix + r.Method + samplePath(r.Path)
				matched := ""
				for _, g := range granted {
					if iamMatch(g, request) {
						matched = g
					}
				}
				switch {
				case r.Agent && matched == "":
					t.Errorf("agent route %s (%s): no grant matches %s", r.Name, r.Key(), request)
				case !r.Agent && matched != "":
					t.Errorf("route %s (%s) is not an agent route, but %s grants it", r.Name, r.Key(), matched)
				}
				if r.Agent {
					agentRoutes++
				}
			}
			if len(granted) != agentRoutes {
				t.Errorf("%d ARNs granted for %d agent routes: %v", len(granted), agentRoutes, granted)
			}
			var wantRole string
			if s.cfg.AgentTaskRoleARN != "" {
				wantRole = s.cfg.AgentTaskRoleARN[strings.LastIndex(s.cfg.AgentTaskRoleARN, "/")+1:]
			} else {
				wantRole = "${" + s.logicalID(s.st.AgentRole) + "}"
				check(t, "task role trust", func() {
					s.assert.HasResourceProperties(jsii.String("AWS::IAM::Role"), &map[string]any{
						"AssumeRolePolicyDocument": map[string]any{"Statement": []any{assertions.Match_ObjectLike(&map[string]any{
							"Principal": map[string]any{"Service": "ecs-tasks.amazonaws.com"},
						})}},
					})
				})
			}
			if !reflect.DeepEqual(roles, []string{wantRole}) {
				t.Errorf("policy attached to %v, want [%s]", roles, wantRole)
			}
			out := obj(obj(s.template["Outputs"])["AgentApiPolicyArn"])
			if render(out["Value"]) != "${"+s.logicalID(s.st.AgentPolicy)+"}" || obj(out["Export"])["Name"] == nil {
				t.Errorf("output AgentApiPolicyArn %v: want the policy's ARN, exported", out)
			}
		})
	}
}

// TestPerAgentGrant: with agentRoles, each role gets a policy allowing
// the agent routes of its own agents only: an agent route's request for
// one of them matches, the same request for any other agent does not, and
// the session routes (a project's, shared by its agents) stay open to all.
func TestPerAgentGrant(t *testing.T) {
	s := synth(t)[customStack]
	roles := s.cfg.AgentRoles.Roles()
	if len(roles) == 0 || len(s.st.AgentPolicies) != 2 {
		t.Fatalf("custom stack: %d agents, %d per-agent policies; want the 3 agents of 2 roles", len(roles), len(s.st.AgentPolicies))
	}
	prefix := "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${" + s.logicalID(s.st.API) + "}/" + stack.StageName + "/"
	for arn, pol := range s.st.AgentPolicies {
		p := props(s.resources("AWS::IAM::ManagedPolicy")[s.logicalID(pol)])
		var granted []string
		for _, st := range list(obj(p["PolicyDocument"])["Statement"]) {
			if got := renderAll(obj(st)["Action"]); !reflect.DeepEqual(got, []string{"execute-api:Invoke"}) {
				t.Errorf("%s: actions %v", arn, got)
			}
			granted = append(granted, renderAll(obj(st)["Resource"])...)
		}
		if got, want := renderAll(p["Roles"]), []string{arn[strings.LastIndex(arn, "/")+1:]}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: policy attached to %v, want %v", arn, got, want)
		}
		for _, r := range routes.All {
			for _, agent := range []string{"nori", "kai", "miso", "other"} {
				request := prefix + r.Method + strings.ReplaceAll(samplePath(strings.ReplaceAll(r.Path, "{agentName}", agent)), "p1", "x")
				matched := false
				for _, g := range granted {
					matched = matched || iamMatch(g, request)
				}
				own := roles[agent] == arn
				want := r.Agent && (own || !strings.Contains(r.Path, "{agentName}"))
				if matched != want {
					t.Errorf("role %s, %s as %s (%s): granted %v, want %v", arn, r.Name, agent, request, matched, want)
				}
			}
		}
	}
}

// TestOutputs: the API URL, the table names and the policy ARN are outputs.
func TestOutputs(t *testing.T) {
	for name, s := range synth(t) {
		outputs := obj(s.template["Outputs"])
		for key, want := range map[string]string{
			"MemoriesTableName":      "${" + s.logicalID(s.st.Tables[s.st.Schema.Memories.Name]) + "}",
			"PersonalitiesTableName": "${" + s.logicalID(s.st.Tables[s.st.Schema.Personalities.Name]) + "}",
			"JournalTableName":       "${" + s.logicalID(s.st.Tables[s.st.Schema.Journal.Name]) + "}",
			"ApiUrl":                 "https://${" + s.logicalID(s.st.API) + "}.execute-api.${AWS::Region}.${AWS::URLSuffix}/",
		} {
			if got := render(obj(outputs[key])["Value"]); got != want {
				t.Errorf("%s: output %s = %q, want %q", name, key, got, want)
			}
		}
	}
}

// TestAlarms: errors and throttles of each function, the dead-letter
// queue and the queue's age, the API's 5xx rate and 429s, DynamoDB
// throttling of each table, failed dreams; they notify the topic when one
// is set. The metric filters count what the code logs.
func TestAlarms(t *testing.T) {
	for name, s := range synth(t) {
		alarms := s.resources("AWS::CloudWatch::Alarm")
		seen := map[string]int{}
		for _, a := range alarms {
			p := props(a)
			switch {
			case p["MetricName"] != nil:
				seen[render(p["Namespace"])+"/"+render(p["MetricName"])]++
			case p["Metrics"] != nil:
				for _, m := range list(p["Metrics"]) {
					switch e := render(obj(m)["Expression"]); {
					case strings.Contains(e, "errors / requests"):
						seen["5xx rate"]++
					case e == "reads + writes":
						seen["DynamoDB throttling"]++
					}
				}
			}
			actions := renderAll(p["AlarmActions"])
			if got, want := len(actions), map[bool]int{true: 1, false: 0}[s.cfg.AlarmEmail != "" || s.cfg.AlarmTopicARN != ""]; got != want {
				t.Errorf("%s: alarm %v has %d actions, want %d", name, p["AlarmDescription"], got, want)
			}
		}
		for metric, want := range map[string]int{
			"AWS/Lambda/Errors":                           len(routes.Functions),
			"AWS/Lambda/Throttles":                        len(routes.Functions),
			"AWS/SQS/ApproximateNumberOfMessagesVisible":  2,
			"AWS/SQS/ApproximateAgeOfOldestMessage":       1,
			s.st.MetricNamespace() + "/ThrottledRequests": 1,
			s.st.MetricNamespace() + "/DreamsFailed":      1,
			"5xx rate":                                    1,
			"DynamoDB throttling":                         3,
		} {
			if seen[metric] != want {
				t.Errorf("%s: %d alarms on %s, want %d", name, seen[metric], metric, want)
			}
		}
		filters := map[string]string{}
		for _, f := range s.resources("AWS::Logs::MetricFilter") {
			p := props(f)
			mt := obj(list(p["MetricTransformations"])[0])
			filters[render(mt["MetricName"])] = render(p["FilterPattern"]) + " on " + render(p["LogGroupName"])
		}
		if want := `{ $.status = "429" } on ${` + s.logicalID(s.st.AccessLogs) + `}`; filters["ThrottledRequests"] != want {
			t.Errorf("%s: 429 filter %q, want %q", name, filters["ThrottledRequests"], want)
		}
		if want := `{ $.msg = "` + applog.DreamFailed + `" } on ${` + s.logicalID(s.st.LogGroups[routes.Dream]) + `}`; filters["DreamsFailed"] != want {
			t.Errorf("%s: failed dreams filter %q, want %q", name, filters["DreamsFailed"], want)
		}
		if s.cfg.AlarmEmail != "" {
			check(t, name+" email subscription", func() {
				s.assert.HasResourceProperties(jsii.String("AWS::SNS::Subscription"), &map[string]any{
					"Protocol": "email", "Endpoint": s.cfg.AlarmEmail,
				})
			})
		}
	}
}

// TestDream: the schedule invokes the dream function with the dispatcher's
// input; the queue feeds the same function with batch item failures under
// a concurrency cap, has its dead-letter queue, a visibility timeout of at
// least six times the function's, SSE and TLS-only policies; the function
// knows the queue and may send to it.
func TestDream(t *testing.T) {
	dispatch, err := json.Marshal(stack.DispatchInput)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := os.ReadFile(filepath.Join("..", "..", "events", "dream", "schedule.json")); err == nil {
		var fromFile, fromStack any
		if err := json.Unmarshal(raw, &fromFile); err != nil {
			t.Fatalf("events/dream/schedule.json: %v", err)
		}
		json.Unmarshal(dispatch, &fromStack)
		if !reflect.DeepEqual(fromFile, fromStack) {
			t.Errorf("schedule input %s differs from events/dream/schedule.json %s", dispatch, raw)
		}
	}
	for name, s := range synth(t) {
		t.Run(name, func(t *testing.T) {
			dream := s.logicalID(s.st.Functions[routes.Dream])
			queue, dlq := s.logicalID(s.st.DreamQueue), s.logicalID(s.st.DreamDLQ)
			dispatchDLQ := s.logicalID(s.st.DispatchDLQ)
			fn := props(s.resources("AWS::Lambda::Function")[dream])

			// A dispatch that fails every attempt is kept, in a queue of
			// its own: not delivered (the scheduler's dead-letter queue),
			// or failed by the function (Lambda's on-failure destination
			// of the asynchronous invocation).
			check(t, "dispatch dead letters", func() {
				s.assert.HasResourceProperties(jsii.String("AWS::Scheduler::Schedule"), &map[string]any{
					"Target": assertions.Match_ObjectLike(&map[string]any{
						"DeadLetterConfig": map[string]any{"Arn": map[string]any{"Fn::GetAtt": []any{dispatchDLQ, "Arn"}}},
						"RetryPolicy":      assertions.Match_ObjectLike(&map[string]any{"MaximumRetryAttempts": stack.DispatchRetries}),
					}),
				})
				s.assert.HasResourceProperties(jsii.String("AWS::Lambda::EventInvokeConfig"), &map[string]any{
					"FunctionName":         map[string]any{"Ref": dream},
					"MaximumRetryAttempts": stack.DispatchRetries,
					"DestinationConfig": map[string]any{"OnFailure": map[string]any{
						"Destination": map[string]any{"Fn::GetAtt": []any{dispatchDLQ, "Arn"}},
					}},
				})
				s.assert.HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), &map[string]any{
					"MetricName": "ApproximateNumberOfMessagesVisible",
					"Dimensions": []any{map[string]any{"Name": "QueueName", "Value": map[string]any{"Fn::GetAtt": []any{dispatchDLQ, "QueueName"}}}},
				})
			})
			if dispatchDLQ == dlq || dispatchDLQ == queue {
				t.Errorf("dispatches dead-letter into %s: the dream queues take only scopes and jobs", dispatchDLQ)
			}

			for _, sch := range s.resources("AWS::Scheduler::Schedule") {
				p := props(sch)
				target := obj(p["Target"])
				if got := render(target["Arn"]); got != "${"+dream+".Arn}" {
					t.Errorf("schedule target %s, want the dream function", got)
				}
				var got, want any
				json.Unmarshal([]byte(render(target["Input"])), &got)
				json.Unmarshal(dispatch, &want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("schedule input %v, want %v", got, want)
				}
				if render(p["ScheduleExpression"]) != s.cfg.DreamSchedule || render(p["ScheduleExpressionTimezone"]) != s.cfg.DreamTimeZone {
					t.Errorf("schedule %v in %v, want %s in %s", p["ScheduleExpression"], p["ScheduleExpressionTimezone"], s.cfg.DreamSchedule, s.cfg.DreamTimeZone)
				}
			}

			queues := s.resources("AWS::SQS::Queue")
			q := props(queues[queue])
			redrive := obj(q["RedrivePolicy"])
			if render(redrive["deadLetterTargetArn"]) != "${"+dlq+".Arn}" || redrive["maxReceiveCount"] != float64(stack.MaxReceiveCount) {
				t.Errorf("redrive policy %v, want the DLQ after %d receives", redrive, stack.MaxReceiveCount)
			}
			if vis, timeout := q["VisibilityTimeout"].(float64), fn["Timeout"].(float64); vis < stack.VisibilityFactor*timeout {
				t.Errorf("visibility timeout %vs < %d x function timeout %vs", vis, stack.VisibilityFactor, timeout)
			}
			for id, qr := range queues {
				if props(qr)["SqsManagedSseEnabled"] != true && props(qr)["KmsMasterKeyId"] == nil {
					t.Errorf("queue %s is not encrypted", id)
				}
			}
			tlsOnly := map[string]bool{}
			for _, pol := range s.resources("AWS::SQS::QueuePolicy") {
				for _, st := range list(obj(props(pol)["PolicyDocument"])["Statement"]) {
					c := obj(obj(obj(st)["Condition"])["Bool"])
					if obj(st)["Effect"] == "Deny" && c["aws:SecureTransport"] == "false" {
						for _, qref := range renderAll(props(pol)["Queues"]) {
							tlsOnly[strings.Trim(qref, "${}")] = true
						}
					}
				}
			}
			if !tlsOnly[queue] || !tlsOnly[dlq] || !tlsOnly[dispatchDLQ] {
				t.Errorf("TLS-only policies on %v, want every queue", keys(tlsOnly))
			}

			for _, esm := range s.resources("AWS::Lambda::EventSourceMapping") {
				p := props(esm)
				if render(p["FunctionName"]) != "${"+dream+"}" || render(p["EventSourceArn"]) != "${"+queue+".Arn}" {
					t.Errorf("event source %v -> %v, want the dream queue -> the dream function", p["EventSourceArn"], p["FunctionName"])
				}
				if got := renderAll(p["FunctionResponseTypes"]); !reflect.DeepEqual(got, []string{"ReportBatchItemFailures"}) {
					t.Errorf("response types %v, want ReportBatchItemFailures", got)
				}
				if got := obj(p["ScalingConfig"])["MaximumConcurrency"]; got != float64(s.cfg.DreamMaxConcurrency) {
					t.Errorf("maximum concurrency %v, want %d", got, s.cfg.DreamMaxConcurrency)
				}
			}

			env := obj(obj(fn["Environment"])["Variables"])
			if got := render(env["DREAM_QUEUE_URL"]); got != "${"+queue+"}" {
				t.Errorf("DREAM_QUEUE_URL=%s, want the queue's URL", got)
			}
			check(t, "dream may send to its queue", func() {
				s.assert.HasResourceProperties(jsii.String("AWS::IAM::Policy"), &map[string]any{
					"PolicyDocument": map[string]any{"Statement": assertions.Match_ArrayWith(&[]any{assertions.Match_ObjectLike(&map[string]any{
						"Action":   assertions.Match_ArrayWith(&[]any{"sqs:SendMessage"}),
						"Resource": map[string]any{"Fn::GetAtt": []any{queue, "Arn"}},
					})})},
					"Roles": []any{map[string]any{"Ref": strings.TrimSuffix(strings.Trim(render(fn["Role"]), "${}"), ".Arn")}},
				})
			})
		})
	}
}

// samplePath fills a route path's parameters with sample values.
func samplePath(path string) string {
	return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "p1")
}

// iamMatch reports whether an IAM resource pattern (with * and ?) matches
// s, as IAM matches ARNs: * spans any characters, slashes included.
func iamMatch(pattern, s string) bool {
	var re strings.Builder
	re.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '*':
			re.WriteString(".*")
		case '?':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String()).MatchString(s)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func containsSuffix(list []string, suffix string) bool {
	for _, v := range list {
		if strings.HasSuffix(v, suffix) {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package stack_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentmem/agentmem/infra/stack"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

func TestMain(m *testing.M) {
	// The jsii kernel is a Node.js child process; keep its banners about
	// the Node version out of the test output.
	os.Setenv("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")
	os.Setenv("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "18,20")
	// No jsii.Close(): it races with the runtime's own wait on the kernel
	// process (jsii-runtime-go v1.139.0); the kernel exits when this
	// process does and its stdin closes.
	os.Exit(dynamotest.Main(m))
}

// The two stacks every test looks at, synthesized once per test binary in
// one app: the defaults, and every context flag set the other way. The
// tests of this package do not call t.Parallel: the jsii runtime talks to
// its one Node.js process through a client that is not safe for
// concurrent use (jsii-runtime-go v1.139.0 races in readResponse).
const (
	defaultStack = "default"
	customStack  = "custom"
)

// contexts are the CDK context of each stack, as `-c key=value` gives them
// (strings); assetDir is added by synth.
var contexts = map[string]map[string]any{
	defaultStack: {},
	customStack: {
		stack.CtxStage:               "test",
		stack.CtxThrowaway:           "true",
		stack.CtxTableKMSKeyARN:      "arn:aws:kms:eu-west-1:123456789012:key/0c6d8a8e-1111-2222-3333-444455556666",
		stack.CtxLogRetentionDays:    "7",
		stack.CtxThrottleRate:        "5",
		stack.CtxThrottleBurst:       "10",
		stack.CtxCORSOrigins:         "https://console.example.com",
		stack.CtxDreamSchedule:       "cron(30 2 * * ? *)",
		stack.CtxDreamTimeZone:       "Europe/Paris",
		stack.CtxDreamMaxConcurrency: "10",
		stack.CtxLLMModel:            "amazon.nova-lite-v1:0",
		stack.CtxEmbeddings:          "none",
		stack.CtxAgentTaskRoleARN:    "arn:aws:iam::123456789012:role/pipeline/agent-task",
		stack.CtxAlarmEmail:          "oncall@example.com",
		// Per-agent mode: kai and miso share a role, nori has its own.
		stack.CtxAgentRoles: `{"nori":"arn:aws:iam::123456789012:role/agents/nori-task",` +
			`"kai":"arn:aws:iam::123456789012:role/agents/kai-task","miso":"arn:aws:iam::123456789012:role/agents/kai-task"}`,
		stack.CtxExtractionConcurrency: "25",
		stack.CtxDailyRetentionDays:    "120",
		stack.CtxDreamRetentionDays:    "0",
	},
}

// synthesized is one stack's configuration, constructs, template and
// synthesis messages (cdk-nag's findings among them).
type synthesized struct {
	cfg      stack.Config
	st       *stack.Stack
	template map[string]any
	assert   assertions.Template
	messages []message
}

type message struct {
	level, path, text string
}

var (
	synthOnce   sync.Once
	synthStacks map[string]*synthesized
	synthErr    error
)

// synth returns the synthesized stacks, building them on first use. The
// function assets are placeholder bootstrap files in a temporary folder:
// the stack tests need no built binaries.
func synth(t *testing.T) map[string]*synthesized {
	t.Helper()
	synthOnce.Do(func() { synthStacks, synthErr = synthAll() })
	if synthErr != nil {
		t.Fatalf("synthesize: %v", synthErr)
	}
	return synthStacks
}

func synthAll() (map[string]*synthesized, error) {
	dir, err := os.MkdirTemp("", "agentmem-stack-test-")
	if err != nil {
		return nil, err
	}
	// The temporary folder outlives the test binary's jsii kernel only by
	// moments; removing it at exit is not worth a hook.
	assets := filepath.Join(dir, "assets")
	for _, fn := range routes.Functions {
		if err := os.MkdirAll(filepath.Join(assets, string(fn)), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(assets, string(fn), "bootstrap"), []byte("placeholder "+fn), 0o755); err != nil {
			return nil, err
		}
	}
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(filepath.Join(dir, "cdk.out"))})
	out := map[string]*synthesized{}
	for _, name := range []string{defaultStack, customStack} {
		ctx := map[string]any{stack.CtxAssetDir: assets}
		for k, v := range contexts[name] {
			ctx[k] = v
		}
		cfg, err := stack.ConfigFromContext(func(k string) any { return ctx[k] })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		st, err := stack.New(app, cfg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = &synthesized{cfg: cfg, st: st}
	}
	stack.AddNagChecks(app)
	assembly := app.Synth(nil)
	for _, s := range out {
		artifact := assembly.GetStackByName(jsii.String(s.cfg.StackName))
		raw, err := json.Marshal(artifact.Template())
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &s.template); err != nil {
			return nil, err
		}
		s.assert = assertions.Template_FromJSON(&s.template, nil)
		if s.messages, err = synthesisMessages(*assembly.Directory(), s.cfg.StackName); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// synthesisMessages returns a stack's synthesis messages (cdk-nag's
// findings among them) from the cloud assembly in dir: the error, warning
// and info entries of the stack artifact's metadata, kept in the manifest
// or in its additional metadata file.
func synthesisMessages(dir, stackName string) ([]message, error) {
	type entry struct {
		Type string `json:"type"`
		Data any    `json:"data"`
	}
	var manifest struct {
		Artifacts map[string]struct {
			Metadata               map[string][]entry `json:"metadata"`
			AdditionalMetadataFile string             `json:"additionalMetadataFile"`
		} `json:"artifacts"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	artifact, ok := manifest.Artifacts[stackName]
	if !ok {
		return nil, fmt.Errorf("manifest.json has no artifact %s", stackName)
	}
	metadata := artifact.Metadata
	if f := artifact.AdditionalMetadataFile; f != "" {
		raw, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		var more map[string][]entry
		if err := json.Unmarshal(raw, &more); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if metadata == nil {
			metadata = map[string][]entry{}
		}
		for path, entries := range more {
			metadata[path] = append(metadata[path], entries...)
		}
	}
	levels := map[string]string{"aws:cdk:error": "error", "aws:cdk:warning": "warning", "aws:cdk:info": "info"}
	var out []message
	for path, entries := range metadata {
		for _, e := range entries {
			if level, ok := levels[e.Type]; ok {
				out = append(out, message{level: level, path: path, text: fmt.Sprint(e.Data)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// check runs an assertions call, turning its failure (a panic carrying
// the JavaScript error) into a test error.
func check(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: %v", what, r)
		}
	}()
	f()
}

// resources returns the template's resources of one type, by logical id.
func (s *synthesized) resources(typ string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for id, r := range obj(s.template["Resources"]) {
		if res := obj(r); res["Type"] == typ {
			out[id] = res
		}
	}
	return out
}

// props returns a resource's Properties.
func props(res map[string]any) map[string]any { return obj(res["Properties"]) }

// logicalID is the logical id of a construct's CloudFormation resource.
func (s *synthesized) logicalID(c constructs.IConstruct) string {
	return *s.st.Stack.GetLogicalId(c.Node().DefaultChild().(awscdk.CfnElement))
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// render turns a CloudFormation value into a string: Ref and GetAtt become
// ${Id} and ${Id.Attr}, Fn::Join and Fn::Sub are expanded, so that ARNs can
// be compared and matched as text.
func render(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	case bool:
		return fmt.Sprint(x)
	case map[string]any:
		if ref, ok := x["Ref"]; ok {
			return "${" + render(ref) + "}"
		}
		if ga, ok := x["Fn::GetAtt"]; ok {
			parts := list(ga)
			strs := make([]string, len(parts))
			for i, p := range parts {
				strs[i] = render(p)
			}
			return "${" + strings.Join(strs, ".") + "}"
		}
		if join, ok := x["Fn::Join"]; ok {
			args := list(join)
			var b strings.Builder
			for i, p := range list(args[1]) {
				if i > 0 {
					b.WriteString(render(args[0]))
				}
				b.WriteString(render(p))
			}
			return b.String()
		}
		if sub, ok := x["Fn::Sub"]; ok {
			return render(sub)
		}
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// renderAll renders a value that may be one item or a list.
func renderAll(v any) []string {
	var out []string
	for _, x := range list(v) {
		out = append(out, render(x))
	}
	sort.Strings(out)
	return out
}

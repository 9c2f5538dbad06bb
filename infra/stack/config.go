package stack

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentaccess"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/bedrock"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/routes"
)

// Context keys (`cdk synth -c key=value`, or "context" in cdk.json). Every
// one is optional; docs/DEPLOY.md describes them.
const (
	CtxStage                 = "stage"                 // suffix of the stack and resource names, e.g. "dev"
	CtxAssetDir              = "assetDir"              // folder holding <function>/bootstrap (default .build)
	CtxThrowaway             = "throwaway"             // true: tables and logs are destroyed with the stack
	CtxTableKMSKeyARN        = "tableKmsKeyArn"        // customer managed KMS key for the tables
	CtxLogRetentionDays      = "logRetentionDays"      // function and access log retention (default 30)
	CtxThrottleRate          = "throttleRate"          // API steady-state requests per second (default 50)
	CtxThrottleBurst         = "throttleBurst"         // API burst (default 100)
	CtxCORSOrigins           = "corsOrigins"           // comma-separated allowed origins; CORS is off when empty
	CtxDreamSchedule         = "dreamSchedule"         // EventBridge Scheduler expression (default nightly)
	CtxDreamTimeZone         = "dreamTimeZone"         // IANA time zone of the schedule (default UTC)
	CtxDreamMaxConcurrency   = "dreamMaxConcurrency"   // concurrent dream workers (default 5, 2..1000)
	CtxLLM                   = "llm"                   // AGENTMEM_LLM of extraction and dream (default bedrock)
	CtxLLMModel              = "llmModel"              // AGENTMEM_LLM_MODEL (default DefaultLLMModel)
	CtxLLMEndpoint           = "llmEndpoint"           // AGENTMEM_LLM_ENDPOINT (anthropic, openai)
	CtxEmbeddings            = "embeddings"            // AGENTMEM_EMBEDDINGS of memories: bedrock or none (default bedrock)
	CtxEmbeddingsModel       = "embeddingsModel"       // AGENTMEM_EMBEDDINGS_MODEL (default DefaultEmbeddingsModel)
	CtxAgentTaskRoleARN      = "agentTaskRoleArn"      // the ECS task role to grant; a role is created when empty
	CtxAgentRoles            = "agentRoles"            // per-agent task roles: JSON object (or name=arn,...) agent -> role ARN
	CtxAlarmEmail            = "alarmEmail"            // subscribe this address to a new alarm topic
	CtxAlarmTopicARN         = "alarmTopicArn"         // send alarms to this existing SNS topic
	CtxExtractionConcurrency = "extractionConcurrency" // reserved concurrency of the extraction function (default 10)
	CtxDailyRetentionDays    = "dailyRetentionDays"    // AGENTMEM_DAILY_RETENTION_DAYS (default 90; 0 keeps forever)
	CtxDreamRetentionDays    = "dreamRetentionDays"    // AGENTMEM_DREAM_RETENTION_DAYS (default 365; 0 keeps forever)
)

// Defaults.
const (
	DefaultStackName        = "AgentMem"
	DefaultAssetDir         = ".build"
	DefaultLogRetentionDays = 30
	DefaultThrottleRate     = 50
	DefaultThrottleBurst    = 100
	// DefaultDreamSchedule runs the dispatcher nightly at 03:00.
	DefaultDreamSchedule       = "cron(0 3 * * ? *)"
	DefaultDreamTimeZone       = "UTC"
	DefaultDreamMaxConcurrency = 5
	// DefaultExtractionConcurrency caps the extraction function's
	// concurrent runs (reserved concurrency): each calls the model, whose
	// rate limit it must respect, and a burst of pipelines must not take
	// the account's concurrency from the API.
	DefaultExtractionConcurrency = 10
	// DefaultLLMModel is a Bedrock cross-region inference profile every
	// commercial region offers (Claude Haiku 4.5): fast and cheap enough
	// for extraction and nightly dreams.
	DefaultLLMModel = "global.anthropic.claude-haiku-4-5-20251001-v1:0"
	// DefaultEmbeddingsModel is Amazon Titan Text Embeddings V2.
	DefaultEmbeddingsModel = bedrock.DefaultModel
	// EmbeddingsBedrock and EmbeddingsNone are the embeddings settings
	// the stack accepts.
	EmbeddingsBedrock = embeddings.ProviderBedrock
	EmbeddingsNone    = embeddings.ProviderNone
)

// Config is everything the stack is built from. ConfigFromContext reads it
// from the CDK context; tests build it the same way.
type Config struct {
	StackName string
	// Stage, when set, suffixes the stack name and the table names.
	Stage string
	// AssetDir holds one folder per function with its bootstrap binary.
	AssetDir string
	// Functions are the Lambda functions to define (routes.Functions).
	Functions []routes.Function
	// Throwaway relaxes deletion protection and RETAIN (test stages).
	Throwaway        bool
	TableKMSKeyARN   string
	LogRetentionDays int
	ThrottleRate     float64
	ThrottleBurst    float64
	CORSOrigins      []string

	DreamSchedule       string
	DreamTimeZone       string
	DreamMaxConcurrency int

	LLM         string
	LLMModel    string
	LLMEndpoint string

	Embeddings      string
	EmbeddingsModel string

	AgentTaskRoleARN string
	// AgentRoles maps agents to their own task roles (per-agent mode);
	// nil when every agent shares AgentTaskRoleARN's grant.
	AgentRoles    *agentaccess.Map
	AlarmEmail    string
	AlarmTopicARN string

	ExtractionConcurrency int
	// DailyRetentionDays and DreamRetentionDays are the retention
	// settings of the functions; -1 leaves the code's default.
	DailyRetentionDays, DreamRetentionDays int
}

// retentionDays are the log retention periods CloudWatch Logs accepts.
var retentionDays = map[int]string{
	1: "ONE_DAY", 3: "THREE_DAYS", 5: "FIVE_DAYS", 7: "ONE_WEEK", 14: "TWO_WEEKS",
	30: "ONE_MONTH", 60: "TWO_MONTHS", 90: "THREE_MONTHS", 120: "FOUR_MONTHS",
	150: "FIVE_MONTHS", 180: "SIX_MONTHS", 365: "ONE_YEAR", 400: "THIRTEEN_MONTHS",
	545: "EIGHTEEN_MONTHS", 731: "TWO_YEARS", 1096: "THREE_YEARS", 1827: "FIVE_YEARS",
	2192: "SIX_YEARS", 2557: "SEVEN_YEARS", 2922: "EIGHT_YEARS", 3288: "NINE_YEARS",
	3653: "TEN_YEARS",
}

// ConfigFromContext reads the configuration through get (the CDK app's
// context lookup; nil for a missing key), applies the defaults and
// validates it.
func ConfigFromContext(get func(key string) any) (Config, error) {
	r := ctxReader{get: get}
	cfg := Config{
		StackName:           DefaultStackName,
		Stage:               r.str(CtxStage, ""),
		AssetDir:            r.str(CtxAssetDir, DefaultAssetDir),
		Functions:           append([]routes.Function(nil), routes.Functions...),
		Throwaway:           r.boolean(CtxThrowaway),
		TableKMSKeyARN:      r.str(CtxTableKMSKeyARN, ""),
		LogRetentionDays:    r.integer(CtxLogRetentionDays, DefaultLogRetentionDays),
		ThrottleRate:        r.number(CtxThrottleRate, DefaultThrottleRate),
		ThrottleBurst:       r.number(CtxThrottleBurst, DefaultThrottleBurst),
		CORSOrigins:         r.list(CtxCORSOrigins),
		DreamSchedule:       r.str(CtxDreamSchedule, DefaultDreamSchedule),
		DreamTimeZone:       r.str(CtxDreamTimeZone, DefaultDreamTimeZone),
		DreamMaxConcurrency: r.integer(CtxDreamMaxConcurrency, DefaultDreamMaxConcurrency),
		LLM:                 r.str(CtxLLM, llm.ProviderBedrock),
		LLMModel:            r.str(CtxLLMModel, ""),
		LLMEndpoint:         r.str(CtxLLMEndpoint, ""),
		Embeddings:          r.str(CtxEmbeddings, EmbeddingsBedrock),
		EmbeddingsModel:     r.str(CtxEmbeddingsModel, ""),
		AgentTaskRoleARN:    r.str(CtxAgentTaskRoleARN, ""),
		AgentRoles:          r.agentRoles(CtxAgentRoles),
		AlarmEmail:          r.str(CtxAlarmEmail, ""),
		AlarmTopicARN:       r.str(CtxAlarmTopicARN, ""),

		ExtractionConcurrency: r.integer(CtxExtractionConcurrency, DefaultExtractionConcurrency),
		DailyRetentionDays:    r.integer(CtxDailyRetentionDays, -1),
		DreamRetentionDays:    r.integer(CtxDreamRetentionDays, -1),
	}
	if cfg.Stage != "" {
		cfg.StackName += "-" + cfg.Stage
	}
	if cfg.LLMModel == "" && cfg.LLM == llm.ProviderBedrock {
		cfg.LLMModel = DefaultLLMModel
	}
	if cfg.EmbeddingsModel == "" && cfg.Embeddings == EmbeddingsBedrock {
		cfg.EmbeddingsModel = DefaultEmbeddingsModel
	}
	if len(r.errs) > 0 {
		return cfg, fmt.Errorf("CDK context: %s", strings.Join(r.errs, "; "))
	}
	return cfg, cfg.Validate()
}

// Validate reports the first setting the stack cannot be built from.
func (c Config) Validate() error {
	var errs []string
	bad := func(key, format string, args ...any) {
		errs = append(errs, key+": "+fmt.Sprintf(format, args...))
	}
	if c.Stage != "" && !validName(c.Stage, 20) {
		bad(CtxStage, "%q: want 1-20 characters of [a-z0-9-]", c.Stage)
	}
	if c.AssetDir == "" {
		bad(CtxAssetDir, "empty")
	}
	if len(c.Functions) == 0 {
		bad("functions", "none to deploy")
	}
	if c.TableKMSKeyARN != "" && !strings.HasPrefix(c.TableKMSKeyARN, "arn:") {
		bad(CtxTableKMSKeyARN, "%q is not an ARN", c.TableKMSKeyARN)
	}
	if _, ok := retentionDays[c.LogRetentionDays]; !ok {
		bad(CtxLogRetentionDays, "%d: want one of %s", c.LogRetentionDays, allowedRetention())
	}
	if c.ThrottleRate <= 0 || c.ThrottleBurst <= 0 {
		bad(CtxThrottleRate, "rate %v and burst %v must be positive", c.ThrottleRate, c.ThrottleBurst)
	}
	if c.DreamMaxConcurrency < 2 || c.DreamMaxConcurrency > 1000 {
		bad(CtxDreamMaxConcurrency, "%d: SQS event sources accept 2 to 1000", c.DreamMaxConcurrency)
	}
	if c.DreamSchedule == "" {
		bad(CtxDreamSchedule, "empty (use cron(...), rate(...) or at(...))")
	}
	switch c.LLM {
	case llm.ProviderBedrock:
	case llm.ProviderAnthropic, llm.ProviderOpenAI, llm.ProviderNone:
	case llm.ProviderClaude:
		bad(CtxLLM, "the claude CLI does not run in Lambda; use bedrock, anthropic, openai or none (agents can still extract with `agentmem extract --llm claude`)")
	default:
		bad(CtxLLM, "%q: want bedrock, anthropic, openai or none", c.LLM)
	}
	if c.LLM != llm.ProviderNone && c.LLM != llm.ProviderBedrock && c.LLMModel == "" {
		bad(CtxLLMModel, "required with llm=%s", c.LLM)
	}
	switch c.Embeddings {
	case EmbeddingsBedrock, EmbeddingsNone:
	default:
		bad(CtxEmbeddings, "%q: want bedrock or none", c.Embeddings)
	}
	if c.AgentTaskRoleARN != "" && !strings.Contains(c.AgentTaskRoleARN, ":role/") {
		bad(CtxAgentTaskRoleARN, "%q is not an IAM role ARN", c.AgentTaskRoleARN)
	}
	for agent, arn := range c.AgentRoles.Roles() {
		if c.AgentTaskRoleARN != "" && arn == c.AgentTaskRoleARN {
			bad(CtxAgentRoles, "agent %s has the shared task role %s, which may call every agent's routes; give each agent a role of its own", agent, arn)
		}
	}
	if c.ExtractionConcurrency < 1 || c.ExtractionConcurrency > 1000 {
		bad(CtxExtractionConcurrency, "%d: want 1 to 1000", c.ExtractionConcurrency)
	}
	if d := c.DailyRetentionDays; d != -1 && d != 0 && (d < 31 || d > 36500) {
		bad(CtxDailyRetentionDays, "%d: want 31 to 36500 days (a dream reads up to 30 days back), or 0 to keep forever", d)
	}
	if d := c.DreamRetentionDays; d != -1 && (d < 0 || d > 36500) {
		bad(CtxDreamRetentionDays, "%d: want 1 to 36500 days, or 0 to keep forever", d)
	}
	if c.AlarmEmail != "" && c.AlarmTopicARN != "" {
		bad(CtxAlarmEmail, "give alarmEmail or alarmTopicArn, not both")
	}
	if c.AlarmEmail != "" && !strings.Contains(c.AlarmEmail, "@") {
		bad(CtxAlarmEmail, "%q is not an email address", c.AlarmEmail)
	}
	if len(errs) > 0 {
		return fmt.Errorf("CDK context: %s", strings.Join(errs, "; "))
	}
	return nil
}

// TableName returns the physical name of a table: the default name,
// suffixed with the stage when there is one.
func (c Config) TableName(base string) string {
	if c.Stage == "" {
		return base
	}
	return base + "-" + c.Stage
}

func validName(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func allowedRetention() string {
	days := make([]int, 0, len(retentionDays))
	for d := range retentionDays {
		days = append(days, d)
	}
	sort.Ints(days)
	parts := make([]string, len(days))
	for i, d := range days {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ", ")
}

// ctxReader reads typed values from the CDK context. Values given with
// `-c key=value` arrive as strings, values from cdk.json as JSON types;
// both are accepted.
type ctxReader struct {
	get  func(string) any
	errs []string
}

func (r *ctxReader) raw(key string) (string, bool) {
	v := r.get(key)
	if v == nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), strings.TrimSpace(x) != ""
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	}
	r.errs = append(r.errs, fmt.Sprintf("%s: unsupported value %v (%T)", key, v, v))
	return "", false
}

func (r *ctxReader) str(key, def string) string {
	if s, ok := r.raw(key); ok {
		return s
	}
	return def
}

func (r *ctxReader) boolean(key string) bool {
	s, ok := r.raw(key)
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s=%q: want true or false", key, s))
	}
	return b
}

func (r *ctxReader) integer(key string, def int) int {
	s, ok := r.raw(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s=%q: want an integer", key, s))
		return def
	}
	return n
}

func (r *ctxReader) number(key string, def float64) float64 {
	s, ok := r.raw(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s=%q: want a number", key, s))
		return def
	}
	return f
}

// agentRoles reads the per-agent role mapping: a JSON object (as a string
// with -c, or an object in cdk.json), or "name=arn,name=arn".
func (r *ctxReader) agentRoles(key string) *agentaccess.Map {
	v := r.get(key)
	if v == nil {
		return nil
	}
	roles := map[string]string{}
	switch x := v.(type) {
	case map[string]any:
		for k, arn := range x {
			s, ok := arn.(string)
			if !ok {
				r.errs = append(r.errs, fmt.Sprintf("%s: the role of %s is not a string", key, k))
				return nil
			}
			roles[k] = s
		}
	case string:
		x = strings.TrimSpace(x)
		if x == "" {
			return nil
		}
		if strings.HasPrefix(x, "{") {
			m, err := agentaccess.Parse(x)
			if err != nil {
				r.errs = append(r.errs, fmt.Sprintf("%s: %v", key, err))
			}
			return m
		}
		for _, pair := range strings.Split(x, ",") {
			name, arn, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok {
				r.errs = append(r.errs, fmt.Sprintf("%s: %q: want name=arn", key, pair))
				return nil
			}
			roles[strings.TrimSpace(name)] = strings.TrimSpace(arn)
		}
	default:
		r.errs = append(r.errs, fmt.Sprintf("%s: unsupported value %v (%T)", key, v, v))
		return nil
	}
	m, err := agentaccess.New(roles)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s: %v", key, err))
	}
	return m
}

func (r *ctxReader) list(key string) []string {
	s, ok := r.raw(key)
	if !ok {
		return nil
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

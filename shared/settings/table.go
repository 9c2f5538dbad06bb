package settings

// Readers shared by several settings.
var (
	llmReaders        = []Binary{Extraction, Dream, DevServer, CLI}
	embeddingsReaders = []Binary{Memories, Extraction, Dream, DevServer}
	dreamReaders      = []Binary{Dream, DevServer}
	memoriesReaders   = []Binary{Memories, DevServer}
)

// Storage, AWS and logs.
var (
	// MemoriesTable names the memories table (dynamostore.ConfigFromEnv).
	MemoriesTable = define(Setting{Name: "MEMORIES_TABLE", Default: "agent-memories", Group: GroupStorage, Readers: everyFunction,
		Doc: "Name of the memories table; the stack sets it."})
	// PersonalitiesTable names the personalities table.
	PersonalitiesTable = define(Setting{Name: "PERSONALITIES_TABLE", Default: "agent-personalities", Group: GroupStorage, Readers: everyFunction,
		Doc: "Name of the personalities table; the stack sets it."})
	// JournalTable names the journal table.
	JournalTable = define(Setting{Name: "JOURNAL_TABLE", Default: "agent-journal", Group: GroupStorage, Readers: everyFunction,
		Doc: "Name of the journal table (daily log, dreams, session context, counters); the stack sets it."})
	// DynamoDBEndpoint overrides the DynamoDB endpoint.
	DynamoDBEndpoint = define(Setting{Name: "DYNAMODB_ENDPOINT", Group: GroupStorage, Readers: plus(everyFunction, Tests),
		Doc: "DynamoDB endpoint override, e.g. DynamoDB Local's `http://127.0.0.1:8000`; without AWS credentials configured, dummy ones are used for it. `make dev` and `make test` start DynamoDB Local when it is unset."})
	// AWSRegion is the region of the AWS clients.
	AWSRegion = define(Setting{Name: "AWS_REGION", Default: "the AWS configuration's region", Group: GroupStorage, Readers: plus(everyFunction, CLI), Reserved: true,
		Doc: "AWS region of DynamoDB, Bedrock and SQS (Lambda sets it); `us-east-1` against a `DYNAMODB_ENDPOINT`."})
	// AWSAccessKeyID is read only to tell whether credentials are configured.
	AWSAccessKeyID = define(Setting{Name: "AWS_ACCESS_KEY_ID", Group: GroupStorage, Readers: everyFunction, Reserved: true,
		Doc: "The AWS SDK's static credentials (with `AWS_SECRET_ACCESS_KEY`); agentmem only checks whether it is set, to use dummy credentials against a `DYNAMODB_ENDPOINT` when neither it nor `AWS_PROFILE` is."})
	// AWSProfile is read only to tell whether credentials are configured.
	AWSProfile = define(Setting{Name: "AWS_PROFILE", Group: GroupStorage, Readers: everyFunction,
		Doc: "The AWS SDK's shared-config profile; see `AWS_ACCESS_KEY_ID`."})
	// LogLevel is the lowest level logged.
	LogLevel = define(Setting{Name: "LOG_LEVEL", Default: "info", Group: GroupStorage, Readers: everyFunction,
		Doc: "Lowest level logged: `debug`, `info`, `warn` or `error`."})
	// LogFormat chooses JSON or text logs.
	LogFormat = define(Setting{Name: "LOG_FORMAT", Default: "json in Lambda, text elsewhere", Group: GroupStorage, Readers: everyFunction,
		Doc: "`json` (one object a line) or `text`."})
	// LambdaFunctionName is set by Lambda.
	LambdaFunctionName = define(Setting{Name: "AWS_LAMBDA_FUNCTION_NAME", Group: GroupStorage, Readers: everyFunction, Reserved: true,
		Doc: "Set by Lambda; where it is set, logs are JSON unless `LOG_FORMAT` says otherwise."})
)

// Security.
var (
	// AgentRoles maps agents to their task roles (package agentaccess).
	AgentRoles = define(Setting{Name: "AGENTMEM_AGENT_ROLES", Group: GroupSecurity, Readers: everyFunction,
		Doc: "JSON object mapping agent names to the IAM role ARN of each agent's task, e.g. `{\"nori\":\"arn:aws:iam::123456789012:role/nori-task\"}`; a caller with a mapped role may only use the agent routes of its own agents (`/api/agents/<name>/...`) and the project session routes, as its IAM grant (403 otherwise). The stack sets it from `-c agentRoles`; unset, IAM alone decides."})
	// CursorKey signs page cursors.
	CursorKey = define(Setting{Name: "AGENTMEM_CURSOR_KEY", Default: "a random key kept in the journal table", Group: GroupSecurity, Readers: everyFunction, Secret: true,
		Doc: "Key (any string of 16 bytes or more) that page cursors are signed with, so that a cursor from another listing or an altered one is refused (400); unset, the functions share a random key they create in the journal table on first use."})
)

// Memories and search.
var (
	// MemoryLimit is how many memories a scope keeps.
	MemoryLimit = define(Setting{Name: "AGENTMEM_MEMORY_LIMIT", Default: "1000", Group: GroupMemories, Readers: everyFunction,
		Doc: "Memories one agent keeps in one project; a write over it evicts the least recently used, never pinned ones or patterns of confidence ≥ 0.9."})
	// PatternMinConfidence is the default threshold of pattern suggestions.
	PatternMinConfidence = define(Setting{Name: "AGENTMEM_PATTERN_MIN_CONFIDENCE", Default: "0.7", Group: GroupMemories, Readers: memoriesReaders,
		Doc: "Confidence (0 to 1) a pattern must exceed to be suggested, unless the request says `minConfidence`."})
	// SearchCache bounds the in-process search cache.
	SearchCache = define(Setting{Name: "AGENTMEM_SEARCH_CACHE", Default: "10000", Group: GroupMemories, Readers: memoriesReaders,
		Doc: "Memories the search cache of a warm function holds over all scopes; `0` turns it off."})
	// DailyRetentionDays is how long daily records are kept.
	DailyRetentionDays = define(Setting{Name: "AGENTMEM_DAILY_RETENTION_DAYS", Default: "90", Group: GroupMemories, Readers: everyFunction,
		Doc: "Days a daily log record is kept after it is written (DynamoDB TTL); at least 31 (a dream reads up to 30 days back), `0` keeps them forever."})
	// JobsQueueURL is where unfinished bulk deletes continue.
	JobsQueueURL = define(Setting{Name: "AGENTMEM_JOBS_QUEUE_URL", Group: GroupMemories, Readers: []Binary{Memories},
		Doc: "SQS queue the memories function hands the rest of a bulk delete to when it cannot finish before its deadline (the dream queue, whose worker runs it on; the stack sets it). Unset, the rest runs on in the process (`make dev`)."})
)

// LLM.
var (
	// LLM selects the model provider.
	LLM = define(Setting{Name: "AGENTMEM_LLM", Default: "none", Group: GroupLLM, Readers: llmReaders,
		Doc: "Model provider of extraction and Deep Dream: `bedrock`, `anthropic`, `openai` (any OpenAI-compatible endpoint), `claude` (the CLI) or `none`."})
	// LLMModel is the model id.
	LLMModel = define(Setting{Name: "AGENTMEM_LLM_MODEL", Group: GroupLLM, Readers: llmReaders,
		Doc: "Model id: a Bedrock model or inference profile id, an Anthropic model, an OpenAI-compatible model name; required except for `claude`."})
	// LLMEndpoint overrides the provider's base URL.
	LLMEndpoint = define(Setting{Name: "AGENTMEM_LLM_ENDPOINT", Group: GroupLLM, Readers: llmReaders,
		Doc: "Base URL override: an OpenAI-compatible API (`http://localhost:11434/v1` for Ollama), the Anthropic API, or a Bedrock runtime endpoint."})
	// LLMAPIKey authenticates to OpenAI-compatible and Anthropic endpoints.
	LLMAPIKey = define(Setting{Name: "AGENTMEM_LLM_API_KEY", Default: "`OPENAI_API_KEY` or `ANTHROPIC_API_KEY`", Group: GroupLLM, Readers: llmReaders, Secret: true,
		Doc: "API key of the OpenAI-compatible or Anthropic endpoint."})
	// OpenAIAPIKey is the fallback key of the openai providers.
	OpenAIAPIKey = define(Setting{Name: "OPENAI_API_KEY", Group: GroupLLM, Readers: []Binary{Memories, Extraction, Dream, DevServer, CLI}, Secret: true,
		Doc: "API key of `AGENTMEM_LLM=openai` and `AGENTMEM_EMBEDDINGS=openai` when their own is unset."})
	// AnthropicAPIKey is the fallback key of the anthropic provider.
	AnthropicAPIKey = define(Setting{Name: "ANTHROPIC_API_KEY", Group: GroupLLM, Readers: llmReaders, Secret: true,
		Doc: "API key of `AGENTMEM_LLM=anthropic` when `AGENTMEM_LLM_API_KEY` is unset."})
	// LLMRegion is the region of Bedrock model calls.
	LLMRegion = define(Setting{Name: "AGENTMEM_LLM_REGION", Default: "`AWS_REGION`", Group: GroupLLM, Readers: llmReaders,
		Doc: "AWS region of the Bedrock model calls, when it is not the function's."})
	// LLMTimeout bounds one completion.
	LLMTimeout = define(Setting{Name: "AGENTMEM_LLM_TIMEOUT", Default: "60s", Group: GroupLLM, Readers: llmReaders,
		Doc: "Go duration bounding one model call; throttled and 5xx answers are retried twice within it."})
	// LLMMaxTokens caps an answer.
	LLMMaxTokens = define(Setting{Name: "AGENTMEM_LLM_MAX_TOKENS", Default: "1024", Group: GroupLLM, Readers: llmReaders,
		Doc: "Answer cap, in tokens, of a call that sets none."})
	// ClaudeCommand is the claude CLI.
	ClaudeCommand = define(Setting{Name: "AGENTMEM_CLAUDE_COMMAND", Default: "claude", Group: GroupLLM, Readers: llmReaders,
		Doc: "The `claude` CLI of `AGENTMEM_LLM=claude` and `agentmem extract --llm claude`."})
)

// Embeddings.
var (
	// Embeddings selects the embeddings provider.
	Embeddings = define(Setting{Name: "AGENTMEM_EMBEDDINGS", Default: "none", Group: GroupEmbeddings, Readers: embeddingsReaders,
		Doc: "Embeddings provider of semantic search: `bedrock` (Titan Text Embeddings V2), `openai` (any `/v1/embeddings`), `hashing` (deterministic, no model: for tests, it ranks worse than `none`) or `none` (lexical search, widened with related terms)."})
	// EmbeddingsModel is the embeddings model id.
	EmbeddingsModel = define(Setting{Name: "AGENTMEM_EMBEDDINGS_MODEL", Default: "`amazon.titan-embed-text-v2:0` with bedrock", Group: GroupEmbeddings, Readers: embeddingsReaders,
		Doc: "Model id; required with `openai` (e.g. `nomic-embed-text` for Ollama)."})
	// EmbeddingsEndpoint overrides the provider's URL.
	EmbeddingsEndpoint = define(Setting{Name: "AGENTMEM_EMBEDDINGS_ENDPOINT", Group: GroupEmbeddings, Readers: embeddingsReaders,
		Doc: "Base URL override: an OpenAI-compatible API or a Bedrock runtime endpoint."})
	// EmbeddingsDimensions is the vector length asked for.
	EmbeddingsDimensions = define(Setting{Name: "AGENTMEM_EMBEDDINGS_DIMENSIONS", Default: "1024 for bedrock and hashing", Group: GroupEmbeddings, Readers: embeddingsReaders,
		Doc: "Vector length: 256, 512 or 1024 for Titan V2; sent to OpenAI-compatible models only when set."})
	// EmbeddingsAPIKey authenticates to OpenAI-compatible endpoints.
	EmbeddingsAPIKey = define(Setting{Name: "AGENTMEM_EMBEDDINGS_API_KEY", Default: "`OPENAI_API_KEY` with openai", Group: GroupEmbeddings, Readers: embeddingsReaders, Secret: true,
		Doc: "API key of the OpenAI-compatible embeddings endpoint."})
	// EmbeddingsTimeout bounds one Embed call.
	EmbeddingsTimeout = define(Setting{Name: "AGENTMEM_EMBEDDINGS_TIMEOUT", Default: "3s", Group: GroupEmbeddings, Readers: embeddingsReaders,
		Doc: "Go duration bounding one embeddings call, retries included; a slower provider leaves the memory searchable lexically."})
)

// Deep Dream.
var (
	// DreamLookbackDays is the window of daily records.
	DreamLookbackDays = define(Setting{Name: "AGENTMEM_DREAM_LOOKBACK_DAYS", Default: "3", Group: GroupDream, Readers: dreamReaders,
		Doc: "Days of daily records a dream reads (1 to 30)."})
	// DreamCompressAfterDays is the age of the memories a dream compresses.
	DreamCompressAfterDays = define(Setting{Name: "AGENTMEM_DREAM_COMPRESS_AFTER_DAYS", Default: "7", Group: GroupDream, Readers: dreamReaders,
		Doc: "Memories older than this many days are compressed; `0` never compresses."})
	// DreamMinSupport is the support a dreamed bullet needs.
	DreamMinSupport = define(Setting{Name: "AGENTMEM_DREAM_MIN_SUPPORT", Default: "0.5", Group: GroupDream, Readers: dreamReaders,
		Doc: "Share of a dreamed bullet's words its sources must contain, in (0, 1]."})
	// DreamLease bounds how long a dream holds its scope.
	DreamLease = define(Setting{Name: "AGENTMEM_DREAM_LEASE", Default: "5m", Group: GroupDream, Readers: dreamReaders,
		Doc: "Go duration of a dream's hold on its scope (at least 10s). A running dream renews it every third of it, so a dream may run longer; one that dies holds the scope until it expires. A dream that finds it taken by another stops before committing, changing nothing."})
	// DreamMaxTokens caps the dream prompt's answer.
	DreamMaxTokens = define(Setting{Name: "AGENTMEM_DREAM_MAX_TOKENS", Default: "4096", Group: GroupDream, Readers: dreamReaders,
		Doc: "Output cap, in tokens, of every model call of a dream (at least 1024): the work is split into as many calls as the scope needs, and an answer cut off at the cap is asked again over a smaller part, never used."})
	// DreamConcurrency bounds the model calls one dream has in flight.
	DreamConcurrency = define(Setting{Name: "AGENTMEM_DREAM_CONCURRENCY", Default: "4", Group: GroupDream, Readers: dreamReaders,
		Doc: "Model calls one dream has in flight at once (1 to 32): its review parts, the halves of an answer asked again smaller and the verifier's batches; the result is the same whatever order the answers come in. The SQS worker runs `DREAM_WORKER_CONCURRENCY` dreams at once, each with up to this many calls."})
	// DreamVerify turns the dream's verifier on or off.
	DreamVerify = define(Setting{Name: "AGENTMEM_DREAM_VERIFY", Default: "true", Group: GroupDream, Readers: dreamReaders,
		Doc: "true or false: a second opinion from the model on each change a dream makes (do the cited sources support it?); changes it refuses are listed in the diary. The support test decides alone when it is off or fails."})
	// DreamRestate turns the dream's restate pass on or off.
	DreamRestate = define(Setting{Name: "AGENTMEM_DREAM_RESTATE", Default: "true", Group: GroupDream, Readers: dreamReaders,
		Doc: "true or false: a second chance for additions and updates the support test refused for what they say: the model restates each in its cited sources' own words (or drops it), and a restatement that passes the support test is kept (the diary shows the original). A failed call leaves them refused."})
	// DreamAPIModelBudget bounds the model calls of a dream run through the API.
	DreamAPIModelBudget = define(Setting{Name: "AGENTMEM_DREAM_API_MODEL_BUDGET", Default: "22s", Group: GroupDream, Readers: dreamReaders,
		Doc: "Go duration bounding the model calls of a dream asked for through the API, so that it answers inside API Gateway's 30 s."})
	// DreamQueueURL is the queue the dispatcher sends to.
	DreamQueueURL = define(Setting{Name: "DREAM_QUEUE_URL", Group: GroupDream, Readers: []Binary{Dream},
		Doc: "SQS queue the nightly dispatcher sends one message per pending scope to; the stack sets it."})
	// DreamWorkerConcurrency is how many dreams one worker invocation runs.
	DreamWorkerConcurrency = define(Setting{Name: "DREAM_WORKER_CONCURRENCY", Default: "4", Group: GroupDream, Readers: []Binary{Dream},
		Doc: "Dreams one SQS worker invocation runs at once (1 to 100)."})
	// DreamRetentionDays is how long dream diaries and plans are kept.
	DreamRetentionDays = define(Setting{Name: "AGENTMEM_DREAM_RETENTION_DAYS", Default: "365", Group: GroupDream, Readers: everyFunction,
		Doc: "Days a dream diary entry and its plan (what a revert restores) are kept (DynamoDB TTL); `0` keeps them forever."})
	// SQSEndpoint overrides the SQS endpoint.
	SQSEndpoint = define(Setting{Name: "AGENTMEM_SQS_ENDPOINT", Group: GroupDream, Readers: []Binary{Memories, Dream},
		Doc: "SQS endpoint override (a VPC endpoint or a local stand-in)."})
)

// The agentmem CLI.
var (
	// APIURL is the API's base URL.
	APIURL = define(Setting{Name: "AGENTMEM_API_URL", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "The API's base URL (`--api-url`): the stack's `ApiUrl`, or `http://127.0.0.1:3000` for `make dev`; required."})
	// Auth is the CLI's authentication mode.
	Auth = define(Setting{Name: "AGENTMEM_AUTH", Default: "sigv4", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "`sigv4` (IAM, the default AWS credential chain: the task role in ECS) or `none` (`make dev`) (`--auth`)."})
	// Region is the SigV4 signing region.
	Region = define(Setting{Name: "AGENTMEM_REGION", Default: "from an execute-api host name, else `AWS_REGION`", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "SigV4 signing region of the API."})
	// Timeout bounds one CLI command.
	Timeout = define(Setting{Name: "AGENTMEM_TIMEOUT", Default: "3s for inject, extract and context flush (60s for extract --llm claude), 30s otherwise", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "Duration of a whole command, or of each MCP tool call (`--timeout`; `500ms`, `2.5` work too)."})
	// Agent is the default agent name.
	Agent = define(Setting{Name: "AGENTMEM_AGENT", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "Default of `--agent`."})
	// Project is the default project id.
	Project = define(Setting{Name: "AGENTMEM_PROJECT", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "Default of `--project`."})
	// RunID is the pipeline run's id.
	RunID = define(Setting{Name: "AGENTMEM_RUN_ID", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "The pipeline run: default of `--run-id`, and of the session id when `AGENTMEM_SESSION_ID` is unset."})
	// SessionID is the default session id.
	SessionID = define(Setting{Name: "AGENTMEM_SESSION_ID", Default: "`AGENTMEM_RUN_ID`", Group: GroupCLI, Readers: []Binary{CLI},
		Doc: "Default of `--session` (session-context, mcp)."})
)

// Local development and tests.
var (
	// Port is the dev server's port.
	Port = define(Setting{Name: "PORT", Default: "3000", Group: GroupLocal, Readers: []Binary{DevServer},
		Doc: "Port of `make dev`'s API (`-port`)."})
	// DynamoDBLocalJar points at DynamoDBLocal.jar.
	DynamoDBLocalJar = define(Setting{Name: "DYNAMODB_LOCAL_JAR", Default: "the one `make tools` installs", Group: GroupLocal, Readers: []Binary{DevServer, Tests},
		Doc: "Path of the `DynamoDBLocal.jar` that `make dev` and `make test` start."})
)

// plus returns a new reader list: bs and more.
func plus(bs []Binary, more ...Binary) []Binary {
	return append(append([]Binary(nil), bs...), more...)
}

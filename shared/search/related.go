package search

import (
	"slices"
	"strings"
	"sync"
)

// Related terms: a query is widened with the words engineering notes use
// for the same thing, so that "how many times do we resend a failed
// notification" finds the memory about webhook retries, and "the job ran
// out of memory" the one about an OOM kill. A person searching their
// agents' memories rarely remembers the exact wording; without an
// embedding model ([Rank] with no vectors, the default) BM25 alone only
// finds shared words.
//
// The groups below are written for how coding agents and engineers write
// notes, across kinds of projects, not for any test set. Each line is a
// group of words and phrases, separated by "|", that stand for one thing.
// A query word or phrase of a group adds the group's other members to the
// query at [RelatedWeight] of their usual BM25 weight (a phrase's words
// share it), so a memory with the query's own words still ranks first. A
// member written "~phrase" is a description, not a name: it widens a
// query that says it, and is never added to one.
//
// Related terms widen queries only. Documents are indexed as written, and
// nothing else in the package (duplicates, patterns) reads these groups:
// two memories with related words are not the same memory.
const relatedGroups = `
retry|retries|resend|redeliver|redelivery|reattempt|~try again|~send again|backoff
timeout|timed out|deadline|~takes too long|~took too long|~never returns|~hangs|hang|stuck
slow|slowness|latency|sluggish|~takes long|~too long|performance|p99|p95|lag|laggy
fast|faster|speed|speedup|quick|quicker
deadlock|~waiting on each other|~wait for each other|~lock each other|lock contention
race|race condition|~at the same time|concurrent|concurrently|simultaneous
parallel|parallelism|concurrency|~in parallel|~at once|workers
flaky|flake|intermittent|intermittently|nondeterministic|~sometimes fails|~fails randomly|~randomly fails|unstable
crash|crashes|panic|segfault|abort|~falls over|~goes down|~dies
oom|outofmemory|~out of memory|~runs out of memory|~ran out of memory|memory limit|oomkilled|heap
leak|leaks|leaking|~keeps growing|~grows without bound
cpu|processor|~burns cpu|throttled|throttling
disk|storage|volume|~disk full|~no space|~runs out of space
credential|credentials|secret|secrets|password|passwords|api key|apikey|access key|private key
token|tokens|jwt|bearer|~access token
login|log in|sign in|signin|authenticate|authentication|auth|~logs in
logout|log out|sign out|signout|~signed out|~logged out|~kicked out|session revocation|revoke
session|sessions|cookie|cookies
permission|permissions|access|authorization|authorize|role|roles|rbac|policy|policies|~not allowed|forbidden|403
unauthorized|401|unauthenticated|~not logged in
encrypt|encryption|encrypted|tls|ssl|https|certificate|cert|certs|mtls
expire|expiry|expiration|expired|ttl|lifetime|~valid for|~good for
clock|clock skew|time drift|~wrong time|~clock is off|ntp|timestamp
cache|caching|cached|memoize|redis|memcached|cdn|~stale data|stale
invalidate|invalidation|purge|evict|eviction|bust
config|configuration|settings|setting|env var|environment variable|environment variables|env|options|flag|flags
feature flag|feature flags|toggle|rollout|~turn on for some|canary
deploy|deployment|deploys|release|rollout|ship|shipping|~push to production|~go live
rollback|roll back|revert|~undo the release|downgrade
build|builds|compile|compilation|bundle|bundler|webpack|vite|esbuild
bundle size|bundle|javascript|js|~ship less|~amount of code|~page weight|tree shaking|code splitting|lazy load|lazy loading
test|tests|testing|spec|specs|suite
e2e|end to end|end-to-end|integration test|integration tests|playwright|cypress|selenium
unit test|unit tests|mock|mocks|stub|stubs|fake
ci|pipeline|pipelines|github actions|workflow|workflows|jenkins|buildkite|gitlab ci
lint|linter|linting|eslint|golangci|static analysis|vet|format|formatter|prettier|gofmt
database|db|postgres|postgresql|mysql|sql|rds|aurora|sqlite
migration|migrations|schema change|alter table|~change the schema|migrate
index|indexes|indices|~full table scan|~table scan|query plan|explain
transaction|transactions|commit|rollback|isolation|atomic
connection|connections|connection pool|pool|pooling|pgbouncer|~too many connections
queue|queues|sqs|kafka|rabbitmq|topic|topics|broker|message|messages|event|events
consumer|consumers|subscriber|listener|worker|workers
producer|producers|publisher|publish|emit
dead letter|dlq|dead-letter|poison message|~failed messages|parking
duplicate|duplicates|dedup|deduplicate|deduplication|idempotent|idempotency|~twice|~double|~more than once
order|ordering|sequence|~out of order|reorder
webhook|webhooks|callback|callbacks|notification|notifications|~provider calls us
email|emails|mail|smtp|ses|sendgrid
payment|payments|charge|charges|billing|invoice|invoices|stripe|checkout|refund|refunds
money|currency|amount|cents|price|prices|pricing|cost
cost|costs|spend|bill|billing|~how much we pay|expensive|cheaper|savings
log|logs|logging|logger|~log line|~log lines
trace|traces|tracing|span|spans|opentelemetry|otel|jaeger|~which part was slow|~where the time goes|profiling|profile|flamegraph
metric|metrics|prometheus|grafana|dashboard|dashboards|datadog|cloudwatch
alert|alerts|alerting|page|paging|pagerduty|oncall|on-call|~wake up|~get notified
monitor|monitoring|observability|healthcheck|health check|probe|probes|liveness|readiness
error|errors|exception|exceptions|failure|failures|~goes wrong|bug|bugs
fix|fixed|workaround|patch|hotfix|~got around|resolve|resolved|solution
root cause|cause|~why it happened|~reason|because|postmortem
rate limit|rate limits|rate limiting|ratelimit|throttle|throttling|429|quota|quotas|~too many requests|~limits how many requests|~how many requests|~requests per second|rps
limit|limits|cap|caps|maximum|max|ceiling|~at most|~no more than
scale|scaling|autoscaling|autoscale|hpa|replicas|~more instances|~add capacity|capacity|horizontal
load|traffic|~peak hours|spike|spikes|burst|load test|load testing|k6|locust
container|containers|docker|image|images|dockerfile|oci
kubernetes|k8s|pod|pods|cluster|helm|kubectl|eks|gke|aks|namespace
serverless|lambda|lambdas|function|functions|cold start|~first request slow
infrastructure|infra|terraform|cdk|cloudformation|pulumi|iac|~infrastructure as code
network|networking|vpc|subnet|subnets|firewall|security group|dns|ingress|egress|proxy|load balancer|alb|nginx|envoy
dns|domain|domains|hostname|resolve|resolution|~name lookup
certificate|certificates|cert|certs|tls|ssl|letsencrypt|acm|~expired cert
api|apis|endpoint|endpoints|route|routes|rest|grpc|graphql
request|requests|call|calls|invocation|invoke
response|responses|reply|payload|body
status code|500|502|503|504|5xx|~server error|~internal error|~bad gateway
version|versions|upgrade|upgraded|bump|bumped|pin|pinned|~newer release|~older release|dependency|dependencies|package|packages
breaking change|incompatible|incompatibility|deprecated|deprecation|removed|~no longer works|~stopped working|regression
backup|backups|snapshot|snapshots|restore|restores|~get the data back|recovery|disaster recovery
delete|deleted|deletion|remove|removed|drop|dropped|purge|~wipe|~lost data|data loss
data|dataset|datasets|table|tables|records|rows
search|searching|query|queries|lookup|find|elasticsearch|opensearch|~look up
sort|sorting|sorted|order by|ranking|rank
pagination|paginate|page|pages|cursor|cursors|offset|~next page|~load more
upload|uploads|file upload|s3|bucket|buckets|blob|object storage|~store files
download|downloads|fetch|fetching
image|images|photo|photos|picture|pictures|thumbnail|thumbnails|resize|resizing
video|videos|transcode|transcoding|ffmpeg|stream|streaming|hls
mobile|ios|android|phone|phones|device|devices|~on the phone|app store|play store|react native|flutter|swift|kotlin
browser|browsers|chrome|safari|firefox|frontend|front end|client side|ui|~in the page
page load|~page is slow|lcp|cls|web vitals|lighthouse|render|rendering|hydration|ssr
accessibility|a11y|screen reader|aria|wcag|contrast
translation|translations|i18n|locale|locales|localization|language|languages
time zone|timezone|timezones|utc|dst|daylight saving
date|dates|datetime|calendar
schedule|scheduled|cron|nightly|~every night|~every day|daily|periodic|timer
batch|batches|bulk|~all at once|chunk|chunks
memory|ram|heap|gc|garbage collection|allocation|allocations
thread|threads|goroutine|goroutines|async|await|promise|promises|coroutine|coroutines
lock|locks|locking|mutex|semaphore|~locked|advisory lock
git|branch|branches|merge|rebase|commit|commits|pull request|pr|prs|~code review|review
signed commits|sign|signing|signature|signatures|gpg|sigstore|cosign
secret scanning|~leaked secret|~committed a secret|gitleaks|trufflehog
vulnerability|vulnerabilities|cve|cves|security|exploit|injection|xss|csrf|ssrf|~attack
user|users|customer|customers|account|accounts|tenant|tenants|~people
admin|admins|administrator|operator|operators|superuser|root
onboarding|signup|sign up|register|registration|~new users
password reset|~forgot password|reset link|magic link
mfa|2fa|two factor|totp|otp|~second factor
sso|saml|oidc|oauth|oauth2|identity provider|idp|okta|auth0|cognito|keycloak
cli|command line|terminal|shell|~command line tool|flag|flags|subcommand
docs|documentation|readme|~write down|runbook|runbooks|wiki
agent|agents|llm|model|models|prompt|prompts|claude|gpt|openai|anthropic|bedrock
embedding|embeddings|vector|vectors|semantic|similarity
context window|tokens|~too long for the model|truncate|truncated|truncation
hallucinate|hallucination|~makes things up|~invented|fabricate|fabricated
startup|boot|~starts up|cold start|init|initialization|warmup|warm up
shutdown|graceful shutdown|sigterm|drain|draining|~stops cleanly
restart|restarts|reboot|~keeps restarting|crashloop|crashloopbackoff
health|healthy|unhealthy|degraded|outage|incident|downtime|~site is down|~is down
availability|uptime|sla|slo|redundancy|failover|~high availability|replica|replication
consistency|consistent|eventual consistency|stale read|~read after write
encoding|utf8|utf-8|unicode|charset|~weird characters|~garbled|mojibake|emoji
json|yaml|xml|csv|serialization|serialize|deserialize|parse|parsing|parser|marshal|unmarshal
validation|validate|validator|~invalid input|~bad input|sanitize|sanitization|schema
null|nil|none|undefined|~empty value|~missing value|npe|nullpointerexception
size|bytes|kb|mb|gb|~too big|~too large|large|huge|payload size
compress|compression|gzip|brotli|zstd|~smaller
cost|price|~cheaper|spot|reserved|savings plan|rightsizing
gpu|gpus|cuda|nvidia|accelerator
training|train|fine tune|fine-tune|finetune|epoch|epochs|checkpoint|checkpoints
inference|serving|predict|prediction|predictions|model server
experiment|experiments|ab test|a/b test|split test|variant|variants
analytics|tracking|telemetry|events|funnel|segment|amplitude|mixpanel
report|reports|reporting|export|exports|csv export
import|imports|ingest|ingestion|etl|elt|load|loader|pipeline
warehouse|data warehouse|snowflake|bigquery|redshift|dbt|olap|clickhouse
spreadsheet|excel|sheets|google sheets
game|games|player|players|match|matchmaking|lobby|tick|tickrate|server tick
audio|sound|music|latency|buffer|buffers|underrun|glitch|crackle
firmware|embedded|microcontroller|mcu|flash|bootloader|ota|~over the air|ota update
sensor|sensors|reading|readings|telemetry|iot|device|devices
printer|receipt|receipts|pos|point of sale|barcode|scanner
map|maps|location|gps|geolocation|coordinates|geocoding
notification|notifications|push|push notification|apns|fcm|~alert the user
chat|message|messages|messaging|websocket|websockets|realtime|real-time|socket|sockets|~live updates
pdf|pdfs|document|documents|render|rendering|~generate a pdf
font|fonts|css|style|styles|styling|tailwind|layout|responsive|~looks wrong|~broken layout
form|forms|input|inputs|field|fields|~text box|checkbox|dropdown|select
button|buttons|click|clicks|tap|taps|~press
modal|dialog|popup|popover|toast|tooltip
table|grid|list|~long list|virtualization|virtualized|infinite scroll
state|state management|redux|pinia|zustand|store|context|~global state
router|routing|route|routes|navigation|navigate|~deep link|deep linking|redirect|redirects
seo|meta tags|sitemap|robots|canonical|hreflang|~search engines
cors|~blocked by the browser|preflight|origin|same-origin
csp|content security policy|~which scripts|script-src|~load scripts|third-party scripts|subresource integrity|sri
compliance|pci|gdpr|hipaa|soc2|audit|audits|auditor|~regulation
privacy|pii|~personal data|anonymize|anonymise|redact|redaction|masking
retention|~how long we keep|~keep for|archive|archival|lifecycle|expire
owner|ownership|~who owns|team|teams|codeowners|maintainer
battery|power|power consumption|~drains the battery|~battery life|current draw|sleep mode|low power|deep sleep
bluetooth|ble|gatt|advertising|pairing|bonding|~connect to the phone
memory allocator|allocator|jemalloc|mimalloc|tcmalloc|malloc|fragmentation
n+1|n+1 queries|~one query per row|~too many queries|eager loading|preload|select_related|prefetch_related
lock table|~without locking|~locks the table|online migration|zero downtime|~no downtime|downtime
background job|background jobs|job queue|sidekiq|celery|resque|worker|workers|~in the background|async job
email delivery|bounce|bounces|~goes to spam|spam|deliverability|dkim|spf|dmarc
upload size|~file too big|max upload|body size|client_max_body_size|413
frame|frames|fps|frame rate|stutter|jank|hitch|~choppy|~janky|~drops frames
shader|shaders|gpu|rendering|draw call|draw calls|material|materials
asset|assets|asset bundle|addressables|texture|textures|sprite|sprites
player|players|netcode|tick|tickrate|snapshot|interpolation|prediction|rollback netcode|desync|~rubber banding|lag compensation
build time|~slow build|~build takes|incremental build|build cache|remote cache|ccache|sccache|~compile time
dependency injection|di|hilt|dagger|koin|~inject
obfuscation|obfuscate|proguard|r8|minify|minification|shrink|shrinking|~release build crashes|keep rules
app size|apk size|~download size|binary size|~app is too big
background work|workmanager|jobscheduler|~runs in the background|doze|foreground service
notification channel|notification|notifications|push|fcm|apns|~doesn't show up|~does not show up
training run|training|train|epoch|epochs|~loss|loss|convergence|diverge|diverges|nan|~loss goes nan|exploding gradients|gradient clipping
distributed training|ddp|fsdp|deepspeed|nccl|allreduce|multi-gpu|~several gpus|~multiple gpus
mixed precision|fp16|bf16|amp|half precision|~lower precision
learning rate|lr|warmup|scheduler|cosine schedule|~step size
dataset|data loader|dataloader|~loading data|shuffling|shard|shards|~input pipeline|num_workers
relevance|ranking|~search results are bad|~wrong results|boost|boosting|scoring|bm25|synonym|synonyms|analyzer|analyzers|tokenizer
typo|typos|fuzzy|fuzziness|misspelled|misspelling|~spelling mistakes|did you mean|autocomplete|suggest|suggestions
shard|shards|sharding|partition|partitions|partitioning|~split the data
replica|replicas|replication|follower|followers|read replica|standby|~copy of the data
cluster health|yellow|red|unassigned shards|~cluster is red|~cluster is yellow
reindex|reindexing|alias|aliases|~rebuild the index|mapping|mappings
video|transcode|transcoding|encode|encoding|codec|codecs|h264|h265|hevc|av1|vp9|ffmpeg|bitrate
thumbnail|thumbnails|poster|preview|previews|sprite sheet
subtitles|captions|vtt|srt|~closed captions
gitops|argo cd|argocd|flux|sync|~out of sync|drift|~config drift|self-heal
helm|chart|charts|values.yaml|~helm upgrade
secret rotation|rotate|rotation|~rotate keys|~key rotation|sealed secrets|external secrets|vault
presence|online status|~who is online|typing indicator|~typing indicators
genserver|supervisor|supervision|beam|mailbox|~process crashes
pubsub|pub/sub|broadcast|broadcasts|channel|channels|~fan out|fan-out|fanout
orm|active record|activerecord|django orm|ecto|~schema
slow query|slow queries|~query is slow|~takes seconds|query plan|explain analyze|missing index|sequential scan|seq scan
inventory|stock|~out of stock|oversell|overselling|~sold more than we had|reservation|reservations
cart|basket|checkout|order|orders|~buy
coupon|coupons|discount|discounts|promo|promo code|voucher|vouchers
tax|taxes|vat|sales tax|~tax calculation
shipping|delivery|shipment|shipments|carrier|carriers|tracking number|fulfilment|fulfillment
course|courses|lesson|lessons|enrollment|enrolment|student|students|learner|learners|quiz|quizzes|grade|grades|gradebook
sensor|sensors|accelerometer|temperature|humidity|sample|sampling|sample rate|adc
watchdog|~hard reset|brownout|hard fault|hardfault|~reboots itself
flash|flashing|firmware update|dfu|ota|bootloader|mcuboot|~update the firmware
dbt|incremental model|snapshot|snapshots|~full refresh|full refresh
late data|late arriving|~arrives late|watermark|backfill|backfills|~reprocess old data|reprocess
data quality|dbt test|dbt tests|~bad data|~wrong numbers|freshness|~stale numbers|anomaly
credits|warehouse size|~warehouse costs|auto suspend|auto-suspend|~query cost
`

// RelatedWeight is the share of its usual BM25 weight a related term adds
// to a query: enough to bring a memory that says the same thing in other
// words into the results, not enough to outrank one with the query's own
// words.
const RelatedWeight = 0.4

// maxRelated bounds the terms related groups may add to one query, and
// maxRelatedGroups the groups, so a long query stays about as cheap to rank
// as a short one.
const (
	maxRelated       = 48
	maxRelatedGroups = 8
)

// queryTerm is a distinct term of a query: one of the query's own terms
// (group -1, weight 1) or a term of the group-th related group the query
// names, with weight [RelatedWeight] (shared by the words of a phrase) and
// the query's own terms that named the group (trigger).
type queryTerm struct {
	text    string
	weight  float64
	group   int
	trigger []int
}

// relatedMember is one member of a group: the words it is recognised by
// (every word, stemmed, stopwords kept: "log in" is not "log") and the
// terms it adds to a query, none for a description or a member whose
// stopwords are part of its meaning.
type relatedMember struct {
	words []string
	adds  []string
}

// relatedIndex is the groups read once: their members, and for each first
// word the members that start with it.
type relatedIndex struct {
	groups  [][]relatedMember
	byFirst map[string][]relatedRef
}

// relatedRef is one member of one group.
type relatedRef struct{ group, member int }

// related reads relatedGroups once.
var related = sync.OnceValue(func() *relatedIndex {
	ix := &relatedIndex{byFirst: map[string][]relatedRef{}}
	for _, line := range strings.Split(relatedGroups, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var group []relatedMember
		for _, m := range strings.Split(line, "|") {
			m = strings.TrimSpace(m)
			description := strings.HasPrefix(m, "~")
			m = strings.TrimPrefix(m, "~")
			ws := phraseWords(m)
			if len(ws) == 0 {
				continue
			}
			member := relatedMember{words: ws}
			if terms := Tokenize(m); !description && len(terms) == len(ws) {
				member.adds = terms
			}
			ix.byFirst[ws[0]] = append(ix.byFirst[ws[0]], relatedRef{group: len(ix.groups), member: len(group)})
			group = append(group, member)
		}
		ix.groups = append(ix.groups, group)
	}
	return ix
})

// phraseWords returns the words of s as [Tokenize] reads them, stemmed, but
// with stopwords and single letters kept and without the joined form of a
// compound: the words a related phrase is matched on.
func phraseWords(s string) []string {
	var ws []string
	t := tokenizer{keepPart: func([]byte) bool { return true }, emitJoined: func([]byte) {}}
	t.scan(s, func(b []byte) { ws = append(ws, string(b)) })
	return ws
}

// queryTerms returns the distinct terms of query in order of appearance,
// followed by the terms of the related groups the query names (see
// relatedGroups).
func queryTerms(query string) []queryTerm {
	var terms []queryTerm
	var t tokenizer
	t.scan(query, func(tok []byte) {
		for _, u := range terms {
			if u.text == string(tok) {
				return
			}
		}
		terms = append(terms, queryTerm{text: string(tok), weight: 1, group: -1})
	})
	if len(terms) == 0 {
		return nil
	}
	return widen(terms, phraseWords(query))
}

// widen adds to terms (a query's own) the terms of the related groups whose
// members occur in words (the query's words, see phraseWords): at most
// maxRelatedGroups groups and maxRelated terms, a term in only one group.
func widen(terms []queryTerm, words []string) []queryTerm {
	ix := related()
	own := len(terms)
	var groups []int            // the related groups named, in order
	triggers := map[int][]int{} // group -> the own terms that named it
	for i, w := range words {
		for _, ref := range ix.byFirst[w] {
			mw := ix.groups[ref.group][ref.member].words
			if len(mw) > len(words)-i || !slices.Equal(mw, words[i:i+len(mw)]) {
				continue
			}
			if _, ok := triggers[ref.group]; !ok {
				if len(groups) == maxRelatedGroups {
					continue
				}
				groups = append(groups, ref.group)
				triggers[ref.group] = nil
			}
			for k := range own {
				if slices.Contains(mw, terms[k].text) && !slices.Contains(triggers[ref.group], k) {
					triggers[ref.group] = append(triggers[ref.group], k)
				}
			}
		}
	}
	for g, group := range groups {
		for _, m := range ix.groups[group] {
			for _, term := range m.adds {
				if slices.ContainsFunc(terms, func(t queryTerm) bool { return t.text == term }) {
					continue
				}
				if len(terms)-own == maxRelated {
					return terms
				}
				terms = append(terms, queryTerm{text: term, weight: RelatedWeight / float64(len(m.adds)), group: g, trigger: triggers[group]})
			}
		}
	}
	return terms
}

// termIDFs returns the weight each term scores with, given its inverse
// document frequency idf[j]: its idf for the query's own terms; for a
// related term, [RelatedWeight] (or its share of a phrase's) of its idf,
// but of no more than the idf of the rarest own term that named its group,
// so a rare related word never counts for more than a share of the common
// word the query said.
func termIDFs(terms []queryTerm, idf []float64) []float64 {
	out := make([]float64, len(terms))
	for j, t := range terms {
		if t.group < 0 {
			out[j] = idf[j]
			continue
		}
		w := idf[j]
		if len(t.trigger) > 0 {
			limit := 0.0
			for _, k := range t.trigger {
				limit = max(limit, idf[k])
			}
			w = min(w, limit)
		}
		out[j] = t.weight * w
	}
	return out
}

// groupCount is the number of related groups terms draw on.
func groupCount(terms []queryTerm) int {
	n := 0
	for _, t := range terms {
		n = max(n, t.group+1)
	}
	return n
}

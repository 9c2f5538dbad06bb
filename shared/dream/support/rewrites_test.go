package support_test

import (
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// castSources are the sources of a podcast transcoding service, written
// for the rewrite classes below (a tuning table: the labelled sets of
// testdata measure, this one pins the classes down).
var castSources = []support.Source{
	{ID: "m1", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Transcoding a 60-minute episode takes 45 seconds on a c7g.xlarge and 3 minutes on a t4g.small"},
	{ID: "m2", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Uploads larger than 500 MB are rejected by the `upload-gateway`; the limit is set in `gateway.yaml`"},
	{ID: "m3", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Audio is stored as Opus at 48 kbps instead of MP3", Rationale: "Opus halves storage for the same perceived quality"},
	{ID: "m4", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "FFmpeg must be called with `-vn` for audio-only jobs, otherwise cover art is encoded as a video stream"},
	{ID: "m5", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The worker pool has 12 workers; each worker handles one job at a time"},
	{ID: "m6", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The CDN cache hit rate is 93% for episode files and 40% for RSS feeds"},
	{ID: "m7", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "We support Node 20 and later; the minimum Postgres version is 14"},
	{ID: "m8", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Feeds are rendered server-side, not in the client", Rationale: "podcast apps do not run JavaScript"},
	{ID: "d1", Kind: support.KindDaily, Title: "run-12", Text: "Retries back off from 2 seconds to 5 minutes. A feed with 4,000 episodes took 9 seconds to render; paginating to 300 items per page fixed it."},
	{ID: "d2", Kind: support.KindDaily, Title: "run-13", Text: "Upgraded `ffmpeg-static` to v6.1.1. Loudness normalisation to -16 LUFS now runs in the same pass; encode time went up by 8%."},
	{ID: "d3", Kind: support.KindDaily, Title: "run-14", Text: "Monthly S3 cost fell from $1,800 to $950 after the Opus migration."},
	{ID: "d4", Kind: support.KindDaily, Title: "run-15", Text: "Feed render p95 was 2.5 seconds. Caching the rendered XML brought it to 120 ms. Adding read replicas was rejected; we raised the cache TTL to 10 minutes instead."},
}

// TestRewritesKept: faithful rewrites of the kinds models write, each a
// class (number and unit formats, markdown, code spans, hyphens,
// inflection, list markers, quotes) rather than a case.
func TestRewritesKept(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(castSources)
	tests := []struct {
		name  string
		claim string
		cited []string
	}{
		{"seconds as s", "Transcoding a 60-minute episode takes 45s on a c7g.xlarge", []string{"m1"}},
		{"seconds as s with space", "Transcoding a 60-minute episode takes 45 s on a c7g.xlarge", []string{"m1"}},
		{"minutes as min", "A 60-minute episode transcodes in 3 min on a t4g.small", []string{"m1"}},
		{"hyphenated number unhyphenated", "A 60 minute episode takes 45 seconds to transcode on a c7g.xlarge", []string{"m1"}},
		{"number hyphenated", "A one-hour episode takes 45 seconds to transcode on a c7g.xlarge", []string{"m1"}},
		{"unit glued", "Uploads larger than 500MB are rejected by the `upload-gateway`", []string{"m2"}},
		{"code span dropped", "Uploads over 500 MB are rejected by upload-gateway; the limit is set in gateway.yaml", []string{"m2"}},
		{"code span added", "`FFmpeg` must be called with `-vn` for audio-only jobs", []string{"m4"}},
		{"bold lead", "**Audio** is stored as Opus at 48 kbps instead of MP3", []string{"m3"}},
		{"list marker", "- The worker pool has 12 workers; each handles one job at a time", []string{"m5"}},
		{"numbered list marker", "1. The worker pool has 12 workers, each handling one job at a time", []string{"m5"}},
		{"percent spaced", "The CDN cache hit rate is 93 % for episode files", []string{"m6"}},
		{"percent as word", "The CDN cache hit rate is 93 percent for episode files and 40 percent for RSS feeds", []string{"m6"}},
		{"plus as and later", "Supported: Node 20+ and Postgres 14+", []string{"m7"}},
		{"version prefix", "Upgraded ffmpeg-static to 6.1.1", []string{"d2"}},
		{"thousands without comma", "A feed with 4000 episodes took 9 seconds to render", []string{"d1"}},
		{"money short", "Monthly S3 cost fell from $1.8k to $950 after the Opus migration", []string{"d3"}},
		{"number word", "The worker pool has twelve workers", []string{"m5"}},
		{"em dash", "Feeds are rendered server-side — not in the client", []string{"m8"}},
		{"hyphen as space", "Feeds are rendered server side rather than in the client", []string{"m8"}},
		{"inflection", "Retries backed off from 2 seconds to 5 minutes", []string{"d1"}},
		{"quotes", `FFmpeg needs "-vn" for audio-only jobs, otherwise cover art is encoded as a video stream`, []string{"m4"}},
		{"arrow", "Monthly S3 cost: $1,800 → $950 after the Opus migration", []string{"d3"}},
		{"approximately", "Encode time went up by ~8% once loudness normalisation to -16 LUFS ran in the same pass", []string{"d2"}},
		{"passive", "Cover art is encoded as a video stream unless FFmpeg is called with `-vn` for audio-only jobs", []string{"m4"}},
		{"trailing period", "Paginating the feed to 300 items per page fixed the 9 second render.", []string{"d1"}},
		// reordered: fronted clauses and phrases, parentheticals
		{"fronted because", "Because Opus halves storage for the same perceived quality, audio is stored as Opus at 48 kbps", []string{"m3"}},
		{"fronted instead of", "Instead of MP3, audio is stored as Opus at 48 kbps", []string{"m3"}},
		{"fronted without", "Without `-vn`, FFmpeg encodes cover art as a video stream in audio-only jobs", []string{"m4"}},
		{"fronted place", "On a t4g.small, transcoding a 60-minute episode takes 3 minutes", []string{"m1"}},
		{"fronted place with two numbers", "On a c7g.xlarge a 60-minute episode transcodes in 45 seconds, and in 3 minutes on a t4g.small", []string{"m1"}},
		{"parenthetical", "Loudness normalisation (to -16 LUFS) now runs in the same pass since the `ffmpeg-static` v6.1.1 upgrade", []string{"d2"}},
		{"from-to built from two sentences", "Paginating to 300 items per page fixed the feed with 4,000 episodes that took 9 seconds to render", []string{"d1"}},
		{"result first", "Encode time went up by 8% when loudness normalisation started running in the same pass", []string{"d2"}},
		{"but joined", "Each worker handles one job at a time, but the pool has 12 workers", []string{"m5"}},
		// light paraphrase: the words models exchange
		{"went from", "Monthly S3 cost went from $1,800 to $950 after the Opus migration", []string{"d3"}},
		{"dropped", "Monthly S3 cost dropped from $1,800 to $950 with the Opus migration", []string{"d3"}},
		{"per month", "S3 cost is now $950 per month, down from $1,800, after the Opus migration", []string{"d3"}},
		{"at most", "Retries back off from 2 seconds to at most 5 minutes", []string{"d1"}},
		{"above", "Uploads above 500 MB are rejected by the `upload-gateway`", []string{"m2"}},
		{"more than", "Uploads of more than 500 MB are rejected by the `upload-gateway`", []string{"m2"}},
		{"compared with", "Transcoding a 60-minute episode takes 45 seconds on a c7g.xlarge compared with 3 minutes on a t4g.small", []string{"m1"}},
		{"single", "Each worker handles a single job at a time", []string{"m5"}},
		{"number word small", "The CDN cache hit rate for RSS feeds is forty percent", []string{"m6"}},
		{"rose", "Encode time rose 8% once loudness normalisation ran in the same pass", []string{"d2"}},
		{"halves", "Opus cuts storage in half for the same perceived quality", []string{"m3"}},
		{"from-to across sentences", "Caching the rendered XML brought feed render p95 from 2.5 seconds to 120 ms", []string{"d4"}},
		{"instead of gerund fronted", "Instead of adding read replicas, the cache TTL was raised to 10 minutes", []string{"d4"}},
		{"but reordered", "Loudness normalisation to -16 LUFS now runs in the same pass, but encode time went up by 8%", []string{"d2"}},
		{"versus", "Transcoding a 60-minute episode takes 45 seconds on a c7g.xlarge versus 3 minutes on a t4g.small", []string{"m1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := corpus.Check(support.Claim{Type: agentmem.TypeNote, Content: tt.claim}, tt.cited...)
			if !v.Supported {
				t.Errorf("%q: got %s (%s), want supported", tt.claim, v.Class, v.Detail)
			}
		})
	}
}

// TestRewritesStillCaught: the same formats carrying a fabrication.
func TestRewritesStillCaught(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(castSources)
	tests := []struct {
		name  string
		claim string
		cited []string
	}{
		{"seconds made minutes", "Transcoding a 60-minute episode takes 45 min on a c7g.xlarge", []string{"m1"}},
		{"glued unit changed", "Uploads larger than 500GB are rejected by the `upload-gateway`", []string{"m2"}},
		{"number of another fact", "The worker pool has 14 workers", []string{"m5", "m7"}},
		{"percent moved", "The CDN cache hit rate is 40 % for episode files", []string{"m6"}},
		{"version changed", "Upgraded ffmpeg-static to v6.2", []string{"d2"}},
		{"money changed", "Monthly S3 cost fell from $1.8k to $590 after the Opus migration", []string{"d3"}},
		{"code span invented", "FFmpeg must be called with `-an` for audio-only jobs", []string{"m4"}},
		{"bold negation", "**Never** render feeds server-side", []string{"m8"}},
		{"list role swap", "- Audio is stored as MP3 instead of Opus", []string{"m3"}},
		{"plus made a cap", "Node 20 is the newest supported version", []string{"m7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := corpus.Check(support.Claim{Type: agentmem.TypeNote, Content: tt.claim}, tt.cited...)
			if v.Supported {
				t.Errorf("%q: supported, want dropped", tt.claim)
			}
		})
	}
}

// deskSources are the sources of a help-desk service, written for the
// classes of the evidence rule (a claim fails on what it gets wrong, not
// on the words a paraphrase brings): new wording, a permission, a
// prohibition drawn from a limitation, a hedged cause, a value compared
// with the one it replaced, a fix not yet deployed.
var deskSources = []support.Source{
	{ID: "m1", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Only the support leads may merge tickets; every merge is written to the audit log"},
	{ID: "m2", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "Row-level security does not apply to the `reporting` role; run customer queries as the `app` role"},
	{ID: "m3", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: agentmem.StatusOpen, Text: "Attachments over 25 MB fail to upload from Safari; the multipart chunk size may be too large"},
	{ID: "m4", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Search uses Postgres full-text search instead of Elasticsearch", Rationale: "Elasticsearch cost $900 a month for 40,000 tickets"},
	{ID: "m5", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Invoices are rendered with Chromium's print-to-PDF, not a PDF library"},
	{ID: "d1", Kind: support.KindDaily, Title: "run-40", Text: "Ticket list p95 is 120 ms now instead of 1.9 s after adding an index on `tickets.updated_at`. The export endpoint takes 14 s for 10,000 tickets."},
	{ID: "d2", Kind: support.KindDaily, Title: "run-41", Text: "Tried a 5 MB chunk size for Safari uploads; a 40 MB file went through in a quick test, not yet deployed."},
	{ID: "d3", Kind: support.KindDaily, Title: "run-42", Text: "Moved the SLA timer job from cron to a queue worker. It runs every minute and alerts after 3 missed runs."},
}

// deskCase is a claim of TestEvidenceRule.
type deskCase struct {
	name   string
	typ    agentmem.Type
	status string
	claim  string
	cited  []string
}

// TestEvidenceRule: faithful rewrites of these classes are kept, and the
// fabrications built on the same sentences are still dropped.
func TestEvidenceRule(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(deskSources)
	kept := []deskCase{
		{"new wording and a permission", agentmem.TypeNote, "", "Ticket merges are limited to support leads, and each one is logged in the audit log", []string{"m1"}},
		{"prohibition from a limitation", agentmem.TypeLearning, "", "Never run customer queries as the `reporting` role: row-level security does not apply to it", []string{"m2"}},
		{"hedged cause", agentmem.TypeNote, "", "Safari uploads of attachments over 25 MB fail, possibly because the multipart chunk size is too large", []string{"m3"}},
		{"value compared with the one it replaced", agentmem.TypeFinding, "", "An index on `tickets.updated_at` took the ticket list p95 from 1.9 s down to 120 ms", []string{"d1"}},
		{"number reordered", agentmem.TypeFinding, "", "For 10,000 tickets the export endpoint needs 14 s", []string{"d1"}},
		{"a record's sentences together", agentmem.TypeNote, "", "The SLA timer job now runs every minute on a queue worker instead of cron and alerts after 3 missed runs", []string{"d3"}},
		{"a fact of the rejected alternative", agentmem.TypeDecision, "", "Search runs on Postgres full-text search rather than Elasticsearch, which cost $900 a month for 40,000 tickets", []string{"m4"}},
		{"a part of the chosen name", agentmem.TypeDecision, "", "PDF invoices come from Chromium's print-to-PDF rather than a PDF library", []string{"m5"}},
		{"source words hyphenated", agentmem.TypeFinding, "", "Ticket-list p95 is 120 ms now instead of 1.9 s after adding an index on `tickets.updated_at`", []string{"d1"}},
		{"fix not yet deployed keeps a blocker open", agentmem.TypeBlocker, agentmem.StatusOpen, "Safari fails on attachments over 25 MB; a 5 MB chunk size got a 40 MB file through in a quick test, not yet deployed", []string{"m3", "d2"}},
	}
	caught := []deskCase{
		{"prohibition of what the source prescribes", agentmem.TypeLearning, "", "Never run customer queries as the `app` role", []string{"m2"}},
		{"hedge made a cause", agentmem.TypeNote, "", "Safari uploads over 25 MB fail because the multipart chunk size is too large", []string{"m3"}},
		{"replaced value made current", agentmem.TypeFinding, "", "The ticket list p95 is 1.9 s with the index on `tickets.updated_at`", []string{"d1"}},
		{"from and to reversed", agentmem.TypeFinding, "", "An index on `tickets.updated_at` took the ticket list p95 from 120 ms to 1.9 s", []string{"d1"}},
		{"number of another fact", agentmem.TypeDecision, "", "Elasticsearch cost $900 a month for 10,000 tickets", []string{"m4", "d1"}},
		{"superlative no source says", agentmem.TypeDecision, "", "Postgres full-text search is the fastest option for 40,000 tickets", []string{"m4"}},
		{"a clause with a name no source has", agentmem.TypeDecision, "", "Search uses Postgres full-text search, and Meilisearch indexes the attachments", []string{"m4"}},
		{"rejected alternative chosen", agentmem.TypeDecision, "", "Search uses Elasticsearch rather than Postgres full-text search, which cost $900 a month", []string{"m4"}},
		{"rejected library affirmed", agentmem.TypeDecision, "", "Invoices are rendered with a PDF library", []string{"m5"}},
		{"a name built from source words", agentmem.TypeFinding, "", "Ticket-export p95 is 120 ms after adding an index on `tickets.updated_at`", []string{"d1"}},
		{"fix not yet deployed closes the blocker", agentmem.TypeBlocker, agentmem.StatusResolved, "A 5 MB chunk size fixed Safari uploads of attachments over 25 MB", []string{"m3", "d2"}},
	}
	for _, set := range []struct {
		want  bool
		cases []deskCase
	}{{true, kept}, {false, caught}} {
		for _, tt := range set.cases {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				v := corpus.Check(support.Claim{Type: tt.typ, Status: tt.status, Content: tt.claim}, tt.cited...)
				if got := v.Supported; got != set.want {
					t.Errorf("%q: supported %v (%s: %s), want %v", tt.claim, got, v.Class, v.Detail, set.want)
				}
			})
		}
	}
}

// pipeSources are the sources of a CI service, written for the classes of
// TestEarlierValueAndSubjectRule.
var pipeSources = []support.Source{
	{ID: "m1", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Builds took 14 minutes on the shared runners; caching the Go module directory brought it to 6 minutes"},
	{ID: "m2", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Failed jobs are retried twice; the nightly release job is not retried"},
	{ID: "m3", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The Linux runner waits for the cache restore, the macOS runner does not"},
	{ID: "m4", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "`lint-js` finishes in 12 s; `lint-go` took 40 s with every analyzer on"},
	{ID: "m5", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Staging deploys are manual; production deploys need two approvals", Rationale: "an automated deploy wiped the staging database"},
	{ID: "m6", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: agentmem.StatusResolved, Text: "Date tests fail on the runners after midnight"},
	{ID: "m7", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The release script refuses a red build"},
	{ID: "d1", Kind: support.KindDaily, Title: "run-88", Text: "Date test fix: the runners never set TZ; set it to UTC in the job template. The old Jenkins job was removed. Lint warnings went from 30 a week to none."},
	{ID: "d2", Kind: support.KindDaily, Title: "run-89", Text: "Flaky-test reports are up to 9 a week, down from 25."},
	{ID: "m8", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Run `make e2e` against the staging cluster; unit tests run without it"},
	{ID: "d3", Kind: support.KindDaily, Title: "run-90", Text: "Cache misses fixed: the cache was keyed on the branch name; keyed it on the commit SHA instead."},
}

// TestEarlierValueAndSubjectRule: faithful rewrites of these classes are
// kept, and the fabrications built on the same sentences are dropped: an
// earlier value stays earlier, a number stays with its own sentence's
// subject, a term affirmed in one clause and negated in the clause about
// the claim's subject is negated, and a removal or a recorded fix counts.
func TestEarlierValueAndSubjectRule(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(pipeSources)
	kept := []deskCase{
		{"change built from a value and 'brought it to'", agentmem.TypeFinding, "", "Caching the Go module directory took builds from 14 minutes to 6 minutes", []string{"m1"}},
		{"earlier value said in the past", agentmem.TypeFinding, "", "Builds used to take 14 minutes on the shared runners", []string{"m1"}},
		{"later value", agentmem.TypeFinding, "", "Caching the Go module directory cut builds to 6 minutes", []string{"m1"}},
		{"earlier value compared", agentmem.TypeFinding, "", "Flaky-test reports fell to 9 a week from 25", []string{"d2"}},
		{"to none is a value", agentmem.TypeNote, "", "Lint warnings dropped from 30 a week to none", []string{"d1"}},
		{"exception in other words", agentmem.TypeNote, "", "Failed jobs except the nightly release job are retried twice", []string{"m2"}},
		{"the clause about the affirmed subject", agentmem.TypeFinding, "", "The Linux runner waits for the cache restore", []string{"m3"}},
		{"reordered numbers keep their subjects", agentmem.TypeFinding, "", "`lint-go` took 40 s with every analyzer on, while `lint-js` finishes in 12 s", []string{"m4"}},
		{"a rationale for every part of its memory", agentmem.TypeDecision, "", "Production deploys need two approvals (why: an automated deploy wiped the staging database)", []string{"m5"}},
		{"fixed by doing what was never done", agentmem.TypeLearning, "", "Date tests failing after midnight were fixed by setting TZ to UTC in the job template", []string{"m6", "d1"}},
		{"a negated pronoun", agentmem.TypeNote, "", "Unit tests don't need the staging cluster", []string{"m8"}},
		{"the choice a record ends with 'instead'", agentmem.TypeNote, "", "The cache is keyed on the commit SHA instead of the branch name", []string{"d3"}},
	}
	caught := []deskCase{
		{"earlier value made current", agentmem.TypeFinding, "", "Builds take 14 minutes with the Go module directory cached", []string{"m1"}},
		{"earlier value made current, compared in another sentence", agentmem.TypeFinding, "", "Flaky-test reports are up to 25 a week", []string{"d2"}},
		{"change reversed", agentmem.TypeFinding, "", "Caching the Go module directory took builds from 6 minutes to 14 minutes", []string{"m1"}},
		{"negated term affirmed beside a clause that affirms it", agentmem.TypeNote, "", "The nightly release job is retried like the failed jobs", []string{"m2"}},
		{"ellipsis 'does not' affirmed", agentmem.TypeFinding, "", "The macOS runner waits for the cache restore too", []string{"m3"}},
		{"number of the other sentence's subject", agentmem.TypeFinding, "", "`lint-js` finishes in 40 s", []string{"m4"}},
		{"still, where a source says removed", agentmem.TypeNote, "", "The old Jenkins job still runs the date tests", []string{"d1"}},
		{"opposite verb", agentmem.TypeNote, "", "The release script accepts a red build", []string{"m7"}},
		{"a fix record makes an open blocker wrong", agentmem.TypeBlocker, agentmem.StatusOpen, "Date tests fail on the runners after midnight", []string{"m6", "d1"}},
		{"the choice ending with 'instead' reversed", agentmem.TypeNote, "", "The cache is keyed on the branch name instead of the commit SHA", []string{"d3"}},
	}
	for _, set := range []struct {
		want  bool
		cases []deskCase
	}{{true, kept}, {false, caught}} {
		for _, tt := range set.cases {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				v := corpus.Check(support.Claim{Type: tt.typ, Status: tt.status, Content: tt.claim}, tt.cited...)
				if got := v.Supported; got != set.want {
					t.Errorf("%q: supported %v (%s: %s), want %v", tt.claim, got, v.Class, v.Detail, set.want)
				}
			})
		}
	}
}

package search

import (
	"math"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func hitIDs(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

var lexDocs = []Doc{
	{ID: "a", Text: "The payments service retries webhooks 3 times with exponential backoff"},
	{ID: "b", Text: "retryWebhook lives in payments/webhook.go and is called by the worker"},
	{ID: "c", Text: "The React front end uses TanStack Query for server state"},
	{ID: "d", Text: "Terraform state is stored in S3 with a DynamoDB lock table"},
	{ID: "e", Text: "webhook webhook webhook webhook webhook webhook webhook webhook signature check"},
}

func TestLexical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query string
		want        []string
	}{
		{"no terms", "the of and", nil},
		{"no match", "kubernetes", nil},
		{"single term", "terraform", []string{"d"}},
		// a says "backoff" too, a term related to retrying (related.go).
		{"stemmed match", "retrying webhook", []string{"a", "b", "e"}},
		{"identifier query prefers the exact identifier", "retryWebhook", []string{"b", "a", "e"}},
		{"snake case query finds camel case doc", "retry_webhook", []string{"b", "a", "e"}},
		{"rare term outweighs frequent one", "react webhook", []string{"c", "e", "b", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := hitIDs(Lexical(tt.query, lexDocs))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Lexical(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

func TestLexicalScoresAndTies(t *testing.T) {
	t.Parallel()
	docs := []Doc{{ID: "z", Text: "alpha"}, {ID: "y", Text: "alpha"}, {ID: "x", Text: "beta"}}
	got := Lexical("alpha", docs)
	// N=3, df=1... alpha appears in 2 docs: idf = ln(1 + (3-2+0.5)/(2+0.5)).
	idf := math.Log(1 + 1.5/2.5)
	want := idf * 1 * (K1 + 1) / (1 + K1) // every doc has length 1 = avgdl
	if len(got) != 2 || got[0].ID != "y" || got[1].ID != "z" {
		t.Fatalf("Lexical ties = %v, want y then z", got)
	}
	if math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("score = %v, want %v", got[0].Score, want)
	}
}

func TestLexicalLengthNormalisation(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		{ID: "long", Text: "cache invalidation notes: redis keys, ttl values, eviction policy, memory limits, cluster mode"},
		{ID: "short", Text: "cache invalidation"},
	}
	got := hitIDs(Lexical("cache", docs))
	if want := []string{"short", "long"}; !slices.Equal(got, want) {
		t.Errorf("Lexical = %v, want %v", got, want)
	}
}

func TestSemantic(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		{ID: "same", Vector: []float32{2, 0, 0}},
		{ID: "close", Vector: []float32{1, 1, 0}},
		{ID: "orthogonal", Vector: []float32{0, 0, 1}},
		{ID: "opposite", Vector: []float32{-1, 0, 0}},
		{ID: "none"},
		{ID: "otherdims", Vector: []float32{1, 0}},
		{ID: "zero", Vector: []float32{0, 0, 0}},
	}
	got := Semantic([]float32{1, 0, 0}, docs)
	if want := []string{"same", "close"}; !slices.Equal(hitIDs(got), want) {
		t.Fatalf("Semantic = %v, want %v", hitIDs(got), want)
	}
	if math.Abs(got[0].Score-1) > 1e-6 || math.Abs(got[1].Score-math.Sqrt2/2) > 1e-6 {
		t.Errorf("scores = %v, want 1 and %v", got, math.Sqrt2/2)
	}
	if got := Semantic([]float32{0, 0, 0}, docs); got != nil {
		t.Errorf("Semantic(zero query) = %v, want nil", got)
	}
}

func TestCosine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 2, 3, 4, 5}, []float32{1, 2, 3, 4, 5}, 1},
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{1, 0}, []float32{-1, 0}, -1},
		{[]float32{1}, []float32{1, 0}, 0},
		{[]float32{0, 0}, []float32{1, 0}, 0},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFuse(t *testing.T) {
	t.Parallel()
	lex := []Hit{{"a", 9}, {"b", 5}, {"c", 1}}
	sem := []Hit{{"c", 0.9}, {"a", 0.8}, {"d", 0.1}, {"c", 0.05}}
	got := Fuse(0, lex, sem)
	want := []Hit{
		{"a", 1.0/61 + 1.0/62},
		{"c", 1.0/63 + 1.0/61},
		{"b", 1.0 / 62},
		{"d", 1.0 / 63},
	}
	if len(got) != len(want) {
		t.Fatalf("Fuse = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
			t.Errorf("Fuse[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if got := Fuse(10); got != nil {
		t.Errorf("Fuse() = %v, want nil", got)
	}
	if got := Fuse(1, []Hit{{"x", 1}}); got[0].Score != 0.5 {
		t.Errorf("Fuse(k=1) score = %v, want 0.5", got[0].Score)
	}
}

func TestRank(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		{ID: "a", Text: "webhook retries", Vector: []float32{0, 1}},
		{ID: "b", Text: "terraform state", Vector: []float32{1, 0}},
		{ID: "c", Text: "webhook signature"},
	}
	tests := []struct {
		name     string
		query    string
		vec      []float32
		limit    int
		want     []string
		wantMode Mode
	}{
		{"nothing", "", nil, 10, nil, ModeNone},
		{"lexical", "webhook", nil, 10, []string{"a", "c"}, ModeLexical},
		{"lexical when no doc has a vector of that size", "webhook", []float32{1, 0, 0}, 10, []string{"a", "c"}, ModeLexical},
		{"semantic", "the", []float32{1, 0.5}, 10, []string{"b", "a"}, ModeSemantic},
		{"semantic drops hits far below the best", "the", []float32{1, 0.1}, 10, []string{"b"}, ModeSemantic},
		{"hybrid", "webhook", []float32{1, 0.1}, 10, []string{"a", "b", "c"}, ModeHybrid},
		{"limit", "webhook", []float32{1, 0.1}, 1, []string{"a"}, ModeHybrid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hits, mode := RankMode(tt.query, tt.vec, docs, tt.limit)
			if got := hitIDs(hits); !slices.Equal(got, tt.want) || mode != tt.wantMode {
				t.Errorf("RankMode = %v, %s, want %v, %s", got, mode, tt.want, tt.wantMode)
			}
			if got := hitIDs(Rank(tt.query, tt.vec, docs, tt.limit)); !slices.Equal(got, tt.want) {
				t.Errorf("Rank = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMemoryText(t *testing.T) {
	t.Parallel()
	m := agentmem.Memory{
		ID: "01", Content: "Retry webhooks", Type: agentmem.TypePattern,
		Trigger: "webhook fails", Context: "payments", Solution: "exponential backoff",
		Tags: []string{"payments", "reliability"},
	}
	want := "Retry webhooks\nwebhook fails\npayments\nexponential backoff\npayments\nreliability\npattern"
	if got := MemoryText(m); got != want {
		t.Errorf("MemoryText = %q, want %q", got, want)
	}
	d := MemoryDoc(agentmem.Memory{ID: "02", Content: "x", Type: agentmem.TypeDecision, Rationale: "y"}, []float32{1})
	if d.ID != "02" || d.Text != "x\ny\ndecision" || len(d.Vector) != 1 {
		t.Errorf("MemoryDoc = %+v, want id 02, text %q and the vector", d, "x\ny\ndecision")
	}
}

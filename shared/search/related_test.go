package search

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestRelatedFindsOtherWords(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		{ID: "deadlock", Text: "Two workers deadlocked on the orders table until we locked rows in id order"},
		{ID: "logout", Text: "Changing the password revokes every session, so the user is logged out everywhere"},
		{ID: "oom", Text: "The resize worker was OOMKilled at 512 MiB; the limit is now 1 GiB"},
		{ID: "secrets", Text: "Database passwords live in Secrets Manager, never in the Lambda's environment variables"},
		{ID: "flaky", Text: "checkout.spec.ts is flaky under parallel workers because both tests reuse one cart"},
		{ID: "other", Text: "The marketing site is built with Astro and deployed to Netlify"},
		{ID: "scale", Text: "Scale out the API to 6 tasks when CPU stays above 70% for 5 minutes"},
		{ID: "rollout", Text: "Roll out the new checkout to 5% of users first, then to everyone"},
		{ID: "cutover", Text: "Phase out the old queue once the consumers drained it"},
	}
	tests := []struct{ query, want string }{
		{"two transactions waiting on each other forever", "deadlock"},
		{"customer gets kicked out on all their devices", "logout"},
		{"the image job runs out of memory", "oom"},
		{"keep credentials out of function configuration", "secrets"},
		{"end-to-end test fails randomly", "flaky"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			t.Parallel()
			hits := Lexical(tt.query, docs)
			if len(hits) == 0 || hits[0].ID != tt.want {
				t.Errorf("Lexical(%q) = %v, want %s first", tt.query, hitIDs(hits), tt.want)
			}
		})
	}
}

func TestRelatedNeverOutweighsTheQuerysOwnWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query string
		docs        []Doc
		want        []string
	}{
		{"many related words against one own word", "cache", []Doc{
			{ID: "related", Text: "redis memcached cdn memoize stale"},
			{ID: "own", Text: "the cache is warmed at startup"},
		}, []string{"own", "related"}},
		{"a rare related word against a common own word", "deploy", []Doc{
			{ID: "own1", Text: "deploy from main"}, {ID: "own2", Text: "deploy on fridays"}, {ID: "own3", Text: "deploy with make"},
			{ID: "related", Text: "ship the release"},
		}, []string{"own1", "own2", "own3", "related"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := hitIDs(Lexical(tt.query, tt.docs)); !slices.Equal(got, tt.want) {
				t.Errorf("Lexical(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

func TestQueryTermsRelated(t *testing.T) {
	t.Parallel()
	texts := func(ts []queryTerm) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.text)
		}
		return out
	}
	tests := []struct {
		name, query string
		with        []string // terms the query must have
		without     []string // terms it must not
	}{
		{"a name adds its group", "webhook retries", []string{"webhook", "retry", "resend", "redeliver", "backoff"}, nil},
		{"a description widens but is never added", "deadlock in the ledger", []string{"deadlock", "ledger", "contention"}, []string{"wait", "each", "other"}},
		{"a description names its group", "both wait for each other", []string{"deadlock"}, nil},
		// "log in" is recognised with its stopword, so "log" alone is not a login.
		{"a word of a phrase is not the phrase", "log rotation", []string{"log", "logger"}, []string{"signin", "authenticate"}},
		{"a phrase with its stopword", "cannot log in after the upgrade", []string{"signin", "authenticate"}, nil},
		{"nothing related", "zorblat frobnicator", []string{"zorblat", "frobnicator"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := queryTerms(tt.query)
			for _, w := range tt.with {
				if w = Stem(w); !slices.Contains(texts(got), w) {
					t.Errorf("queryTerms(%q) = %v, want %q among them", tt.query, texts(got), w)
				}
			}
			for _, w := range tt.without {
				if w = Stem(w); slices.Contains(texts(got), w) {
					t.Errorf("queryTerms(%q) = %v, want no %q", tt.query, texts(got), w)
				}
			}
			own := Tokenize(tt.query)
			for _, q := range got {
				switch {
				case q.group < 0 && q.weight != 1, q.group < 0 && !slices.Contains(own, q.text):
					t.Errorf("queryTerms(%q): own term %+v, want one of the query's words with weight 1", tt.query, q)
				case q.group >= 0 && (q.weight <= 0 || q.weight > RelatedWeight):
					t.Errorf("queryTerms(%q): related term %+v, want a weight in (0, %v]", tt.query, q, RelatedWeight)
				}
			}
		})
	}
}

func TestQueryTermsBounded(t *testing.T) {
	t.Parallel()
	// A query naming every group adds at most maxRelated terms from at most
	// maxRelatedGroups groups, each term once.
	var all []string
	for _, line := range strings.Split(relatedGroups, "\n") {
		if m, _, ok := strings.Cut(line, "|"); ok {
			all = append(all, strings.TrimPrefix(m, "~"))
		}
	}
	got := queryTerms(strings.Join(all, " "))
	own := len(Tokenize(strings.Join(all, " ")))
	related, groups, seen := 0, map[int]bool{}, map[string]bool{}
	for _, q := range got {
		if seen[q.text] {
			t.Errorf("term %q twice", q.text)
		}
		seen[q.text] = true
		if q.group >= 0 {
			related++
			groups[q.group] = true
		}
	}
	if related > maxRelated || len(groups) > maxRelatedGroups {
		t.Errorf("%d related terms from %d groups, want at most %d from %d", related, len(groups), maxRelated, maxRelatedGroups)
	}
	if len(got) > own+maxRelated {
		t.Errorf("%d terms for %d words", len(got), own)
	}
}

func TestRelatedGroupsRead(t *testing.T) {
	t.Parallel()
	ix := related()
	if len(ix.groups) < 100 {
		t.Errorf("%d groups read, want the whole list", len(ix.groups))
	}
	for g, group := range ix.groups {
		adds := 0
		for _, m := range group {
			if len(m.adds) > 0 {
				adds++
			}
		}
		if len(group) < 2 || adds == 0 {
			t.Errorf("group %d (%v): %d members, %d that add terms; want two or more, one adding", g, group[0].words, len(group), adds)
		}
	}
}

// FuzzRelatedQuery checks, for any query, that the indexed and the direct
// lexical rankings agree exactly (scores included), that every score is a
// positive finite number, and that the query's terms stay bounded.
func FuzzRelatedQuery(f *testing.F) {
	for _, s := range []string{
		"", "webhook retries", "two transactions waiting on each other forever", "log in log out sign out",
		"cache cache cache redis", "~deadlock|retry", "n+1 queries", "Größe ǅ İ", "a\xffb",
	} {
		f.Add(s)
	}
	docs := append(slices.Clone(lexDocs),
		Doc{ID: "f", Text: "Two workers deadlocked; retries with backoff fixed the stuck queue"},
		Doc{ID: "g", Text: "Users are logged out everywhere when the session is revoked"},
		Doc{ID: "h", Text: "Redis cache keys expire after 10 minutes; stale reads were seen"},
	)
	ix := NewIndex(docs)
	f.Fuzz(func(t *testing.T, q string) {
		terms := queryTerms(q)
		if own := len(Tokenize(q)); len(terms) > own+maxRelated {
			t.Fatalf("queryTerms(%q): %d terms for %d words", q, len(terms), own)
		}
		want := Lexical(q, docs)
		got := ix.Lexical(q)
		if !slices.Equal(got, want) {
			t.Fatalf("query %q: Index.Lexical = %v, Lexical = %v", q, got, want)
		}
		for _, h := range got {
			if !(h.Score > 0) || math.IsInf(h.Score, 0) {
				t.Fatalf("query %q: score %v for %s", q, h.Score, h.ID)
			}
		}
	})
}

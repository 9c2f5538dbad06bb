package support

import (
	"strings"
	"testing"
)

// FuzzPlainText: taking the Markdown dress off never grows a text, keeps
// its code spans as written and is stable when applied twice to text
// without emphasis markers left.
func FuzzPlainText(f *testing.F) {
	for _, s := range []string{
		"- **Compression:** Parquet is written with `zstd`, ~35% smaller",
		"1. The pool has 12 workers\n2) each handles one job",
		"> ## Heading\n* item with `**not bold**` inside code",
		"__init__ and __dunder__ stay; _x_ too",
		"≈ 2 s, ~8%, $1.8k, 50k-row, one-hour, 8.1+",
		"**unclosed bold and `unclosed code",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := plainText(s)
		if len(got) > len(s) {
			t.Fatalf("plainText(%q) = %q, longer than its input", s, got)
		}
		if strings.Count(got, "`") != strings.Count(s, "`") {
			t.Fatalf("plainText(%q) = %q: the code span markers changed", s, got)
		}
	})
}

// FuzzCheck: any claim against any source gets a verdict without a panic,
// and a verdict is supported exactly when it has no problem.
func FuzzCheck(f *testing.F) {
	for _, c := range [][2]string{
		{"A 50k-row CSV import takes 40s", "Importing a 50,000-row CSV takes 40 seconds"},
		{"Costs fell from $1.8k to $950", "Monthly cost fell from $1,800 to $950."},
		{"A one-hour episode takes 45 s", "Transcoding a 60-minute episode takes 45 seconds"},
		{"Supports PHP 8.1+ and API 26+", "PHP 8.1 and later; the minimum is API 26"},
		{"- **Never** render feeds server-side", "Feeds are rendered server-side, not in the client"},
		{"Instead of adding replicas, the TTL was raised", "Adding replicas was rejected; we raised the TTL instead."},
		{"Without `-vn`, FFmpeg encodes cover art", "Call FFmpeg with `-vn`, otherwise cover art is encoded"},
		{"Truck routes are missing ferries", "Ferries are missing from truck routes"},
		{"1 MB or 1 GiB ~ 512MiB 2.1 uA 10k-", "k- 1.k 0.0001k $ ~ ≈"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, claim, source string) {
		v := NewCorpus([]Source{{ID: "s", Kind: KindMemory, Text: source}}).Check(Claim{Content: claim}, "s")
		if v.Supported != (len(v.Problems) == 0) {
			t.Fatalf("claim %q, source %q: supported=%v with problems %+v", claim, source, v.Supported, v.Problems)
		}
	})
}

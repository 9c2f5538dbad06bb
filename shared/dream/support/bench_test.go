package support_test

import (
	"testing"

	"github.com/agentmem/agentmem/shared/dream/support"
)

// BenchmarkCheck is the support test of one claim against an analysed
// corpus: the labelled set's claims, each against the sources it cites
// (cited), its project's every source (pool, what a dream of a scope
// checks today) and every project's sources at once (crowd, 150 sources).
func BenchmarkCheck(b *testing.B) {
	set, pools := loadLabelled(b, "testdata/claims.json")
	for _, mode := range []string{"cited", "pool", "crowd"} {
		b.Run(mode, func(b *testing.B) {
			corpora := map[string]*support.Corpus{}
			corpus := func(project string) *support.Corpus {
				key := project
				if mode == "crowd" {
					key = crowdKey
				}
				if c, ok := corpora[key]; ok {
					return c
				}
				c := support.NewCorpus(pools[key])
				corpora[key] = c
				return c
			}
			for _, c := range set.Cases {
				corpus(c.Project)
			}
			b.ResetTimer()
			n := 0
			for b.Loop() {
				c := set.Cases[n%len(set.Cases)]
				n++
				var cited []string
				if mode == "cited" {
					cited = c.Cites
				}
				corpus(c.Project).Check(c.Claim.Support(), cited...)
			}
		})
	}
}

// BenchmarkNewCorpus analyses a project's 17 sources, as a dream does once
// per scope.
func BenchmarkNewCorpus(b *testing.B) {
	_, pools := loadLabelled(b, "testdata/claims.json")
	pool := pools["ledger-api"]
	for b.Loop() {
		support.NewCorpus(pool)
	}
}

package support_test

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentmem/agentmem/shared/dream/support"
	"github.com/agentmem/agentmem/shared/dream/support/supporttest"
	"github.com/agentmem/agentmem/shared/search"
)

var (
	qualityMarkdown = flag.Bool("quality.markdown", false, "print the figures as the Markdown tables of docs/BENCHMARKS.md")
	qualityAblation = flag.String("quality.ablation", "", "print, for the splits named (comma-separated, e.g. tune,holdout) in cited mode, what each check alone drops")
	qualityShow     = flag.String("quality.show", "", "list the cases judged wrongly in this split (tune, holdout or all) and mode (cited or pool), e.g. tune/cited")
	qualityCheck    = flag.String("quality.check", "", "with -quality.show=split/cited, list every case of the split a check (function/class, as in the ablation) objected to, right or wrong")
)

// labelledFiles are the labelled sets under testdata: claims.json (split
// tune and holdout), tune2-11.json (split tune) and fresh.json to
// fresh54.json (splits fresh to fresh54), each written by someone who had
// not read this package, and measured once before anything was tuned on
// it (docs/BENCHMARKS.md gives each set's first-sight figures). fresh to
// fresh46 were tuned on after that first measure (fresh39 to fresh46 only
// in round 8); fresh47 to fresh54 never were.
var labelledFiles = []string{"testdata/claims.json", "testdata/tune2.json", "testdata/tune3.json", "testdata/tune4.json", "testdata/tune5.json", "testdata/tune6.json", "testdata/tune7.json", "testdata/tune8.json", "testdata/tune9.json", "testdata/tune10.json", "testdata/tune11.json", "testdata/fresh.json", "testdata/fresh2.json", "testdata/fresh3.json", "testdata/fresh4.json", "testdata/fresh5.json", "testdata/fresh6.json", "testdata/fresh7.json", "testdata/fresh8.json", "testdata/fresh9.json", "testdata/fresh10.json", "testdata/fresh11.json", "testdata/fresh12.json", "testdata/fresh13.json", "testdata/fresh14.json", "testdata/fresh15.json", "testdata/fresh16.json", "testdata/fresh17.json", "testdata/fresh18.json", "testdata/fresh19.json", "testdata/fresh20.json", "testdata/fresh21.json", "testdata/fresh22.json", "testdata/fresh23.json", "testdata/fresh24.json", "testdata/fresh25.json", "testdata/fresh26.json", "testdata/fresh27.json", "testdata/fresh28.json", "testdata/fresh29.json", "testdata/fresh30.json", "testdata/fresh31.json", "testdata/fresh32.json", "testdata/fresh33.json", "testdata/fresh34.json", "testdata/fresh35.json", "testdata/fresh36.json", "testdata/fresh37.json", "testdata/fresh38.json", "testdata/fresh39.json", "testdata/fresh40.json", "testdata/fresh41.json", "testdata/fresh42.json", "testdata/fresh43.json", "testdata/fresh44.json", "testdata/fresh45.json", "testdata/fresh46.json", "testdata/fresh47.json", "testdata/fresh48.json", "testdata/fresh49.json", "testdata/fresh50.json", "testdata/fresh51.json", "testdata/fresh52.json", "testdata/fresh53.json", "testdata/fresh54.json"}

// loadLabelled reads the labelled sets of files into one, and the pools of
// sources by project.
func loadLabelled(t testing.TB, files ...string) (supporttest.Set, map[string][]support.Source) {
	t.Helper()
	set, err := supporttest.Read(files...)
	if err != nil {
		t.Fatal(err)
	}
	pools := map[string][]support.Source{}
	for _, p := range set.Projects {
		if _, dup := pools[p.Name]; dup {
			t.Fatalf("project %s is in two labelled files; its sources would mix", p.Name)
		}
		for _, s := range p.Sources {
			pools[p.Name] = append(pools[p.Name], s.Support())
		}
	}
	// crowd: every project's sources at once (ids prefixed), a scope much
	// larger than one project's with many unrelated numbers and names
	for _, p := range set.Projects {
		for _, s := range pools[p.Name] {
			s.ID = p.Name + "/" + s.ID
			pools[crowdKey] = append(pools[crowdKey], s)
		}
	}
	return set, pools
}

// crowdKey names the pool of every project's sources.
const crowdKey = "*"

// crowdSample: crowd mode judges every crowdSample-th claim (every
// project's sources read for each claim is most of this test's cost).
const crowdSample = 3

// judged is one case's outcome.
type judged struct {
	supporttest.Case
	mode    string // cited: against the sources the case cites; pool: against its project's every source
	dropped bool
	verdict support.Verdict
}

func (j judged) right() bool { return j.dropped == (j.Label == "fabricated") }

// judgeAll runs every case in the modes named with judge.
func judgeAll(set supporttest.Set, pools map[string][]support.Source, modes []string, judge func(c supporttest.Case, pool []support.Source, cited []string) (bool, support.Verdict)) []judged {
	var out []judged
	for n, c := range set.Cases {
		for _, mode := range modes {
			if mode == "crowd" && n%crowdSample != 0 {
				continue
			}
			cites := c.Cites
			pool := pools[c.Project]
			switch mode {
			case "pool":
				cites = nil
			case "crowd":
				cites, pool = nil, pools[crowdKey]
			}
			dropped, v := judge(c, pool, cites)
			out = append(out, judged{Case: c, mode: mode, dropped: dropped, verdict: v})
		}
	}
	return out
}

// figures sums judged cases: faithful kept and fabricated dropped, by class.
type figures struct {
	faithful, kept, fabricated, dropped int
	byClass                             map[string][2]int // class -> right, total
}

func sum(js []judged, split, mode string) figures {
	f := figures{byClass: map[string][2]int{}}
	for _, j := range js {
		if (split != "all" && j.Split != split) || j.mode != mode {
			continue
		}
		bc := f.byClass[j.Class]
		bc[1]++
		if j.right() {
			bc[0]++
		}
		f.byClass[j.Class] = bc
		if j.Label == "faithful" {
			f.faithful++
			if !j.dropped {
				f.kept++
			}
		} else {
			f.fabricated++
			if j.dropped {
				f.dropped++
			}
		}
	}
	return f
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) * 100 / float64(d)
}

func (f figures) keptPct() float64    { return pct(f.kept, f.faithful) }
func (f figures) droppedPct() float64 { return pct(f.dropped, f.fabricated) }

// corpora caches one corpus per project pool.
type corpora map[string]*support.Corpus

func (cs corpora) get(project string, pool []support.Source) *support.Corpus {
	if c, ok := cs[project]; ok {
		return c
	}
	c := support.NewCorpus(pool)
	cs[project] = c
	return c
}

// TestLabelledSetFigures runs the support test over the labelled sets
// (labelledFiles: 7,422 claims from 357 projects) in three modes: against
// the sources each claim cites, against its project's every source (what
// a dream without citations checks against), and against every project's
// sources at once (a crowded scope; every third claim, see crowdSample).
// It asserts floors a little under the figures measured
// (docs/BENCHMARKS.md) so that a regression fails, and compares with the
// word-overlap guard the test replaced.
func TestLabelledSetFigures(t *testing.T) {
	t.Parallel()
	set, pools := loadLabelled(t, labelledFiles...)
	if n := len(set.Cases); n < 150 {
		t.Fatalf("the labelled set has %d cases, want at least 150", n)
	}
	// the word-overlap guard in crowd mode (every project's sources read
	// again for each claim) costs five times the rest of this test; it
	// runs when the tables are printed
	guardModes := []string{"cited", "pool"}
	if *qualityMarkdown {
		guardModes = append(guardModes, "crowd")
	}
	cs := corpora{}
	js := judgeAll(set, pools, []string{"cited", "pool", "crowd"}, func(c supporttest.Case, pool []support.Source, cited []string) (bool, support.Verdict) {
		key := c.Project
		if len(pool) > 0 && strings.Contains(pool[0].ID, "/") {
			key = crowdKey
		}
		v := cs.get(key, pool).Check(c.Claim.Support(), cited...)
		return !v.Supported, v
	})
	old := judgeAll(set, pools, guardModes, func(c supporttest.Case, pool []support.Source, cited []string) (bool, support.Verdict) {
		return !overlapGuard(c.Claim.Support(), pool, cited), support.Verdict{}
	})
	if *qualityMarkdown {
		printMarkdown(js, old)
	}
	if *qualityAblation != "" {
		printAblation(set, pools, strings.Split(*qualityAblation, ","))
	}
	if *qualityShow != "" {
		split, mode, _ := strings.Cut(*qualityShow, "/")
		if mode == "" {
			mode = "cited"
		}
		for _, j := range js {
			if *qualityCheck != "" && (split == "all" || j.Split == split) && j.mode == mode {
				_, checks := cs.get(j.Project, pools[j.Project]).CheckTraced(j.Claim.Support(), j.Cites...)
				if slices.Contains(checks, *qualityCheck) {
					t.Logf("%s %s/%s (right=%v): %q -> %s: %s", j.ID, j.Label, j.Class, j.right(), claimLine(j), j.verdict.Class, j.verdict.Detail)
				}
				continue
			}
			if (split == "all" || j.Split == split) && j.mode == mode && !j.right() {
				_, checks := cs.get(j.Project, pools[j.Project]).CheckTraced(j.Claim.Support(), j.Cites...)
				t.Logf("%s %s/%s: %s %q -> supported=%v %s: %s (missing: %v; checks: %v)", j.ID, j.Label, j.Class, j.Claim.Type, claimLine(j), j.verdict.Supported, j.verdict.Class, j.verdict.Detail, j.verdict.Missing, checks)
			}
		}
	}
	// The aim is at least 85% of fabrications dropped with at least 95%
	// of faithful claims kept. It is met on the claims the test was tuned
	// on; on the sets it was never tuned on (fresh47 to fresh50) it keeps
	// fewer faithful claims (docs/BENCHMARKS.md). Each row is a floor a
	// little under the figure measured, so that a regression fails; the
	// last column checks the sets stay hard for the word-overlap guard.
	floors := []struct {
		split, mode      string
		kept, dropped    float64
		oldDroppedAtMost float64
	}{
		{"tune", "cited", 96, 94, 20},
		{"tune", "pool", 95, 94, 20},
		{"holdout", "cited", 99, 96, 20},
		{"holdout", "pool", 99, 96, 20},
		{"fresh", "cited", 95, 95, 20},
		{"fresh", "pool", 95, 93, 20},
		{"fresh2", "cited", 89, 97, 20},
		{"fresh2", "pool", 85, 95, 20},
		{"fresh3", "cited", 94, 90, 20},
		{"fresh3", "pool", 94, 92, 20},
		{"fresh4", "cited", 99, 97, 20},
		{"fresh4", "pool", 95, 97, 20},
		{"fresh5", "cited", 87, 89, 20},
		{"fresh5", "pool", 84, 85, 20},
		{"fresh6", "cited", 95, 92, 20},
		{"fresh6", "pool", 94, 90, 20},
		{"fresh7", "cited", 85, 85, 20},
		{"fresh7", "pool", 84, 82, 20},
		{"fresh8", "cited", 90, 89, 20},
		{"fresh8", "pool", 90, 87, 20},
		{"fresh9", "cited", 89, 85, 20},
		{"fresh9", "pool", 87, 87, 20},
		{"fresh10", "cited", 95, 87, 20},
		{"fresh10", "pool", 94, 84, 20},
		{"fresh11", "cited", 90, 85, 20},
		{"fresh11", "pool", 89, 85, 20},
		{"fresh12", "cited", 92, 94, 20},
		{"fresh12", "pool", 95, 94, 20},
		{"fresh13", "cited", 90, 92, 20},
		{"fresh13", "pool", 87, 92, 20},
		{"fresh14", "cited", 90, 85, 20},
		{"fresh14", "pool", 89, 82, 20},
		{"fresh15", "cited", 95, 95, 20},
		{"fresh15", "pool", 95, 95, 20},
		{"fresh16", "cited", 94, 85, 20},
		{"fresh16", "pool", 94, 85, 20},
		{"fresh17", "cited", 82, 90, 20},
		{"fresh17", "pool", 82, 89, 20},
		{"fresh18", "cited", 90, 87, 20},
		{"fresh18", "pool", 90, 85, 20},
		{"fresh19", "cited", 85, 87, 20},
		{"fresh19", "pool", 85, 84, 20},
		{"fresh20", "cited", 85, 89, 20},
		{"fresh20", "pool", 84, 90, 20},
		{"fresh21", "cited", 90, 85, 20},
		{"fresh21", "pool", 85, 84, 20},
		{"fresh22", "cited", 90, 82, 20},
		{"fresh22", "pool", 87, 82, 20},
		{"fresh23", "cited", 92, 84, 20},
		{"fresh23", "pool", 92, 82, 20},
		{"fresh24", "cited", 92, 80, 20},
		{"fresh24", "pool", 92, 79, 20},
		{"fresh25", "cited", 92, 87, 20},
		{"fresh25", "pool", 90, 87, 20},
		{"fresh26", "cited", 94, 89, 20},
		{"fresh26", "pool", 92, 89, 20},
		{"fresh27", "cited", 94, 85, 20},
		{"fresh27", "pool", 94, 87, 20},
		{"fresh28", "cited", 94, 85, 20},
		{"fresh28", "pool", 94, 85, 20},
		{"fresh29", "cited", 92, 94, 20},
		{"fresh29", "pool", 92, 94, 20},
		{"fresh30", "cited", 87, 95, 20},
		{"fresh30", "pool", 84, 94, 20},
		{"fresh31", "cited", 84, 89, 20},
		{"fresh31", "pool", 82, 87, 20},
		{"fresh32", "cited", 87, 90, 20},
		{"fresh32", "pool", 87, 90, 20},
		{"fresh33", "cited", 74, 84, 20},
		{"fresh33", "pool", 72, 84, 20},
		{"fresh34", "cited", 87, 84, 20},
		{"fresh34", "pool", 87, 84, 20},
		{"fresh35", "cited", 82, 92, 20},
		{"fresh35", "pool", 79, 89, 20},
		{"fresh36", "cited", 95, 85, 20},
		{"fresh36", "pool", 95, 84, 20},
		{"fresh37", "cited", 87, 90, 20},
		{"fresh37", "pool", 84, 90, 20},
		{"fresh38", "cited", 90, 85, 20},
		{"fresh38", "pool", 87, 84, 20},
		{"fresh39", "cited", 99, 90, 20},
		{"fresh39", "pool", 97, 87, 20},
		{"fresh40", "cited", 89, 94, 20},
		{"fresh40", "pool", 89, 92, 20},
		{"fresh41", "cited", 85, 95, 20},
		{"fresh41", "pool", 85, 95, 20},
		{"fresh42", "cited", 85, 90, 20},
		{"fresh42", "pool", 82, 87, 20},
		{"fresh43", "cited", 72, 84, 20},
		{"fresh43", "pool", 70, 84, 20},
		{"fresh44", "cited", 80, 79, 20},
		{"fresh44", "pool", 79, 79, 20},
		{"fresh45", "cited", 75, 82, 20},
		{"fresh45", "pool", 75, 79, 20},
		{"fresh46", "cited", 87, 89, 20},
		{"fresh46", "pool", 84, 85, 20},
		{"fresh47", "cited", 74, 85, 20},
		{"fresh47", "pool", 75, 84, 20},
		{"fresh48", "cited", 84, 82, 20},
		{"fresh48", "pool", 84, 82, 20},
		{"fresh49", "cited", 77, 92, 20},
		{"fresh49", "pool", 79, 85, 20},
		{"fresh50", "cited", 84, 92, 20},
		{"fresh50", "pool", 85, 92, 20},
		{"fresh51", "cited", 82, 82, 20},
		{"fresh51", "pool", 80, 77, 20},
		{"fresh52", "cited", 84, 84, 20},
		{"fresh52", "pool", 84, 84, 20},
		{"fresh53", "cited", 75, 90, 20},
		{"fresh53", "pool", 72, 87, 20},
		{"fresh54", "cited", 80, 89, 20},
		{"fresh54", "pool", 80, 87, 20},
		{"all", "cited", 89, 89, 20},
		{"all", "crowd", 80, 81, 20},
	}
	for _, fl := range floors {
		f, o := sum(js, fl.split, fl.mode), sum(old, fl.split, fl.mode)
		guard := "word-overlap guard: run with -quality.markdown"
		if slices.Contains(guardModes, fl.mode) {
			guard = fmt.Sprintf("word-overlap guard: kept %.1f%%, dropped %.1f%%", o.keptPct(), o.droppedPct())
		}
		t.Logf("%s/%s: faithful kept %d/%d (%.1f%%), fabricated dropped %d/%d (%.1f%%); %s",
			fl.split, fl.mode, f.kept, f.faithful, f.keptPct(), f.dropped, f.fabricated, f.droppedPct(), guard)
		if f.keptPct() < fl.kept {
			t.Errorf("%s/%s: faithful kept %.1f%%, want at least %.0f%%", fl.split, fl.mode, f.keptPct(), fl.kept)
		}
		if f.droppedPct() < fl.dropped {
			t.Errorf("%s/%s: fabricated dropped %.1f%%, want at least %.0f%%", fl.split, fl.mode, f.droppedPct(), fl.dropped)
		}
		if slices.Contains(guardModes, fl.mode) && o.droppedPct() > fl.oldDroppedAtMost {
			t.Errorf("%s/%s: the word-overlap guard drops %.1f%% of the fabrications; the set is meant to be hard for it", fl.split, fl.mode, o.droppedPct())
		}
	}
}

func claimLine(j judged) string {
	s := j.Claim.Content
	if j.Claim.Rationale != "" {
		s += " (why: " + j.Claim.Rationale + ")"
	}
	if j.Claim.Status != "" {
		s = "[" + j.Claim.Status + "] " + s
	}
	return s
}

// printMarkdown prints the figures of each split (in the order of the
// labelled files, then all) and, by class, of each split in cited mode.
func printMarkdown(js, old []judged) {
	var splits []string
	seen := map[string]bool{}
	for _, j := range js {
		if !seen[j.Split] {
			seen[j.Split] = true
			splits = append(splits, j.Split)
		}
	}
	splits = append(splits, "all")
	fmt.Println("| split | mode | faithful kept | fabricated dropped | word-overlap guard: kept / dropped |")
	fmt.Println("|---|---|---|---|---|")
	for _, split := range splits {
		for _, mode := range []string{"cited", "pool", "crowd"} {
			f, o := sum(js, split, mode), sum(old, split, mode)
			if f.faithful+f.fabricated == 0 {
				continue
			}
			fmt.Printf("| %s | %s | %d/%d (%.1f%%) | %d/%d (%.1f%%) | %.1f%% / %.1f%% |\n", split, mode, f.kept, f.faithful, f.keptPct(),
				f.dropped, f.fabricated, f.droppedPct(), o.keptPct(), o.droppedPct())
		}
	}
	fmt.Println()
	var classes []string
	labels := map[string]string{}
	for _, j := range js {
		if _, ok := labels[j.Class]; !ok {
			classes = append(classes, j.Class)
			labels[j.Class] = j.Label
		}
	}
	sort.SliceStable(classes, func(a, b int) bool { return labels[classes[a]] > labels[classes[b]] })
	header, rule := "| label | class |", "|---|---|"
	for _, s := range splits {
		if s != "all" {
			header += " " + s + ", cited |"
			rule += "---|"
		}
	}
	fmt.Println(header + " all, crowd |")
	fmt.Println(rule + "---|")
	for _, c := range classes {
		row := fmt.Sprintf("| %s | %s |", labels[c], c)
		for _, s := range splits {
			if s != "all" {
				bc := sum(js, s, "cited").byClass[c]
				row += fmt.Sprintf(" %d/%d |", bc[0], bc[1])
			}
		}
		bc := sum(js, "all", "crowd").byClass[c]
		fmt.Println(row + fmt.Sprintf(" %d/%d |", bc[0], bc[1]))
	}
}

// vocabCache holds each source's tokens for the word-overlap guard, by
// source (sources are compared whole, so the key is the source itself).
var vocabCache sync.Map

func sourceVocab(s support.Source) map[string]bool {
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%s", s.Title, s.Text, s.Rationale, s.Trigger, s.Context, s.Solution)
	if v, ok := vocabCache.Load(key); ok {
		return v.(map[string]bool)
	}
	v := map[string]bool{}
	for _, f := range []string{s.Title, s.Text, s.Rationale, s.Trigger, s.Context, s.Solution} {
		for _, t := range search.Tokenize(f) {
			v[t] = true
		}
	}
	vocabCache.Store(key, v)
	return v
}

// overlapGuard is the support test this package replaced (word overlap of
// at least 0.75 with the sources, every term with a digit found), kept
// here to measure the difference.
func overlapGuard(c support.Claim, pool []support.Source, cited []string) bool {
	want := map[string]bool{}
	for _, id := range cited {
		want[id] = true
	}
	var vocabs []map[string]bool
	for _, s := range pool {
		if len(cited) > 0 && !want[s.ID] {
			continue
		}
		vocabs = append(vocabs, sourceVocab(s))
	}
	vocab := func(t string) bool {
		for _, v := range vocabs {
			if v[t] {
				return true
			}
		}
		return false
	}
	terms, found, digitMissing := 0, 0, false
	seen := map[string]bool{}
	for _, f := range []string{c.Content, c.Rationale, c.Trigger, c.Context, c.Solution} {
		for _, t := range search.Tokenize(f) {
			if seen[t] {
				continue
			}
			seen[t] = true
			terms++
			if vocab(t) {
				found++
			} else if strings.ContainsAny(t, "0123456789") {
				digitMissing = true
			}
		}
	}
	return terms > 0 && float64(found)/float64(terms) >= 0.75 && !digitMissing
}

// printAblation prints, for each check (function/class) of the support
// test, in cited mode over the splits named: the faithful claims it drops
// and the fabrications it catches, in all and alone (no other check
// objects to the claim), as a Markdown table.
func printAblation(set supporttest.Set, pools map[string][]support.Source, splits []string) {
	want := map[string]bool{}
	for _, s := range splits {
		want[s] = true
	}
	type row struct{ faithAll, faithAlone, fabAll, fabAlone int }
	rows := map[string]*row{}
	get := func(k string) *row {
		if rows[k] == nil {
			rows[k] = &row{}
		}
		return rows[k]
	}
	cs := corpora{}
	faithful, fabricated := 0, 0
	for _, c := range set.Cases {
		if !want[c.Split] {
			continue
		}
		if c.Label == "faithful" {
			faithful++
		} else {
			fabricated++
		}
		_, checks := cs.get(c.Project, pools[c.Project]).CheckTraced(c.Claim.Support(), c.Cites...)
		distinct := map[string]bool{}
		for _, k := range checks {
			distinct[k] = true
		}
		for k := range distinct {
			r := get(k)
			alone := len(distinct) == 1
			if c.Label == "faithful" {
				r.faithAll++
				if alone {
					r.faithAlone++
				}
			} else {
				r.fabAll++
				if alone {
					r.fabAlone++
				}
			}
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := rows[keys[i]], rows[keys[j]]
		if a.faithAlone != b.faithAlone {
			return a.faithAlone > b.faithAlone
		}
		return keys[i] < keys[j]
	})
	fmt.Printf("Splits %s, cited mode: %d faithful, %d fabricated claims.\n\n", strings.Join(splits, "+"), faithful, fabricated)
	fmt.Println("| check (function/class) | faithful dropped: alone / in all | fabricated caught: alone / in all |")
	fmt.Println("|---|---|---|")
	for _, k := range keys {
		r := rows[k]
		fmt.Printf("| `%s` | %d / %d | %d / %d |\n", k, r.faithAlone, r.faithAll, r.fabAlone, r.fabAll)
	}
}

package dream_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
)

func TestParseAnswerToleratesDecoration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		items      int
		diary      string
	}{
		{"plain", "[MEMORY]\n## Notes\n- a fact\n[DREAM]\nI slept.", 1, "I slept."},
		{"bold markers and fences", "Sure! Here it is.\n\n**[MEMORY]**\n```markdown\n## Decisions\n- use pgx\n- use sqlc\n```\n\n**[DREAM]**\nI merged two notes.\n", 2, "I merged two notes."},
		{"headings and colons", "## [memory]:\n## Findings\n* cache is 60 s\n\n## [Dream]:\nShort night.", 1, "Short night."},
		{"dream first", "[DREAM] Quiet night.\n[MEMORY]\n- one\n", 1, "Quiet night."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := dream.ParseAnswer(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Items) != tt.items || a.Diary != tt.diary {
				t.Errorf("got %d items %+v, diary %q; want %d, %q", len(a.Items), a.Items, a.Diary, tt.items, tt.diary)
			}
		})
	}
	long := "[MEMORY]\n- x\n[DREAM]\n" + strings.Repeat("é", dream.MaxDiaryBytes)
	if a, err := dream.ParseAnswer(long); err != nil || len(a.Diary) > dream.MaxDiaryBytes || !utf8.ValidString(a.Diary) {
		t.Errorf("long diary: %d bytes, valid %v, err %v", len(a.Diary), utf8.ValidString(a.Diary), err)
	}
}

func TestParseCompressedReadsSources(t *testing.T) {
	t.Parallel()
	items := dream.ParseCompressed("[MEMORY]\n## Decisions\n- Use pgx (sources: 01aa, 01BB;01CC)\n- no sources here\n- (sources: 01DD)\n## Notes\n- Cache prices (from: 01EE).\n")
	if len(items) != 3 {
		t.Fatalf("got %+v", items)
	}
	if items[0].Text != "Use pgx" || strings.Join(items[0].SourceIDs, ",") != "01AA,01BB,01CC" || items[0].Type != agentmem.TypeDecision {
		t.Errorf("item 0: %+v", items[0])
	}
	if len(items[1].SourceIDs) != 0 || items[2].Text != "Cache prices" || items[2].SourceIDs[0] != "01EE" {
		t.Errorf("items: %+v", items)
	}
}

func FuzzParseAnswer(f *testing.F) {
	f.Add("[MEMORY]\n## Notes\n- a\n[DREAM]\nb")
	f.Add("**[MEMORY]**\n```\n- a\n```\n[DREAM]\n```")
	f.Add("[dream][memory]- x\n")
	f.Add("[MEMORY]\n## Patterns\n- p\n  When: w\n  Confidence: 2\n[DREAM]\n\xff")
	f.Fuzz(func(t *testing.T, text string) {
		a, err := dream.ParseAnswer(text)
		if err != nil {
			if agentmem.ErrorCode(err) != agentmem.ELLMFailed {
				t.Fatalf("error %v is not llm_failed", err)
			}
			return
		}
		if len(a.Items) == 0 || a.Diary == "" || len(a.Diary) > dream.MaxDiaryBytes {
			t.Fatalf("accepted an answer with %d items and a %d-byte diary", len(a.Items), len(a.Diary))
		}
		for _, it := range a.Items {
			if strings.TrimSpace(it.Text) == "" || !it.Type.Valid() {
				t.Fatalf("bad item %+v", it)
			}
		}
	})
}

func FuzzParseCompressed(f *testing.F) {
	f.Add("[MEMORY]\n- x (sources: 01A, 01B)\n")
	f.Add("- (ids: ) \n- y (from:01C)")
	f.Fuzz(func(t *testing.T, text string) {
		for _, it := range dream.ParseCompressed(text) {
			if it.Text == "" {
				t.Fatal("empty item")
			}
			for _, id := range it.SourceIDs {
				if id == "" || strings.ContainsAny(id, ", ;") {
					t.Fatalf("bad id %q", id)
				}
			}
		}
	})
}

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	cfg, err := dream.ConfigFromEnv(env(nil))
	if err != nil || cfg.LookbackDays != 3 || cfg.CompressAfterDays != 7 || cfg.MinSupport != 0.5 || cfg.Lease != 5*time.Minute {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	cfg, err = dream.ConfigFromEnv(env(map[string]string{"AGENTMEM_DREAM_LOOKBACK_DAYS": "7", "AGENTMEM_DREAM_COMPRESS_AFTER_DAYS": "0", "AGENTMEM_DREAM_MIN_SUPPORT": "0.9", "AGENTMEM_DREAM_LEASE": "2m"}))
	if err != nil || cfg.LookbackDays != 7 || cfg.CompressAfterDays >= 0 || cfg.MinSupport != 0.9 || cfg.Lease != 2*time.Minute {
		t.Errorf("set: %+v, %v", cfg, err)
	}
	for k, v := range map[string]string{"AGENTMEM_DREAM_LOOKBACK_DAYS": "0", "AGENTMEM_DREAM_MIN_SUPPORT": "1.5", "AGENTMEM_DREAM_LEASE": "1s", "AGENTMEM_DREAM_MAX_TOKENS": "x"} {
		if _, err := dream.ConfigFromEnv(env(map[string]string{k: v})); err == nil {
			t.Errorf("%s=%s: no error", k, v)
		}
	}
}

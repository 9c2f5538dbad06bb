package console_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/chromedp/chromedp"
)

// reordered lists the text nodes of #main, of the console's own words
// (no bidirectional control in them), whose characters are laid out
// right to left: what stored text with an unclosed override (U+202E),
// embedding or isolate initiator would do to the words after it when it
// shares a run of text with them.
const reordered = `(() => {
  const controls = /[\u202A-\u202E\u2066-\u2069\u200E\u200F]/;
  const out = [];
  const walk = document.createTreeWalker(document.getElementById('main'), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n.data;
    if (controls.test(t)) continue;
    const m = t.match(/[A-Za-z0-9]{2}/);
    if (!m) continue;
    const r = document.createRange();
    r.setStart(n, m.index); r.setEnd(n, m.index + 1);
    const a = r.getBoundingClientRect();
    r.setStart(n, m.index + 1); r.setEnd(n, m.index + 2);
    const b = r.getBoundingClientRect();
    if (a.width && b.width && Math.abs(a.top - b.top) < 2 && a.left > b.left) out.push(t.trim().slice(0, 60));
  }
  return JSON.stringify(out);
})()`

// TestStoredBidiControlsStayInTheirText stores text with bidirectional
// overrides and isolates left open in every kind of field a page shows
// beside the console's own words (a daily record's title beside its time,
// a display name beside its version, a decision's rationale beside its
// other fields) and checks, in Chromium, that no word of the console is
// laid out reversed: stored text must not be able to make the page say
// something else (an hour, a version, a status) than it does.
func TestStoredBidiControlsStayInTheirText(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	c := e.client
	const rlo = "\u202Egnp.exe"    // an override left open
	const rli = "\u2067abc 123 ok" // an isolate left open
	decision, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Type: agentmem.TypeDecision, Content: "Use pgx " + rlo, Rationale: "fast " + rli})
	if err != nil {
		t.Fatal(err)
	}
	conf := 0.5
	if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Type: agentmem.TypePattern, Content: "Flaky test", Trigger: "CI " + rlo, Solution: "retry " + rli, Confidence: &conf}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AppendDaily(ctx, "nori", agentmem.DailyInput{ProjectID: "p", Title: "run " + rlo, Content: "body " + rli}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{DisplayName: "Nori " + rlo, Voice: "warm " + rli}); err != nil {
		t.Fatal(err)
	}
	p := newPage(t)
	p.do("open the console", chromedp.Navigate(e.console.URL()))
	p.waitText("overview", "#main table", "nori")
	for _, pg := range []struct{ hash, css, text string }{
		{"#/agents/nori/projects/p", "#main", "version 1"},
		{"#/agents/nori/projects/p/memories", "#main table", "Use pgx"},
		{"#/agents/nori/projects/p/daily", "#main .records", "body"},
		{"#/agents/nori/projects/p/memories/" + decision.ID, "#main .versions", "Version 1"},
		{"#/personalities", "#main table", "nori"},
	} {
		p.open(pg.hash, pg.css, pg.text)
		p.do("layout "+pg.hash, chromedp.Poll[chromedp.Void](`document.fonts.status === 'loaded'`, chromedp.WithPollingTimeout(5*time.Second)))
		if got := p.eval(reordered); got != "[]" {
			t.Errorf("%s: the console's words laid out reversed by stored text: %s", pg.hash, got)
		}
	}
}

package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/chromedp/chromedp"
)

// TestLongWordsStayInTheWindow stores the longest names the API takes
// (64-character agent, 128-character project, session and key) and
// texts of thousands of characters without a space in every field a page
// shows, and checks in Chromium, wide and narrow, that no page is wider
// than the window: a word too long for its line breaks.
func TestLongWordsStayInTheWindow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	c := e.client
	agent, project := strings.Repeat("a", 64), strings.Repeat("p", 128)
	session, key := strings.Repeat("s", 128), strings.Repeat("k", 128)
	word := strings.Repeat("W", 3000)
	m, err := c.CreateMemory(ctx, agent, agentmem.MemoryInput{ProjectID: project, Type: agentmem.TypeDecision, Content: word, Rationale: word[:2000], Tags: []string{strings.Repeat("t", 64)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AppendDaily(ctx, agent, agentmem.DailyInput{ProjectID: project, Title: word[:200], Content: word}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutPersonality(ctx, agent, agentmem.PersonalityInput{DisplayName: word[:100], Voice: word[:200], Traits: []string{word[:100]}, Prompt: word}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutSessionContext(ctx, project, session, key, word, 3600); err != nil {
		t.Fatal(err)
	}
	p := newPage(t)
	p.do("open the console", chromedp.Navigate(e.console.URL()))
	p.waitText("overview", "#main table", agent)
	base := "#/agents/" + agent + "/projects/" + project
	for _, width := range []int64{1280, 390} {
		p.do("resize", chromedp.EmulateViewport(width, 844))
		for _, pg := range []struct{ hash, css, text string }{
			{"#/", "#main table", agent},
			{base, "pre.file", "# Memory"},
			{base + "?view=rendered", ".file.rendered", "Memory"},
			{base + "/memories", "#main table", "WWW"},
			{base + "/memories/" + m.ID, "#main .versions", "Version 1"},
			{base + "/daily", "#main .records", "WWW"},
			{base + "/session?session=" + session + "&key=" + key, "#main h2", "Session context"},
			{base + "/dreams", "#main h2", "Diary"},
			{"#/personalities", "#main table", agent},
			{"#/personalities/" + agent, "#main form", "Version 1"},
		} {
			p.open(pg.hash, pg.css, pg.text)
			if over := p.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); over != "0" && !strings.HasPrefix(over, "-") {
				t.Errorf("%s at %d px: the page is %s px wider than the window", pg.hash, width, over)
			}
		}
	}
}

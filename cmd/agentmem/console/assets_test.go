package console_test

import (
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// webFiles reads the embedded pages' sources from disk (the same files
// the binary embeds).
func webFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := fs.WalkDir(os.DirFS("web"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path.Join("web", p))
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found %d files under web/", len(files))
	}
	return files
}

// TestPagesNeverTurnTextIntoMarkup keeps the pages' code off every API
// that parses a string as HTML or code, so that stored memory text (which
// may be poisoned) can only ever be text. The Content-Security-Policy's
// Trusted Types requirement enforces the same in the browser.
func TestPagesNeverTurnTextIntoMarkup(t *testing.T) {
	t.Parallel()
	banned := regexp.MustCompile(`\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|DOMParser|createContextualFragment|srcdoc|setAttribute\(\s*['"](style|on)|\.on[a-z]+\s*=|javascript:|setTimeout\(\s*['"]|setInterval\(\s*['"]`)
	for name, src := range webFiles(t) {
		if !strings.HasSuffix(name, ".js") && !strings.HasSuffix(name, ".html") {
			continue
		}
		for i, line := range strings.Split(src, "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "*") || strings.HasPrefix(trimmed, "const FORBIDDEN = ") {
				continue
			}
			if m := banned.FindString(line); m != "" {
				t.Errorf("%s:%d uses %q: build DOM nodes with ui/dom.js (text only)", name, i+1, m)
			}
		}
		if strings.HasSuffix(name, ".html") && (strings.Contains(src, "<script>") || strings.Contains(src, "style=") || regexp.MustCompile(` on[a-z]+=`).MatchString(src)) {
			t.Errorf("%s has inline script, style or handlers, which the policy refuses", name)
		}
	}
}

// TestPagesLoadNothingFromTheNetwork checks that the pages name no other
// origin (no CDN, no font service) and that every module they import and
// every file index.html loads is embedded.
func TestPagesLoadNothingFromTheNetwork(t *testing.T) {
	t.Parallel()
	files := webFiles(t)
	url := regexp.MustCompile(`(?i)\b(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	for name, src := range files {
		for _, m := range url.FindAllString(src, -1) {
			if m != "http://www.w3.org" && m != "//www.w3.org" {
				t.Errorf("%s names another origin: %s", name, m)
			}
		}
	}
	imports := regexp.MustCompile(`(?m)^\s*import\s[^'"]*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]`)
	for name, src := range files {
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		if !strings.HasPrefix(src, "//") {
			t.Errorf("%s does not start with a comment saying what it is for", name)
		}
		for _, m := range imports.FindAllStringSubmatch(src, -1) {
			spec := m[1] + m[2]
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				t.Errorf("%s imports %q, not a file of its own", name, spec)
				continue
			}
			if _, ok := files[path.Join(path.Dir(name), spec)]; !ok {
				t.Errorf("%s imports %q, which is not embedded", name, spec)
			}
		}
	}
	loads := regexp.MustCompile(`(?:src|href)="/static/([^"]+)"`)
	for _, m := range loads.FindAllStringSubmatch(files["index.html"], -1) {
		if _, ok := files[m[1]]; !ok {
			t.Errorf("index.html loads /static/%s, which is not embedded", m[1])
		}
	}
}

// TestAssetsAreServedWithTheirTypes fetches each embedded file through the
// console, as the browser does: module scripts need a JavaScript type
// under nosniff.
func TestAssetsAreServedWithTheirTypes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.browser(t)
	wantType := map[string]string{".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html"}
	for name := range webFiles(t) {
		target := "/static/" + name
		if name == "index.html" {
			target = "/"
		}
		resp, body := e.call(t, c, "GET", target, "", map[string]string{"Origin": "", "X-Agentmem-Console": ""})
		if resp.StatusCode != 200 || body == "" {
			t.Errorf("GET %s: %d", target, resp.StatusCode)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, wantType[path.Ext(name)]) {
			t.Errorf("GET %s: Content-Type %q, want %s", target, ct, wantType[path.Ext(name)])
		}
	}
}

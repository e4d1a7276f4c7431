package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPageIDsExist checks, without a browser, that every element the
// page's scripts look up by id ($("…") in app.js, and "…-err" message boxes
// of the form fields) is in index.html, and that every script and style
// index.html loads is a file web/build copies or writes.
func TestPageIDsExist(t *testing.T) {
	dir := filepath.Join("..", "static")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	html, app := read("index.html"), read("app.js")
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bid="([^"]+)"`).FindAllStringSubmatch(html, -1) {
		ids[m[1]] = true
	}
	used := regexp.MustCompile(`\$\("([^"]+)"\)`).FindAllStringSubmatch(app, -1)
	if len(used) < 20 {
		t.Fatalf("found only %d $(\"id\") look-ups in app.js: the pattern no longer matches the script", len(used))
	}
	for _, m := range used {
		if !ids[m[1]] {
			t.Errorf("app.js looks up #%s, which index.html lacks", m[1])
		}
	}
	// Every field id in the scripts' tables has its message box.
	for _, m := range regexp.MustCompile(`\["((?:c|p)-[a-z]+|n|batch|epochs|rate|steps|noise|target|delta)", "`).FindAllStringSubmatch(app, -1) {
		if !ids[m[1]] || !ids[m[1]+"-err"] {
			t.Errorf("field %s: index.html lacks #%s or #%s-err", m[1], m[1], m[1])
		}
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^":]+\.(?:js|css))"`).FindAllStringSubmatch(html, -1) {
		if m[1] == "wasm_exec.js" {
			continue // the toolchain's, copied by web/build
		}
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("index.html loads %s: %v", m[1], err)
		}
	}
}

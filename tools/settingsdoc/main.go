// Command settingsdoc rewrites the documentation generated from the
// settings table (shared/settings): the README's settings section and
// docs/DEPLOY.md's list of each function's settings. make docs and
// go generate ./shared/settings run it; shared/settings' tests fail when
// the files are out of date.
//
// Usage:
//
//	settingsdoc [-root dir]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentmem/agentmem/shared/settings"
)

func main() {
	root := flag.String("root", ".", "the repository's root `directory`")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "settingsdoc:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	for _, d := range settings.Docs {
		path := filepath.Join(root, d.Path)
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text, changed, err := d.Update(string(raw))
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
		fmt.Println("updated", d.Path)
	}
	return nil
}

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// boardSuitePending are the writing dialects that do not yet run the board part of the conformance
// suite (forumtest.Run) on a board of their own, and why; each still runs its reading part. The
// list only shrinks: a dialect on it that runs the board suite fails the test.
var boardSuitePending = map[string]string{}

// TestDialectsRunConformance: every registered dialect has dialects/<name>/conformance*_test.go
// running the dialect conformance suite (forum/forumtest): the reading part (RunPages) every
// dialect, reading-only ones included, and the board part (Run) every writing dialect.
func TestDialectsRunConformance(t *testing.T) {
	reg := registry()
	writers := map[string]bool{}
	for _, name := range reg.Names() {
		writers[name] = true
	}
	names := reg.ReaderNames()
	for name := range writers {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		files, err := filepath.Glob(filepath.Join("..", "..", "dialects", name, "conformance*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		var src strings.Builder
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
		if !strings.Contains(src.String(), "forumtest.RunPages(") {
			t.Errorf("dialect %s: no dialects/%s/conformance_test.go running forumtest.RunPages (see forum/forumtest)", name, name)
		}
		board := strings.Contains(src.String(), "forumtest.Run(")
		why, pending := boardSuitePending[name]
		switch {
		case writers[name] && !board && !pending:
			t.Errorf("writing dialect %s: no dialects/%s/conformance*_test.go running forumtest.Run on a board it serves", name, name)
		case board && pending:
			t.Errorf("dialect %s runs forumtest.Run now: take it off boardSuitePending (%s)", name, why)
		case !writers[name] && pending:
			t.Errorf("dialect %s writes nothing: take it off boardSuitePending", name)
		}
	}
}

package detect_test

import (
	"os"
	"path/filepath"
	"testing"

	"forumgm/dialects/detect"
	"forumgm/internal/fixture"
)

// Every page of the real MyBB 1.6.18 capture (thread pages in both postbit layouts, forms, result
// and error pages, PM pages, the thread list, the index) is named MyBB 1.6, read by "mybb".
func TestMyBB16Pages(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(fixture.Dir(t, "mybb16"), "*.html"))
	if err != nil || len(pages) < 30 {
		t.Fatalf("%d pages, %v", len(pages), err)
	}
	for _, path := range pages {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) == 0 {
			continue // the 302 of action=lastpost has no body
		}
		f := detect.Identify(raw)
		if f.Engine != "MyBB" || f.Version != "1.6" || f.Dialect != "mybb" {
			t.Errorf("%s: %q %q %q (%q)", filepath.Base(path), f.Engine, f.Version, f.Dialect, f.Evidence)
		}
	}
}

package phpbb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealPages reads the thread pages saved from real boards (testdata/real, see its README)
// against goldens that were checked by reading each page.
func TestRealPages(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "real", "*.html"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no real pages: %v", err)
	}
	cfg := testConfig()
	for _, path := range names {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			posts, err := Extract(raw, "", cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range posts {
				if p.ID == "" || p.Author == "" || p.Time.IsZero() || p.Time.After(time.Now()) || len(p.Problems) > 0 {
					t.Errorf("post %q: author %q time %v problems %q", p.ID, p.Author, p.Time, p.Problems)
				}
			}
			golden(t, filepath.Join("real", strings.TrimSuffix(name, ".html")+".json"), posts)
		})
	}
}

package detect_test

import (
	"os"
	"path/filepath"
	"testing"

	"forumgm/dialects/detect"
	"forumgm/internal/fixture"
)

// FuzzIdentify: any page is identified or not without a panic, always with the evidence said,
// and a guess, when there is one, names a post selector and its id.
func FuzzIdentify(f *testing.F) {
	for _, name := range []string{"phpbb/phpbb30-raspite-raspberrypi.html", "punbb/punbb12-oxygen-textdrive-excerpt.html"} {
		b, err := os.ReadFile(filepath.Join(fixture.RealDir(f), name))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 8000 {
			b = b[:8000]
		}
		f.Add(b)
	}
	f.Add([]byte(`<html id="XF"><meta name="generator" content="vBulletin 4"><div id="post_1"><a href="/user/1">a</a></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		if fp := detect.Identify(page); len(fp.Evidence) == 0 {
			t.Fatalf("no evidence: %+v", fp)
		}
		if g := detect.Guess(page); g != nil && (g["post"] == "" || g["post_id"] == "") {
			t.Fatalf("guess without post or id: %v", g)
		}
	})
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"forumgm/dialects/detect"
	"forumgm/forum"
	"forumgm/internal/fixture"
)

// TestDetectReal: `forumgm detect --file` names the engine of every real page in
// testdata/realboards, and the dialect it names reads the page; the forum: block it prints is
// YAML that `forumgm posts --config` reads the page with.
func TestDetectReal(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(fixture.RealDir(t), "*", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatal("no real pages", err)
	}
	for _, path := range pages {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{"detect", "--json", "--file", path}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var got struct {
				Engine, Dialect, Error string
				Posts                  []forum.Post
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Engine == "" || got.Dialect == "" || got.Error != "" || len(got.Posts) == 0 {
				t.Fatalf("engine %q dialect %q: %d posts, %s", got.Engine, got.Dialect, len(got.Posts), got.Error)
			}
			out.Reset()
			if code := run([]string{"detect", "--file", path}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			text := out.String()
			i := strings.Index(text, "\nforum:\n")
			if !strings.Contains(text, "engine:   "+got.Engine) || i < 0 {
				t.Fatalf("no engine line or forum: block:\n%s", text)
			}
			cfg := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(cfg, []byte(text[i+1:]), 0o644); err != nil {
				t.Fatal(err)
			}
			var block map[string]any
			if err := yaml.Unmarshal([]byte(text[i+1:]), &block); err != nil {
				t.Fatalf("forum: block is not YAML: %v\n%s", err, text[i+1:])
			}
			out.Reset()
			if code := run([]string{"posts", "--json", "--config", cfg, "--file", path}, &out, &errb); code != 0 {
				t.Fatalf("posts --config: exit %d: %s", code, errb.String())
			}
			var posts []forum.Post
			if err := json.Unmarshal(out.Bytes(), &posts); err != nil || len(posts) != len(got.Posts) {
				t.Fatalf("posts --config: %d posts (detect read %d), %v", len(posts), len(got.Posts), err)
			}
		})
	}
}

// `forumgm posts --extra` overrides the config's selectors, one key at a time.
func TestPostsExtra(t *testing.T) {
	path := filepath.Join(fixture.RealDir(t), "generic", "xenforo2-default-xenforo-community.html")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("forum:\n  dialect: generic\n  extra:\n    post: article.message--post\n    post_id: \"@data-content\"\n    post_id_re: 'post-(\\d+)'\n    time: time.u-dt@datetime\n    body: .bbWrapper\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"posts", "--config", cfg, "--file", path}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "author: missing") {
		t.Fatalf("without author: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"posts", "--json", "--config", cfg, "--extra", "author=@data-author", "--file", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var posts []forum.Post
	if err := json.Unmarshal(out.Bytes(), &posts); err != nil || len(posts) != 8 || posts[0].Author != "dieketzer" {
		t.Fatalf("%d posts, %v: %s", len(posts), err, out.String())
	}
}

// A Discourse topic URL gives the forum root and the topic id, whatever the slug holds.
func TestForumBlockDiscourse(t *testing.T) {
	for url, want := range map[string]string{
		"https://forum.example/t/partiya-2-mafiya/1234/17": "  url: https://forum.example/\n  dialect: discourse\n  thread: \"1234\"",
		"https://example.org/community/t/1234":             "  url: https://example.org/community/\n  dialect: discourse\n  thread: \"1234\"",
		"https://forum.example/t/2026-games/77":            "  url: https://forum.example/\n  dialect: discourse\n  thread: \"77\"",
	} {
		got := forumBlockYAML(detect.Finding{Engine: "Discourse", Dialect: "discourse"}, url, "UTC")
		if !strings.Contains(got, want) {
			t.Errorf("%s:\n%s\nwant it to hold\n%s", url, got, want)
		}
	}
}

// The forum: block of XenForo 2 and Invision names the board's base (before threads/, topic/)
// and the thread's number from the page URL.
func TestForumBlockPathDialects(t *testing.T) {
	for _, tc := range []struct{ dialect, url, base, thread string }{
		{"xenforo", "https://xenforo.com/community/threads/a-dark-theme-option.8276/page-2", "https://xenforo.com/community/", `"8276"`},
		{"invision", "https://forum.armbian.com/topic/34923-csc-armbian-for-rk322x-tv-box-boards/page/3/", "https://forum.armbian.com/", `"34923"`},
	} {
		block := forumBlockYAML(detect.Finding{Dialect: tc.dialect}, tc.url, "UTC")
		if !strings.Contains(block, "url: "+tc.base+"\n") || !strings.Contains(block, "thread: "+tc.thread+" ") {
			t.Errorf("%s:\n%s", tc.dialect, block)
		}
	}
}

// A saved Discourse topic page (HTML, not its JSON): `detect` names Discourse and reads it, and
// `forumgm posts --dialect discourse --file` returns its posts from the crawler view.
func TestPostsDiscourseHTML(t *testing.T) {
	path := filepath.Join(fixture.Root(t), "dialects", "discourse", "testdata", "html", "crawler-2026.html")
	var out, errb bytes.Buffer
	if code := run([]string{"detect", "--json", "--file", path}, &out, &errb); code != 0 {
		t.Fatalf("detect: exit %d: %s", code, errb.String())
	}
	var got struct {
		Engine, Dialect, Error string
		Posts                  []forum.Post
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Engine != "Discourse" || got.Dialect != "discourse" || got.Error != "" || len(got.Posts) != 3 {
		t.Fatalf("detect: %v %+v", err, got)
	}
	out.Reset()
	if code := run([]string{"posts", "--json", "--dialect", "discourse", "--file", path}, &out, &errb); code != 0 {
		t.Fatalf("posts: exit %d: %s", code, errb.String())
	}
	var posts []forum.Post
	if err := json.Unmarshal(out.Bytes(), &posts); err != nil || len(posts) != 3 || posts[2].Author != "boris" || posts[2].Text != "Отвечаю: a2-a3." || posts[2].Quotes[0].PostID != "2" {
		t.Fatalf("posts: %v %s", err, out.String())
	}
}

// A saved page that names its own address (a canonical link, og:url) gives the forum: block its
// board and thread instead of a placeholder (issue 21, item 5); a page that names none keeps the
// placeholder to fill in.
func TestDetectFileOwnURL(t *testing.T) {
	for path, want := range map[string]string{
		"../../testdata/realboards/generic/xenforo23-ragezone-t539161.html":     "  url: https://forum.ragezone.com/\n  dialect: xenforo\n  thread: \"539161\"",
		"../../testdata/realboards/phpbb/phpbb32-allanstyle-dostips-t5588.html": "  url: https://forum.example.org/\n  dialect: phpbb\n  thread: \"1\"",
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"detect", "--file", path}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: the forum: block lacks\n%s\ngot:\n%s", path, want, out.String())
		}
	}
}

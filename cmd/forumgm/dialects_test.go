package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"forumgm/forum"
)

// TestDialectsLinked checks that the forumgm binary links every dialect and wires the generic
// dialect's real-browser writer in (openForum), so that a configuration asking for browser=true
// opens instead of failing at run time. The test binary links more than forumgm does
// (internal/chrome imports dialects/generic/browser), so the binary's own imports are asked of go list.
func TestDialectsLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, pkg := range []string{"generic/browser", "discourse", "generic", "invision", "mybb", "mybbru", "phpbb", "punbb", "smf", "xenforo"} {
		if !slices.Contains(deps, "forumgm/dialects/"+pkg) {
			t.Errorf("forumgm does not link forumgm/dialects/%s (see dialects.go)", pkg)
		}
	}
	reg := registry()
	for _, name := range []string{"discourse", "generic", "invision", "mybb", "mybbru", "phpbb", "punbb", "smf", "xenforo"} {
		if !slices.Contains(reg.Names(), name) {
			t.Errorf("dialect %q is not registered (have %v)", name, reg.Names())
		}
	}
	// Reading-only dialects: `forumgm posts --dialect` lists and reads them.
	for _, name := range []string{"ucoz", "vbulletin5"} {
		if !slices.Contains(reg.ReaderNames(), name) {
			t.Errorf("no page reader %q (have %v)", name, reg.ReaderNames())
		}
	}
	// Opening starts no browser: it starts on first use.
	cfg := forum.Config{BaseURL: "http://127.0.0.1:1/", Username: "gm-bot", Password: "x", Extra: map[string]string{
		"browser": "true", "post": "div.post", "post_id": "@id", "author": ".author", "time": ".time", "body": ".body",
		"thread_url": "viewtopic.php?id={thread}&p={page}",
	}}
	if _, err := openForum("generic", cfg); err != nil {
		t.Fatalf("generic with browser=true: %v", err)
	}
}

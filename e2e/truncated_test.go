package e2e

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/dialects"
	"forumgm/forum"
)

// Every dialect refuses a page cut short (here: every page the forum serves stops mid-post, as
// after a PHP fatal error): reading the thread fails with forum.ErrTruncated instead of taking
// the half page for the thread.
func TestEveryDialectRefusesATruncatedPage(t *testing.T) {
	const cut = `<!DOCTYPE html><html><head><title>Тема</title></head><body><div id="brdmain">
<div class="post" id="post_5"><div class="post_body">1-й ход крестоносца к1 на O
<br /><b>Fatal error</b>: Allowed memory size of 134217728 bytes exhausted`
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(cut))
	}))
	defer srv.Close()
	generic := map[string]string{"thread_url": "viewtopic.php?id={thread}&p={page}", "post": "div.post", "post_id": "@id",
		"author": ".author", "time": ".time", "text": ".post_body", "rate": "1000"}
	for _, name := range []string{"mybb", "mybbru", "phpbb", "punbb", "smf", "generic"} {
		t.Run(name, func(t *testing.T) {
			extra := map[string]string{"rate": "1000"}
			if name == "generic" {
				extra = generic
			}
			f, err := dialects.Registry(dialects.Options{}).Open(name, forum.Config{BaseURL: srv.URL + "/", Username: "gm-bot", Password: "pw",
				Location: time.UTC, Now: time.Now, Extra: extra})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			before := hits.Load()
			posts, _, err := f.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
			if !errors.Is(err, forum.ErrTruncated) {
				t.Errorf("Posts on a truncated page: %d posts, %v; want ErrTruncated", len(posts), err)
			}
			if hits.Load() == before || strings.Contains(err.Error(), "Fatal error") {
				t.Errorf("no page was read, or the error quotes the page: %v", err)
			}
		})
	}
}

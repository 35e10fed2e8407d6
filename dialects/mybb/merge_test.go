package mybb

import (
	"testing"
	"time"

	"forumgm/forum"
)

// The board's merge window (postmergemins) is MyBB's default unless the forum's extra names it.
func TestMergeWindow(t *testing.T) {
	for _, c := range []struct {
		extra string
		want  time.Duration
		bad   bool
	}{
		{"", 60 * time.Minute, false},
		{"30", 30 * time.Minute, false},
		{"0", 0, false},
		{"-5", 0, true},
		{"час", 0, true},
	} {
		extra := map[string]string{}
		if c.extra != "" {
			extra["merge_minutes"] = c.extra
		}
		f, err := New(forum.Config{BaseURL: "http://127.0.0.1:1/", Extra: extra})
		if c.bad {
			if err == nil {
				t.Errorf("merge_minutes %q was taken", c.extra)
			}
			continue
		}
		if err != nil {
			t.Fatalf("merge_minutes %q: %v", c.extra, err)
		}
		m, ok := forum.As[forum.Merger](forum.Forum(f))
		if !ok || m.MergeWindow() != c.want {
			t.Errorf("merge_minutes %q: window %v (a Merger: %v), want %v", c.extra, m, ok, c.want)
		}
	}
}

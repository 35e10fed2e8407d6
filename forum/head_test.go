package forum

import (
	"testing"
	"time"
)

func TestThreadHeadSame(t *testing.T) {
	at := time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)
	base := ThreadHead{ID: "5", LastPostID: "77", Replies: 4, LastAt: at, LastPoster: "Джелу"}
	for _, tc := range []struct {
		name string
		o    ThreadHead
		want bool
	}{
		{"equal", base, true},
		{"other thread", ThreadHead{ID: "6", LastPostID: "77", Replies: 4, LastAt: at}, false},
		{"new post id", ThreadHead{ID: "5", LastPostID: "78", Replies: 4, LastAt: at}, false},
		{"one more reply", ThreadHead{ID: "5", Replies: 5, LastAt: at, LastPoster: "Джелу"}, false},
		{"later post", ThreadHead{ID: "5", Replies: 4, LastAt: at.Add(time.Minute)}, false},
		{"other poster", ThreadHead{ID: "5", Replies: 4, LastAt: at, LastPoster: "snovaya"}, false},
		{"only replies shown, equal", ThreadHead{ID: "5", Replies: 4}, true},
		{"nothing comparable", ThreadHead{ID: "5", Replies: -1, LastPoster: "Джелу"}, false},
	} {
		if got := base.Same(tc.o); got != tc.want {
			t.Errorf("%s: Same = %v", tc.name, got)
		}
		if got := tc.o.Same(base); got != tc.want {
			t.Errorf("%s (reversed): Same = %v", tc.name, got)
		}
	}
}

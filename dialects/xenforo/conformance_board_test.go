package xenforo

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The dialect conformance suite (forum/forumtest) on the fake XenForo 2 board (fake_test.go).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: startFake})
}

func startFake(t *testing.T) *forumtest.Board {
	f := newFakeXF(t)
	x, _ := open(t, f, nil)
	const player = "Игрок"
	type written struct {
		unix int64
		text string
	}
	posts := map[int]written{}
	return &forumtest.Board{
		Forum: x, Thread: forum.Thread{ID: "8276"}, NotThread: forum.Thread{ID: "9999"}, Player: player,
		Post: func(_ testing.TB, text string) string {
			id := f.addPost(player, text)
			f.mu.Lock()
			posts[id] = written{f.nowUnix, text}
			f.mu.Unlock()
			return strconv.Itoa(id)
		},
		Grow: func(t testing.TB, id, text string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			n, _ := strconv.Atoi(id)
			w, ok := posts[n]
			if !ok {
				t.Fatalf("post %s is not the harness's", id)
			}
			for i := range f.posts {
				if f.posts[i].id == n {
					f.posts[i].html = f.article(n, player, w.unix, w.text+"\n\n"+text, false)
				}
			}
		},
		LogOut: func(testing.TB) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.session = ""
		},
		Flood: func(testing.TB) time.Duration {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.flood = []int{30}
			return 30 * time.Second
		},
		TooLong: func(testing.TB) string { return strings.Repeat("x", 25001) },
		PM: func(_ testing.TB, subject, text string) {
			f.receive(0, player, subject, text)
		},
		Cut: func(_ testing.TB, text string) { f.front.Cut(text) },
		WrongThread: func(testing.TB) forum.Thread {
			// The thread's pages relabelled as thread 8301's: its links, its content key, its
			// search filter, and the latest post's redirect.
			f.front.Relabel(".8276/", ".8301/", "thread-8276", "thread-8301", ":8276}", ":8301}")
			return forum.Thread{ID: "8301"}
		},
	}
}

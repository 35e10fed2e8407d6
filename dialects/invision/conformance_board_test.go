package invision

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The dialect conformance suite (forum/forumtest) on the fake Invision Community 4.7 board
// (fake_test.go).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: startFake})
}

func startFake(t *testing.T) *forumtest.Board {
	f := newFakeIPS(t)
	x, _ := open(t, f, nil)
	const player = "Игрок"
	type written struct {
		unix int64
		text string
	}
	posts := map[int]written{}
	return &forumtest.Board{
		Forum: x, Thread: forum.Thread{ID: topicID}, NotThread: forum.Thread{ID: "99999"}, Player: player,
		Post: func(_ testing.TB, text string) string {
			id := f.addComment(player, text)
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
				t.Fatalf("comment %s is not the harness's", id)
			}
			for i := range f.comments {
				if f.comments[i].id == n {
					f.comments[i].html = f.comment(n, player, w.unix, w.text+"<p>"+text+"</p>")
				}
			}
		},
		LogOut: func(testing.TB) {
			f.mu.Lock()
			defer f.mu.Unlock()
			clear(f.sessions)
		},
		Flood: func(testing.TB) time.Duration {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.flood = []int{17}
			return 17 * time.Second
		},
		TooLong: func(testing.TB) string { return strings.Repeat("x", 50001) },
		PM: func(_ testing.TB, subject, text string) {
			f.receive(0, player, subject, text)
		},
		Cut: func(_ testing.TB, text string) { f.front.Cut(text) },
		WrongThread: func(testing.TB) forum.Thread {
			f.front.Relabel(topicID, "34924") // the topic's pages as topic 34924's: links, redirects, the comment form
			return forum.Thread{ID: "34924"}
		},
	}
}

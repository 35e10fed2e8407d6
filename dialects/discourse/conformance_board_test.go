package discourse

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The dialect conformance suite (forum/forumtest) on the fake Discourse (fake_test.go).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: startFake})
}

func startFake(t *testing.T) *forumtest.Board {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	topic := f.addTopic(3, func(i int) string { return fmt.Sprintf("<p>Ход %d принят.</p>", i) })
	const player = "alice"
	return &forumtest.Board{
		Forum: d, Thread: forum.Thread{ID: strconv.Itoa(topic)}, NotThread: forum.Thread{ID: "99999"}, Player: player,
		Post: func(_ testing.TB, text string) string {
			return strconv.Itoa(f.addPost(topic, player, "<p>"+text+"</p>", 1))
		},
		Grow: func(t testing.TB, id, text string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, p := range f.topics[topic].posts {
				if fmt.Sprint(p["id"]) == id {
					p["cooked"] = p["cooked"].(string) + "<p>" + text + "</p>"
					p["version"] = 2
					return
				}
			}
			t.Fatalf("no post %s", id)
		},
		LogOut: func(testing.TB) { f.expire() },
		Flood: func(testing.TB) time.Duration {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.rateLimit, f.wait = 1, 9
			return 9 * time.Second
		},
		TooLong: func(testing.TB) string { return strings.Repeat("x", 32001) },
		PM: func(_ testing.TB, subject, text string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.nextTopic++
			tp := &fakeTopic{id: f.nextTopic, title: subject, pm: true, users: []string{player, "gm-bot"}}
			f.topics[tp.id] = tp
			f.addPostLocked(tp, player, "<p>"+text+"</p>", 1)
		},
		Cut: func(_ testing.TB, text string) { f.front.Cut(text) },
		WrongThread: func(testing.TB) forum.Thread {
			other := f.addTopic(2, func(i int) string { return fmt.Sprintf("<p>Ход %d в другой теме.</p>", i) })
			re := regexp.MustCompile(`^/t/` + strconv.Itoa(topic) + `([./])`)
			f.front.Swap(func(u *url.URL) { // the topic's requests answered with the other's
				u.Path = re.ReplaceAllString(u.Path, "/t/"+strconv.Itoa(other)+"$1")
			})
			return forum.Thread{ID: strconv.Itoa(other)}
		},
	}
}

package sandbox

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A post's permalink is answered as MyBB 1.8's showthread.php answers it: the page holding the
// post; with the id of another thread's post, the page of the thread asked for that a post of
// that time would be on (its posts up to then), the first page when none is that old; without
// a thread, the post's own thread.
func TestPermalinkPages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var game, other []SeedPost
	for i := range 20 {
		game = append(game, SeedPost{Author: "Джелу", Message: "в игре " + strconv.Itoa(i), Time: t0.Add(time.Duration(i) * time.Minute)})
	}
	other = append(other, SeedPost{Author: "snovaya", Message: "рано", Time: t0.Add(-time.Hour)})
	for i := range 20 {
		other = append(other, SeedPost{Author: "snovaya", Message: "рядом " + strconv.Itoa(i), Time: t0.Add(time.Duration(i)*time.Minute + 30*time.Second)})
	}
	sb, err := New(ctx, Options{DBPath: t.TempDir() + "/board.db", Now: func() time.Time { return t0.Add(time.Hour) },
		Users:   []User{{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}},
		Threads: []Thread{{Subject: "Игра", Posts: game}, {Subject: "Флуд", Posts: other}}, PostsPerPage: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	base, err := sb.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pids := func(tid int) []int {
		ps, err := sb.Posts(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, p := range ps {
			out = append(out, p.PID)
		}
		return out
	}
	g, o := pids(1), pids(2)
	for _, c := range []struct {
		name, query string
		want        string // a post's text on the page answered
	}{
		{"own post", "tid=1&pid=" + strconv.Itoa(g[9]), "в игре 9"},
		{"own post, last page", "tid=1&pid=" + strconv.Itoa(g[19]), "в игре 16"},
		// o[10] was made 30 s after g[9]: ten posts of the game's thread up to then.
		{"another thread's post", "tid=1&pid=" + strconv.Itoa(o[10]), "в игре 8"},
		{"another thread's post after the 8th", "tid=1&pid=" + strconv.Itoa(o[8]), "в игре 7"},
		{"another thread's post older than the thread", "tid=1&pid=" + strconv.Itoa(o[0]), "в игре 0"},
		{"no thread", "pid=" + strconv.Itoa(o[10]), "рядом 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := http.Get(base + "/showthread.php?" + c.query)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), c.want+"<") && !strings.Contains(string(body), c.want+"\n") {
				t.Errorf("showthread.php?%s: the page does not show %q", c.query, c.want)
			}
		})
	}
}

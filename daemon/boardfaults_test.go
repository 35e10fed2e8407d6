package daemon

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/internal/faultproxy"
	"forumgm/store"
)

// The board's own faults in the fault harness (issue 19), under the proxy's page faults: a post
// id hidden then shown (the sandbox's moderation queue: Hold, Approve) and a post merged before
// the first read (the sandbox's auto-merge). Every player post id the board shows, and every part
// of a merged one, ends with a verdict or a flag, and no reply is posted twice.
func TestFaultsBoardHiddenAndMerged(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*faultSeeds); seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
			r := newRig(t, start, fakeFactory)
			px, err := faultproxy.Start(r.ctx, r.url, faultproxy.Options{Seed: seed, Hang: 300 * time.Millisecond,
				LoginPath: "member.php?action=login", CutAfter: `class="post_body scaleimages"`,
				Rules: []faultproxy.Rule{{Name: "pages", Match: func(q *http.Request) bool { return q.Method == http.MethodGet }, Kinds: allKinds, Rate: 0.25}}})
			if err != nil {
				t.Fatal(err)
			}
			defer px.Close()
			r.fo = newForum(t, px.URL(), r.clock)
			r.d = r.newDaemon(t, fakeFactory)
			// settle runs cycles until the outbox is empty, a rescan had its chance, and done
			// (if any) holds: a rescan the proxy's faults cut comes again a minute later.
			settle := func(what string, done ...func() bool) {
				t.Helper()
				for i := 0; ; i++ {
					r.clock.Advance(30 * time.Second)
					_, err := r.d.Cycle(r.ctx)
					pending, perr := r.st.PendingOutbox(r.ctx, "g1")
					if perr != nil {
						t.Fatal(perr)
					}
					if err == nil && len(pending) == 0 && i >= 2 && (len(done) == 0 || done[0]()) { // i >= 2: a rescan too (Rescan: a minute)
						return
					}
					if i == 60 {
						t.Fatalf("%s: still failing after %d cycles: %v", what, i, err)
					}
				}
			}
			settle("start")
			r.post(t, "Джелу", "1-й ход крестоносца")
			settle("a move")
			// Merged before the first read: a refused move and its correction, one post.
			r.clock.Advance(time.Minute)
			merged := r.post(t, "snovaya", "плохой ход сарацина")
			r.clock.Advance(5 * time.Second)
			if pid, ok, err := r.board.Reply(r.ctx, "snovaya", 1, "ход сарацина исправлен"); err != nil || !ok || pid != merged {
				t.Fatalf("not merged: %d %v %v", pid, ok, err)
			}
			settle("a merged post")
			// Hidden then shown: held in the queue while a later post is judged.
			r.clock.Advance(time.Minute)
			hidden := r.post(t, "Джелу", "2-й ход крестоносца")
			if err := r.board.Hold(r.ctx, hidden); err != nil {
				t.Fatal(err)
			}
			r.post(t, "Вася", "просто болтовня")
			settle("a post after the held one")
			if err := r.board.Approve(r.ctx, hidden); err != nil {
				t.Fatal(err)
			}
			settle("the held post shown", func() bool { // found by a rescan (late.go)
				rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(hidden))
				return err == nil && ok && rec.Judged()
			})

			posts, err := r.board.Posts(r.ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			ids := []string{partID(strconv.Itoa(merged), 2)}
			for _, p := range posts {
				if p.Author != "gm-bot" {
					ids = append(ids, strconv.Itoa(p.PID))
				}
			}
			for _, id := range ids {
				rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, id)
				if err != nil || !ok || !rec.Judged() {
					t.Errorf("post %s has no verdict: %+v %v %v", id, rec.Verdict, ok, err)
				}
			}
			replies := strings.Join(r.botTexts(t), "\n")
			for _, want := range []string{"Ход отклонён: " + strconv.Itoa(merged), "(пост " + partID(strconv.Itoa(merged), 2) + ")", "(пост " + strconv.Itoa(hidden) + ")"} {
				if strings.Count(replies, want) != 1 {
					t.Errorf("%q answered %d times, want once", want, strings.Count(replies, want))
				}
			}
			markers := markerKeyRe.FindAllString(replies, -1)
			seen := map[string]bool{}
			for _, m := range markers {
				if seen[m] {
					t.Errorf("reply %s posted twice", m)
				}
				seen[m] = true
			}
			faults, requests := px.Counts()
			t.Logf("seed %d: %d requests, faults %v", seed, requests, faults)
		})
	}
}

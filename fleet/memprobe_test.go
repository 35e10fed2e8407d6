package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	_ "forumgm/games/crusade"
	_ "forumgm/poster/mybb"
	"forumgm/sandbox"
	"forumgm/store"
)

func TestMemProbe(t *testing.T) {
	if os.Getenv("MEMPROBE") == "" {
		t.Skip()
	}
	games := 500
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	var threads []sandbox.Thread
	for i := range games {
		threads = append(threads, sandbox.Thread{Subject: fmt.Sprint(i), Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "x y z"}}})
	}
	board, _ := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "b.db"), Threads: threads, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Users: []sandbox.User{{Name: "gm-bot", Password: "bot-pw-123"}, {Name: "Moderator", Password: "m"}, {Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}}})
	url, _ := board.Start(ctx, "127.0.0.1:0")
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "forums:\n  main: {url: %q, dialect: mybb, timezone: UTC, bot: {username: gm-bot, password_env: FLEET_BOT_PW}, extra: {rate: \"1000\"}}\nmoderators: [Moderator]\nstore: {path: %s}\ngames:\n", url+"/", filepath.Join(dir, "f.db"))
	for i := range games {
		fmt.Fprintf(&cfg, "  - {id: g%d, kind: crusade, forum: main, thread: %q, timezone: UTC, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}], settings: {daily_question: false, board_required: false}}\n", i+1, strconv.Itoa(i+1))
	}
	os.Setenv("FLEET_BOT_PW", "bot-pw-123")
	c, err := config.Parse([]byte(cfg.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	fl, _ := New(Options{Store: st})
	var m0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	if err := fl.Apply(ctx, c); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Second)
	var m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t.Logf("heap in use: before %.1f MB, after %.1f MB (%.1f KB/game); sys %.1f MB; goroutines %d", float64(m0.HeapInuse)/1e6, float64(m1.HeapInuse)/1e6, float64(m1.HeapInuse-m0.HeapInuse)/1e3/float64(games), float64(m1.Sys)/1e6, runtime.NumGoroutine())
	f, _ := os.Create("/tmp/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	_ = daemon.RealClock{}
}

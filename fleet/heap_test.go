package fleet

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

var heapProfile = flag.String("fleet.heapprofile", "", "TestIdleGameHeap: save a heap profile of every allocation (MemProfileRate 1) of the idle games to this file")

// maxIdleGameHeap is the Go heap one idle Crusade game may hold between cycles (its daemon, referee
// and board, its forum view and section entry, its metric series, its timer), measured over many
// games opened and settled in one process (TestIdleGameHeap). Issue 23: 500 games ≤ 40 MB RSS.
const maxIdleGameHeap = 24 << 10

// TestIdleGameHeap: idle Crusade games opened by a fleet and settled (openings posted, cursors at
// the threads' ends) hold at most maxIdleGameHeap of live heap each, after a collection.
func TestIdleGameHeap(t *testing.T) {
	const games = 120
	if *heapProfile != "" {
		runtime.MemProfileRate = 1
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	w := newWorld(t, games, func(i int) string {
		return fmt.Sprintf(`  - {id: c%d, kind: crusade, forum: main, thread: "%d", section: "10", timezone: UTC, roster: [{name: Гарри, side: crusaders}, {name: Драко, side: saracens}], settings: {daily_question: false, board_required: false}}
`, i+1, i+1)
	})
	w.run(t, 30*time.Second) // every game's opening posted and read back
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / games
	t.Logf("%d idle Crusade games: %d KB of live heap, %.1f KB a game", games, (int64(after.HeapAlloc)-int64(before.HeapAlloc))>>10, float64(per)/1024)
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			t.Fatal(err)
		}
	}
	if per > maxIdleGameHeap {
		t.Errorf("an idle game holds %d bytes of heap, want at most %d", per, maxIdleGameHeap)
	}
	runtime.KeepAlive(w)
}

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
// games opened and settled in one process (TestIdleGameHeap): about 17 KB (49 KB before issue 23's
// cuts: a posted reply's outbox item, the post texts its markers came from, the YAML tree, the
// metric series, the board's drawings). Issue 23: 500 games ≤ 40 MB RSS.
const maxIdleGameHeap = 22 << 10

// TestIdleGameHeap: idle Crusade games opened by a fleet and settled (openings posted, cursors at
// the threads' ends) hold at most maxIdleGameHeap of live heap each, after a collection. The
// figure is the difference between two fleets of different sizes, after a first one has paid
// what is paid once (templates, tables): what one more game costs.
func TestIdleGameHeap(t *testing.T) {
	const small, large = 20, 140
	idleHeap(t, 1, "") // what is paid once
	a := idleHeap(t, small, "")
	b := idleHeap(t, large, *heapProfile)
	per := (b - a) / (large - small)
	t.Logf("idle Crusade games: %d games %d KB of live heap, %d games %d KB: %.1f KB a game", small, a>>10, large, b>>10, float64(per)/1024)
	if per > maxIdleGameHeap {
		t.Errorf("an idle game holds %d bytes of heap, want at most %d", per, maxIdleGameHeap)
	}
}

// idleHeap opens games idle Crusade games in a world of their own, lets them settle and reports
// the live heap they added (profile: a heap profile of every allocation is saved there).
func idleHeap(t *testing.T, games int, profile string) int64 {
	if profile != "" {
		runtime.MemProfileRate = 1
		defer func() { runtime.MemProfileRate = 512 * 1024 }()
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	w := newWorld(t, worldOptions{games: games, entry: func(i int) string {
		return fmt.Sprintf(`  - {id: c%d, kind: crusade, forum: main, thread: "%d", section: "10", timezone: UTC, roster: [{name: Гарри, side: crusaders}, {name: Драко, side: saracens}], settings: {daily_question: false, board_required: false}}
`, i+1, i+1)
	}})
	w.run(t, 30*time.Second) // every game's opening posted and read back
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			t.Fatal(err)
		}
	}
	runtime.KeepAlive(w)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

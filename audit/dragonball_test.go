package audit

import (
	"strings"
	"testing"
)

// threadOf replays an example and gives the thread as a forum shows it, as a transcript.
// A Dragonball thread (orders sent privately, reports in the thread) verifies with its seed
// (settings.seed 7 in the example): the balls' start draws (made under the chain after the first
// player post) and the rounds' draws are re-derived.
func TestDragonballThreadVerifies(t *testing.T) {
	tr := threadOf(t, "../games/dragonball/examples/dragonball-score.yaml")
	rep, err := Thread(tr, "7", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("an honest thread fails:\n%s", rep)
	}
	var starts, rounds int
	for _, l := range rep.Lines {
		switch {
		case strings.HasPrefix(l.Text, "draw ") && strings.Contains(l.Text, "dragonball.balls_drawn") && strings.Contains(l.Text, "chain after post 1,"):
			starts++
		case strings.HasPrefix(l.Text, "draw ") && strings.Contains(l.Text, "dragonball.round_resolved"):
			rounds++
		}
	}
	if starts == 0 || rounds == 0 {
		t.Fatalf("want the start's and the rounds' draws checked, got %d and %d:\n%s", starts, rounds, rep)
	}
}

func TestDragonballChangedSeedFails(t *testing.T) {
	tr := threadOf(t, "../games/dragonball/examples/dragonball-score.yaml")
	rep, err := Thread(tr, "8", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f := failures(rep)
	if rep.OK() || len(f) == 0 || !strings.Contains(f[0], "commitment") {
		t.Fatalf("a changed seed must fail on the commitment first:\n%s", rep)
	}
	// A round report rewritten after the fact fails too (with the right seed).
	tr = threadOf(t, "../games/dragonball/examples/dragonball-score.yaml")
	changed := false
	for i, p := range tr.Posts {
		if p.Author == tr.Bot && strings.Contains(p.Text, "глотает чёрный мяч") {
			tr.Posts[i].Text = strings.Replace(p.Text, "«Змеи» глотает", "«Грифоны» глотает", 1)
			changed = true
		}
	}
	if !changed {
		t.Fatal("no report with the swallowed black ball")
	}
	rep, _ = Thread(tr, "7", "transcript")
	if f := failures(rep); len(f) != 1 || !strings.Contains(f[0], "differs") {
		t.Fatalf("want exactly the rewritten report flagged, got:\n%s", rep)
	}
}

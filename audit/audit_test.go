package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/transcript"
)

// thread replays an example and gives the whole thread as a forum shows it, as a transcript.
func thread(t *testing.T) *transcript.Transcript {
	t.Helper()
	return threadOf(t, "../games/crusade/examples/crusade-flag.yaml")
}

// threadOf replays an example file and gives its whole thread as a transcript.
func threadOf(t *testing.T, path string) *transcript.Transcript {
	t.Helper()
	tr, err := transcript.Load(path, known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	out := *tr
	out.Posts = res.Thread(tr)
	b, err := out.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "thread.yaml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := transcript.Load(file, known)
	if err != nil {
		t.Fatalf("the thread transcript does not read back: %v", err)
	}
	return back
}

func failures(r *Report) []string {
	var out []string
	for _, l := range r.Lines {
		if !l.OK {
			out = append(out, l.Text)
		}
	}
	return out
}

func TestThreadVerifies(t *testing.T) {
	tr := thread(t)
	rep, err := Thread(tr, "5", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("an honest thread fails:\n%s", rep)
	}
	draws := 0
	for _, l := range rep.Lines {
		if strings.HasPrefix(l.Text, "draw ") {
			draws++
		}
	}
	if draws == 0 {
		t.Fatalf("no draw checked (the daily questions are drawn):\n%s", rep)
	}
}

func TestTamperedSeedFails(t *testing.T) {
	tr := thread(t)
	rep, err := Thread(tr, "6", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f := failures(rep)
	if rep.OK() || len(f) == 0 || !strings.Contains(f[0], "commitment") {
		t.Fatalf("a wrong seed must fail on the commitment first:\n%s", rep)
	}
	if !strings.Contains(rep.String(), "NOT VERIFIED") {
		t.Fatal("the report does not say it failed")
	}
}

func TestTamperedThreadFails(t *testing.T) {
	// The game master swapped the day's question after the fact.
	tr := thread(t)
	swapped := false
	for i, p := range tr.Posts {
		if p.Author == tr.Bot && strings.Contains(p.Text, "Вопрос дня №1") {
			tr.Posts[i].Text = strings.Replace(p.Text, "графства", "королевства", 1)
			swapped = true
		}
	}
	if !swapped {
		t.Fatal("no question post in the example")
	}
	rep, err := Thread(tr, "5", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f := failures(rep)
	if len(f) != 1 || !strings.Contains(f[0], "differs") || !strings.Contains(f[0], "королевства") {
		t.Fatalf("want exactly the question post flagged, got:\n%s", rep)
	}

	// A player's post changed after the fact changes what the game answered.
	tr = thread(t)
	for i, p := range tr.Posts {
		if p.Author != tr.Bot && strings.Contains(p.Text, "ход") {
			tr.Posts[i].Text = "просто болтовня"
			break
		}
	}
	rep, _ = Thread(tr, "5", "transcript")
	if rep.OK() {
		t.Fatal("a thread whose player post was changed still verifies")
	}
}

// The draws depend on every roster player's post before them (the chain), not only on the moves:
// a chatter post changed after the fact — one the game answered nothing — moves the day's question
// drawn after it, and the check fails on the question's post.
func TestChangedChatterMovesTheDraws(t *testing.T) {
	tr := thread(t)
	changed := false
	for i, p := range tr.Posts {
		if p.Author != tr.Bot && strings.Contains(p.Text, "только три хода") {
			tr.Posts[i].Text += "!"
			changed = true
		}
	}
	if !changed {
		t.Fatal("no chatter post in the example")
	}
	rep, err := Thread(tr, "5", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f := failures(rep)
	if rep.OK() || len(f) == 0 || !strings.Contains(f[0], "Вопрос дня №1") {
		t.Fatalf("want the question's post flagged first, got:\n%s", rep)
	}
}

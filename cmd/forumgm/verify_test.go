package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/fairness"
)

// verify takes the seed and the salt from the bot's last post when they are not given (issue 21,
// item 5: the final post holds them): an honest thread passes; the same thread with another seed
// in that post fails on the commitment.
func TestVerifyReadsTheRevealedSeed(t *testing.T) {
	var thread, errb bytes.Buffer
	if code := run([]string{"replay", "--thread", "../../games/crusade/examples/crusade-flag.yaml"}, &thread, &errb); code != 0 {
		t.Fatalf("replay: %d %s", code, errb.String())
	}
	dir := t.TempDir()
	honest := filepath.Join(dir, "thread.yaml")
	if err := os.WriteFile(honest, thread.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	errb.Reset()
	draws := filepath.Join(dir, "draws.json")
	if code := run([]string{"verify", "--draws", draws, honest}, &out, &errb); code != 0 || !strings.Contains(out.String(), "as the bot's post revealed them: 5, transcript") {
		t.Fatalf("honest thread: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	// The draws file it wrote checks out and names the game's chain and its draws.
	b, err := os.ReadFile(draws)
	if err != nil {
		t.Fatal(err)
	}
	var f fairness.File
	if err := json.Unmarshal(b, &f); err != nil || f.Format != fairness.FileFormat || f.Seed != "5" || len(f.Chain) == 0 || len(f.Draws) == 0 {
		t.Fatalf("draws file: %v %+v", err, f)
	}
	if probs := f.Check(""); len(probs) != 0 {
		t.Fatalf("the written draws file does not check out: %v", probs)
	}
	if !strings.Contains(thread.String(), "Зерно партии: 5,") {
		t.Fatal("the example's last post does not reveal seed 5")
	}
	tampered := filepath.Join(dir, "tampered.yaml")
	if err := os.WriteFile(tampered, []byte(strings.ReplaceAll(thread.String(), "Зерно партии: 5,", "Зерно партии: 6,")), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"verify", tampered}, &out, &errb); code == 0 {
		t.Fatalf("a thread revealing another seed passed:\n%s", out.String())
	}
}

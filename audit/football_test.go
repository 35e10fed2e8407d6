package audit

import (
	"regexp"
	"strings"
	"testing"
)

const footballEarly = "../games/football/examples/football-early.yaml"

// A finished football game verifies from its thread: the seed's commitment, every draw (the die
// table, the salt, the questions), every bot post, and the die table's own commitment.
func TestFootballThreadVerifies(t *testing.T) {
	rep, err := Thread(threadOf(t, footballEarly), "1", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("an honest football thread fails:\n%s", rep)
	}
	var draws, own int
	for _, l := range rep.Lines {
		if strings.HasPrefix(l.Text, "draw ") {
			draws++
		}
		if strings.HasPrefix(l.Text, "the game's own commitments") {
			own++
		}
	}
	if draws < 100 {
		t.Errorf("%d draws checked; the die table alone draws 100 faces:\n%s", draws, rep)
	}
	if own != 1 {
		t.Errorf("the die table's commitment was not checked (the game's Verifier):\n%s", rep)
	}
}

// The game master changed the face behind a number in a bot post (the revealed die table), or
// gives a seed other than the committed one: the thread does not verify.
func TestFootballTamperedDieFails(t *testing.T) {
	tr := threadOf(t, footballEarly)
	face := regexp.MustCompile(`(?m)( 37:)5`)
	changed := false
	for i, p := range tr.Posts {
		if p.Author == tr.Bot && strings.Contains(p.Text, "Таблица кубика №1") && face.MatchString(p.Text) {
			tr.Posts[i].Text = face.ReplaceAllString(p.Text, "${1}6")
			changed = true
		}
	}
	if !changed {
		t.Fatal("no revealed die table with 37:5 in the example's thread")
	}
	rep, err := Thread(tr, "1", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f := failures(rep)
	if len(f) != 1 || !strings.Contains(f[0], "differs") || !strings.Contains(f[0], "37:6") {
		t.Fatalf("want exactly the reveal post flagged, got:\n%s", rep)
	}

	// The roll's reply names another face than the table's.
	tr = threadOf(t, footballEarly)
	changed = false
	for i, p := range tr.Posts {
		if p.Author == tr.Bot && strings.Contains(p.Text, "число 37 — на кубике 5") {
			tr.Posts[i].Text = strings.Replace(p.Text, "на кубике 5", "на кубике 6", 1)
			changed = true
		}
	}
	if !changed {
		t.Fatal("no reply to the roll of 37 in the example's thread")
	}
	if rep, _ := Thread(tr, "1", "transcript"); rep.OK() {
		t.Fatalf("a changed roll face verifies:\n%s", rep)
	}

	// Another seed: the commitment fails first, and the die table it draws is not the posted one.
	rep, err = Thread(threadOf(t, footballEarly), "2", "transcript")
	if err != nil {
		t.Fatal(err)
	}
	f = failures(rep)
	if rep.OK() || len(f) < 2 || !strings.Contains(f[0], "commitment") {
		t.Fatalf("a wrong seed must fail on the commitment and on the posts:\n%s", rep)
	}
}

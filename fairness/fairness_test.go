package fairness_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"forumgm/audit"
	"forumgm/fairness"
	"forumgm/game"
	_ "forumgm/games/crusade"
	_ "forumgm/games/dragonball"
	_ "forumgm/games/football"
	"forumgm/media"
	"forumgm/transcript"
)

// URL is where the pictures folder serves the page once Put there.
func TestURLIsWherePutServesIt(t *testing.T) {
	for _, pub := range []string{"https://example.org/pics/", "https://example.org/pics", "http://127.0.0.1:8090/"} {
		f, err := media.New(filepath.Join(t.TempDir(), "pics"), pub)
		if err != nil {
			t.Fatal(err)
		}
		u, err := f.Put(fairness.Attachment())
		if err != nil {
			t.Fatal(err)
		}
		if got := fairness.URL(pub); got != u || !strings.HasSuffix(u, ".html") {
			t.Errorf("URL(%q) = %q, Put serves it at %q", pub, got, u)
		}
	}
	if fairness.URL("") != "" {
		t.Error("a page URL without a public pictures URL")
	}
}

// Every game's final reveal links the check page, seed, salt and commitment in its fragment,
// when the page is served; without it the line is as before (transcripts have none).
func TestRevealLinksTheCheck(t *testing.T) {
	for _, ex := range []string{"crusade/examples/crusade-flag.yaml", "dragonball/examples/dragonball-score.yaml",
		"football/examples/football-twelve.yaml"} {
		tr, err := transcript.Load(filepath.Join("..", "games", ex), known)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := tr.Referee()
		if err != nil {
			t.Fatal(err)
		}
		rules := ref.Rules()
		fair := game.Fair{Commitment: "c0ffee", Seed: "5eed", Salt: "5a17"}
		plain, err := rules.Say(game.SayReveal, game.Context{Fair: fair})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(plain, "[url") || !strings.Contains(plain, "5eed") {
			t.Errorf("%s: reveal without a check page:\n%s", ex, plain)
		}
		fair.Check = "https://example.org/pics/0123.html"
		linked, err := rules.Say(game.SayReveal, game.Context{Fair: fair})
		if err != nil {
			t.Fatal(err)
		}
		want := "[url=https://example.org/pics/0123.html#seed=5eed&salt=5a17&c=c0ffee]страница проверки[/url]"
		if !strings.Contains(linked, want) || !strings.Contains(linked, "в браузере") {
			t.Errorf("%s: reveal does not link the check page:\n%s", ex, linked)
		}
	}
}

// docs/fairness.md's test vectors, chain vectors and commitment example are what the Go code
// gives; the HMAC's first bytes are computed here from the doc's words (key, 40-byte message).
func TestDocVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "fairness.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	c := game.Commitment("1", "transcript")
	if !strings.Contains(doc, "`sha256(\"transcript:1\")` =\n`"+c+"`") {
		t.Errorf("doc: the commitment example is not %s", c)
	}
	heads := map[string]string{}
	chainRow := regexp.MustCompile("(?m)^\\| `(H_\\d)` \\| ([^|]+) \\| `([0-9a-f]{64})` \\|$")
	for _, r := range chainRow.FindAllStringSubmatch(doc, -1) {
		heads[r[1]] = r[3]
	}
	want := map[string]string{"H_0": game.ChainStart(c)}
	want["H_1"] = game.Chain(want["H_0"], "Катя", "12", "Бросаю 37")
	want["H_2"] = game.Chain(want["H_1"], "Петя", "13", "Атакуем Команда 2, 58")
	for k, h := range want {
		if heads[k] != h {
			t.Errorf("doc: chain head %s is %q, Go gives %s", k, heads[k], h)
		}
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]*)` \\| `(H_\\d)` \\| (\\d+) \\| (\\d+) \\| `([0-9a-f]{16})` \\| (\\d+) \\|$")
	rows := row.FindAllStringSubmatch(doc, -1)
	if len(rows) < 7 {
		t.Fatalf("%d test vectors in docs/fairness.md", len(rows))
	}
	for _, r := range rows {
		seed, head := r[1], want[r[2]]
		n, _ := strconv.ParseUint(r[3], 10, 64)
		bound, _ := strconv.Atoi(r[4])
		hb, _ := hex.DecodeString(head)
		m := hmac.New(sha256.New, []byte(seed))
		m.Write(binary.BigEndian.AppendUint64(nil, n))
		m.Write(hb)
		if got := hex.EncodeToString(m.Sum(nil)[:8]); got != r[5] {
			t.Errorf("doc: draw %d of seed %q under %s: HMAC begins %s, the doc says %s", n, seed, r[2], got, r[5])
		}
		if got := strconv.Itoa(game.Derive(seed, head, n, bound)); got != r[6] {
			t.Errorf("doc: draw %d of seed %q under %s bound %d is %s, Go gives %s", n, seed, r[2], bound, r[6], got)
		}
	}
}

// drawsFile replays an example to its whole thread and checks it as a player would (audit.Thread):
// the report's draws file.
func drawsFile(t *testing.T, path string) *fairness.File {
	t.Helper()
	tr, err := transcript.Load(path, known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	th := *tr
	th.Posts = res.Thread(tr)
	rep, err := audit.Thread(&th, tr.Seed, tr.Salt)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Draws == nil {
		t.Fatalf("the honest thread does not verify:\n%s", rep)
	}
	return rep.Draws
}

// The draws file checks out in Go (fairness.File.Check) exactly when it is honest: a changed
// post, value, seed or commitment is named.
func TestDrawsFileCheck(t *testing.T) {
	f := drawsFile(t, filepath.Join("..", "games", "football", "examples", "football-twelve.yaml"))
	if probs := f.Check(""); len(probs) != 0 {
		t.Fatalf("honest file: %v", probs)
	}
	bad := *f
	bad.Chain = append([]fairness.ChainPost(nil), f.Chain...)
	bad.Chain[0].Author = "Вася"
	if probs := bad.Check(""); len(probs) == 0 || probs[0].What != "chain" || probs[0].At != 1 {
		t.Errorf("a changed author: %v", probs)
	}
	bad = *f
	bad.Seed = "2"
	if probs := bad.Check(f.Commitment); len(probs) == 0 || probs[0].What != "commitment" {
		t.Errorf("a changed seed: %v", probs)
	}
	bad = *f
	bad.Draws = append([]fairness.Draw(nil), f.Draws...)
	bad.Draws[3].Value = (bad.Draws[3].Value + 1) % bad.Draws[3].Bound
	if probs := bad.Check(""); len(probs) != 1 || probs[0].What != "draw" || probs[0].At != bad.Draws[3].N {
		t.Errorf("a changed value: %v", probs)
	}
}

package fairness_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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

// docs/fairness.md's test vectors and commitment example are what the Go code gives.
func TestDocVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "fairness.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]*)` \\| (\\d+) \\| (\\d+) \\| `([0-9a-f]{16})` \\| (\\d+) \\|$")
	rows := row.FindAllStringSubmatch(string(b), -1)
	if len(rows) < 5 {
		t.Fatalf("%d test vectors in docs/fairness.md", len(rows))
	}
	for _, r := range rows {
		n, _ := strconv.ParseUint(r[2], 10, 64)
		bound, _ := strconv.Atoi(r[3])
		if got := strconv.Itoa(game.Derive(r[1], n, bound)); got != r[5] {
			t.Errorf("doc: draw %d of seed %q bound %d is %s, Go gives %s", n, r[1], bound, r[5], got)
		}
	}
	if c := game.Commitment("1", "transcript"); !strings.Contains(string(b), "`sha256(\"transcript:1\")` =\n`"+c+"`") {
		t.Errorf("doc: the commitment example is not %s", c)
	}
}

package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dbFinal is the contract's `final` object of Dragonball (games/dragonball/docs/contract.md), as
// an outside check reads it: decoding is strict, so a renamed or extra field fails.
type dbFinal struct {
	Round   int            `json:"round"`
	Score   map[string]int `json:"score"`
	Players map[string]struct {
		Team    string   `json:"team"`
		Cell    int      `json:"cell"`
		Height  int      `json:"height"`
		Balls   []string `json:"balls"`
		Status  string   `json:"status"`
		Returns int      `json:"returns"`
	} `json:"players"`
	Dragons map[string]struct {
		Head      int      `json:"head"`
		Body      int      `json:"body"`
		Tail      int      `json:"tail"`
		Height    int      `json:"height"`
		Volleys   int      `json:"volleys"`
		Flames    int      `json:"flames"`
		Swallowed []string `json:"swallowed"`
		Effects   []string `json:"effects"`
	} `json:"dragons"`
	Balls map[string]struct {
		Status  string `json:"status"`
		Cell    int    `json:"cell"`
		Height  int    `json:"height"`
		Holder  string `json:"holder"`
		Visible bool   `json:"visible"`
	} `json:"balls"`
	Winner   string `json:"winner"`
	Warnings []struct {
		Team    string `json:"team"`
		Round   int    `json:"round"`
		Ball    string `json:"ball"`
		ThrowIn bool   `json:"throw_in"`
		Tact    int    `json:"tact"`
	} `json:"warnings"`
}

type dbOutput struct {
	Posts []PostResult `json:"posts"`
	Final dbFinal      `json:"final"`
	Timed []Timed      `json:"timed"`
}

func replayDragonball(t *testing.T, path string) ([]byte, dbOutput) {
	t.Helper()
	tr, err := Load(path, known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var out dbOutput
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("the replay's JSON is not the contract's: %v", err)
	}
	return b, out
}

// The Dragonball example games replay to their expected ends, byte for byte the same as the
// golden files (rewritten with -update).
func TestDragonballExamples(t *testing.T) {
	cases := []struct {
		file     string
		winner   string
		score    map[string]int
		round    int
		verdicts string // a=accepted r=refused i=ignored f=flagged, per post
		check    func(t *testing.T, o dbOutput)
	}{
		{"dragonball-score.yaml", "Грифоны", map[string]int{"Грифоны": 1, "Змеи": 0}, 2, "araaraiaafaraa", func(t *testing.T, o dbOutput) {
			if !strings.HasPrefix(o.Posts[0].Replies[0], "[ЛС для Гарри] [b]Приказы приняты[/b]") {
				t.Errorf("orders are confirmed privately: %q", o.Posts[0].Replies[0])
			}
			if r := o.Posts[1].Replies[0]; strings.HasPrefix(r, "[ЛС") || !strings.Contains(r, "личным сообщением") {
				t.Errorf("orders in the thread are refused in the thread: %q", r)
			}
			if r := o.Posts[2].Replies[0]; !strings.Contains(r, "«Такт 3: 20 в2»: 35 → 20: это не соседняя клетка; из 35 можно на 18, 19, 34, 36, 51, 52") {
				t.Errorf("a refused line is named with the reason: %q", r)
			}
			if r := o.Posts[4].Replies[0]; !strings.Contains(r, "дракону приказывает Драко") {
				t.Errorf("a dragon order from a player who is not the handler: %q", r)
			}
			if p := o.Final.Players["Рон"]; len(p.Balls) != 1 || p.Balls[0] != "зелёный" || o.Final.Balls["зелёный"].Holder != "Рон" {
				t.Errorf("Рон caught the green ball: %+v", p)
			}
			if len(o.Final.Warnings) != 1 || o.Final.Warnings[0].Team != "Грифоны" || o.Final.Warnings[0].Ball != "зелёный" {
				t.Errorf("warnings: %+v", o.Final.Warnings)
			}
			if p := o.Final.Players["Крэбб"]; p.Status != "hospital" || p.Returns != 4 || p.Cell != 0 || p.Height != 0 {
				t.Errorf("Крэбб burnt at height 2 in round 2 is in the hospital until round 4: %+v", p)
			}
			if r := o.Posts[11].Replies[0]; !strings.Contains(r, "плюётся огнём сам, наугад") {
				t.Errorf("a confused dragon's ordered fire is refused: %q", r)
			}
			if d := o.Final.Dragons["Грифоны"]; d.Flames != 6 {
				t.Errorf("the Griffins' dragon breathed one flame: %+v", d)
			}
			if d := o.Final.Dragons["Змеи"]; len(d.Swallowed) != 1 || d.Swallowed[0] != "чёрный" || len(d.Effects) != 1 || d.Effects[0] != "confused" {
				t.Errorf("the Snakes' dragon: %+v", d)
			}
		}},
		{"dragonball-swallowed.yaml", "Грифоны", map[string]int{"Грифоны": 11, "Змеи": 10}, 2, "aaafaaiaaiaaa", func(t *testing.T, o dbOutput) {
			for c, b := range o.Final.Balls {
				if b.Status != "swallowed" || b.Cell != 0 || b.Holder != "" {
					t.Errorf("ball %s: %+v", c, b)
				}
			}
			if r := o.Posts[4].Replies[0]; !strings.Contains(r, "только одно действие с мячом") {
				t.Errorf("two ball actions in a tact: %q", r)
			}
			if r := o.Posts[6].Replies[0]; !strings.Contains(r, "до 23:00 по Москве") {
				t.Errorf("a private message that is not orders is answered with the deadline: %q", r)
			}
			if d := o.Final.Dragons["Змеи"]; d.Height != 1 || len(d.Effects) != 2 || d.Effects[0] != "still" {
				t.Errorf("the Snakes' dragon is paralysed at height 1: %+v", d)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := example(c.file)
			b, o := replayDragonball(t, path)
			if o.Final.Winner != c.winner || o.Final.Round != c.round {
				t.Errorf("winner %q after round %d, want %q after %d", o.Final.Winner, o.Final.Round, c.winner, c.round)
			}
			for team, n := range c.score {
				if o.Final.Score[team] != n {
					t.Errorf("score %v, want %v", o.Final.Score, c.score)
				}
			}
			if got := verdictsOf(o.Posts); got != c.verdicts {
				t.Errorf("verdicts %s, want %s", got, c.verdicts)
			}
			// The opening post commits to the seed; the last post reveals it.
			if len(o.Timed) < 2 || !strings.Contains(o.Timed[0].Replies[0], "sha256") {
				t.Fatalf("no opening post with the commitment: %+v", o.Timed)
			}
			last := o.Timed[len(o.Timed)-1].Replies
			if len(last) < 3 || !strings.Contains(last[len(last)-2], "Зерно партии") || !strings.Contains(last[0], "[b]Раунд") ||
				!strings.Contains(last[len(last)-1], "Итоги игры «Драконбол» в цифрах") {
				t.Errorf("the last timed posts are the report, the end with the seed and the summary: %q", last)
			}
			c.check(t, o)
			b2, _ := replayDragonball(t, path)
			if !bytes.Equal(b, b2) {
				t.Fatal("two replays of the same transcript differ")
			}
			golden := filepath.Join("testdata", strings.TrimSuffix(c.file, ".yaml")+".golden.json")
			if *update {
				if err := os.WriteFile(golden, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(b, want) {
				t.Errorf("output differs from %s (run with -update after checking the change)", golden)
			}
		})
	}
}

func verdictsOf(ps []PostResult) string {
	var v []string
	for _, p := range ps {
		v = append(v, p.Verdict[:1])
	}
	return strings.Join(v, "")
}

// Setup errors of a Dragonball transcript name their fields.
func TestDragonballTranscriptErrors(t *testing.T) {
	base := "game: dragonball\nstart: 2026-12-01T10:00:00+03:00\n"
	teams := "teams: [{name: Г, side: A, players: [a]}, {name: З, side: B, players: [b]}]\n"
	cases := map[string]struct{ src, want string }{
		"unknown key":     {base + teams + "colour: red\n", "colour"},
		"unknown setting": {base + teams + "settings: {speed_of_light: 3}\n", "speed_of_light"},
		"bad percent":     {base + teams + "settings: {catch_same: 120}\n", "settings.catch_same"},
		"one team":        {base + "teams: [{name: Г, side: A, players: [a]}]\n", "teams: 1 teams"},
		"bad deployment":  {base + teams + "deployment: {players: {a: {cell: 300, height: 2}}}\n", "deployment"},
	}
	for name, c := range cases {
		_, err := Parse([]byte(c.src), known)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error naming %q, got %v", name, c.want, err)
		}
	}
}

// Every example transcript has a golden replay (TestExampleGames, TestDragonballExamples).
func TestEveryExampleHasGolden(t *testing.T) {
	files, err := filepath.Glob("../games/*/examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".yaml")+".golden.json")
		if _, err := os.Stat(golden); err != nil {
			t.Errorf("%s has no golden replay %s: add it to a golden test", f, golden)
		}
	}
}

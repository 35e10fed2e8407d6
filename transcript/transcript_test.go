package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gcr "forumgm/games/crusade"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// final mirrors the replay's "final" object as a reader of the JSON sees it.
type final struct {
	Board    string `json:"board"`
	Warriors map[string]struct {
		Cell    string         `json:"cell"`
		Attack  map[string]int `json:"attack"`
		Defence int            `json:"defence"`
		Alive   bool           `json:"alive"`
	} `json:"warriors"`
	Wounds map[string]int `json:"wounds"`
	Winner string         `json:"winner"`
}

type output struct {
	Posts []PostResult `json:"posts"`
	Final final        `json:"final"`
}

func replayFile(t *testing.T, path string) ([]byte, output) {
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
	var out output
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return b, out
}

func verdicts(o output) string {
	var v []string
	for _, p := range o.Posts {
		v = append(v, p.Verdict[:1])
	}
	return strings.Join(v, "")
}

// The example games replay to their expected ends, byte for byte the same as the golden files.
func TestExampleGames(t *testing.T) {
	cases := []struct {
		file     string
		winner   string
		verdicts string // a=accepted r=refused i=ignored f=flagged, per post
		check    func(t *testing.T, o output)
	}{
		{"crusade-flag.yaml", "crusaders", "aaaaaariaaaaaaaaaai", func(t *testing.T, o output) {
			if w := o.Final.Warriors["а1"]; w.Cell != "J1" || !w.Alive {
				t.Errorf("а1 should stand on the saracen flag J1: %+v", w)
			}
			if !strings.Contains(o.Posts[6].Replies[0], "3 раза за сутки") {
				t.Errorf("a 4th action must be refused with the daily limit: %q", o.Posts[6].Replies[0])
			}
			if !strings.Contains(o.Posts[17].Replies[0], "захватил вражеский флаг") {
				t.Errorf("victory reply: %q", o.Posts[17].Replies[0])
			}
		}},
		{"crusade-commander.yaml", "saracens", "aaaaiara", func(t *testing.T, o output) {
			if w := o.Final.Warriors["р1"]; w.Alive || w.Cell != "" {
				t.Errorf("р1 should be dead with no cell: %+v", w)
			}
			if strings.Contains(o.Posts[2].Replies[0], "Неаккуратность") {
				t.Errorf("a post quoting the right board is not sloppy: %q", o.Posts[2].Replies[0])
			}
			if !strings.Contains(o.Posts[5].Replies[0], "F17 — у вас «л1», на деле пусто") {
				t.Errorf("a wrong quoted board must name the cell: %q", o.Posts[5].Replies[0])
			}
			if !strings.Contains(o.Posts[7].Replies[0], "сила 12 против защиты 9") {
				t.Errorf("combined shot: %q", o.Posts[7].Replies[0])
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := example(c.file)
			b, o := replayFile(t, path)
			if o.Final.Winner != c.winner {
				t.Errorf("winner %q, want %q", o.Final.Winner, c.winner)
			}
			if got := verdicts(o); got != c.verdicts {
				t.Errorf("verdicts %s, want %s", got, c.verdicts)
			}
			if !strings.Contains(o.Final.Board, "|_1|_2|_3|") {
				t.Errorf("final board lacks the footer:\n%s", o.Final.Board)
			}
			c.check(t, o)
			b2, _ := replayFile(t, path)
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

// footballOutput mirrors the replay's JSON for the football quiz as the contract gives it
// (games/football/docs/contract.md).
type footballOutput struct {
	Posts []PostResult `json:"posts"`
	Final struct {
		Turn  int `json:"turn"`
		Teams map[string]struct {
			Group        int `json:"group"`
			Cell         int `json:"cell"`
			Lap          int `json:"lap"`
			Points       int `json:"points"`
			GoalsFor     int `json:"goals_for"`
			GoalsAgainst int `json:"goals_against"`
			Result       int `json:"result"`
		} `json:"teams"`
		Used     []int      `json:"used"`
		Ranking  [][]string `json:"ranking"`
		Finished bool       `json:"finished"`
	} `json:"final"`
	Timed []Timed `json:"timed"`
}

// The football examples replay to their expected ends, byte for byte the same as the golden
// files, in the contract's shape.
func TestFootballExamples(t *testing.T) {
	cases := []struct {
		file     string
		turn     int
		ranking  string
		verdicts string
		check    func(t *testing.T, o footballOutput)
	}{
		{"football-early.yaml", 6, "Команда 1 | Команда 3 | Команда 2 | Команда 4", "raaaaaaafraaaaaaaaafaaarafr", func(t *testing.T, o footballOutput) {
			if !strings.Contains(o.Posts[0].Replies[0], "1-й ход начнётся в 20:00") {
				t.Errorf("a roll before the window names the next: %q", o.Posts[0].Replies[0])
			}
			if got := o.Posts[1].Replies; len(got) != 2 || !strings.HasPrefix(got[1], "[ЛС для Вася] Атака на «Команда 2»: на кубике 4") {
				t.Errorf("the attack's face goes to the captain privately: %q", got)
			}
			if !strings.Contains(strings.Join(o.Posts[6].Replies, "\n"), "[ЛС для Дима] [b]Вопрос для команды «Команда 4»") {
				t.Errorf("the question goes to the captain with the roll's replies: %q", o.Posts[6].Replies)
			}
			if !strings.Contains(o.Posts[9].Replies[0], "число 58 уже называли") {
				t.Errorf("a used number: %q", o.Posts[9].Replies[0])
			}
			if o.Final.Teams["Команда 1"].Result != 13 || o.Final.Teams["Команда 4"].Result != -12 {
				t.Errorf("results: %+v", o.Final.Teams)
			}
			if len(o.Final.Used) != 17 || o.Final.Used[0] != 58 {
				t.Errorf("used: %v", o.Final.Used)
			}
			last := o.Timed[len(o.Timed)-1]
			all := strings.Join(last.Replies, "\n")
			if !strings.Contains(all, "Места — по забитым голам") || !strings.Contains(all, "Зерно партии: 1") || !strings.Contains(all, "Таблица кубика №1") {
				t.Errorf("the end ranks by goals and reveals the table and the seed: %q", all)
			}
		}},
		{"football-twelve.yaml", 12, "Команда 1, Команда 3 | Команда 2, Команда 4", "araaaaairaararrra", func(t *testing.T, o footballOutput) {
			if !strings.Contains(o.Posts[14].Replies[0], "время вышло") {
				t.Errorf("a late answer: %q", o.Posts[14].Replies[0])
			}
			if !strings.HasPrefix(o.Posts[7].Replies[0], "[ЛС для Гость]") {
				t.Errorf("a stranger's private message is answered privately: %q", o.Posts[7].Replies)
			}
			opened := 0
			for _, tm := range o.Timed {
				for _, r := range tm.Replies {
					if strings.HasPrefix(r, "[b]Время ") {
						opened++
					}
				}
			}
			if opened != 12 {
				t.Errorf("%d turns opened, want 12", opened)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := example(c.file)
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
			var o footballOutput
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatal(err)
			}
			if !o.Final.Finished || o.Final.Turn != c.turn {
				t.Errorf("finished %v at turn %d, want finished at %d", o.Final.Finished, o.Final.Turn, c.turn)
			}
			var places []string
			for _, p := range o.Final.Ranking {
				places = append(places, strings.Join(p, ", "))
			}
			if got := strings.Join(places, " | "); got != c.ranking {
				t.Errorf("ranking %s, want %s", got, c.ranking)
			}
			var v []string
			for _, p := range o.Posts {
				v = append(v, p.Verdict[:1])
			}
			if got := strings.Join(v, ""); got != c.verdicts {
				t.Errorf("verdicts %s, want %s", got, c.verdicts)
			}
			for _, p := range o.Posts {
				if len(p.Replies) == 0 {
					t.Errorf("post %d (%s) got no reply: every post is answered", p.Index, p.Author)
				}
			}
			c.check(t, o)
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

func TestTranscriptErrors(t *testing.T) {
	base := "game: crusade\nstart: 2026-12-01T18:00:00+03:00\nplayers: [{name: A, side: crusaders}, {name: B, side: saracens}]\n"
	cases := map[string]string{
		"no game":        "start: 2026-12-01T18:00:00+03:00\n",
		"no start":       "game: crusade\n",
		"unknown field":  base + "colour: red\n",
		"post order":     base + "posts: [{author: A, at: 2026-12-01T19:00:00+03:00, text: x}, {author: B, at: 2026-12-01T18:30:00+03:00, text: y}]\n",
		"post before":    base + "posts: [{author: A, at: 2026-12-01T17:00:00+03:00, text: x}]\n",
		"post no author": base + "posts: [{at: 2026-12-01T19:00:00+03:00, text: x}]\n",
	}
	for name, src := range cases {
		if _, err := Parse([]byte(src), known); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	refCases := map[string]string{
		"unknown game":    strings.Replace(base, "crusade", "chess", 1),
		"unknown setting": base + "settings: {speed_of_light: 3}\n",
		"bad timezone":    base + "settings: {timezone: Mars/Olympus}\n",
		"bad side":        base + "deployment: {vikings: {р1: J18}}\n",
		"wrong side":      base + "deployment: {saracens: {р1: J18}}\n",
		"bad cell":        base + "deployment: {crusaders: {р1: Q18}}\n",
		"bad deployment":  base + "deployment: [1, 2]\n",
	}
	for name, src := range refCases {
		tr, err := Parse([]byte(src), known)
		if err != nil {
			continue // the game's part is checked when the transcript is read
		}
		if _, err := tr.Replay(); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// A custom deployment is a test position: left-out warriors are not in play and not killed.
func TestCustomDeploymentAndSettings(t *testing.T) {
	src := `game: crusade
settings: {first_side: saracens, board_required: false, daily_question: false}
start: 2026-12-01T18:00:00+03:00
players: [{name: A, side: crusaders}, {name: B, side: saracens}]
deployment: {crusaders: {р1: J18, с1: E10}, saracens: {ш1: I2, н1: E9}}
posts:
  - {author: A, at: 2026-12-01T19:00:00+03:00, text: "1-й ход р1 на J17"}
  - {author: B, at: 2026-12-01T19:01:00+03:00, text: "1-й ход н1 атакует мечом с1"}
  - {author: A, at: 2026-12-01T19:02:00+03:00, private: true, text: "ранение: р1 защита"}
until: 2026-12-01T23:00:00+03:00
`
	tr, err := Parse([]byte(src), known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{res.Posts[0].Verdict, res.Posts[1].Verdict}; got[0] != "refused" || got[1] != "accepted" {
		t.Fatalf("verdicts %v: saracens move first", got)
	}
	if !strings.Contains(res.Posts[1].Replies[0], "сила 7 против защиты 7") {
		t.Errorf("н1 sword 7 against с1 defence 7 must leave с1 standing: %q", res.Posts[1].Replies[0])
	}
	if !strings.HasPrefix(res.Posts[2].Replies[0], "[ЛС для A]") {
		t.Errorf("a private message is answered privately: %q", res.Posts[2].Replies[0])
	}
	f := res.Final.(gcr.Final)
	if len(f.Warriors) != 4 {
		t.Errorf("only the 4 deployed warriors are in play, got %d", len(f.Warriors))
	}
	for _, tm := range res.Timed {
		for _, r := range tm.Replies {
			if strings.Contains(r, "Вопрос дня") {
				t.Errorf("daily_question: false, yet a question was asked at %s", tm.At)
			}
		}
	}
}

// Private deployment: each side sends its placement by private message; the board is published
// when both are in. A public deployment is refused and changes nothing.
func TestPrivateDeployment(t *testing.T) {
	sara := "расстановка: ш1 I1, ш2 J2, ш3 K2, в1 E4, в2 F4, в3 G4, в4 H4, в5 I4, в6 J4, в7 K4, в8 L4, н1 O1, н2 O2, н3 P1, н4 P2"
	crus := "расстановка: р1 P18, р2 R18, р3 S18, а1 C17, а2 D17, л1 F17, л2 G17, л3 H17, с1 I19, с2 J19, к1 K17, к2 L17, к3 M17, к4 N17, к5 O17"
	src := `game: crusade
settings: {daily_question: false}
start: 2026-12-01T12:00:00+03:00
players: [{name: A, side: crusaders}, {name: B, side: saracens}]
deployment: private
posts:
  - {author: A, at: 2026-12-01T12:05:00+03:00, text: "1-й ход к1 на K16"}
  - {author: B, at: 2026-12-01T12:10:00+03:00, private: true, text: "` + sara + `"}
  - {author: A, at: 2026-12-01T12:20:00+03:00, private: true, text: "` + crus + `"}
  - {author: A, at: 2026-12-01T12:30:00+03:00, text: "1-й ход к1 на K16"}
`
	tr, err := Parse([]byte(src), known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, p := range res.Posts {
		got = append(got, p.Verdict)
	}
	if strings.Join(got, ",") != "refused,accepted,accepted,accepted" {
		t.Fatalf("verdicts %v; replies %+v", got, res.Posts)
	}
	if !strings.Contains(res.Posts[0].Replies[0], "расставляются") {
		t.Errorf("a move before the deployment: %q", res.Posts[0].Replies[0])
	}
	if !strings.HasPrefix(res.Posts[1].Replies[0], "[ЛС для B]") {
		t.Errorf("the deployment is confirmed privately: %q", res.Posts[1].Replies[0])
	}
	all := strings.Join(res.Posts[2].Replies, "\n")
	if !strings.Contains(all, "Армии расставлены") || !strings.Contains(all, "|ш1|") {
		t.Errorf("the board is published when both deployments are in: %q", all)
	}
	f := res.Final.(gcr.Final)
	if f.Warriors["ш1"].Cell != "I1" || f.Warriors["к1"].Cell != "K16" {
		t.Errorf("final cells: ш1 %q к1 %q", f.Warriors["ш1"].Cell, f.Warriors["к1"].Cell)
	}
}

package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/game"
)

// TestSignupExamples replays each game's example from its first sign-up against its golden and
// checks the phases every such game goes through are in the replies.
func TestSignupExamples(t *testing.T) {
	cases := []struct {
		file  string
		drawn bool // the formation drew (unassigned players)
		want  []string
	}{
		{"crusade-signup.yaml", true, []string{"вы записаны в команду «крестоносцы»", "Вы уже записаны", "Команды «тамплиеров» нет", "Игра ещё не началась: идёт запись до 02.12 в 12:00",
			"вытянута жребием", "В списке не так", "«Игроки-воины» команды «сарацины» принят", "Игра начинается!",
			"Ход принят[/b] — Вася (крестоносцы)", "найдите ему замену", "Замена в команде «сарацины»: Петя → Оля", "Замены для Коля", "сняты с поля"}},
		{"crusade-signup-private.yaml", false, []string{"«Игроки-воины» команды «сарацины» принят", "Игра начинается!",
			"пришлите мне личным сообщением свои расстановки", "Расстановка сарацин получена", "Армии расставлены", "Ход принят[/b] — Вася (крестоносцы)"}},
		{"dragonball-signup.yaml", false, []string{"дракону приказывает — Рон", "Джинни, вы записаны в команду «Змеи»",
			"Игра начинается!", "Приказы приняты", "Замена в команде «Змеи»: Гойл → Невилл", "[b]Раунд 1[/b]"}},
		{"football-signup.yaml", true, []string{"вытянута жребием", "Вася не в вашей команде", "капитан — Оля",
			"По умолчанию (команда не прислала вовремя): капитан «Динамо» — Вася", "Футбольная игра с кубиком начинается!"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := example(c.file)
			b, _ := replayFile(t, path)
			for _, w := range c.want {
				if !strings.Contains(string(b), jsonText(w)) {
					t.Errorf("the replies lack %q", w)
				}
			}
			// Every draw of the game, the formation's included, has its own number, in order: none is
			// made twice (a draw the referee did not count would be re-used by the next event).
			tr, err := Load(path, known)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tr.Replay()
			if err != nil {
				t.Fatal(err)
			}
			next, formed := uint64(0), false
			for _, ev := range res.Events {
				d, ok := ev.(game.Drawer)
				if !ok {
					continue
				}
				formed = formed || ev.EventKind() == "signup.formed" && len(d.Drawn()) > 0
				for _, dr := range d.Drawn() {
					if dr.N != next {
						t.Fatalf("%s: draw %d, want %d", ev.EventKind(), dr.N, next)
					}
					next++
				}
			}
			if c.drawn != formed {
				t.Errorf("a formation draw recorded: %v, want %v", formed, c.drawn)
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
			if string(want) != string(b) {
				t.Errorf("%s differs from the golden (run with -update and read the diff)", c.file)
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string (quotes and the arrow escaped as encoding/json does).
func jsonText(s string) string {
	return strings.NewReplacer(`"`, `\"`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(s)
}

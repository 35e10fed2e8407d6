package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSignupExamples replays each game's example from its first sign-up against its golden and
// checks the phases every such game goes through are in the replies.
func TestSignupExamples(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"crusade-signup.yaml", []string{"вы записаны в команду «крестоносцы»", "Вы уже записаны", "Команды «тамплиеров» нет",
			"вытянута жребием", "В списке не так", "«Игроки-воины» команды «сарацины» принят", "Игра начинается!",
			"Ход 1 принят", "найдите ему замену", "Замена в команде «сарацины»: Петя → Оля", "Замены для Коля", "сняты с поля"}},
		{"dragonball-signup.yaml", []string{"дракону приказывает — Рон", "Джинни, вы записаны в команду «Змеи»",
			"Игра начинается!", "Приказы приняты", "Замена в команде «Змеи»: Гойл → Невилл", "[b]Раунд 1[/b]"}},
		{"football-signup.yaml", []string{"вытянута жребием", "Вася не в вашей команде", "капитан — Оля",
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

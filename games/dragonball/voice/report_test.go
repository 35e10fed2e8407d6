package voice

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	db "forumgm/games/dragonball/rules"
	"forumgm/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func loadDragonball(t *testing.T) *templates.Set {
	t.Helper()
	s, err := templates.Load(Files, "dragonball", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDragonballEveryCode: every refusal code and every happening has its own Russian text.
func TestDragonballEveryCode(t *testing.T) {
	s := loadDragonball(t)
	for _, c := range db.AllCodes {
		out, err := s.Render("problem", db.Problem{Code: c, Tact: 1, Cell: 60, From: 57, Cells: []db.Cell{40, 41}, Limit: 2, Count: 5, Ball: db.Red})
		if err != nil {
			t.Fatal(err)
		}
		if out == "" || out == string(c) || strings.Contains(out, "<no value>") {
			t.Errorf("code %s: %q", c, out)
		}
	}
	for _, w := range db.AllWhats {
		out, err := s.Render("happening", db.Happening{What: w, Team: "Змеи", Player: "Гарри", Other: "Грифоны", Ball: db.Red, Cell: 57, Height: 2, Count: 5, Names: []string{"Гарри", "Драко"}})
		if err != nil {
			t.Fatal(err)
		}
		if out == "" || out == string(w) || strings.Contains(out, "<no value>") {
			t.Errorf("happening %s: %q", w, out)
		}
	}
}

// TestDragonballReplies renders an accepted message with a refused line, a refusal, and a round
// report from a real game, with a player's text escaped.
func TestDragonballReplies(t *testing.T) {
	s := loadDragonball(t)
	msk := time.FixedZone("MSK", 3*3600)
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, msk)
	teams := []db.Team{{Name: "Грифоны", Side: db.SideA, Players: []string{"Гарри", "Рон"}}, {Name: "Змеи", Side: db.SideB, Players: []string{"Драко"}}}
	dep := &db.Deployment{Players: map[string]db.PlayerPlace{"Гарри": {Cell: 57, Height: 2, Balls: []string{"красный"}}}}
	g, err := db.New(db.DefaultSettings(), teams, dep)
	if err != nil {
		t.Fatal(err)
	}
	rnd := game.NewRand("tmpl", 0, game.Mix{})
	apply := func(evs []game.Event, err error) []game.Event {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if err := g.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		return evs
	}
	apply(g.Start(t0, rnd))
	evs := apply(g.Decide(game.Act{At: t0, Author: "Гарри", Private: true, Body: &db.Orders{
		Tacts: []db.TactOrder{{Tact: 1, Cell: 58, Height: 2}, {Tact: 2, Cell: 61, Line: "Такт 2: 61"},
			{Tact: 2, Cell: 59, Action: db.Pass, To: 61, ToHeight: 3, Ball: db.Red}},
		Dragon:      []db.DragonOrder{{Tact: 1, Move: db.MoveForward, Fire: db.FireFlame, Mouth: db.MouthClosed}},
		Description: "Гарри [b]ныряет[/b] под хвост", HasDescription: true}}))
	out, err := s.Render("orders", map[string]any{"Author": "Гарри", "Event": evs[0], "Due": "2 декабря в 23:00", "Settings": g.Settings(), "Undrawn": false})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Приказы приняты", "Раунд 1 разыгрывается 2 декабря в 23:00", "Такт 1: 58 в2", "пас красный на 61 в3", "Дракон: такт 1 — вперёд, пасть закрыта, пламя", "[\u200bb]ныряет"} {
		if !strings.Contains(out, want) {
			t.Errorf("orders reply lacks %q:\n%s", want, out)
		}
	}
	_, err = g.Decide(game.Act{At: t0, Author: "Рон", Private: true, Body: &db.Orders{Tacts: []db.TactOrder{{Tact: 1, Cell: 60, Line: "Такт 1: 60"}}}})
	r, ok := db.AsRefusal(err)
	if !ok {
		t.Fatalf("want a refusal, got %v", err)
	}
	out, err = s.Render("refused", map[string]any{"Author": "Рон", "Problems": r.Problems})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "«Такт 1: 60»: 2 → 60: это не соседняя клетка; из 2 можно на 1, 3, 17, 18") {
		t.Errorf("refusal:\n%s", out)
	}
	at, _ := g.NextTimer(t0)
	evs = apply(g.Tick(at, rnd))
	out, err = s.Render("report", map[string]any{"Event": evs[0], "Final": g.Final(), "Teams": g.Teams(), "Fair": game.Fair{}, "Page": ""})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[b]Раунд 1[/b]", "[u]Такт 1[/u]", "«Гарри [\u200bb]ныряет", "[b]Счёт:[/b] Грифоны", "[code]", "дракон: голова"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	golden(t, "dragonball_report.golden", out)
}

// golden compares out with the golden file (rewritten with -update).
func golden(t *testing.T, name, out string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != out+"\n" {
		t.Errorf("%s differs from the golden file:\n%s", name, out)
	}
}

func TestDragonballStartAndFinal(t *testing.T) {
	s := loadDragonball(t)
	teams := [2]db.Team{{Name: "Грифоны", Players: []string{"Гарри"}, Handler: "Гарри"}, {Name: "Змеи", Players: []string{"Драко"}, Handler: "Драко"}}
	g, err := db.New(db.DefaultSettings(), teams[:], nil)
	if err != nil {
		t.Fatal(err)
	}
	fair := struct{ Commitment, Seed, Salt, Check string }{"abc", "s33d", "salt", ""} // game.Fair's fields
	data := map[string]any{"Teams": g.Teams(), "Fair": fair, "Page": "", "Settings": db.DefaultSettings(), "Final": g.Final(), "OrdersPublic": false, "Example": nil, "Undrawn": true}
	out, err := s.Render("start", data)
	if err != nil || !strings.Contains(out, "abc") || !strings.Contains(out, "до 23:00 по Москве") || !strings.Contains(out, "личным сообщением") || !strings.Contains(out, "Жеребьёвка мячей — по первому посту") {
		t.Errorf("start: %v\n%s", err, out)
	}
	data["Final"] = db.Final{Round: 3, Winner: "Змеи", Score: map[string]int{"Грифоны": 1, "Змеи": 5}}
	out, err = s.Render("final", data)
	if err != nil || !strings.Contains(out, "Победа команды «Змеи»") || !strings.Contains(out, "Грифоны 1 — Змеи 5") || !strings.Contains(out, "s33d") {
		t.Errorf("final: %v\n%s", err, out)
	}
}

package rules

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/game"

	"go.yaml.in/yaml/v3"
)

// TestSettingsContract: the contract's setting names and defaults, read by name.
func TestSettingsContract(t *testing.T) {
	want := map[string]int{
		"catch_same": 100, "catch_height": 75, "catch_near": 50, "catch2_same": 90, "catch2_height": 65,
		"catch2_near": 40, "collision_second_falls": 50, "dragon_body_hits": 50, "head_open_height": 75,
		"head_open_near": 50, "ball_swallow_height": 75, "ball_swallow_near": 50, "yellow_toggle": 50,
		"random_fire": 50, "steal1_same": 30, "steal1_same_holding": 22, "steal1_near": 15,
		"steal1_near_holding": 10, "steal2_same": 40, "steal2_same_holding": 30, "steal2_near": 25,
		"steal2_near_holding": 15, "head_closed_height": 50, "mouth_open": 50,
	}
	s := DefaultSettings()
	got := s.percents()
	if len(got) != len(want) {
		t.Errorf("%d probability settings, want %d", len(got), len(want))
	}
	for name, v := range want {
		if p, ok := got[name]; !ok || *p != v {
			t.Errorf("%s: %v, want %d", name, p, v)
		}
	}
	if s.TeamSize != 7 || s.Rounds != 10 || s.Deadline != "23:00" || s.Timezone != "Europe/Moscow" ||
		s.OrdersPublic || s.EnchantedPasses != 5 || s.Volleys != 3 || s.Flames != 7 || s.Seed != "1" {
		t.Errorf("other defaults: %+v", s)
	}
	d, err := DecodeSettings([]byte(`{deadline: "21:30", rounds: 3, catch_near: 0, seed: 7, orders_public: true}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Deadline != "21:30" || d.Rounds != 3 || d.CatchNear != 0 || d.Seed != "7" || !d.OrdersPublic || d.CatchSame != 100 {
		t.Errorf("decoded: %+v", d)
	}
	for _, bad := range []string{`{catch_nearr: 1}`, `{catch_near: 101}`, `{deadline: "25:00"}`, `{rounds: 0}`} {
		if _, err := DecodeSettings([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestStartByDecide: the referee may open the game with a StartGame input carrying its Rand.
func TestStartByDecide(t *testing.T) {
	g, err := New(DefaultSettings(), testTeams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Decide(game.Act{At: t0, Body: StartGame{}}); err == nil {
		t.Error("start without a Rand accepted")
	}
	rnd := game.NewRand("s", 0, game.Mix{})
	evs, err := g.Decide(game.Act{At: t0, Body: StartGame{}, Rand: rnd})
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, evs)
	if st := evs[0].(*GameStarted); len(st.Draws) != 10 || rnd.Pending() != 0 {
		t.Errorf("start draws: %d (want a direction and a height per ball), pending %d", len(st.Draws), rnd.Pending())
	}
	if _, err := g.Decide(game.Act{At: t0, Body: StartGame{}, Rand: rnd}); err == nil {
		t.Error("started twice")
	}
}

// TestDeploymentChecked: a deployment naming unknown players, balls or teams, or a dragon on an
// edge or beyond the midline, is an error.
func TestDeploymentChecked(t *testing.T) {
	bad := []*Deployment{
		{Players: map[string]PlayerPlace{"Волдеморт": {Cell: 5, Height: 1}}},
		{Players: map[string]PlayerPlace{"Гарри": {Cell: 5, Height: 1, Balls: []string{"фиолетовый"}}}},
		{Players: map[string]PlayerPlace{"Гарри": {Cell: 5, Height: 1, Balls: []string{"красный"}}, "Рон": {Cell: 6, Height: 1, Balls: []string{"красный"}}}},
		{Dragons: map[string]DragonPlace{"Грифоны": {Body: 99, Head: 100, Height: 2}}},
		{Dragons: map[string]DragonPlace{"Грифоны": {Body: 106, Head: 107, Height: 2}}},
		{Dragons: map[string]DragonPlace{"Пуффендуй": {Body: 102, Head: 103, Height: 2}}},
		{Balls: map[string]BallPlace{"чёрный": {Cell: 300, Height: 1}}},
	}
	for i, d := range bad {
		if _, err := New(DefaultSettings(), testTeams(), d); err == nil {
			t.Errorf("deployment %d accepted", i)
		} else if !strings.HasPrefix(err.Error(), "dragonball:") {
			t.Errorf("deployment %d: %v", i, err)
		}
	}
}

// TestContractTranscript: the contract's transcript example decodes (strictly) into the teams,
// settings and deployment, and the deployment places what it names.
func TestContractTranscript(t *testing.T) {
	const doc = `
settings: {deadline: "23:00", rounds: 10}
teams:
  - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
  - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
deployment:
  players: {Гарри: {cell: 57, height: 2, balls: [красный]}, Драко: {cell: 60, height: 2}}
  dragons: {Грифоны: {body: 102, head: 103, height: 2}, Змеи: {body: 110, head: 109, height: 2}}
  balls: {чёрный: {cell: 106, height: 2, dir: e}, жёлтый: {cell: 120, height: 1, dir: sw, visible: true}}
`
	var tr struct {
		Settings   yaml.Node  `yaml:"settings"`
		Teams      []Team     `yaml:"teams"`
		Deployment Deployment `yaml:"deployment"`
	}
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	if err := dec.Decode(&tr); err != nil {
		t.Fatal(err)
	}
	b, _ := yaml.Marshal(&tr.Settings)
	s, err := DecodeSettings(b)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(s, tr.Teams, &tr.Deployment)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := g.Start(t0, game.NewRand("1", 0, game.Mix{}))
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, evs)
	f := g.Final()
	if p := f.Players["Гарри"]; p.Cell != 57 || p.Height != 2 || len(p.Balls) != 1 || p.Balls[0] != Red || p.Team != "Грифоны" || p.Status != OnField {
		t.Errorf("Гарри: %+v", p)
	}
	if b := f.Balls["красный"]; b.Status != BallHeld || b.Holder != "Гарри" || b.Cell != 57 {
		t.Errorf("red: %+v", b)
	}
	if b := f.Balls["жёлтый"]; b.Cell != 120 || b.Height != 1 || !b.Visible {
		t.Errorf("yellow: %+v", b)
	}
	if p := f.Players["Рон"]; p.Cell != 2 || p.Height != 2 {
		t.Errorf("Рон not at the default start: %+v", p)
	}
	js := jsonOf(f)
	for _, key := range []string{`"round":0`, `"score":{`, `"players":{`, `"dragons":{`, `"balls":{`, `"winner":""`,
		`"tail":101`, `"volleys":3`, `"flames":7`, `"swallowed":[]`, `"effects":[]`, `"holder":"Гарри"`, `"visible":true`, `"returns":0`, `"status":"field"`} {
		if !strings.Contains(js, key) {
			t.Errorf("final JSON lacks %s: %s", key, js)
		}
	}
}

// TestOpenThenDrawBalls: Open draws nothing and leaves the free balls' directions and heights
// open (no round is due); DrawBalls makes exactly the draws Start makes at once, in the same
// order, and leaves the same position; after it the rounds run from the time it was made.
func TestOpenThenDrawBalls(t *testing.T) {
	whole, _ := New(DefaultSettings(), testTeams(), nil)
	once := game.NewRand("s", 0, game.Mix{})
	started, err := whole.Start(t0, once)
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, whole, started)

	g, _ := New(DefaultSettings(), testTeams(), nil)
	opened, err := g.Open(t0)
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, opened)
	if len(opened[0].(*GameStarted).Draws) != 0 || !g.Undrawn() {
		t.Fatalf("Open drew %d numbers; undrawn %v", len(opened[0].(*GameStarted).Draws), g.Undrawn())
	}
	if _, ok := g.NextTimer(t0); ok {
		t.Error("a round is due before the balls are drawn")
	}
	at := t0.Add(3 * time.Hour)
	drawn, err := g.DrawBalls(at, game.NewRand("s", 0, game.Mix{}))
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, []game.Event{drawn})
	if !reflect.DeepEqual(drawn.Draws, started[0].(*GameStarted).Draws) {
		t.Errorf("DrawBalls drew %v, Start %v", drawn.Draws, started[0].(*GameStarted).Draws)
	}
	for i, b := range g.State().Balls {
		if w := whole.State().Balls[i]; b.Dir != w.Dir || b.Height != w.Height {
			t.Errorf("ball %s: %v/%d, Start gives %v/%d", b.Color, b.Dir, b.Height, w.Dir, w.Height)
		}
	}
	if g.Undrawn() {
		t.Error("still undrawn")
	}
	if _, err := g.DrawBalls(at, game.NewRand("s", 0, game.Mix{})); err == nil {
		t.Error("the balls drawn twice")
	}
	if next, ok := g.NextTimer(t0); !ok || !next.After(at) {
		t.Errorf("the first round's deadline %v is not after the draw at %v", next, at)
	}
}

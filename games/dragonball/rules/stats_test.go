package rules

import (
	"fmt"
	"math"
	"testing"
)

// The statistical tests play many one-round games at the default probabilities and compare how
// often something happened with its probability. The tolerance is 5.5 standard deviations: a
// correct engine fails one test with probability below 4e-8, all of them together below 1e-6,
// whatever the seeds (they are fixed, so a run is reproducible).
const zTolerance = 5.5

func checkRate(t *testing.T, what string, n, k, percent int) {
	t.Helper()
	p := float64(percent) / 100
	mean := float64(n) * p
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(k)-mean) > zTolerance*sd {
		t.Errorf("%s: %d of %d, want %.0f ± %.0f", what, k, n, mean, zTolerance*sd)
	}
}

// trials plays n one-round games of the position and orders, counting the games in which
// happened says yes for the report of tact 1.
func trials(t *testing.T, n int, dep func() *Deployment, orders map[string]*Orders, happened func([]Happening) bool) int {
	t.Helper()
	k := 0
	for i := 0; i < n; i++ {
		g, rnd := newGame(t, DefaultSettings(), dep(), fmt.Sprintf("stat-%d", i))
		for _, name := range []string{"Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл"} {
			if o := orders[name]; o != nil {
				if _, err := send(t, g, name, o); err != nil {
					t.Fatal(err)
				}
			}
		}
		ev := resolve(t, g, rnd)
		if happened(ev.Tacts[0]) {
			k++
		}
	}
	return k
}

func has(hs []Happening, w What, player string) bool {
	for _, h := range hs {
		if h.What == w && (player == "" || h.Player == player) {
			return true
		}
	}
	return false
}

var parkedAll = func() map[string]BallPlace {
	m := map[string]BallPlace{}
	for c, p := range parked {
		m[string(c)] = p
	}
	return m
}

func TestStatCatchNear(t *testing.T) {
	dep := func() *Deployment {
		b := parkedAll()
		b[string(Red)] = BallPlace{Cell: 56, Height: 2, Dir: "e"}
		return &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 58, Height: 1}}, Balls: b}
	}
	const n = 1500
	k := trials(t, n, dep, map[string]*Orders{"Гарри": {Tacts: []TactOrder{{Tact: 1, Action: Catch}}}},
		func(hs []Happening) bool { return has(hs, WCaught, "Гарри") })
	checkRate(t, "catch_near", n, k, DefaultSettings().CatchNear)
}

func TestStatSteal(t *testing.T) {
	dep := func() *Deployment {
		b := parkedAll()
		delete(b, string(Red))
		return &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 57, Height: 3}, "Драко": {Cell: 57, Height: 2, Balls: []string{"красный"}}}, Balls: b}
	}
	const n = 1500
	k := trials(t, n, dep, map[string]*Orders{"Гарри": {Tacts: []TactOrder{{Tact: 1, Action: Steal}}}, "Драко": {Tacts: []TactOrder{{Tact: 1}}}},
		func(hs []Happening) bool { return has(hs, WStolen, "Гарри") })
	checkRate(t, "steal1_same", n, k, DefaultSettings().Steal1Same)
}

func TestStatMouthAndCollision(t *testing.T) {
	dep := func() *Deployment {
		return &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 57, Height: 2}, "Драко": {Cell: 57, Height: 2}}, Balls: parkedAll()}
	}
	const n = 1500
	open, both := 0, 0
	trials(t, n, dep, map[string]*Orders{"Гарри": {Tacts: []TactOrder{{Tact: 1}}}, "Драко": {Tacts: []TactOrder{{Tact: 1}}, Dragon: []DragonOrder{{Tact: 1, Move: MoveStay}}}},
		func(hs []Happening) bool {
			falls := 0
			for _, h := range hs {
				if h.What == WMouth && h.Team == "Змеи" && h.Detail == "open" {
					open++
				}
				if h.What == WFell {
					falls++
				}
			}
			if falls == 2 {
				both++
			}
			return false
		})
	checkRate(t, "mouth_open", n, open, DefaultSettings().MouthOpen)
	checkRate(t, "collision_second_falls", n, both, DefaultSettings().CollisionSecondFalls)
}

func TestStatHeadOpenHeightAndYellow(t *testing.T) {
	dep := func() *Deployment {
		b := parkedAll()
		b[string(Yellow)] = BallPlace{Cell: 72, Height: 1, Dir: "e"}
		return &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 109, Height: 3}}, Balls: b}
	}
	const n = 1500
	vanished := 0
	k := trials(t, n, dep, map[string]*Orders{"Гарри": {Tacts: []TactOrder{{Tact: 1}}}, "Драко": {Dragon: []DragonOrder{{Tact: 1, Mouth: MouthOpen}}}},
		func(hs []Happening) bool {
			if has(hs, WVanished, "") {
				vanished++
			}
			return has(hs, WPlayerEaten, "Гарри")
		})
	checkRate(t, "head_open_height", n, k, DefaultSettings().HeadOpenHeight)
	checkRate(t, "yellow_toggle", n, vanished, DefaultSettings().YellowToggle)
}

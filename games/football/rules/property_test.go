package rules

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"forumgm/game"
)

// randomGame plays a whole game of random posts (rolls, attacks, defences, points, answers,
// some of them illegal) and returns the harness.
func randomGame(t *testing.T, seed int64, floor bool) *harness {
	r := rand.New(rand.NewSource(seed))
	s := testSettings()
	s.FloorPoints = floor
	nTeams := 2 + r.Intn(6)
	s.Points = map[string]int{}
	for i := 1; i <= nTeams; i++ {
		s.Points[fmt.Sprintf("Команда %d", i)] = r.Intn(4)
	}
	h := newHarness(t, s, testTeams(nTeams))
	teams := testTeams(nTeams)
	for turn := 1; turn <= s.TurnsMax && h.g.Phase() == PhasePlaying; turn++ {
		open := s.FirstTurn.Add(time.Duration(turn-1) * 30 * time.Minute)
		for k := 0; k < 3*nTeams; k++ {
			at := open.Add(time.Duration(r.Intn(11*60)) * time.Second) // some after the window
			if at.Before(h.now) {
				at = h.now
			}
			tm := teams[r.Intn(nTeams)]
			who := tm.Members[0]
			if r.Intn(3) == 0 {
				who = tm.Captain
			}
			var body any
			private := false
			switch r.Intn(6) {
			case 0, 1:
				body = &Roll{Number: 1 + r.Intn(102) - 1}
			case 2:
				body = &Attack{Target: teams[r.Intn(nTeams)].Name, Number: 1 + r.Intn(100)}
			case 3:
				body = &Defence{Number: 1 + r.Intn(100)}
			case 4:
				body, private, who = &Points{Role: []Role{RoleAttack, RoleDefence}[r.Intn(2)], Count: r.Intn(4)}, true, tm.Captain
			case 5:
				body, private, who = &Answer{Text: []string{"11", "Франция", "нет"}[r.Intn(3)]}, true, tm.Captain
			}
			_, err := h.decide(at, who, private, body)
			if err != nil {
				if _, ok := AsRefusal(err); !ok {
					t.Fatalf("seed %d: %T %+v: %v", seed, body, body, err)
				}
			}
			h.checkInvariants(fmt.Sprintf("seed %d", seed), floor)
		}
		h.until(open.Add(30 * time.Minute))
		h.checkInvariants(fmt.Sprintf("seed %d turn %d", seed, turn), floor)
	}
	h.until(s.FirstTurn.Add(24 * time.Hour))
	return h
}

func (h *harness) checkInvariants(where string, floor bool) {
	h.t.Helper()
	st := h.g.st
	seen := map[int]bool{}
	for _, n := range st.Used {
		if n < 1 || n > Numbers || seen[n] {
			h.t.Fatalf("%s: used %v", where, st.Used)
		}
		seen[n] = true
	}
	targets := map[string]bool{}
	for _, a := range st.Attacks {
		if targets[a.Target] {
			h.t.Fatalf("%s: two attacks on %s", where, a.Target)
		}
		targets[a.Target] = true
	}
	for _, tm := range st.Teams {
		if floor && tm.Points < 0 {
			h.t.Fatalf("%s: %s has %d points with the floor on", where, tm.Name, tm.Points)
		}
		if tm.Cell < 1 || tm.Cell > h.g.board.Size {
			h.t.Fatalf("%s: %s on cell %d", where, tm.Name, tm.Cell)
		}
	}
}

func TestRandomGames(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		h := randomGame(t, seed, seed%3 != 0)
		if h.g.Phase() != PhaseOver {
			t.Fatalf("seed %d: the game did not end (phase %s)", seed, h.g.Phase())
		}
		if err := VerifyLog(h.log); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		s := h.g.Settings()
		replayed := newReplay(t, s, h.g.board, testTeams(len(h.g.roster)), h.log)
		if replayed != h.snap() {
			t.Fatalf("seed %d: replay differs", seed)
		}
		// the same seed plays the same game
		again := randomGame(t, seed, seed%3 != 0)
		if jsonOf(again.log) != jsonOf(h.log) {
			t.Fatalf("seed %d: not deterministic", seed)
		}
		// goals balance: every goal scored is conceded by someone
		var gf, ga int
		for _, tm := range h.g.st.Teams {
			gf += tm.GoalsFor
			ga += tm.GoalsAgainst
		}
		if gf != ga {
			t.Fatalf("seed %d: %d goals for, %d against", seed, gf, ga)
		}
		f := h.g.Final()
		n := 0
		for _, p := range f.Ranking {
			n += len(p)
		}
		if !f.Finished || n != len(h.g.roster) {
			t.Fatalf("seed %d: final %+v", seed, f)
		}
	}
}

// BenchmarkDecideRoll: deciding and applying one roll on an open turn (the engine's part of
// judging a roll post; see games/football/grammar for parse + decide + apply).
func BenchmarkDecideRoll(b *testing.B) {
	s := testSettings()
	s.Questions = nil
	h := newHarness(b, s, testTeams(6))
	h.until(hm(b, "20:00"))
	snap := *h.g.st.clone()
	in := game.Act{At: hm(b, "20:03"), Author: "Игрок 1", Body: &Roll{Number: 37}, Rand: h.rnd}
	b.ReportAllocs()
	for b.Loop() {
		evs, err := h.g.Decide(in)
		if err != nil {
			b.Fatal(err)
		}
		if err := h.g.Apply(evs[0]); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st := snap.clone()
		h.g.st = st
		b.StartTimer()
	}
}

package rules

import (
	"math/rand"
	"reflect"
	"testing"
	"time"

	"forumgm/game"
)

// randomTurn builds a legal-looking turn for side s: 1..3 of its warriors, random nearby moves and
// attacks of random kinds on random nearby cells (some off the board).
func randomTurn(rng *rand.Rand, g *Game, s Side) Turn {
	var mine []WarriorID
	for _, w := range AllWarriors() {
		if ws := g.st.Warriors[w]; w.Side() == s && ws.Alive && ws.InPlay {
			mine = append(mine, w)
		}
	}
	var t Turn
	if len(mine) == 0 {
		return t
	}
	n := 1 + rng.Intn(3)
	kinds := []AttackKind{AttackUnstated, AttackSword, AttackShot, AttackCharge, AttackLance, AttackFormation}
	near := func(c Cell, r int) Cell {
		return Cell{Row: c.Row + rng.Intn(2*r+1) - r, Col: c.Col + rng.Intn(2*r+1) - r}
	}
	for i := 0; i < n; i++ {
		w := mine[rng.Intn(len(mine))]
		c := g.st.Warriors[w].Cell
		if rng.Intn(3) > 0 {
			m := Move{Warrior: w, Ordinal: rng.Intn(4), To: near(c, 3)}
			if lm := g.LegalMoves(w); len(lm) > 0 && rng.Intn(2) == 0 {
				m.To = lm[rng.Intn(len(lm))]
			}
			t.Moves = append(t.Moves, m)
			c = m.To
		}
		if rng.Intn(2) == 0 {
			a := Attack{Kind: kinds[rng.Intn(len(kinds))], Attackers: []WarriorID{w}}
			if rng.Intn(4) == 0 {
				a.Attackers = append(a.Attackers, mine[rng.Intn(len(mine))])
			}
			tc := near(c, 4)
			if rng.Intn(2) == 0 {
				a.Target.Cell = &tc
			} else {
				var all []WarriorID
				for _, x := range AllWarriors() {
					if g.st.Warriors[x].Alive {
						all = append(all, x)
					}
				}
				a.Target.Warrior = all[rng.Intn(len(all))]
			}
			if rng.Intn(2) == 0 {
				to := near(c, 4)
				a.To = &to
			}
			t.Attacks = append(t.Attacks, a)
		}
	}
	return t
}

func TestRandomTurnsProperty(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		mk := func() *Game {
			s := testSettings()
			s.BoardRequired = seed%2 == 0
			s.ForestInvisible = seed%3 == 0
			s.Questions = []Question{{Text: "q", Answers: []string{"a"}}}
			g, err := New(s, testRoster(), Setup{Mode: SetupDefault, At: at(2, 9, 0)})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		d := newDriver(t, mk, at(2, 9, 0))
		now := at(2, 9, 0)
		accepted := 0
		for i := 0; i < 300 && d.g.Phase() == PhasePlaying; i++ {
			now = now.Add(time.Duration(rng.Intn(90)) * time.Minute)
			d.advance(now)
			side := d.g.SideToMove()
			if rng.Intn(10) == 0 {
				side = side.Other()
			}
			in := turnIn(side, now, randomTurn(rng, d.g, side))
			before := snap(t, d.g)
			evs, err := d.g.Decide(in)
			if err != nil {
				if _, ok := AsRefusal(err); !ok {
					t.Fatalf("seed %d: non-refusal error %v", seed, err)
				}
				if snap(t, d.g) != before {
					t.Fatalf("seed %d: refused turn changed the state", seed)
				}
				continue
			}
			accepted++
			d.apply(evs)
			checkMemo(t, d.g)
			if accepted%3 == 0 {
				// Between cycles the daemon lets the game rest (Rest): what it drops is derived
				// again the same, and the boards drawn after it as before.
				board := d.g.Board()
				d.g.Rest()
				if d.g.memo.board != "" || d.g.drawn != nil {
					t.Fatalf("seed %d: the board's drawings kept after Rest", seed)
				}
				if got := d.g.Board(); got != board {
					t.Fatalf("seed %d: the board after Rest:\n%s\nwant:\n%s", seed, got, board)
				}
				checkMemo(t, d.g)
			}
		}
		if accepted == 0 {
			t.Errorf("seed %d: no turn accepted", seed)
		}
		d.replayEqual()
	}
}

// checkMemo: what is kept per state equals what the state gives afresh: the position, the board
// text (Render of the tokens), and the board text reads back as the tokens (a quote of it is read
// without parsing: games/crusade/grammar.Known).
func checkMemo(t *testing.T, g *Game) {
	t.Helper()
	if !reflect.DeepEqual(g.position(), g.buildPosition()) {
		t.Fatal("the kept position differs from the state's")
	}
	tokens := g.Tokens()
	if got, want := g.Board(), Render(tokens); got != want {
		t.Fatalf("board text:\n%s\nwant:\n%s", got, want)
	}
	bt, err := ParseBoard(g.Board())
	if err != nil || !reflect.DeepEqual(bt.Cells, tokens) {
		t.Fatalf("the board text does not read back as the tokens: %v", err)
	}
}

func FuzzDecideTurn(f *testing.F) {
	f.Add(int64(1), 5, 3, 4, 7)
	f.Fuzz(func(t *testing.T, seed int64, r1, c1, r2, c2 int) {
		g, err := New(testSettings(), testRoster(), Setup{Mode: SetupDefault, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(seed))
		tu := randomTurn(rng, g, Crusaders)
		tu.Moves = append(tu.Moves, Move{Warrior: "а1", To: Cell{Row: r1, Col: c1}})
		tu.Attacks = append(tu.Attacks, Attack{Kind: AttackShot, Attackers: []WarriorID{"а2"}, Target: Target{Cell: &Cell{Row: r2, Col: c2}}})
		before := snap(t, g)
		if _, err := g.Decide(turnIn(Crusaders, t0, tu)); err != nil && snap(t, g) != before {
			t.Fatal("refusal changed state")
		}
	})
}

func BenchmarkDecideApplyTurn(b *testing.B) {
	cells := DefaultDeployment()
	cells["в1"] = *cellPtrS("E12")
	g, err := New(testSettings(), testRoster(), Setup{Mode: SetupCustom, Cells: cells, At: t0})
	if err != nil {
		b.Fatal(err)
	}
	turn := Turn{Moves: []Move{{Warrior: "а1", Ordinal: 1, To: *cellPtrS("E15")}, {Warrior: "р1", Ordinal: 1, To: *cellPtrS("P15")}},
		Attacks: []Attack{{Kind: AttackShot, Attackers: []WarriorID{"а1"}, Target: Target{Cell: cellPtrS("E12")}}}}
	snapshot := g.st.clone()
	b.ReportAllocs()
	for b.Loop() {
		g.st, g.memo = snapshot.clone(), memo{}
		evs, err := g.Decide(turnIn(Crusaders, t0, turn))
		if err != nil {
			b.Fatal(err)
		}
		for _, ev := range evs {
			if err := g.Apply(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkReplay300(b *testing.B) {
	mk := func() *Game {
		s := testSettings()
		s.Questions = []Question{{Text: "q", Answers: []string{"a"}}}
		g, err := New(s, testRoster(), Setup{Mode: SetupDefault, At: at(2, 9, 0)})
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	g := mk()
	rng := rand.New(rand.NewSource(3))
	var log []game.Record
	now := at(2, 9, 0)
	clock := now
	for len(log) < 300 {
		if g.Phase() != PhasePlaying {
			g, log, now, clock = mk(), log[:0], at(2, 9, 0), at(2, 9, 0)
		}
		now = now.Add(20 * time.Minute)
		for {
			next, ok := g.NextTimer(clock)
			if !ok || next.After(now) {
				break
			}
			evs, _ := g.Tick(next, testRand)
			for _, ev := range evs {
				rec, _ := game.Encode(ev)
				log = append(log, rec)
				_ = g.Apply(ev)
			}
			clock = next
		}
		s := g.SideToMove()
		turn := randomTurn(rng, g, s)
		if len(log)%7 != 0 {
			turn.Attacks = nil // mostly moves, so the game lasts 300 events
		}
		evs, err := g.Decide(turnIn(s, now, turn))
		if err != nil {
			continue
		}
		for _, ev := range evs {
			rec, _ := game.Encode(ev)
			log = append(log, rec)
			_ = g.Apply(ev)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := game.Replay(mk(), log); err != nil {
			b.Fatal(err)
		}
	}
}

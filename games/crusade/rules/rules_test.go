package rules

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"forumgm/game"
)

func swordAt(w, tgt, cell string) Turn {
	return Turn{Attacks: []Attack{{Kind: AttackSword, Attackers: []WarriorID{WarriorID(w)}, Target: Target{Cell: cellPtrS(cell)}}}}
}

func cellPtrS(s string) *Cell {
	c, err := ParseCell(s)
	if err != nil {
		panic(err)
	}
	return &c
}

// strengthOn tries one attack of kind k by w (standing on from) on an enemy dummy on each cell
// of a window and returns the strength per cell (0 = refused).
func strengthOn(t *testing.T, w WarriorID, from string, k AttackKind, dummy WarriorID) map[string]int {
	out := map[string]int{}
	for r := 0; r < Size; r++ {
		for c := 1; c <= Size; c++ {
			cell := Cell{Row: r, Col: c}
			if cell.String() == from || inForest(cell) || cell == (Cell{9, 1}) || cell == (Cell{9, 20}) {
				continue
			}
			s := testSettings()
			s.FirstSide = w.Side()
			g := place(t, s, map[string]string{string(w): from, string(dummy): cell.String()})
			evs, err := g.Decide(turnIn(w.Side(), t0, Turn{Attacks: []Attack{{Kind: k, Attackers: []WarriorID{w}, Target: Target{Cell: &cell}}}}))
			if err != nil {
				continue
			}
			out[cell.String()] = evs[0].(*TurnPlayed).Attacks[0].Hits[0].Strength
		}
	}
	return out
}

func TestSeedDiagramKnightSword(t *testing.T) {
	got := strengthOn(t, "р1", "D5", AttackSword, "ш2")
	want := map[string]int{"C4": 9, "C5": 9, "C6": 9, "D4": 9, "D6": 9, "E4": 9, "E5": 9, "E6": 9}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("р1 sword from D5: got %v, want %v", got, want)
	}
}

func TestSeedDiagramGuard(t *testing.T) {
	sword := strengthOn(t, "ш3", "F5", AttackSword, "л1")
	lance := strengthOn(t, "ш3", "F5", AttackLance, "л1")
	wantSword := map[string]int{"E4": 8, "E5": 8, "E6": 8, "F4": 8, "F6": 8, "G4": 8, "G5": 8, "G6": 8}
	wantLance := map[string]int{"D3": 7, "D5": 7, "D7": 7, "F3": 7, "F7": 7, "H3": 7, "H5": 7, "H7": 7}
	if !reflect.DeepEqual(sword, wantSword) {
		t.Errorf("guard sword: got %v", sword)
	}
	if !reflect.DeepEqual(lance, wantLance) {
		t.Errorf("guard lance: got %v", lance)
	}
}

func TestSeedDiagramShotValues(t *testing.T) {
	// crossbow а2 on I15: row I to the west 10-8-7-6 (seed diagram)
	got := strengthOn(t, "а2", "I15", AttackShot, "в1")
	for cell, want := range map[string]int{"I14": 10, "I13": 8, "I12": 7, "I11": 6, "M15": 6, "E11": 6} {
		if got[cell] != want {
			t.Errorf("а2 shot on %s: got %d want %d", cell, got[cell], want)
		}
	}
	if _, ok := got["I10"]; ok {
		t.Errorf("а2 shoots 5 cells")
	}
	if _, ok := got["K14"]; ok {
		t.Errorf("а2 shoots off the lines")
	}
	arch := strengthOn(t, "л3", "G13", AttackShot, "в1")
	for cell, want := range map[string]int{"F13": 9, "E13": 7, "D13": 6, "C13": 5} {
		if arch[cell] != want {
			t.Errorf("л3 shot on %s: got %d want %d", cell, arch[cell], want)
		}
	}
	mounted := strengthOn(t, "в1", "K10", AttackShot, "л1")
	for cell, want := range map[string]int{"K11": 7, "K12": 6, "K13": 5} {
		if mounted[cell] != want {
			t.Errorf("в1 shot on %s: got %d want %d", cell, mounted[cell], want)
		}
	}
	if _, ok := mounted["K14"]; ok {
		t.Errorf("в1 shoots 4 cells")
	}
}

func TestDefaultDeploymentMatchesSeed(t *testing.T) {
	g, err := New(testSettings(), testRoster(), Setup{Mode: SetupDefault, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"р1": "P18", "р2": "R18", "р3": "S18", "а1": "C17", "а2": "D17", "л1": "F17",
		"л2": "G17", "л3": "H17", "с1": "I19", "с2": "J19", "к1": "K17", "к5": "O17", "ш1": "I2", "ш2": "J2",
		"ш3": "K2", "в1": "E4", "в8": "L4", "н1": "O1", "н2": "O2", "н3": "P1", "н4": "P2"}
	for w, c := range want {
		v, _ := g.Warrior(WarriorID(w))
		if v.Cell == nil || v.Cell.String() != c {
			t.Errorf("%s on %v, want %s", w, v.Cell, c)
		}
	}
	toks := g.Tokens()
	if len(toks) != 32 || toks[Cell{9, 1}] != "Ф" || toks[Cell{9, 20}] != "Ф" {
		t.Errorf("tokens: %d, flags %q %q", len(toks), toks[Cell{9, 1}], toks[Cell{9, 20}])
	}
	// the default board parses back from its rendering (the board text contract)
	bt, err := ParseBoard(Render(toks))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bt.Cells, toks) {
		t.Errorf("render/parse differs")
	}
}

func TestTurnOrderAndRoster(t *testing.T) {
	roster := Roster{Players: []Player{
		{Name: "Alice", Side: Crusaders, Warriors: []WarriorID{"р1", "р2"}},
		{Name: "Bob", Side: Crusaders, Warriors: []WarriorID{"р3"}},
		{Name: "Sara", Side: Saracens},
	}}
	g, err := New(testSettings(), roster, Setup{Mode: SetupCustom, At: t0, Cells: map[WarriorID]Cell{
		"р1": *cellPtrS("E5"), "р2": *cellPtrS("F5"), "р3": *cellPtrS("G5"), "ш2": *cellPtrS("K2")}})
	if err != nil {
		t.Fatal(err)
	}
	mv := func(w, to string) Turn {
		return Turn{Moves: []Move{{Warrior: WarriorID(w), Ordinal: 1, To: *cellPtrS(to)}}}
	}
	// the saracens post first: out of turn, with the side to move
	r := refused(t, g, game.Act{At: t0, Author: "Sara", Body: mv("ш2", "K3")})
	if !r.Has(CodeOutOfTurn) || r.Problems[0].Side != Crusaders {
		t.Fatalf("want out_of_turn naming crusaders, got %+v", r)
	}
	// Bob may not move Alice's р1; he is told who controls it
	r = refused(t, g, game.Act{At: t0, Author: "bob", Body: mv("р1", "E6")})
	if !r.Has(CodeNotYourWarrior) || r.Problems[0].Owner != "Alice" {
		t.Fatalf("want not_your_warrior owned by Alice, got %+v", r)
	}
	refused(t, g, game.Act{At: t0, Author: "Mallory", Body: mv("р1", "E6")})
	// names match case-insensitively
	play(t, g, game.Act{At: t0, Author: "  ALICE ", Body: mv("р1", "E6")})
	if g.SideToMove() != Saracens {
		t.Fatalf("side to move %s", g.SideToMove())
	}
	r = refused(t, g, game.Act{At: t0, Author: "Bob", Body: mv("р3", "G6")})
	if !r.Has(CodeOutOfTurn) {
		t.Fatalf("crusaders twice in a row: %v", r)
	}
	play(t, g, game.Act{At: t0, Author: "sara", Body: mv("ш2", "K3")})
	play(t, g, game.Act{At: t0, Author: "Bob", Body: mv("р3", "G6")})
}

func TestRefusalData(t *testing.T) {
	g := place(t, func() Settings { s := testSettings(); s.FirstSide = Saracens; return s }(), map[string]string{"н2": "G4", "р1": "P18"})
	r := refused(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "н2", Ordinal: 1, To: *cellPtrS("G7")}}}))
	p := r.Problems[0]
	if p.Code != CodeTooFar || p.Limit != 1 || p.From.String() != "G4" || len(p.Cells) != 8 ||
		p.Cells[0].String() != "F3" || p.Cells[7].String() != "H5" {
		t.Fatalf("too_far data: %+v", p)
	}
	if lm := g.LegalMoves("н2"); len(lm) != 8 || lm[0].String() != "F3" || lm[7].String() != "H5" {
		t.Fatalf("LegalMoves: %v", lm)
	}
	// a 4th action: how many it made today
	g.st.Warriors["н2"].Actions = 3
	r = refused(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "н2", Ordinal: 4, To: *cellPtrS("G5")}}}))
	if r.Problems[0].Code != CodeDailyLimit || r.Problems[0].Count != 3 {
		t.Fatalf("daily limit data: %+v", r.Problems[0])
	}
	// unknown warrior, empty turn, unsupported body
	refused(t, g, turnIn(Saracens, t0, Turn{}))
	r = refused(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "н9", To: *cellPtrS("G5")}}}))
	if !r.Has(CodeUnknownWarrior) {
		t.Fatal(r)
	}
	r = refused(t, g, game.Act{At: t0, Author: "Sara", Body: 42})
	if !r.Has(CodeUnsupportedBody) {
		t.Fatal(r)
	}
	// off-board cells are refused, never panic
	r = refused(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "ш1", To: Cell{Row: 40, Col: 3}}}}))
	if !r.Has(CodeNotInPlay) {
		t.Fatal(r)
	}
}

func TestDailyActionsAcrossTurns(t *testing.T) {
	g := place(t, testSettings(), map[string]string{"р1": "E5", "ш2": "K2"})
	at := t0
	for i := 1; i <= 3; i++ {
		play(t, g, turnIn(Crusaders, at, Turn{Moves: []Move{{Warrior: "р1", Ordinal: i, To: Cell{Row: 4, Col: 5 + i}}}}))
		play(t, g, turnIn(Saracens, at, Turn{Moves: []Move{{Warrior: "ш2", Ordinal: i, To: Cell{Row: 10 + i, Col: 2}}}}))
	}
	if g.ActionsToday("р1") != 3 {
		t.Fatalf("actions %d", g.ActionsToday("р1"))
	}
	refused(t, g, turnIn(Crusaders, at, Turn{Moves: []Move{{Warrior: "р1", Ordinal: 4, To: *cellPtrS("E9")}}}))
	// the daily close resets the count
	mid := time.Date(2026, 3, 3, 0, 0, 0, 0, msk)
	evs, err := g.Tick(mid, testRand)
	if err != nil || len(evs) == 0 {
		t.Fatalf("tick: %v %v", evs, err)
	}
	for _, ev := range evs {
		if err := g.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	play(t, g, turnIn(Crusaders, mid.Add(time.Hour), Turn{Moves: []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("E9")}}}))
}

func TestSloppyBoard(t *testing.T) {
	s := DefaultSettings()
	s.Location = msk
	g := place(t, s, map[string]string{"р1": "E5", "ш2": "E7", "в1": "K2"})
	board := func(cells map[string]string) *BoardText {
		b := &BoardText{Cells: map[Cell]string{}}
		for c, tok := range cells {
			b.Cells[*cellPtrS(c)] = tok
		}
		return b
	}
	// р1 moves to E6 and kills ш2 on E7. The player shows р1 on E6, keeps ш2 and a "9" mark,
	// but forgets the underscores on E5 (р1 still drawn there) and leaves out the flags.
	turn := Turn{
		Moves:   []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("E6")}},
		Attacks: []Attack{{Kind: AttackSword, Attackers: []WarriorID{"р1"}, Target: Target{Warrior: "ш2"}}},
		Board:   board(map[string]string{"E5": "р1", "E6": "р1", "E7": "ш2", "D7": "9", "K2": "в1", "J1": "Ф", "J20": "Ф"}),
	}
	evs := play(t, g, turnIn(Crusaders, t0, turn))
	tp := evs[0].(*TurnPlayed)
	if len(tp.BoardDiff) != 1 || tp.BoardDiff[0].Cell.String() != "E5" || tp.BoardDiff[0].Quoted != "р1" || tp.BoardDiff[0].Actual != "" {
		t.Fatalf("board diff: %+v", tp.BoardDiff)
	}
	if tp.Wounds != 1 || g.WoundsOwed(Crusaders).Unallocated != 1 {
		t.Fatalf("wounds: %d owed %+v", tp.Wounds, g.WoundsOwed(Crusaders))
	}
	// the saracens post no board at all: sloppy too
	evs = play(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "в1", Ordinal: 1, To: *cellPtrS("K3")}}}))
	if tp := evs[0].(*TurnPlayed); len(tp.Sloppy) != 1 || tp.Sloppy[0].Code != SloppyBoardMissing {
		t.Fatalf("sloppy: %+v", tp.Sloppy)
	}
	// a clean board: no sloppiness
	evs = play(t, g, turnIn(Crusaders, t0, Turn{Moves: []Move{{Warrior: "р1", Ordinal: 2, To: *cellPtrS("E5")}},
		Board: board(map[string]string{"E5": "р1", "K3": "в1", "J1": "Ф", "J20": "Ф"})}))
	if tp := evs[0].(*TurnPlayed); len(tp.Sloppy) != 0 || tp.Wounds != 0 {
		t.Fatalf("clean board sloppy: %+v %+v", tp.Sloppy, tp.BoardDiff)
	}
}

func TestGameOverRefusesEverything(t *testing.T) {
	g := place(t, testSettings(), map[string]string{"р1": "E5", "ш1": "E6", "в1": "K5"})
	play(t, g, turnIn(Crusaders, t0, swordAt("р1", "", "E6")))
	if g.Winner() != Crusaders || g.Phase() != PhaseOver {
		t.Fatalf("winner %q", g.Winner())
	}
	r := refused(t, g, turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "в1", Ordinal: 1, To: *cellPtrS("K6")}}}))
	if r.Codes()[0] != CodeGameOver {
		t.Fatal(r)
	}
	if next, ok := g.NextTimer(t0); ok {
		t.Fatalf("timer after the game: %v", next)
	}
}

func TestChargeMoveLineMerged(t *testing.T) {
	// "1-й ход крестоносца р2 на H4" + "р2 атакует копьём": the move line gives the destination
	g := place(t, testSettings(), map[string]string{"р2": "H8", "в1": "H6"})
	evs := play(t, g, turnIn(Crusaders, t0, Turn{
		Moves:   []Move{{Warrior: "р2", Ordinal: 1, To: *cellPtrS("H4")}},
		Attacks: []Attack{{Kind: AttackLance, Attackers: []WarriorID{"р2"}}},
	}))
	tp := evs[0].(*TurnPlayed)
	if len(tp.Removed) != 1 || tp.Removed[0].Warrior != "в1" || g.ChargesLeft("р2") != 1 || len(tp.Actors) != 1 {
		t.Fatalf("merged charge: %s", jsonOf(tp))
	}
	if v, _ := g.Warrior("р2"); v.Cell.String() != "H4" || v.ActionsToday != 1 {
		t.Fatalf("р2: %+v", v)
	}
}

func TestWarriorView(t *testing.T) {
	g := place(t, testSettings(), map[string]string{"р1": "E5", "а1": "F5", "в1": "K5"})
	v, _ := g.Warrior("р1")
	if !reflect.DeepEqual(v.Attack, map[string]int{"sword": 9, "lance": 10}) || v.Defence != 9 || v.ChargesLeft != 2 {
		t.Fatalf("р1 view %+v", v)
	}
	v, _ = g.Warrior("а1")
	if !reflect.DeepEqual(v.Attack, map[string]int{"sword": 5, "shot": 10}) {
		t.Fatalf("а1 view %+v", v)
	}
	v, _ = g.Warrior("р3")
	if v.InPlay || v.Cell != nil {
		t.Fatalf("р3 view %+v", v)
	}
}

func TestAllCodesDocumentedAndUnique(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range AllCodes {
		if seen[c] || c == "" {
			t.Errorf("duplicate or empty code %q", c)
		}
		seen[c] = true
	}
	if len(AllCodes) < 50 {
		t.Errorf("only %d codes", len(AllCodes))
	}
	_ = fmt.Sprint
}

func TestForestInvisible(t *testing.T) {
	s := testSettings()
	s.ForestInvisible = true
	g := place(t, s, map[string]string{"р1": "C5", "ш1": "K2"})
	r := refused(t, g, turnIn(Crusaders, t0, Turn{Moves: []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("B5")}}}))
	if !r.Has(CodeForestMustBePrivate) {
		t.Fatal(r)
	}
	in := turnIn(Crusaders, t0, Turn{Moves: []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("B5")}}})
	in.Private = true
	play(t, g, in)
	if _, shown := g.Tokens()[*cellPtrS("B5")]; shown {
		t.Fatal("forest warrior drawn")
	}
	if v, _ := g.Warrior("р1"); v.Cell.String() != "B5" {
		t.Fatal(v)
	}
}

// With invisible forests, warriors of the two armies meeting in the forest are revealed: the
// mover's previous cell and the enemy's cell; no meeting, no reveal.
func TestForestMeetingRevealed(t *testing.T) {
	s := testSettings()
	s.ForestInvisible = true
	g := place(t, s, map[string]string{"р1": "B7", "р2": "C12", "ш1": "A5", "ш2": "K2"})
	in := turnIn(Crusaders, t0, Turn{Moves: []Move{{Warrior: "р2", Ordinal: 1, To: *cellPtrS("B11")}}})
	in.Private = true
	evs := play(t, g, in)
	if tp := evs[0].(*TurnPlayed); len(tp.Revealed) != 0 {
		t.Fatalf("no enemy near B11, yet revealed %+v", tp.Revealed)
	}
	in = turnIn(Saracens, t0.Add(time.Minute), Turn{Moves: []Move{{Warrior: "ш1", Ordinal: 1, To: *cellPtrS("A6")}}})
	in.Private = true
	evs = play(t, g, in)
	tp := evs[0].(*TurnPlayed)
	want := []Reveal{{Warrior: "ш1", Cell: *cellPtrS("A5")}, {Warrior: "р1", Cell: *cellPtrS("B7")}}
	if !reflect.DeepEqual(tp.Revealed, want) {
		t.Fatalf("revealed %+v, want %+v", tp.Revealed, want)
	}
}

// Try judges as if the author's side had the move and leaves the game as it was.
func TestTry(t *testing.T) {
	g := place(t, testSettings(), map[string]string{"р1": "E5", "ш1": "K2"})
	before := snap(t, g)
	in := turnIn(Saracens, t0, Turn{Moves: []Move{{Warrior: "ш1", Ordinal: 1, To: *cp(t, "K3")}}})
	if _, err := g.Decide(in); err == nil {
		t.Fatal("the saracens moved out of turn")
	}
	if _, err := g.Try(in); err != nil {
		t.Fatalf("try: %v", err)
	}
	if snap(t, g) != before {
		t.Fatal("try changed the game")
	}
	if !g.Controls("Sara", "ш1") || g.Controls("Sara", "р1") || g.Controls("nobody", "ш1") {
		t.Fatal("controls")
	}
}

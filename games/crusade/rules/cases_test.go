package rules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// caseFile is one rule case in testdata/cases (see testdata/cases/README.md).
type caseFile struct {
	Name     string               `yaml:"name"`
	Rule     string               `yaml:"rule"`
	Side     Side                 `yaml:"side"`
	Before   map[WarriorID]Cell   `yaml:"before"`
	Settings map[string]any       `yaml:"settings"`
	Prior    casePrior            `yaml:"prior"`
	Clock    *caseClock           `yaml:"clock"`
	Turn     caseTurn             `yaml:"turn"`
	Close    bool                 `yaml:"close"`
	Text     string               `yaml:"text"`
	Expect   caseExpect           `yaml:"expect"`
	Extra    map[string]yaml.Node `yaml:",inline"`
}

// caseClock times a case on the case day (Monday 2 March 2026, Moscow), "HH:MM": the side to
// move got the move at since; the timed rules due up to at fire, then the turn is judged at at.
type caseClock struct {
	Since string `yaml:"since"`
	At    string `yaml:"at"`
}

type casePrior struct {
	Wounds    map[WarriorID]caseWounds `yaml:"wounds"`    // wounds already applied
	Allocated []Wound                  `yaml:"allocated"` // wounds allocated, applied at the next close
	Actions   map[WarriorID]int        `yaml:"actions"`
	Charges   map[WarriorID]int        `yaml:"charges"`
	Killed    map[Side]int             `yaml:"killed"`
	Front     map[WarriorID]Dir        `yaml:"front"`
}

type caseWounds struct {
	Attack  int `yaml:"attack"`
	Defence int `yaml:"defence"`
}

// caseTurn is a Turn in YAML (the Turn's JSON field names).
type caseTurn struct {
	Moves   []caseMove   `yaml:"moves"`
	Attacks []caseAttack `yaml:"attacks"`
}

type caseMove struct {
	Warrior WarriorID `yaml:"warrior"`
	Ordinal int       `yaml:"ordinal"`
	From    *Cell     `yaml:"from"`
	To      Cell      `yaml:"to"`
}

type caseAttack struct {
	Kind      AttackKind  `yaml:"kind"`
	Attackers []WarriorID `yaml:"attackers"`
	Ordinal   int         `yaml:"ordinal"`
	Target    struct {
		Cell    *Cell     `yaml:"cell"`
		Warrior WarriorID `yaml:"warrior"`
	} `yaml:"target"`
	To *Cell `yaml:"to"`
}

func (c caseTurn) turn() Turn {
	var t Turn
	for _, m := range c.Moves {
		t.Moves = append(t.Moves, Move{Warrior: m.Warrior, Ordinal: m.Ordinal, From: m.From, To: m.To})
	}
	for _, a := range c.Attacks {
		t.Attacks = append(t.Attacks, Attack{Kind: a.Kind, Attackers: a.Attackers, Ordinal: a.Ordinal,
			Target: Target{Cell: a.Target.Cell, Warrior: a.Target.Warrior}, To: a.To})
	}
	return t
}

type caseExpect struct {
	Refused []Code             `yaml:"refused"`
	After   map[WarriorID]Cell `yaml:"after"`
	Attacks []caseHit          `yaml:"attacks"`
	Sloppy  []SloppyCode       `yaml:"sloppy"`
	Winner  Side               `yaml:"winner"`
	// Violations: the time-limit violations charged before the turn (clock cases).
	Violations int `yaml:"violations"`
	// Victory: the victory's reason, and whether the moderators are told (draws).
	Reason     VictoryReason `yaml:"reason"`
	Moderators bool          `yaml:"moderators"`
	Died       []WarriorID   `yaml:"died"` // close cases: who died of wounds
}

type caseHit struct {
	Cell     Cell      `yaml:"cell"`
	Warrior  WarriorID `yaml:"warrior"`
	Strength int       `yaml:"strength"`
	Outcome  Outcome   `yaml:"outcome"`
}

func loadCases(t *testing.T) map[string]caseFile {
	files, err := filepath.Glob("testdata/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	out := map[string]caseFile{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c caseFile
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = c
	}
	return out
}

func caseSettings(t *testing.T, c caseFile) Settings {
	s := testSettings()
	s.FirstSide = c.Side
	if len(c.Settings) > 0 {
		b, err := yaml.Marshal(c.Settings)
		if err != nil {
			t.Fatal(err)
		}
		loc := s.Location
		if err := yaml.Unmarshal(b, &s); err != nil {
			t.Fatalf("settings: %v", err)
		}
		s.Location = loc
	}
	return s
}

func TestCases(t *testing.T) {
	cases := loadCases(t)
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, file := range names {
		c := cases[file]
		t.Run(strings.TrimSuffix(file, ".yaml"), func(t *testing.T) {
			if c.Name == "" || c.Rule == "" || c.Side == "" || len(c.Before) == 0 {
				t.Fatalf("case needs name, rule, side and before")
			}
			if len(c.Extra) > 0 {
				t.Fatalf("unknown keys in case")
			}
			g, err := New(caseSettings(t, c), testRoster(), Setup{Mode: SetupCustom, Cells: c.Before, At: t0})
			if err != nil {
				t.Fatal(err)
			}
			for w, n := range c.Prior.Actions {
				g.st.Warriors[w].Actions = n
			}
			for w, n := range c.Prior.Charges {
				g.st.Warriors[w].Charges = n
			}
			for s, n := range c.Prior.Killed {
				g.st.Killed[s] = n
			}
			for w, d := range c.Prior.Front {
				g.st.Warriors[w].Front = d
			}
			for w, n := range c.Prior.Wounds {
				g.st.Warriors[w].AttackWounds = n.Attack
				g.st.Warriors[w].DefenceWounds = n.Defence
			}
			for _, w := range c.Prior.Allocated {
				g.st.Allocated[w.Warrior.Side()] = append(g.st.Allocated[w.Warrior.Side()], w)
			}
			turnAt := t0.Add(10 * time.Minute)
			if c.Clock != nil {
				since, at := caseTime(t, c.Clock.Since), caseTime(t, c.Clock.At)
				g.st.ToMoveSince, g.st.LimitChargedUntil = since, since
				n := 0
				for now := since; ; {
					next, ok := g.NextTimer(now)
					if !ok || next.After(at) {
						break
					}
					evs, err := g.Tick(next, testRand)
					if err != nil {
						t.Fatal(err)
					}
					for _, ev := range evs {
						if _, ok := ev.(*TimeLimitExceeded); ok {
							n++
						}
						if err := g.Apply(ev); err != nil {
							t.Fatal(err)
						}
					}
					now = next
				}
				if n != c.Expect.Violations {
					t.Errorf("time-limit violations before the turn: got %d, want %d", n, c.Expect.Violations)
				}
				turnAt = at
			}
			in := turnIn(c.Side, turnAt, c.Turn.turn())
			if len(c.Turn.Moves)+len(c.Turn.Attacks) == 0 {
				if !c.Close {
					t.Fatal("case needs a turn or close: true")
				}
				checkClose(t, g, c)
				return
			}
			if len(c.Expect.Refused) > 0 {
				r := refused(t, g, in)
				got := map[Code]bool{}
				for _, code := range r.Codes() {
					got[code] = true
				}
				for _, want := range c.Expect.Refused {
					if !got[want] {
						t.Errorf("want code %s, got %v", want, r.Codes())
					}
				}
				if len(got) != len(uniqCodes(c.Expect.Refused)) {
					t.Errorf("codes: want %v, got %v (%v)", c.Expect.Refused, r.Codes(), r)
				}
				return
			}
			evs, err := g.Decide(in)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			for _, ev := range evs {
				if err := g.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
			tp := evs[0].(*TurnPlayed)
			if c.Close {
				checkClose(t, g, c)
				return
			}
			// after: exactly the listed warriors, where listed
			got := map[WarriorID]Cell{}
			for _, v := range g.Warriors() {
				if v.Cell != nil {
					got[v.ID] = *v.Cell
				}
			}
			if c.Expect.After != nil {
				for w, cell := range c.Expect.After {
					if got[w] != cell {
						t.Errorf("after: %s on %v, want %s", w, cellName(got, w), cell)
					}
				}
				for w := range got {
					if _, ok := c.Expect.After[w]; !ok {
						t.Errorf("after: %s still on %s, want it removed", w, got[w])
					}
				}
			}
			if c.Expect.Attacks != nil {
				var hits []caseHit
				for _, a := range tp.Attacks {
					for _, h := range a.Hits {
						hits = append(hits, caseHit{Cell: h.Cell, Warrior: h.Warrior, Strength: h.Strength, Outcome: h.Outcome})
					}
				}
				if len(hits) != len(c.Expect.Attacks) {
					t.Errorf("attacks: got %d hits %s, want %d", len(hits), jsonOf(hits), len(c.Expect.Attacks))
				} else {
					for i, want := range c.Expect.Attacks {
						h := hits[i]
						if h.Cell != want.Cell || h.Strength != want.Strength || (want.Outcome != "" && h.Outcome != want.Outcome) ||
							(want.Warrior != "" && h.Warrior != want.Warrior) {
							t.Errorf("hit %d: got %s %d %s %s, want %s %d %s %s", i, h.Cell, h.Strength, h.Outcome, h.Warrior,
								want.Cell, want.Strength, want.Outcome, want.Warrior)
						}
					}
				}
			}
			var sl []SloppyCode
			for _, s := range tp.Sloppy {
				sl = append(sl, s.Code)
			}
			if jsonOf(sl) != jsonOf(c.Expect.Sloppy) {
				t.Errorf("sloppy: got %v, want %v", sl, c.Expect.Sloppy)
			}
			checkVictory(t, g, c)
		})
	}
}

// caseTime is "HH:MM" on the case day.
func caseTime(t *testing.T, s string) time.Time {
	t.Helper()
	hm, err := time.Parse("15:04", s)
	if err != nil {
		t.Fatalf("clock time %q: %v", s, err)
	}
	return time.Date(t0.Year(), t0.Month(), t0.Day(), hm.Hour(), hm.Minute(), 0, 0, t0.Location())
}

// checkClose runs the daily close at the next midnight and checks who died and who won.
func checkClose(t *testing.T, g *Game, c caseFile) {
	t.Helper()
	dc := g.closeDay(g.nextMidnight(t0))
	if err := g.Apply(dc); err != nil {
		t.Fatal(err)
	}
	var died []WarriorID
	for _, r := range dc.Died {
		died = append(died, r.Warrior)
	}
	if jsonOf(died) != jsonOf(c.Expect.Died) {
		t.Errorf("died at the close: got %v, want %v", died, c.Expect.Died)
	}
	checkVictory(t, g, c)
}

func checkVictory(t *testing.T, g *Game, c caseFile) {
	t.Helper()
	if g.Winner() != c.Expect.Winner {
		t.Errorf("winner: got %q, want %q", g.Winner(), c.Expect.Winner)
	}
	v := g.st.Victory
	if c.Expect.Reason != "" && (v == nil || v.Reason != c.Expect.Reason) {
		t.Errorf("victory: got %s, want reason %s", jsonOf(v), c.Expect.Reason)
	}
	if got := v != nil && v.Moderators; got != c.Expect.Moderators {
		t.Errorf("victory: moderators told %v, want %v (%s)", got, c.Expect.Moderators, jsonOf(v))
	}
}

func cellName(m map[WarriorID]Cell, w WarriorID) string {
	if c, ok := m[w]; ok {
		return c.String()
	}
	return "nowhere"
}

func uniqCodes(cs []Code) map[Code]bool {
	m := map[Code]bool{}
	for _, c := range cs {
		m[c] = true
	}
	return m
}

package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"forumgm/game"

	"go.yaml.in/yaml/v3"
)

// caseFile is one rule case in testdata/cases (see testdata/cases/README.md).
type caseFile struct {
	Name       string         `yaml:"name"`
	Rule       string         `yaml:"rule"`
	Chance     *int           `yaml:"chance"`
	Settings   map[string]any `yaml:"settings"`
	Deployment Deployment     `yaml:"deployment"`
	Seed       string         `yaml:"seed"`
	Messages   []caseMessage  `yaml:"messages"`
	Rounds     int            `yaml:"rounds"`
	Expect     caseExpect     `yaml:"expect"`
	// Variants run the case again with other settings and expectations (a probability at 0
	// and at 100).
	Variants []caseVariant `yaml:"variants"`
}

type caseVariant struct {
	Name     string         `yaml:"name"`
	Settings map[string]any `yaml:"settings"`
	Messages []caseMessage  `yaml:"messages"`
	Expect   caseExpect     `yaml:"expect"`
}

// CaseMessage is one message of orders and what its check must say.
type CaseMessage struct {
	Author  string        `yaml:"author"`
	Public  bool          `yaml:"public"`
	Round   int           `yaml:"round"` // sent before this round's deadline (default 1)
	Text    string        `yaml:"text"`  // the parser's tests check it reads as tacts+dragon
	Tacts   []TactOrder   `yaml:"tacts"`
	Dragon  []DragonOrder `yaml:"dragon"`
	Refused []Code        `yaml:"refused"` // exactly these codes refused (all refused: a Refusal)
	Notes   []Code        `yaml:"notes"`
	Dropped []int         `yaml:"dropped"` // later tacts that no longer hold
}

type caseMessage = CaseMessage

type caseExpect struct {
	Final  map[string]any   `yaml:"final"`
	Happen []map[string]any `yaml:"happen"`
	Absent []map[string]any `yaml:"absent"`
}

// parked are the cells unlisted balls are put on in a case: row 2, out of everyone's way.
var parked = map[Color]BallPlace{
	Black: {Cell: 20, Height: 3, Dir: "e"}, Green: {Cell: 22, Height: 3, Dir: "e"},
	Blue: {Cell: 24, Height: 3, Dir: "e"}, Red: {Cell: 26, Height: 3, Dir: "w"}, Yellow: {Cell: 28, Height: 3, Dir: "w"},
}

// LoadCases reads every case file (also used by the parser's tests through the text fields).
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

func (c caseFile) settings(t *testing.T) Settings {
	s := DefaultSettings()
	if c.Chance != nil {
		for _, p := range s.percents() {
			*p = *c.Chance
		}
	}
	if len(c.Settings) > 0 {
		b, _ := yaml.Marshal(c.Settings)
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		loc := s.Location
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("settings: %v", err)
		}
		s.Location = loc
	}
	return s
}

func (c caseFile) deployment() *Deployment {
	d := c.Deployment
	listed := map[Color]bool{}
	for k := range d.Balls {
		col, _ := ColorOf(k)
		listed[col] = true
	}
	for _, p := range d.Players {
		for _, b := range p.Balls {
			col, _ := ColorOf(b)
			listed[col] = true
		}
	}
	for _, dp := range d.Dragons {
		for _, b := range dp.Swallowed {
			col, _ := ColorOf(b)
			listed[col] = true
		}
	}
	balls := map[string]BallPlace{}
	for k, v := range d.Balls {
		balls[k] = v
	}
	for _, col := range Colors {
		if !listed[col] {
			balls[string(col)] = parked[col]
		}
	}
	d.Balls = balls
	return &d
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
			if len(c.Variants) == 0 {
				runCase(t, c)
				return
			}
			for _, v := range c.Variants {
				vc := c
				vc.Settings = map[string]any{}
				for k, x := range c.Settings {
					vc.Settings[k] = x
				}
				for k, x := range v.Settings {
					vc.Settings[k] = x
				}
				vc.Expect = v.Expect
				if v.Messages != nil {
					vc.Messages = v.Messages
				}
				t.Run(v.Name, func(t *testing.T) { runCase(t, vc) })
			}
		})
	}
}

func runCase(t *testing.T, c caseFile) {
	if c.Name == "" || c.Rule == "" {
		t.Fatal("a case needs name and rule")
	}
	g, err := New(c.settings(t), testTeams(), c.deployment())
	if err != nil {
		t.Fatal(err)
	}
	seed := c.Seed
	if seed == "" {
		seed = "case"
	}
	rnd := game.NewRand(seed, 0, game.Mix{})
	evs, err := g.Start(t0, rnd)
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, evs)
	rounds := max(c.Rounds, 0)
	var reports []*RoundResolved
	for round := 1; round <= max(rounds, 1); round++ {
		for i, m := range c.Messages {
			if max(m.Round, 1) != round {
				continue
			}
			checkMessage(t, g, i, m)
		}
		if round <= rounds && !g.Over() {
			reports = append(reports, resolve(t, g, rnd))
		}
	}
	if c.Expect.Final != nil {
		var got map[string]any
		b, _ := json.Marshal(g.Final())
		_ = json.Unmarshal(b, &got)
		want := normalise(c.Expect.Final)
		if diff := subset("final", want, got); diff != "" {
			t.Errorf("%s\nfinal: %s", diff, b)
		}
	}
	var all []map[string]any
	for _, rep := range reports {
		for ti, hs := range rep.Tacts {
			for _, h := range hs {
				var m map[string]any
				b, _ := json.Marshal(h)
				_ = json.Unmarshal(b, &m)
				m["tact"], m["round"] = float64(ti+1), float64(rep.Round)
				if _, ok := m["step"]; !ok {
					m["step"] = float64(0)
				}
				all = append(all, m)
			}
		}
		for _, h := range rep.After {
			var m map[string]any
			b, _ := json.Marshal(h)
			_ = json.Unmarshal(b, &m)
			m["round"], m["tact"] = float64(rep.Round), float64(0)
			all = append(all, m)
		}
	}
	for _, w := range c.Expect.Happen {
		want := normalise(w).(map[string]any)
		if _, ok := want["round"]; !ok {
			want["round"] = float64(1)
		}
		if !slices.ContainsFunc(all, func(h map[string]any) bool { return subset("", want, h) == "" }) {
			t.Errorf("did not happen: %v\nhappenings: %s", want, jsonOf(all))
		}
	}
	for _, w := range c.Expect.Absent {
		want := normalise(w).(map[string]any)
		for _, h := range all {
			if subset("", want, h) == "" {
				t.Errorf("happened: %v", h)
			}
		}
	}
}

func checkMessage(t *testing.T, g *Game, i int, m CaseMessage) {
	t.Helper()
	o := &Orders{Tacts: m.Tacts, Dragon: m.Dragon}
	in := game.Act{At: t0.Add(time.Duration(i+1) * time.Minute), Author: m.Author, Private: !m.Public, Body: o}
	evs, err := g.Decide(in)
	var refused, notes []Code
	var dropped []int
	if err != nil {
		r, ok := AsRefusal(err)
		if !ok {
			t.Fatalf("message %d: %v", i, err)
		}
		refused = r.Codes()
	} else {
		applyAll(t, g, evs)
		ev := evs[0].(*OrdersAccepted)
		for _, p := range ev.Refused {
			refused = append(refused, p.Code)
		}
		for _, p := range ev.Notes {
			notes = append(notes, p.Code)
		}
		for _, p := range ev.Dropped {
			dropped = append(dropped, p.Tact)
		}
	}
	if fmt.Sprint(refused) != fmt.Sprint(m.Refused) && !(len(refused) == 0 && len(m.Refused) == 0) {
		t.Errorf("message %d (%s): refused %v, want %v (%v)", i, m.Author, refused, m.Refused, err)
	}
	if fmt.Sprint(notes) != fmt.Sprint(m.Notes) && !(len(notes) == 0 && len(m.Notes) == 0) {
		t.Errorf("message %d: notes %v, want %v", i, notes, m.Notes)
	}
	if fmt.Sprint(dropped) != fmt.Sprint(m.Dropped) && !(len(dropped) == 0 && len(m.Dropped) == 0) {
		t.Errorf("message %d: dropped %v, want %v", i, dropped, m.Dropped)
	}
}

// normalise turns YAML values into what encoding/json decodes (numbers as float64).
func normalise(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// subset reports where want is not contained in got ("" when it is): maps by key, lists
// element by element and of equal length, scalars equal.
func subset(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, got)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if d := subset(path+"."+k, w[k], g[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, w, got)
		}
		for i := range w {
			if d := subset(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return fmt.Sprintf("%s: want %v, got %v", path, want, got)
	}
	return ""
}

package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
)

// caseFile is one rule case in testdata/cases (format: testdata/cases/README.md).
type caseFile struct {
	Name     string         `yaml:"name"`
	Rule     string         `yaml:"rule"`
	Teams    int            `yaml:"teams"`
	Board    string         `yaml:"board"` // a board file's text; default: the default board
	Settings map[string]any `yaml:"settings"`
	Steps    []caseStep     `yaml:"steps"`
	Expect   caseExpect     `yaml:"expect"`
}

// caseStep is a post or private message (at, by, one body) or a clock step (tick).
type caseStep struct {
	At       string           `yaml:"at"`
	Tick     string           `yaml:"tick"`
	By       string           `yaml:"by"`
	Private  bool             `yaml:"private"`
	Text     string           `yaml:"text"` // the post as written (checked by games/football/grammar)
	Roll     *int             `yaml:"roll"`
	Attack   *Attack          `yaml:"attack"`
	Defence  *int             `yaml:"defence"`
	Points   *Points          `yaml:"points"`
	Answer   *string          `yaml:"answer"`
	End      *EndGame         `yaml:"end"`
	Moves    []caseStep       `yaml:"moves"` // several intents in one post (each one body)
	Refused  []Code           `yaml:"refused"`
	Problems []map[string]any `yaml:"problems"` // subsets of the refusal's problems
	Events   []map[string]any `yaml:"events"`
}

type caseExpect struct {
	Final map[string]any `yaml:"final"`
	Teams map[string]any `yaml:"teams"`
}

func (s caseStep) body() (any, error) {
	var bodies []any
	if s.Roll != nil {
		bodies = append(bodies, &Roll{Number: *s.Roll})
	}
	if s.Attack != nil {
		bodies = append(bodies, s.Attack)
	}
	if s.Defence != nil {
		bodies = append(bodies, &Defence{Number: *s.Defence})
	}
	if s.Points != nil {
		bodies = append(bodies, s.Points)
	}
	if s.Answer != nil {
		bodies = append(bodies, &Answer{Text: *s.Answer, Explicit: true})
	}
	if s.End != nil {
		bodies = append(bodies, s.End)
	}
	if s.Moves != nil {
		m := &Moves{}
		for _, sub := range s.Moves {
			b, err := sub.body()
			if err != nil {
				return nil, err
			}
			in, ok := b.(Intent)
			if !ok {
				return nil, fmt.Errorf("moves: %T is not an intent", b)
			}
			m.Intents = append(m.Intents, in)
		}
		bodies = append(bodies, m)
	}
	if len(bodies) != 1 {
		return nil, fmt.Errorf("a post step needs exactly one of roll, attack, defence, points, answer, end, moves (has %d)", len(bodies))
	}
	return bodies[0], nil
}

func loadCases(t *testing.T) (names []string, cases map[string]caseFile) {
	files, err := filepath.Glob("testdata/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	cases = map[string]caseFile{}
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
		names = append(names, filepath.Base(f))
		cases[filepath.Base(f)] = c
	}
	sort.Strings(names)
	return names, cases
}

func caseBoard(t *testing.T, c caseFile) *Board {
	if c.Board == "" {
		return DefaultBoard()
	}
	b, err := ParseBoard([]byte(c.Board), "case board")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func caseSettings(t *testing.T, c caseFile) Settings {
	s := testSettings()
	if len(c.Settings) > 0 {
		b, err := yaml.Marshal(c.Settings)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("settings: %v", err)
		}
		s.Location = msk
	}
	return s
}

// TestCases runs every case file: the game begins at 19:00 with the case's teams and settings,
// each step fires the timers due and then judges its post (or only fires the timers up to its
// tick), and the expectations are checked as subsets of the events' and the final object's JSON.
func TestCases(t *testing.T) {
	names, cases := loadCases(t)
	for _, file := range names {
		c := cases[file]
		t.Run(strings.TrimSuffix(file, ".yaml"), func(t *testing.T) {
			if c.Name == "" || c.Rule == "" || len(c.Steps) == 0 {
				t.Fatal("a case needs name, rule and steps")
			}
			n := c.Teams
			if n == 0 {
				n = 4
			}
			board := caseBoard(t, c)
			h := newHarnessOn(t, caseSettings(t, c), board, testTeams(n))
			for i, s := range c.Steps {
				var evs []game.Event
				switch {
				case s.Tick != "" && s.At == "":
					evs = h.until(hm(t, s.Tick))
					if s.Refused != nil {
						t.Fatalf("step %d: a tick is never refused", i+1)
					}
				case s.At != "" && s.Tick == "":
					body, err := s.body()
					if err != nil {
						t.Fatalf("step %d: %v", i+1, err)
					}
					by := s.By
					if by == "" {
						by = "Игрок 1"
					}
					evs, err = h.decide(hm(t, s.At), by, s.Private, body)
					if len(s.Refused) > 0 {
						r := refusalOf(t, err)
						if !reflect.DeepEqual(r.Codes(), s.Refused) {
							t.Errorf("step %d: codes %v, want %v (%v)", i+1, r.Codes(), s.Refused, r)
						}
						if s.Problems != nil {
							var want []any
							for _, p := range s.Problems {
								want = append(want, p)
							}
							if err := subset(fmt.Sprintf("step %d: problems", i+1), want, generic(t, r.Problems)); err != nil {
								t.Error(err)
							}
						}
						continue
					}
					if err != nil {
						t.Fatalf("step %d: refused: %v", i+1, err)
					}
				default:
					t.Fatalf("step %d: give at (a post) or tick (the clock)", i+1)
				}
				if s.Events != nil {
					checkEvents(t, fmt.Sprintf("step %d", i+1), evs, s.Events)
				}
			}
			if c.Expect.Final != nil {
				if err := subset("final", c.Expect.Final, generic(t, h.g.Final())); err != nil {
					t.Error(err)
				}
			}
			if c.Expect.Teams != nil {
				got := map[string]any{}
				for _, ts := range h.g.st.Teams {
					got[ts.Name] = generic(t, ts)
				}
				if err := subset("teams", c.Expect.Teams, got); err != nil {
					t.Error(err)
				}
			}
			// the log re-folds to the same state
			replayed := newReplay(t, caseSettings(t, c), board, testTeams(n), h.log)
			if a, b := h.snap(), replayed; a != b {
				t.Errorf("replaying the log gives another state:\n%s\n%s", a, b)
			}
		})
	}
}

// checkEvents matches the events of a step against the wanted ones (each a subset of the
// event's JSON plus its kind), in order, one to one.
func checkEvents(t *testing.T, where string, evs []game.Event, want []map[string]any) {
	t.Helper()
	if len(evs) != len(want) {
		var kinds []string
		for _, e := range evs {
			kinds = append(kinds, e.EventKind())
		}
		t.Errorf("%s: %d events %v, want %d", where, len(evs), kinds, len(want))
		return
	}
	for i, w := range want {
		w = copyMap(w)
		kind, _ := w["kind"].(string)
		delete(w, "kind")
		if kind != "" && "football."+strings.TrimPrefix(kind, "football.") != evs[i].EventKind() {
			t.Errorf("%s: event %d is %s, want %s", where, i+1, evs[i].EventKind(), kind)
			continue
		}
		if err := subset(fmt.Sprintf("%s: %s", where, evs[i].EventKind()), w, generic(t, evs[i])); err != nil {
			t.Error(err)
		}
	}
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// generic is v's JSON read back into maps, slices, float64s, strings and bools.
func generic(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// subset reports where want (from YAML) is not contained in got (from JSON): maps by key, lists
// element by element with equal length, scalars by value (a YAML null wants the key absent or
// null).
func subset(path string, want, got any) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %s", path, jsonOf(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := subset(path+"."+k, w[k], g[k]); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok {
			if len(w) == 0 && got == nil {
				return nil
			}
			return fmt.Errorf("%s: want a list, got %s", path, jsonOf(got))
		}
		if len(g) != len(w) {
			return fmt.Errorf("%s: want %d items %s, got %d %s", path, len(w), jsonOf(w), len(g), jsonOf(g))
		}
		for i := range w {
			if err := subset(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); err != nil {
				return err
			}
		}
		return nil
	case nil:
		if got != nil {
			return fmt.Errorf("%s: want nothing, got %s", path, jsonOf(got))
		}
		return nil
	case int:
		if f, ok := got.(float64); ok && f == float64(w) {
			return nil
		}
	case bool:
		if b, ok := got.(bool); ok && b == w {
			return nil
		}
		if !w && got == nil {
			return nil // omitted false
		}
	case string:
		if s, ok := got.(string); ok && s == w {
			return nil
		}
	default:
		if jsonOf(want) == jsonOf(got) {
			return nil
		}
	}
	return fmt.Errorf("%s: want %s, got %s", path, jsonOf(want), jsonOf(got))
}

// newReplay folds a log (through its stored form) into a fresh game and returns its snapshot.
func newReplay(t *testing.T, s Settings, b *Board, teams []Team, log []game.Event) string {
	t.Helper()
	g, err := New(s, b, teams)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range log {
		r, err := game.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		back, err := g.DecodeEvent(r.Kind, r.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(back); err != nil {
			t.Fatal(err)
		}
	}
	out, err := g.SnapshotJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

package rules

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Question is one question of the bank (the quiz package's file format: text, accepted answers,
// optional topic).
type Question struct {
	Text    string   `yaml:"text" json:"text"`
	Answers []string `yaml:"answers" json:"answers"`
	Topic   string   `yaml:"topic,omitempty" json:"topic,omitempty"`
}

// Split is how teams are divided into groups.
type Split string

const (
	SplitRoster Split = "roster" // the first ⌈n/2⌉ teams of the roster form group 1 (default)
	SplitRandom Split = "random" // the roster is shuffled with the game's Rand first
)

// Settings are a game's rule settings; the YAML names are the contract's (section "Settings").
// The zero value is not valid: start from DefaultSettings.
type Settings struct {
	// Timezone names the game's zone (Europe/Moscow); times in replies are shown in it. The
	// engine reads no zone database: the caller loads it into Location.
	Timezone string         `yaml:"timezone" json:"timezone"`
	Location *time.Location `yaml:"-" json:"-"`
	// FirstTurn opens turn 1; turn N opens at FirstTurn + (N−1)·TurnEvery. Or TurnTimes lists
	// the opening of every turn (then FirstTurn and TurnEvery are not used).
	FirstTurn time.Time   `yaml:"first_turn" json:"first_turn"`
	TurnEvery string      `yaml:"turn_every" json:"turn_every"` // a Go duration ("30m")
	TurnTimes []time.Time `yaml:"turn_times,omitempty" json:"turn_times,omitempty"`
	// Window is how long a turn is open ("10m"): open ≤ t < open+Window.
	Window string `yaml:"window" json:"window"`
	// QuestionTime is how long a captain has to answer a question ("10m").
	QuestionTime string `yaml:"question_time" json:"question_time"`
	// TurnsEarly is the turn after which the game stops when places 1-3 are decided (6);
	// TurnsMax the last turn (12).
	TurnsEarly int `yaml:"turns_early" json:"turns_early"`
	TurnsMax   int `yaml:"turns_max" json:"turns_max"`
	// FloorPoints keeps a balance from going below 0 through a yellow card or a failed attack
	// (true). Spending never goes below 0 either way.
	FloorPoints bool `yaml:"floor_points" json:"floor_points"`
	// RingPicture: every turn report and the final post carry a picture of the ring (its cells
	// and the teams on them) under the text table (default false), attached where the forum
	// takes pictures, else linked from the media folder (docs/operations.md, "Pictures and
	// attachments"). It changes no rule: the text table stays what players read and quote.
	RingPicture bool `yaml:"ring_picture,omitempty" json:"ring_picture,omitempty"`
	// GoalPoints is what a goal is worth in the final formula (6).
	GoalPoints int `yaml:"goal_points" json:"goal_points"`
	// DieFaces is the die behind the number table: faces 1..DieFaces (6).
	DieFaces int `yaml:"die_faces" json:"die_faces"`
	// Groups is how many groups the teams are split into (2); the board must have a start cell
	// for each.
	Groups     int   `yaml:"groups" json:"groups"`
	GroupSplit Split `yaml:"group_split" json:"group_split"`
	// Dice fixes the faces of some numbers in the first mapping (test positions); the others
	// are drawn.
	Dice map[int]int `yaml:"dice,omitempty" json:"dice,omitempty"`
	// StartCells, Points and Goals set up a test position: team -> cell, team -> balance,
	// team -> [for, against].
	StartCells map[string]int    `yaml:"start_cells,omitempty" json:"start_cells,omitempty"`
	Points     map[string]int    `yaml:"points,omitempty" json:"points,omitempty"`
	Goals      map[string][2]int `yaml:"goals,omitempty" json:"goals,omitempty"`
	// Seed is the game's seed (a contract setting). The engine does not read it: the referee
	// builds the Rand from it (transcripts take seed and salt out of the settings themselves).
	Seed string `yaml:"seed,omitempty" json:"seed,omitempty"`
	// Salt, when set, is the salt of the first die mapping's commitment instead of one drawn
	// from the Rand (forumgm addition, for tests and for games whose salt is chosen outside).
	Salt string `yaml:"dice_salt,omitempty" json:"dice_salt,omitempty"`
	// Questions is the question bank (loaded by the caller; empty: no questions are asked).
	Questions []Question `yaml:"questions,omitempty" json:"questions,omitempty"`
}

// Fixed names the settings set (by their YAML names) that fix chance or the starting position
// instead of the seed and the rules: dice (faces of the first table), start_cells, points,
// goals and dice_salt. They are for transcripts and tests; a live game refuses them, since the
// players could not check them (docs/fairness.md).
func (s Settings) Fixed() []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"dice", len(s.Dice) > 0}, {"start_cells", len(s.StartCells) > 0}, {"points", len(s.Points) > 0},
		{"goals", len(s.Goals) > 0}, {"dice_salt", s.Salt != ""}} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// DefaultSettings are the rulings' and the contract's defaults. FirstTurn (or TurnTimes) must be
// set by the caller.
func DefaultSettings() Settings {
	return Settings{
		Timezone:     "Europe/Moscow",
		Location:     time.FixedZone("MSK", 3*3600),
		TurnEvery:    "30m",
		Window:       "10m",
		QuestionTime: "10m",
		TurnsEarly:   6,
		TurnsMax:     12,
		FloorPoints:  true,
		GoalPoints:   6,
		DieFaces:     6,
		Groups:       2,
		GroupSplit:   SplitRoster,
	}
}

// clock is the parsed schedule: every turn's opening, the window and the question time.
type clock struct {
	opens    []time.Time // index 0 = turn 1
	window   time.Duration
	question time.Duration
}

func (c clock) open(turn int) time.Time  { return c.opens[turn-1] }
func (c clock) close(turn int) time.Time { return c.opens[turn-1].Add(c.window) }

// schedule checks the time settings and lists the turns' openings.
func (s Settings) schedule() (clock, []error) {
	var c clock
	var errs []error
	var err error
	if c.window, err = time.ParseDuration(s.Window); err != nil || c.window <= 0 {
		errs = append(errs, fmt.Errorf("window %q: want a positive Go duration such as 10m", s.Window))
	}
	if c.question, err = time.ParseDuration(s.QuestionTime); err != nil || c.question <= 0 {
		errs = append(errs, fmt.Errorf("question_time %q: want a positive Go duration such as 10m", s.QuestionTime))
	}
	if s.TurnsMax < 1 {
		errs = append(errs, fmt.Errorf("turns_max is %d: want 1 or more", s.TurnsMax))
		return c, errs
	}
	if len(s.TurnTimes) > 0 {
		if len(s.TurnTimes) < s.TurnsMax {
			errs = append(errs, fmt.Errorf("turn_times lists %d times, turns_max is %d: list one for every turn", len(s.TurnTimes), s.TurnsMax))
			return c, errs
		}
		c.opens = append([]time.Time(nil), s.TurnTimes[:s.TurnsMax]...)
	} else {
		every, err := time.ParseDuration(s.TurnEvery)
		if err != nil || every <= 0 {
			errs = append(errs, fmt.Errorf("turn_every %q: want a positive Go duration such as 30m", s.TurnEvery))
			return c, errs
		}
		if s.FirstTurn.IsZero() {
			errs = append(errs, errors.New("first_turn is not set (or give turn_times)"))
			return c, errs
		}
		for i := 0; i < s.TurnsMax; i++ {
			c.opens = append(c.opens, s.FirstTurn.Add(time.Duration(i)*every))
		}
	}
	for i := 1; i < len(c.opens); i++ {
		if c.opens[i].Before(c.opens[i-1].Add(c.window)) {
			errs = append(errs, fmt.Errorf("turn %d opens at %s, before turn %d's window closes", i+1,
				c.opens[i].Format(time.RFC3339), i))
			break
		}
	}
	return c, errs
}

// Validate checks the settings against the board and the teams and reports every problem.
func (s Settings) Validate(b *Board, teams []Team) error {
	_, errs := s.schedule()
	if s.Location == nil {
		errs = append(errs, fmt.Errorf("location not set (timezone %q): load it and set Settings.Location", s.Timezone))
	}
	if s.TurnsEarly < 0 || s.TurnsEarly > s.TurnsMax {
		errs = append(errs, fmt.Errorf("turns_early is %d: want 0..turns_max (0: no early end)", s.TurnsEarly))
	}
	if s.GoalPoints < 0 {
		errs = append(errs, fmt.Errorf("goal_points is %d: must not be negative", s.GoalPoints))
	}
	if s.DieFaces < 1 || s.DieFaces > 1000 {
		errs = append(errs, fmt.Errorf("die_faces is %d: want 1..1000", s.DieFaces))
	}
	if s.Groups < 1 {
		errs = append(errs, fmt.Errorf("groups is %d: want 1 or more", s.Groups))
	} else if b != nil && s.Groups > b.Groups() {
		errs = append(errs, fmt.Errorf("groups is %d but the board has start cells for %d", s.Groups, b.Groups()))
	}
	if s.GroupSplit != SplitRoster && s.GroupSplit != SplitRandom {
		errs = append(errs, fmt.Errorf("group_split %q: want roster or random", s.GroupSplit))
	}
	for _, n := range sortedKeys(s.Dice) {
		if n < 1 || n > Numbers {
			errs = append(errs, fmt.Errorf("dice: number %d is outside 1..%d", n, Numbers))
		}
		if f := s.Dice[n]; f < 1 || f > s.DieFaces {
			errs = append(errs, fmt.Errorf("dice: number %d has face %d, outside 1..%d", n, f, s.DieFaces))
		}
	}
	known := map[string]bool{}
	for _, t := range teams {
		known[TeamKey(t.Name)] = true
	}
	checkTeams := func(setting string, names []string) {
		for _, n := range names {
			if !known[TeamKey(n)] {
				errs = append(errs, fmt.Errorf("%s: no team %q", setting, n))
			}
		}
	}
	checkTeams("start_cells", sortedKeys(s.StartCells))
	checkTeams("points", sortedKeys(s.Points))
	checkTeams("goals", sortedKeys(s.Goals))
	for _, n := range sortedKeys(s.StartCells) {
		if c := s.StartCells[n]; b != nil && (c < 1 || c > b.Size) {
			errs = append(errs, fmt.Errorf("start_cells: %s on cell %d, off the ring 1..%d", n, c, b.Size))
		}
	}
	for _, n := range sortedKeys(s.Points) {
		if s.Points[n] < 0 && s.FloorPoints {
			errs = append(errs, fmt.Errorf("points: %s has %d with floor_points on", n, s.Points[n]))
		}
	}
	for _, n := range sortedKeys(s.Goals) {
		if g := s.Goals[n]; g[0] < 0 || g[1] < 0 {
			errs = append(errs, fmt.Errorf("goals: %s has a negative count", n))
		}
	}
	for i, q := range s.Questions {
		if strings.TrimSpace(q.Text) == "" || len(q.Answers) == 0 {
			errs = append(errs, fmt.Errorf("question %d: needs a text and at least one answer", i+1))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return fmt.Errorf("football: settings: %w", errors.Join(errs...))
}

// Team is one team of the roster: its name, its captain (who gets the private messages) and its
// other members. The captain is a member.
type Team struct {
	Name    string   `yaml:"name" json:"name"`
	Captain string   `yaml:"captain" json:"captain"`
	Members []string `yaml:"members" json:"members"`
}

// ValidateTeams checks a roster: two teams or more, each with a name and a captain, names
// distinct as players write them (TeamKey), and nobody in two teams.
func ValidateTeams(teams []Team) error {
	var errs []error
	if len(teams) < 2 {
		errs = append(errs, fmt.Errorf("%d teams: the game needs two or more", len(teams)))
	}
	names := map[string]string{}
	member := map[string]string{}
	for i, t := range teams {
		key := TeamKey(t.Name)
		if key == "" {
			errs = append(errs, fmt.Errorf("team %d has no name", i+1))
			continue
		}
		if o, ok := names[key]; ok {
			errs = append(errs, fmt.Errorf("teams %q and %q have names players cannot tell apart", o, t.Name))
		}
		names[key] = t.Name
		if normName(t.Captain) == "" {
			errs = append(errs, fmt.Errorf("team %q has no captain", t.Name))
		}
		seen := map[string]bool{}
		for _, m := range append([]string{t.Captain}, t.Members...) {
			n := normName(m)
			if n == "" || seen[n] {
				continue
			}
			seen[n] = true
			if o, ok := member[n]; ok && o != t.Name {
				errs = append(errs, fmt.Errorf("%q is in both %q and %q", m, o, t.Name))
			}
			member[n] = t.Name
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("football: teams: %w", errors.Join(errs...))
	}
	return nil
}

// normName is a forum user name as compared: folded, trimmed.
func normName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func sortedKeys[K string | int, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Package football is the football dice quiz ("футбольная игра с кубиком") as a forumgm game
// (listed in package games): it decodes its settings, teams, board and question bank, and gives
// the referee the game's rules (games/football/rules), grammar (games/football/grammar) and voice (games/football/voice)
// over one state; it also owns the replay's "final" view, what moderators may undo, the fairness
// check of the die tables (game.Verifier) and the game's sandbox set-up.
package football

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/football/rules"
	"forumgm/quiz"
)

// defaultQuestions is the question bank a game uses unless it names its own.
//
//go:embed questions.yaml
var defaultQuestions []byte

// Name is the game's name in config.yaml and transcripts.
const Name = "football"

// Game is the football quiz's plug-in value.
type Game struct{}

// Name is "football".
func (Game) Name() string { return Name }

// Title is the game's name on the moderators' pages.
func (Game) Title() string { return "Футбол с кубиком" }

// spec is the game's own part of config.yaml's game section or of a transcript.
type spec struct {
	// Settings override the defaults by the contract's names (games/football/rules.Settings).
	Settings yaml.Node `yaml:"settings"`
	// Teams: the roster, in order (the first half is group 1 unless group_split is random).
	Teams []rules.Team `yaml:"teams"`
	// Board: "default" or a path to a board file.
	Board string `yaml:"board"`
	// Questions (transcripts) or QuestionBank (config.yaml): a question bank file.
	Questions    string `yaml:"questions"`
	QuestionBank string `yaml:"question_bank"`
}

// Setup decodes and checks a configured football game, reporting every problem it finds.
func (Game) Setup(sp game.Spec) (*game.Setup, error) {
	var in spec
	if sp.Node.Kind != 0 {
		if err := game.DecodeStrict(&sp.Node, &in); err != nil {
			return nil, err
		}
	}
	var errs []error
	s, err := settings(sp, in)
	if err != nil {
		errs = append(errs, err)
	}
	board, err := loadBoard(sp, in.Board)
	if err != nil {
		errs = append(errs, err)
	}
	if len(in.Teams) == 0 {
		errs = append(errs, errors.New("teams: no teams (teams: [{name: Команда 1, captain: ..., members: [...]}, ...])"))
	} else if err := rules.ValidateTeams(in.Teams); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := s.Validate(board, in.Teams); err != nil {
		return nil, err
	}
	set, err := loadVoice(s.Location, sp.Zone)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range in.Teams {
		names = append(names, t.Name)
	}
	var players []string
	for _, t := range in.Teams {
		players = append(players, t.Captain)
		for _, m := range t.Members {
			if !strings.EqualFold(strings.TrimSpace(m), strings.TrimSpace(t.Captain)) {
				players = append(players, m)
			}
		}
	}
	teams, noPM := in.Teams, sp.NoPM // not sp nor in: the closure would keep the YAML tree
	newRules := func() (game.Rules, error) {
		g, err := rules.New(s, board, teams)
		if err != nil {
			return nil, err
		}
		return &Rules{Engine: g, game: g, tmpl: set, noPM: noPM, teams: names}, nil
	}
	if _, err := newRules(); err != nil {
		return nil, err
	}
	var warn []string
	if g := s.Groups; g > 0 && len(in.Teams)/g < 2 {
		warn = append(warn, fmt.Sprintf("settings.groups: %d teams in %d groups leaves a group with no opponent: no attacks (and no goals) are possible there; use fewer groups (groups: 1) or more teams", len(in.Teams), g))
	}
	return &game.Setup{New: newRules, Players: players, Fixed: s.Fixed(), Warnings: warn}, nil
}

// settings are the defaults overlaid with the spec's settings, time zone and question bank.
func settings(sp game.Spec, in spec) (rules.Settings, error) {
	s := rules.DefaultSettings()
	if in.Settings.Kind != 0 {
		if sp.Timezone != "" {
			var keys map[string]any
			_ = in.Settings.Decode(&keys)
			for _, k := range []string{"timezone", "questions"} {
				if _, ok := keys[k]; ok {
					return s, fmt.Errorf("settings.%s: set it in game.timezone / game.question_bank instead", k)
				}
			}
		}
		rest, after, err := firstTurnAfter(&in.Settings)
		if err != nil {
			return s, err
		}
		if err := game.DecodeStrict(rest, &s); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
		if after > 0 {
			if !s.FirstTurn.IsZero() || len(s.TurnTimes) > 0 {
				return s, errors.New("settings.first_turn_after: give it or first_turn / turn_times, not both")
			}
			s.FirstTurn = sp.Start.Add(after).Truncate(time.Minute)
			if s.FirstTurn.Before(sp.Start.Add(after)) {
				s.FirstTurn = s.FirstTurn.Add(time.Minute)
			}
		}
	}
	if sp.Timezone != "" {
		s.Timezone = sp.Timezone
	}
	loc, err := location(s.Timezone)
	if err != nil {
		return s, fmt.Errorf("settings: timezone %q: %w", s.Timezone, err)
	}
	s.Location = loc
	if len(s.Questions) == 0 {
		file := in.Questions
		if file == "" {
			file = in.QuestionBank
		}
		var bank quiz.Bank
		if file != "" {
			bank, err = quiz.Load(resolve(sp, file))
			if err != nil {
				return s, fmt.Errorf("question bank: %w", err)
			}
			for _, q := range bank.Questions {
				s.Questions = append(s.Questions, rules.Question{Text: q.Text, Answers: q.Answers, Topic: q.Topic})
			}
		} else if s.Questions, err = embeddedQuestions(); err != nil {
			return s, fmt.Errorf("question bank: %w", err)
		}
	}
	return s, nil
}

// The embedded question bank and the default board are parsed once per process, and time zones
// loaded once each: a game's setup runs again at every restore, undo and replay. The engine only
// reads them.
var (
	zonesMu sync.Mutex
	zones   = map[string]*time.Location{}
)

var embeddedQuestions = sync.OnceValues(func() ([]rules.Question, error) {
	bank, err := quiz.Parse(defaultQuestions, "the embedded question bank")
	if err != nil {
		return nil, err
	}
	out := make([]rules.Question, 0, len(bank.Questions))
	for _, q := range bank.Questions {
		out = append(out, rules.Question{Text: q.Text, Answers: q.Answers, Topic: q.Topic})
	}
	return out, nil
})

var defaultBoard = sync.OnceValue(rules.DefaultBoard)

func location(name string) (*time.Location, error) {
	zonesMu.Lock()
	defer zonesMu.Unlock()
	if l, ok := zones[name]; ok {
		return l, nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones[name] = l
	return l, nil
}

// firstTurnAfter takes the forumgm addition settings.first_turn_after (a duration: turn 1 opens
// that long after the game's start, on a whole minute; for games created at a time not known in
// advance, such as the sandbox's) out of the settings.
func firstTurnAfter(n *yaml.Node) (*yaml.Node, time.Duration, error) {
	if n.Kind != yaml.MappingNode {
		return n, 0, nil
	}
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var after time.Duration
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "first_turn_after" {
			rest.Content = append(rest.Content, k, v)
			continue
		}
		d, err := time.ParseDuration(v.Value)
		if err != nil || d <= 0 {
			return nil, 0, fmt.Errorf("settings.first_turn_after %q: want a positive Go duration such as 2m", v.Value)
		}
		after = d
	}
	return rest, after, nil
}

// loadBoard reads the board: the default one, or a board file.
func loadBoard(sp game.Spec, name string) (*rules.Board, error) {
	if name == "" || name == "default" {
		return defaultBoard(), nil
	}
	path := resolve(sp, name)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	board, err := rules.ParseBoard(b, path)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	return board, nil
}

// resolve makes a relative file name relative to the spec's folder.
func resolve(sp game.Spec, file string) string {
	if !filepath.IsAbs(file) && sp.Dir != "" {
		return filepath.Join(sp.Dir, file)
	}
	return file
}

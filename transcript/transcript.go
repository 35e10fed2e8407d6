// Package transcript owns the transcript format (a game written down as its settings, players,
// deployment and posts) and replaying one through a referee with no forum at all: the clock
// advances with the posts' stamps and the timed rules fire in order between them.
package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	cr "forumgm/engine/crusade"
	"forumgm/judge"
	"forumgm/quiz"
)

// Transcript is a game written down.
type Transcript struct {
	Game string `yaml:"game"`
	// Settings override the game's settings by name (first_side, board_required, daily_question,
	// timezone, working_days, and the game's own).
	Settings map[string]any `yaml:"settings"`
	// Questions is the path of a question bank file; empty: the game's embedded default bank.
	Questions string    `yaml:"questions"`
	Start     time.Time `yaml:"start"`
	Players   []Player  `yaml:"players"`
	// Deployment is "default", "private", or per side a map of warrior to cell.
	Deployment yaml.Node `yaml:"deployment"`
	Posts      []Post    `yaml:"posts"`
	// Until runs the clock to this time after the last post (daily close etc.).
	Until time.Time `yaml:"until"`
	// Bot is the game master's account name in the thread (default "gm-bot").
	Bot string `yaml:"bot"`
}

// Player is one player of the roster.
type Player struct {
	Name     string   `yaml:"name"`
	Side     string   `yaml:"side"`
	Warriors []string `yaml:"warriors"`
}

// Post is one post or private message.
type Post struct {
	Author  string    `yaml:"author"`
	At      time.Time `yaml:"at"`
	Private bool      `yaml:"private"`
	Text    string    `yaml:"text"`
}

// Load reads a transcript file.
func Load(path string) (*Transcript, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return Parse(b)
}

// Parse reads a transcript from YAML and checks it.
func Parse(b []byte) (*Transcript, error) {
	var t Transcript
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if t.Game == "" {
		return nil, fmt.Errorf("transcript: no game named (game: crusade)")
	}
	if t.Start.IsZero() {
		return nil, fmt.Errorf("transcript: no start time (start: 2026-12-01T18:00:00+03:00)")
	}
	for i, p := range t.Posts {
		if p.Author == "" {
			return nil, fmt.Errorf("transcript: post %d has no author", i)
		}
		if p.At.IsZero() {
			return nil, fmt.Errorf("transcript: post %d (%s) has no time", i, p.Author)
		}
		if p.At.Before(t.Start) {
			return nil, fmt.Errorf("transcript: post %d (%s) at %s is before the start", i, p.Author, p.At.Format(time.RFC3339))
		}
		if i > 0 && p.At.Before(t.Posts[i-1].At) {
			return nil, fmt.Errorf("transcript: post %d (%s) is earlier than the post before it", i, p.Author)
		}
	}
	if t.Bot == "" {
		t.Bot = "gm-bot"
	}
	return &t, nil
}

// PostResult is what the game made of one post.
type PostResult struct {
	Index   int      `json:"index"` // the post's place in the transcript, from 0
	Author  string   `json:"author"`
	Verdict string   `json:"verdict"`
	Replies []string `json:"replies"`
}

// Timed is what a timed rule (or the game's start) posted.
type Timed struct {
	At      time.Time `json:"at"`
	Replies []string  `json:"replies"`
}

// Result is a replayed game.
type Result struct {
	Posts []PostResult `json:"posts"`
	Final any          `json:"final"`
	Timed []Timed      `json:"timed"`
}

// Referee builds the transcript's referee.
func (t *Transcript) Referee() (judge.Referee, error) {
	switch t.Game {
	case "crusade":
		return t.crusade()
	}
	return nil, fmt.Errorf("transcript: unknown game %q (known: crusade)", t.Game)
}

func (t *Transcript) crusade() (*judge.Crusade, error) {
	s := cr.DefaultSettings()
	if len(t.Settings) > 0 {
		b, err := yaml.Marshal(t.Settings)
		if err != nil {
			return nil, fmt.Errorf("transcript: settings: %w", err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("transcript: settings: %w", err)
		}
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return nil, fmt.Errorf("transcript: timezone %q: %w", s.Timezone, err)
	}
	s.Location = loc
	if len(s.Questions) == 0 {
		bank, err := t.bank()
		if err != nil {
			return nil, err
		}
		for _, q := range bank.Questions {
			s.Questions = append(s.Questions, cr.Question{Text: q.Text, Answers: q.Answers})
		}
	}
	var roster cr.Roster
	for _, p := range t.Players {
		pl := cr.Player{Name: p.Name, Side: cr.Side(p.Side)}
		for _, w := range p.Warriors {
			pl.Warriors = append(pl.Warriors, cr.WarriorID(w))
		}
		roster.Players = append(roster.Players, pl)
	}
	setup, err := t.setup()
	if err != nil {
		return nil, err
	}
	return judge.NewCrusade(judge.CrusadeOptions{Settings: s, Roster: roster, Setup: setup, Bot: t.Bot})
}

func (t *Transcript) bank() (quiz.Bank, error) {
	if t.Questions != "" {
		return quiz.Load(t.Questions)
	}
	return quiz.Default(t.Game)
}

func (t *Transcript) setup() (cr.Setup, error) {
	n := t.Deployment
	switch {
	case n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Value == "default"):
		return cr.Setup{Mode: cr.SetupDefault, At: t.Start}, nil
	case n.Kind == yaml.ScalarNode && n.Value == "private":
		return cr.Setup{Mode: cr.SetupPrivate, At: t.Start}, nil
	case n.Kind == yaml.MappingNode:
		var sides map[string]map[string]string
		if err := n.Decode(&sides); err != nil {
			return cr.Setup{}, fmt.Errorf("transcript: deployment: %w", err)
		}
		cells := map[cr.WarriorID]cr.Cell{}
		for side, ws := range sides {
			if side != string(cr.Crusaders) && side != string(cr.Saracens) {
				return cr.Setup{}, fmt.Errorf("transcript: deployment: unknown side %q (crusaders or saracens)", side)
			}
			for w, c := range ws {
				cell, err := cr.ParseCell(strings.ToUpper(c))
				if err != nil {
					return cr.Setup{}, fmt.Errorf("transcript: deployment: %s: %w", w, err)
				}
				id := cr.WarriorID(w)
				if !id.Valid() || string(id.Side()) != side {
					return cr.Setup{}, fmt.Errorf("transcript: deployment: %q is not a warrior of the %s", w, side)
				}
				cells[id] = cell
			}
		}
		return cr.Setup{Mode: cr.SetupCustom, Cells: cells, At: t.Start}, nil
	}
	return cr.Setup{}, fmt.Errorf("transcript: deployment: want default, private, or {crusaders: {р1: J18, ...}, saracens: {...}}")
}

// Replay runs the transcript and gives each post's verdict and replies and the final state.
// The same transcript always gives the same result.
func (t *Transcript) Replay() (*Result, error) {
	ref, err := t.Referee()
	if err != nil {
		return nil, err
	}
	res := &Result{Posts: []PostResult{}, Timed: []Timed{}}
	timed := func(at time.Time, out judge.Outcome) error {
		if len(out.Messages) == 0 {
			return nil
		}
		tm := Timed{At: at, Replies: bodies(out.Messages)}
		res.Timed = append(res.Timed, tm)
		return nil
	}
	start, err := ref.Start(t.Start)
	if err != nil {
		return nil, err
	}
	if err := timed(t.Start, start); err != nil {
		return nil, err
	}
	last := t.Start
	for i, p := range t.Posts {
		if last, err = judge.Advance(ref, last, p.At, timed); err != nil {
			return nil, fmt.Errorf("transcript: before post %d: %w", i, err)
		}
		src := judge.Thread
		if p.Private {
			src = judge.PM
		}
		out, err := ref.Judge(judge.Input{Source: src, PostID: strconv.Itoa(i), Author: p.Author, At: p.At, Post: judge.FromText(p.Text)})
		if err != nil {
			return nil, fmt.Errorf("transcript: post %d (%s): %w", i, p.Author, err)
		}
		pr := PostResult{Index: i, Author: p.Author, Verdict: string(out.Verdict), Replies: bodies(out.Messages)}
		res.Posts = append(res.Posts, pr)
		if p.At.After(last) {
			last = p.At
		}
	}
	if !t.Until.IsZero() {
		if _, err := judge.Advance(ref, last, t.Until, timed); err != nil {
			return nil, fmt.Errorf("transcript: until: %w", err)
		}
	}
	res.Final = ref.Snapshot()
	return res, nil
}

func bodies(ms []judge.Message) []string {
	out := []string{}
	for _, m := range ms {
		b := m.Body
		if m.To != "" {
			b = "[ЛС для " + m.To + "] " + b
		}
		out = append(out, b)
	}
	return out
}

// JSON is the result as one JSON object (board characters such as < and > left as they are).
func (r *Result) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return b.Bytes(), nil
}

// Text is the result as a reader would follow it: each post's verdict and every reply in order.
func (r *Result) Text(t *Transcript) string {
	var b strings.Builder
	ti, pi := 0, 0
	// Interleave timed replies and posts by time, timed first at equal times.
	for ti < len(r.Timed) || pi < len(r.Posts) {
		if ti < len(r.Timed) && (pi >= len(r.Posts) || !r.Timed[ti].At.After(t.Posts[r.Posts[pi].Index].At)) {
			tm := r.Timed[ti]
			fmt.Fprintf(&b, "=== %s · ведущий ===\n", tm.At.Format("2006-01-02 15:04"))
			for _, rep := range tm.Replies {
				b.WriteString(rep + "\n\n")
			}
			ti++
			continue
		}
		p := r.Posts[pi]
		fmt.Fprintf(&b, "=== #%d %s · %s · %s ===\n", p.Index, t.Posts[p.Index].At.Format("2006-01-02 15:04"), p.Author, p.Verdict)
		for _, rep := range p.Replies {
			b.WriteString(rep + "\n\n")
		}
		pi++
	}
	return b.String()
}

// Package transcript owns the transcript format (a game written down as its settings, players,
// deployment and posts) and replaying one through a referee with no forum at all: the clock
// advances with the posts' stamps and the timed rules fire in order between them.
package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
)

// Transcript is a game written down: the keys every game shares, and the game's own (its
// settings, players or teams, deployment, question bank), which the game decodes.
type Transcript struct {
	Game  string    `yaml:"game"`
	Start time.Time `yaml:"start"`
	Posts []Post    `yaml:"posts"`
	// Until runs the clock to this time after the last post (daily close etc.).
	Until time.Time `yaml:"until"`
	// Bot is the game master's account name in the thread (default "gm-bot"). Its posts in a
	// transcript are what the game posted (forumgm verify compares them with a replay).
	Bot string `yaml:"bot"`
	// Reminders is how long before a deadline the players who owe something are reminded by
	// private message ("2h"); empty: no reminders (the daemon's default is config's).
	Reminders string `yaml:"reminders"`

	// Seed is settings.seed: the seed the game's draws come from (default "1"); Salt hides it
	// in the commitment (settings.salt, default "transcript").
	Seed, Salt string `yaml:"-"`
	// Progress, if set, is told after each post Replay judged: posts done and posts in all (the
	// command line shows it on a terminal for a long game).
	Progress func(done, total int) `yaml:"-"`
	// spec is the game's own keys.
	spec yaml.Node
	// dir is the transcript's folder (relative file names resolve against it).
	dir string
	// games are the games the transcript's game: names one of.
	games *game.Registry
}

// common are the keys Transcript decodes itself; the rest belongs to the game.
var common = map[string]bool{"game": true, "start": true, "posts": true, "until": true, "bot": true, "reminders": true}

// Post is one post or private message.
type Post struct {
	Author  string    `yaml:"author"`
	At      time.Time `yaml:"at"`
	Private bool      `yaml:"private,omitempty"`
	Text    string    `yaml:"text"`
	// Command makes the entry a moderator's command, not a post (the author is the moderator):
	// "extend 2h [DEADLINE]", "holiday 2026-12-03", "clarify" (Text is the clarification),
	// "length N", "replace PLAYER NEW", "remove PLAYER", "pause", "resume", "end [WINNER]" (see
	// Command). Reason is logged with it.
	Command string `yaml:"command,omitempty"`
	Reason  string `yaml:"reason,omitempty"`
}

// Load reads a transcript file of one of the games in reg.
func Load(path string, reg *game.Registry) (*Transcript, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return parse(b, filepath.Dir(path), reg)
}

func parse(b []byte, dir string, reg *game.Registry) (*Transcript, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("transcript: want a mapping (game:, start:, posts:, ...)")
	}
	var t Transcript
	if err := doc.Content[0].Decode(&t); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if t.Game == "" {
		return nil, fmt.Errorf("transcript: no game named (game: %s)", strings.Join(reg.Names(), " | "))
	}
	spec, seed, salt, err := split(doc.Content[0])
	if err != nil {
		return nil, err
	}
	t.spec, t.Seed, t.Salt, t.dir, t.games = spec, seed, salt, dir, reg
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
		if p.Command != "" {
			if _, err := Command(p, t.Start.Location()); err != nil {
				return nil, fmt.Errorf("transcript: post %d (%s): %w", i, p.Author, err)
			}
		}
		if i > 0 && p.At.Before(t.Posts[i-1].At) {
			return nil, fmt.Errorf("transcript: post %d (%s) is earlier than the post before it", i, p.Author)
		}
	}
	if t.Bot == "" {
		t.Bot = "gm-bot"
	}
	if t.Reminders != "" {
		if d, err := time.ParseDuration(t.Reminders); err != nil || d <= 0 {
			return nil, fmt.Errorf("transcript: reminders: %q: want how long before a deadline, such as 2h", t.Reminders)
		}
	}
	if _, err := t.Setup(); err != nil {
		return nil, err
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
	// Events is the game's event log, in order (not in the JSON).
	Events []game.Event `json:"-"`
	// Start is the head of the game's chain before any post and Chain the posts it absorbed, in
	// order (docs/fairness.md, section 1; not in the JSON).
	Start string      `json:"-"`
	Chain []game.Link `json:"-"`
}

// split separates the game's own keys from the common ones, and takes the seed and the salt out
// of the settings (they are the referee's, not the game's).
func split(m *yaml.Node) (spec yaml.Node, seed, salt string, err error) {
	spec = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	seed, salt = "1", "transcript"
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if common[k.Value] {
			continue
		}
		if k.Value == "settings" && v.Kind == yaml.MappingNode {
			rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for j := 0; j+1 < len(v.Content); j += 2 {
				sk, sv := v.Content[j], v.Content[j+1]
				switch sk.Value {
				case "seed":
					seed = sv.Value
				case "salt":
					salt = sv.Value
				default:
					rest.Content = append(rest.Content, sk, sv)
				}
			}
			v = rest
		}
		spec.Content = append(spec.Content, k, v)
	}
	if strings.TrimSpace(seed) == "" {
		return spec, "", "", fmt.Errorf("transcript: settings.seed is empty")
	}
	return spec, seed, salt, nil
}

// Setup decodes the transcript's game.
func (t *Transcript) Setup() (*game.Setup, error) {
	g, err := t.games.Lookup(t.Game)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	setup, err := g.Setup(game.Spec{Node: t.spec, Start: t.Start, Dir: t.dir, Staff: []string{t.Bot}})
	if err != nil {
		return nil, fmt.Errorf("transcript: %s: %w", t.Game, err)
	}
	return setup, nil
}

// Referee builds the transcript's referee.
func (t *Transcript) Referee() (*referee.Referee, error) {
	setup, err := t.Setup()
	if err != nil {
		return nil, err
	}
	lead, _ := time.ParseDuration(t.Reminders)
	return referee.New(setup, referee.Options{Bot: t.Bot, Seed: t.Seed, Salt: t.Salt, Location: t.Start.Location(), RemindLead: lead})
}

// Replay runs the transcript and gives each post's verdict and replies and the final state.
// The same transcript always gives the same result.
func (t *Transcript) Replay() (*Result, error) {
	ref, err := t.Referee()
	if err != nil {
		return nil, err
	}
	_, head := ref.ChainHead()
	res := &Result{Posts: []PostResult{}, Timed: []Timed{}, Start: head}
	// posted is what the game's replies at at become on the forum: a transcript posts each reply
	// at the time of what it answers (no posting delays), so a reply that starts a clock states
	// the deadline from then, and its delivery moves nothing (its events, if any, are kept).
	posted := func(at time.Time, out *game.Outcome) error {
		for i, m := range out.Messages {
			out.Messages[i].Body = ref.FillDeadline(m.Body, m.Clock, at)
			if m.Clock == "" {
				continue
			}
			del, err := ref.Delivered(m.Clock, "", at)
			if err != nil {
				return err
			}
			out.Events = append(out.Events, del.Events...)
		}
		return nil
	}
	timed := func(at time.Time, out game.Outcome) error {
		if err := posted(at, &out); err != nil {
			return err
		}
		res.Events = append(res.Events, out.Events...)
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
		if last, err = ref.Advance(last, p.At, timed); err != nil {
			return nil, fmt.Errorf("transcript: before post %d: %w", i, err)
		}
		src := game.Thread
		if p.Private {
			src = game.PM
		}
		var out game.Outcome
		if p.Command != "" {
			cmd, err := Command(p, t.Start.Location())
			if err == nil {
				out, err = ref.Moderate(cmd)
			}
			if err != nil {
				return nil, fmt.Errorf("transcript: post %d (%s, %s): %w", i, p.Author, p.Command, err)
			}
		} else {
			out, err = ref.Judge(game.Input{Source: src, PostID: strconv.Itoa(i), Author: p.Author, At: p.At, Post: parser.FromBBCode(p.Text)})
		}
		if err == nil {
			err = posted(p.At, &out)
		}
		if err != nil {
			return nil, fmt.Errorf("transcript: post %d (%s): %w", i, p.Author, err)
		}
		res.Events = append(res.Events, out.Events...)
		if out.Link != nil {
			res.Chain = append(res.Chain, *out.Link)
		}
		pr := PostResult{Index: i, Author: p.Author, Verdict: string(out.Verdict), Replies: bodies(out.Messages)}
		res.Posts = append(res.Posts, pr)
		if p.At.After(last) {
			last = p.At
		}
		if t.Progress != nil {
			t.Progress(i+1, len(t.Posts))
		}
	}
	if !t.Until.IsZero() {
		if _, err := ref.Advance(last, t.Until, timed); err != nil {
			return nil, fmt.Errorf("transcript: until: %w", err)
		}
	}
	res.Final = ref.Snapshot()
	return res, nil
}

func bodies(ms []game.Message) []string {
	out := []string{}
	for _, m := range ms {
		b := m.Body
		if m.To != "" {
			b = privatePrefix + m.To + "] " + b
		}
		out = append(out, b)
	}
	return out
}

// Thread is the thread as the forum would show it: the transcript's posts with the game's public
// replies (its posts in the thread, by the bot) put where they appeared. Private messages are
// left out. forumgm verify checks such a thread against the revealed seed.
func (r *Result) Thread(t *Transcript) []Post {
	var out []Post
	ti := 0
	// timed adds what the game posted on its own up to and including until (zero: all of it).
	timed := func(until time.Time) {
		for ; ti < len(r.Timed) && (until.IsZero() || !r.Timed[ti].At.After(until)); ti++ {
			for _, b := range r.Timed[ti].Replies {
				if !strings.HasPrefix(b, privatePrefix) {
					out = append(out, Post{Author: t.Bot, At: r.Timed[ti].At, Text: b})
				}
			}
		}
	}
	for _, p := range r.Posts {
		src := t.Posts[p.Index]
		timed(src.At)
		out = append(out, src)
		for _, b := range p.Replies {
			if !strings.HasPrefix(b, privatePrefix) && !src.Private {
				out = append(out, Post{Author: t.Bot, At: src.At, Text: b})
			}
		}
	}
	timed(time.Time{})
	return out
}

// Marshal writes the transcript as YAML: the common keys and the game's own as they were read
// (the seed and the salt left out: they are what forumgm verify is given).
func (t *Transcript) Marshal() ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v any) error {
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return fmt.Errorf("transcript: %s: %w", k, err)
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &n)
		return nil
	}
	if err := add("game", t.Game); err != nil {
		return nil, err
	}
	if err := add("start", t.Start); err != nil {
		return nil, err
	}
	m.Content = append(m.Content, t.spec.Content...)
	if err := add("bot", t.Bot); err != nil {
		return nil, err
	}
	if err := add("posts", t.Posts); err != nil {
		return nil, err
	}
	if !t.Until.IsZero() {
		if err := add("until", t.Until); err != nil {
			return nil, err
		}
	}
	return yaml.Marshal(m)
}

// privatePrefix marks a private message in the replay's output.
const privatePrefix = "[ЛС для "

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

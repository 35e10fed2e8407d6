package fairness

import (
	"encoding/json"
	"fmt"

	"forumgm/game"
)

// FileFormat names the draws file's format (File.Format).
const FileFormat = "forumgm-draws/1"

// File is a game's draws file (draws.json): everything needed to re-derive every draw of a game
// from public data once its seed is revealed — the commitment, seed and salt, the posts of the
// chain (docs/fairness.md, section 1) and every draw with what it decided. The check page reads
// it; forumgm verify --draws writes it.
type File struct {
	Format     string      `json:"format"`
	Commitment string      `json:"commitment"`
	Seed       string      `json:"seed"`
	Salt       string      `json:"salt"`
	Chain      []ChainPost `json:"chain"`
	Draws      []Draw      `json:"draws"`
}

// ChainPost is one post of the chain: its position k (from 1), the post's id, author and text as
// judged, and the chain's head after it.
type ChainPost struct {
	K      uint64 `json:"k"`
	Post   string `json:"post"`
	Author string `json:"author"`
	Text   string `json:"text"`
	Head   string `json:"head"`
}

// Draw is one draw: its number, bound, value, the chain position it was made at, the event that
// recorded it and, when the game says, what that event decided.
type Draw struct {
	N       uint64 `json:"n"`
	Bound   int    `json:"bound"`
	Value   int    `json:"value"`
	K       uint64 `json:"k"`
	Event   string `json:"event"`
	Decided string `json:"decided,omitempty"`
}

// NewFile lists a game's chain and draws: chain as the referee absorbed it, evs the game's
// events in order, describe (may be nil) what an event decided.
func NewFile(seed, salt string, chain []game.Link, evs []game.Event, describe func(game.Event) string) *File {
	f := &File{Format: FileFormat, Commitment: game.Commitment(seed, salt), Seed: seed, Salt: salt,
		Chain: []ChainPost{}, Draws: []Draw{}}
	for _, l := range chain {
		f.Chain = append(f.Chain, ChainPost{K: l.K, Post: l.PostID, Author: l.Author, Text: l.Text, Head: l.Head})
	}
	for _, ev := range evs {
		d, ok := ev.(game.Drawer)
		if !ok {
			continue
		}
		what := ""
		if describe != nil {
			what = describe(ev)
		}
		for _, dr := range d.Drawn() {
			f.Draws = append(f.Draws, Draw{N: dr.N, Bound: dr.Bound, Value: dr.Value, K: dr.K, Event: ev.EventKind(), Decided: what})
		}
	}
	return f
}

// Problem is one thing of a draws file that does not check out.
type Problem struct {
	What string // "commitment", "chain", "draw"
	At   uint64 // the chain position or the draw number
	Text string
}

// Check re-derives the file's chain from its posts and every draw from the seed and the chain,
// against commitment (the one the opening post published; "" to take the file's): every
// mismatch, in order (none: the file checks out).
func (f *File) Check(commitment string) []Problem {
	var out []Problem
	if commitment == "" {
		commitment = f.Commitment
	}
	if got := game.Commitment(f.Seed, f.Salt); got != commitment {
		out = append(out, Problem{What: "commitment", Text: fmt.Sprintf("sha256(salt:seed) is %s, the opening post published %s", got, commitment)})
	}
	heads := []string{game.ChainStart(commitment)}
	for i, p := range f.Chain {
		h := game.Chain(heads[len(heads)-1], p.Author, p.Post, p.Text)
		heads = append(heads, h)
		if p.K != uint64(i+1) || (p.Head != "" && p.Head != h) {
			out = append(out, Problem{What: "chain", At: uint64(i + 1), Text: fmt.Sprintf("post %s by %s: the chain's head is %s, the file says %s (k %d)", p.Post, p.Author, h, p.Head, p.K)})
		}
	}
	for _, d := range f.Draws {
		switch {
		case d.K >= uint64(len(heads)):
			out = append(out, Problem{What: "draw", At: d.N, Text: fmt.Sprintf("draw %d (%s) was made after chain post %d; the chain has %d", d.N, d.Event, d.K, len(heads)-1)})
		case d.Bound <= 0:
			out = append(out, Problem{What: "draw", At: d.N, Text: fmt.Sprintf("draw %d (%s): bound %d", d.N, d.Event, d.Bound)})
		default:
			if v := game.Derive(f.Seed, heads[d.K], d.N, d.Bound); v != d.Value {
				out = append(out, Problem{What: "draw", At: d.N, Text: fmt.Sprintf("draw %d (%s): the file says %d, the seed and the chain give %d of 0..%d", d.N, d.Event, d.Value, v, d.Bound-1)})
			}
		}
	}
	return out
}

// JSON is the file as written (indented, one draw a line is not needed: JSON readers take it).
func (f *File) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, fmt.Errorf("fairness: draws file: %w", err)
	}
	return append(b, '\n'), nil
}

package daemon

import (
	"strings"

	"forumgm/forum"
	"forumgm/store"
)

// A post the forum merged before the daemon first read it (MyBB's auto-merge of a player's quick
// correction: «Защищаемся 58», 5 s later «Защищаемся 77», read once as one post) holds more than
// one input. The dialect tells the parts apart by its engine's own merge separator
// (forum.Post.Parts); each part is judged in order as an input of its own, with its own reply:
// the first under the post's id, the k-th under partID(id, k), as merged.go names the parts
// appended after a read. Once judged, the post as it is now is known (no edit for the rescan,
// and merged.go's next look at it finds only the parts judged).

// inputs are the inputs a post read for the first time holds: its parts when the forum merged
// several posts into it, else the post itself.
func inputs(src store.Source, p forum.Post, seq int) []input {
	if src != store.SourceThread || len(p.Parts) < 2 {
		return []input{{src: src, post: p, seq: seq}}
	}
	hash := store.ContentHash(p)
	ins := make([]input, 0, len(p.Parts))
	for k, part := range p.Parts {
		in := p
		in.Parts = nil
		in.Text = strings.TrimSpace(part.Text)
		in.Quotes = part.Quotes
		if in.Quotes == nil {
			in.Quotes = []forum.Quote{}
		}
		in.Code, in.Spoilers = part.Code, part.Spoilers
		if k > 0 {
			in.ID = partID(p.ID, k+1)
		}
		ins = append(ins, input{src: src, post: in, seq: seq, cursorID: p.ID, hash: hash})
	}
	return ins
}

// Parts is what a thread post read for the first time holds for judging, as the daemon judges
// it: its parts, each under its own id, when the forum merged several posts into it, else the
// post itself (forumgm verify reads a thread the same way).
func Parts(p forum.Post) []forum.Post {
	ins := inputs(store.SourceThread, p, 0)
	out := make([]forum.Post, len(ins))
	for i, in := range ins {
		out[i] = in.post
	}
	return out
}

package referee

import (
	"fmt"
	"strings"

	"forumgm/game"
)

// The final post lists what a player needs to check every draw from the thread alone
// (docs/fairness.md, sections 1 and 5): the posts of the chain, by id in the order they were
// absorbed, and every draw as number:bound:value@k (k: the chain position it was made at). With
// the seed the same post reveals, forumgm verify re-derives them from the thread's posts.

// Markers of the list in the final post (forumgm verify finds them; do not reword). The chain
// lists each post as ID=HEAD8 (the first 8 hex digits of the chain's head after it), so a check
// names the first post whose head differs.
const (
	ChainLead = "Цепочка (посты игроков по порядку рассмотрения):"
	DrawsLead = "Розыгрыши (номер:граница:выпало@пост цепочки):"
	// SetupLead is the opening post's line committing to the game's setup (Options.Setup): its
	// sha256 follows; SetupShown the final post's line revealing it, in a code box after it.
	SetupLead  = "Отпечаток настроек партии (sha256; сами настройки — в последнем посте):"
	SetupShown = "Настройки партии:"
)

// setupLine is the opening post's commitment to the setup ("" without one).
func (r *Referee) setupLine() string {
	if r.opt.Setup == "" {
		return ""
	}
	return "\n[i]" + SetupLead + " " + game.SetupHash(r.opt.Setup) + "[/i]"
}

// listDraws appends the chain and the draws to the last thread message of the outcome that
// reveals the seed (a message of its own when it says nothing in the thread).
func (r *Referee) listDraws(msgs []game.Message) []game.Message {
	block := r.drawsBlock()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].To == "" {
			msgs[i].Body += "\n" + block
			return msgs
		}
	}
	return append(msgs, game.Message{Body: block})
}

// decided is one draw and what it decided: its event in the game's words (Describer), else the
// event's kind.
type decided struct {
	game.Draw
	what string
}

// drawsBlock is the list: the chain's post ids and the draws in a code box, each event's draws
// after what they decided, ten to a line.
func (r *Referee) drawsBlock() string {
	var b strings.Builder
	b.WriteString("[i]Для проверки жребия — docs/fairness.md, forumgm verify:[/i]\n")
	b.WriteString(ChainLead)
	if len(r.links) == 0 {
		b.WriteString(" нет")
	}
	for i, l := range r.links {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" " + l.PostID + "=" + l.Head[:8])
	}
	if r.opt.Setup != "" {
		b.WriteString("\n" + SetupShown + "\n[code]" + r.opt.Setup + "[/code]")
	}
	b.WriteString("\n" + DrawsLead)
	if len(r.drawn) == 0 {
		b.WriteString(" нет")
		return b.String()
	}
	b.WriteString("\n[code]")
	col := 0
	for i, d := range r.drawn {
		if i == 0 || d.what != r.drawn[i-1].what {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(strings.ReplaceAll(d.what, "\n", " ") + ":")
			col = 0
		} else if col == 10 {
			b.WriteString("\n ")
			col = 0
		}
		fmt.Fprintf(&b, " %d:%d:%d@%d", d.N, d.Bound, d.Value, d.K)
		col++
	}
	b.WriteString("[/code]")
	return b.String()
}

package referee

import (
	"encoding/json"
	"fmt"
	"strings"

	"forumgm/fairness"
	"forumgm/forum"
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
	// FileLead is the final post's line before the draws file (DrawsFile), attached to the post
	// or linked from the pictures folder: the file a player drops on the check page.
	FileLead = "Файл розыгрышей для страницы проверки (скачайте и перетащите его на страницу):"
)

// DrawsFile is the name of the draws file (fairness.File) attached to the final post.
const DrawsFile = "draws.json"

// setupLine is the opening post's commitment to the setup ("" without one).
func (r *Referee) setupLine() string {
	if r.opt.Setup == "" {
		return ""
	}
	return "\n[i]" + SetupLead + " " + game.SetupHash(r.opt.Setup) + "[/i]"
}

// listDraws appends the chain and the draws to the last thread message of the outcome that
// reveals the seed (a message of its own when it says nothing in the thread).
// The message also carries the draws file (DrawsFile), in place of its placeholder after
// FileLead: the forum attaches it or the daemon serves it from the pictures folder and links it.
func (r *Referee) listDraws(msgs []game.Message) ([]game.Message, error) {
	file, err := r.drawsFile()
	if err != nil {
		return nil, err
	}
	block := r.drawsBlock() + "\n[i]" + FileLead + "[/i] " + forum.Placeholder(DrawsFile)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].To == "" {
			msgs[i].Body += "\n" + block
			msgs[i].Attachments = append(msgs[i].Attachments, file)
			return msgs, nil
		}
	}
	return append(msgs, game.Message{Body: block, Attachments: []forum.Attachment{file}}), nil
}

// drawsFile is the game's draws file (docs/fairness.md, section 6) as the referee holds it: the
// chain's posts and every draw recorded, with the seed and salt the same post reveals.
func (r *Referee) drawsFile() (forum.Attachment, error) {
	f := &fairness.File{Format: fairness.FileFormat, Commitment: r.fair.Commitment, Seed: r.opt.Seed, Salt: r.opt.Salt,
		Chain: []fairness.ChainPost{}, Draws: []fairness.Draw{}}
	for _, l := range r.links {
		f.Chain = append(f.Chain, fairness.ChainPost{K: l.K, Post: l.PostID, Author: l.Author, Text: l.Text, Head: l.Head})
	}
	for _, d := range r.drawn {
		what := d.what
		if what == d.kind {
			what = ""
		}
		f.Draws = append(f.Draws, fairness.Draw{N: d.N, Bound: d.Bound, Value: d.Value, K: d.K, Event: d.kind, Decided: what})
	}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return forum.Attachment{}, fmt.Errorf("judge: draws file: %w", err)
	}
	return forum.Attachment{Name: DrawsFile, ContentType: "application/json", Data: append(data, '\n')}, nil
}

// decided is one draw and what it decided: its event in the game's words (Describer), else the
// event's kind.
type decided struct {
	game.Draw
	what string
	kind string // the event's kind
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

package audit

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/transcript"
)

// PublicPost is one post of a thread as a guest reads it: the dialect's id, author and text (a
// post the forum merged counts as its parts, each under the id the daemon judged it by).
type PublicPost struct {
	ID, Author, Text string
	Code             []string // code blocks of the post (the final post's list of draws is one)
}

var (
	chainItem = regexp.MustCompile(`^\s*(\S+?)=([0-9a-f]{8})\s*$`)
	drawItem  = regexp.MustCompile(`(\d+):(\d+):(\d+)@(\d+)`)
)

// Public checks a game from its thread's public posts alone (docs/fairness.md, section 6): the
// commitment of the bot's first post against the seed and salt its final post reveals, the chain
// that final post lists re-derived from the players' posts in the thread (each post's head, so the
// first post changed, swapped or left out is named), every player post before the final post in
// the chain, and every listed draw re-derived under its chain head. No private message and no
// replay is needed; what the bot said a draw decided is not checked here (forumgm verify
// THREAD.yaml replays the game for that, with the posts' private messages).
//
// When the opening post commits to the game's setup (referee.SetupLead), the final post must
// reveal the same setup; with known games (nil: not checked) a revealed setup that fixes chance
// (game.Setup.Fixed: test positions such as football's fixed faces) fails, naming the settings.
func Public(posts []PublicPost, bot string, known *game.Registry) (*Report, error) {
	rep := &Report{}
	isBot := func(p PublicPost) bool { return strings.EqualFold(strings.TrimSpace(p.Author), strings.TrimSpace(bot)) }
	first, final := -1, -1
	for i, p := range posts {
		if !isBot(p) {
			continue
		}
		if first < 0 && commitment(p.Text) != "" {
			first = i
		}
		if revealRe.MatchString(p.Text) && strings.Contains(p.Text+strings.Join(p.Code, "\n"), referee.DrawsLead) {
			final = i
		}
	}
	if first < 0 {
		return nil, fmt.Errorf("audit: no post of the bot %q publishes a commitment", bot)
	}
	if final < 0 {
		return nil, fmt.Errorf("audit: no post of the bot %q reveals the seed with the list of draws (the game has not ended, or the thread is not a forumgm game's)", bot)
	}
	fin := posts[final]
	m := revealRe.FindAllStringSubmatch(fin.Text, -1)
	seed, salt := m[len(m)-1][1], m[len(m)-1][2]
	published := commitment(posts[first].Text)
	want := game.Commitment(seed, salt)
	rep.add(published == want, "commitment in the opening post (post %s) %s; sha256(salt:seed) of the seed the final post (post %s) reveals = %s", posts[first].ID, published, fin.ID, want)

	checkSetup(rep, posts[first], fin, known)

	// The chain, post by post.
	ids, prefixes, err := chainList(fin.Text)
	if err != nil {
		return nil, fmt.Errorf("audit: final post %s: %w", fin.ID, err)
	}
	byID := map[string]int{}
	for i, p := range posts[:final] {
		if !isBot(p) {
			byID[p.ID] = i
		}
	}
	heads := []string{game.ChainStart(published)}
	players := map[string]bool{}
	inChain := map[string]bool{}
	broken := false
	for k, id := range ids {
		i, ok := byID[id]
		if !ok {
			rep.add(false, "chain post %d: post %s is not in the thread (before the final post) as a player's post", k+1, id)
			broken = true
			heads = append(heads, "")
			continue
		}
		p := posts[i]
		players[strings.ToLower(strings.TrimSpace(p.Author))] = true
		inChain[id] = true
		h := ""
		if heads[k] != "" {
			h = game.Chain(heads[k], p.Author, p.ID, p.Text)
		}
		heads = append(heads, h)
		switch {
		case h == "":
			rep.add(false, "chain post %d: post %s by %s follows a post that failed", k+1, id, p.Author)
		case !strings.HasPrefix(h, prefixes[k]):
			if !broken {
				rep.add(false, "chain post %d: post %s by %s is not what the game absorbed (its head is %s…, the final post says %s…): the post was changed, swapped or moved", k+1, id, p.Author, h[:8], prefixes[k])
			} else {
				rep.add(false, "chain post %d: post %s by %s: head %s…, the final post says %s… (after an earlier failure)", k+1, id, p.Author, h[:8], prefixes[k])
			}
			broken = true
		default:
			rep.add(true, "chain post %d: post %s by %s, head %s…", k+1, id, p.Author, prefixes[k])
		}
	}
	// Every post of a player before the final post is in the chain.
	for _, p := range posts[:final] {
		if !isBot(p) && players[strings.ToLower(strings.TrimSpace(p.Author))] && !inChain[p.ID] {
			rep.add(false, "post %s by %s, a player: not in the chain the final post lists", p.ID, p.Author)
		}
	}

	// The draws.
	draws, err := drawList(fin)
	if err != nil {
		return nil, fmt.Errorf("audit: final post %s: %w", fin.ID, err)
	}
	seen := map[uint64]bool{}
	for _, d := range draws {
		after := "the chain's start"
		if d.K > 0 && d.K <= uint64(len(ids)) {
			after = "post " + ids[d.K-1]
		}
		switch {
		case seen[d.N]:
			rep.add(false, "draw %d is listed twice", d.N)
		case d.K >= uint64(len(heads)):
			rep.add(false, "draw %d: made after chain post %d; the chain lists %d", d.N, d.K, len(ids))
		case heads[d.K] == "":
			rep.add(false, "draw %d (after %s): its chain post failed", d.N, after)
		case d.Bound <= 0:
			rep.add(false, "draw %d: bound %d", d.N, d.Bound)
		default:
			v := game.Derive(seed, heads[d.K], d.N, d.Bound)
			rep.add(v == d.Value, "draw %d (after %s): the final post says %d of 0..%d, the seed and the chain give %d", d.N, after, d.Value, d.Bound-1, v)
		}
		seen[d.N] = true
	}
	for n := uint64(0); n < uint64(len(draws)); n++ {
		if !seen[n] {
			rep.add(false, "draw %d is missing from the list (draws are numbered from 0 without gaps)", n)
		}
	}
	return rep, nil
}

// chainList reads the final post's chain line: the ids and head prefixes in order.
func chainList(text string) (ids, prefixes []string, err error) {
	i := strings.Index(text, referee.ChainLead)
	if i < 0 {
		return nil, nil, fmt.Errorf("no chain line (%q)", referee.ChainLead)
	}
	line, _, _ := strings.Cut(text[i+len(referee.ChainLead):], "\n")
	line = strings.TrimSpace(line)
	if line == "нет" {
		return nil, nil, nil
	}
	for _, item := range strings.Split(line, ",") {
		m := chainItem.FindStringSubmatch(item)
		if m == nil {
			return nil, nil, fmt.Errorf("chain item %q is not ID=HEAD", strings.TrimSpace(item))
		}
		ids, prefixes = append(ids, m[1]), append(prefixes, m[2])
	}
	return ids, prefixes, nil
}

// drawList reads the final post's draws (in its text after the draws line, or its code blocks).
func drawList(p PublicPost) ([]game.Draw, error) {
	text := p.Text
	if i := strings.Index(text, referee.DrawsLead); i >= 0 {
		text = text[i+len(referee.DrawsLead):]
	}
	if !drawItem.MatchString(text) {
		text = strings.Join(p.Code, "\n")
	}
	var out []game.Draw
	for _, m := range drawItem.FindAllStringSubmatch(text, -1) {
		n, err1 := strconv.ParseUint(m[1], 10, 64)
		b, err2 := strconv.Atoi(m[2])
		v, err3 := strconv.Atoi(m[3])
		k, err4 := strconv.ParseUint(m[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return nil, fmt.Errorf("draw %q is not number:bound:value@k", m[0])
		}
		out = append(out, game.Draw{N: n, Bound: b, Value: v, K: k})
	}
	return out, nil
}

// TranscriptPosts is a thread transcript (forumgm replay --thread) as a guest sees it: private
// messages left out, every post's text read as the game reads it, each player's post under the
// id a replay judges it by (its index among the transcript's posts that are not the bot's).
func TranscriptPosts(tr *transcript.Transcript) []PublicPost {
	var out []PublicPost
	n := 0
	for i, p := range tr.Posts {
		id := "bot-" + strconv.Itoa(i)
		if !strings.EqualFold(p.Author, tr.Bot) {
			id = strconv.Itoa(n)
			n++
		}
		if p.Private {
			continue
		}
		fp := parser.FromBBCode(p.Text)
		out = append(out, PublicPost{ID: id, Author: p.Author, Text: fp.Text, Code: fp.Code})
	}
	return out
}

// RevealedBy is the author of the last post that reveals a seed with the list of draws: the bot,
// for a thread whose bot is not named ("" when no post does).
func RevealedBy(posts []PublicPost) string {
	for i := len(posts) - 1; i >= 0; i-- {
		p := posts[i]
		if revealRe.MatchString(p.Text) && strings.Contains(p.Text+strings.Join(p.Code, "\n"), referee.DrawsLead) {
			return p.Author
		}
	}
	return ""
}

var setupHashRe = regexp.MustCompile(regexp.QuoteMeta(referee.SetupLead) + `\s*([0-9a-f]{64})`)

// checkSetup compares the setup the final post reveals with the opening post's commitment to it,
// and refuses a setup that fixes chance.
func checkSetup(rep *Report, opening, fin PublicPost, known *game.Registry) {
	m := setupHashRe.FindStringSubmatch(opening.Text)
	if m == nil {
		return // a game that does not publish its setup (a transcript)
	}
	i := strings.Index(fin.Text, referee.SetupShown)
	if i < 0 {
		rep.add(false, "the opening post (post %s) commits to the game's setup; the final post (post %s) does not reveal it", opening.ID, fin.ID)
		return
	}
	shown := fin.Text[i+len(referee.SetupShown):]
	if j := strings.Index(shown, referee.DrawsLead); j >= 0 {
		shown = shown[:j]
	}
	shown = strings.TrimSpace(shown)
	got := game.SetupHash(shown)
	if got != m[1] {
		rep.add(false, "the game's setup in the final post (post %s) is not the one the opening post (post %s) committed to: sha256 %s, committed %s", fin.ID, opening.ID, got, m[1])
		return
	}
	rep.add(true, "the game's setup in the final post (post %s) is the one the opening post committed to: %s", fin.ID, excerpt(shown))
	if known == nil {
		return
	}
	var v struct {
		Kind        string
		Start       time.Time
		Timezone    string
		WorkingDays []string `json:"working_days"`
		NoPM        bool     `json:"no_pm"`
		Game        any
	}
	if err := json.Unmarshal([]byte(shown), &v); err != nil {
		rep.add(false, "the game's setup in the final post (post %s) is not readable: %v", fin.ID, err)
		return
	}
	g, err := known.Lookup(v.Kind)
	if err != nil {
		rep.add(false, "the game's setup names %v", err)
		return
	}
	var node yaml.Node
	if err := node.Encode(v.Game); err != nil {
		rep.add(false, "the game's setup: %v", err)
		return
	}
	intKeys(&node)
	setup, err := g.Setup(game.Spec{Node: node, Start: v.Start, Timezone: v.Timezone, WorkingDays: v.WorkingDays, NoPM: v.NoPM})
	if err != nil {
		// A setup naming files (a question bank) is rebuilt only where they are: not a failure.
		rep.add(true, "the game's setup could not be rebuilt here to look for fixed chance (%v); it is shown above", err)
		return
	}
	if len(setup.Fixed) > 0 {
		rep.add(false, "the game's setup fixes chance or the start (test settings a live game must not have): settings.%s", strings.Join(setup.Fixed, ", settings."))
		return
	}
	rep.add(true, "the game's setup fixes no chance")
}

// intKeys gives a mapping key that spells an integer YAML's integer tag again: JSON keys are
// strings, the configuration's were numbers (football's dice: {37: 6}).
func intKeys(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode {
				if _, err := strconv.Atoi(k.Value); err == nil {
					k.Tag, k.Style = "!!int", 0
				}
			}
		}
	}
	for _, c := range n.Content {
		intKeys(c)
	}
}

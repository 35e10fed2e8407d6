// Package audit owns checking that a game was fair: that the seed revealed at its end is the one
// committed at its start, and that every draw of chance the game made, and every post it made,
// follows from that seed and the players' posts (forumgm verify).
package audit

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"forumgm/fairness"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/store"
	"forumgm/transcript"
)

// Line is one check and its outcome.
type Line struct {
	OK   bool
	Text string
}

// Report is the outcome of an audit, check by check.
type Report struct {
	Lines []Line
	// Draws is the game's draws file (chain and draws, with the seed), for the check page; nil
	// for a game in the store that has not revealed its seed yet.
	Draws *fairness.File
}

// OK reports whether every check passed (and there was at least one).
func (r *Report) OK() bool {
	if len(r.Lines) == 0 {
		return false
	}
	for _, l := range r.Lines {
		if !l.OK {
			return false
		}
	}
	return true
}

func (r *Report) add(ok bool, format string, a ...any) {
	r.Lines = append(r.Lines, Line{OK: ok, Text: fmt.Sprintf(format, a...)})
}

// String is the report as printed: one line a check, "ok" or "FAIL".
func (r *Report) String() string {
	var b strings.Builder
	for _, l := range r.Lines {
		mark := "ok  "
		if !l.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s\n", mark, l.Text)
	}
	if r.OK() {
		b.WriteString("verified: the game follows from its committed seed\n")
	} else {
		b.WriteString("NOT VERIFIED\n")
	}
	return b.String()
}

var hexHash = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// commitment is the first 64-digit hex hash in the game's first post.
func commitment(first string) string { return hexHash.FindString(first) }

// revealRe is how every game's last post reveals its seed and salt (the seed_reveal template).
var revealRe = regexp.MustCompile(`Зерно партии: ([^,\s]+), соль: ([^\s]+?)\.(?:\s|$)`)

// Revealed is the seed and salt the bot's last post that reveals them gives (ok false: no post of
// the bot in tr reveals them yet), so that a player checks a saved thread without typing them.
func Revealed(tr *transcript.Transcript) (seed, salt string, ok bool) {
	for i := len(tr.Posts) - 1; i >= 0; i-- {
		p := tr.Posts[i]
		if p.Private || !strings.EqualFold(p.Author, tr.Bot) {
			continue
		}
		if m := revealRe.FindStringSubmatch(p.Text); m != nil {
			return m[1], m[2], true
		}
	}
	return "", "", false
}

// Thread checks a thread as the forum showed it (tr's posts, the bot's among them) against the
// revealed seed and salt: the commitment in the bot's first post, every draw the game makes when
// the players' posts are replayed with that seed, and every post of the bot.
func Thread(tr *transcript.Transcript, seed, salt string) (*Report, error) {
	rep := &Report{}
	var bot, players []transcript.Post
	for _, p := range tr.Posts {
		if strings.EqualFold(p.Author, tr.Bot) {
			bot = append(bot, p)
		} else {
			players = append(players, p)
		}
	}
	if len(bot) == 0 {
		return nil, fmt.Errorf("audit: the thread has no post by the bot %q", tr.Bot)
	}
	want := game.Commitment(seed, salt)
	got := commitment(bot[0].Text)
	rep.add(got == want, "commitment in the opening post %s; sha256(salt:seed) of the revealed seed = %s", orNone(got), want)

	replayed := *tr
	replayed.Posts, replayed.Seed, replayed.Salt = players, seed, salt
	res, err := replayed.Replay()
	if err != nil {
		return nil, fmt.Errorf("audit: replay with the revealed seed: %w", err)
	}
	ref, err := replayed.Referee()
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	rep.Draws = fairness.NewFile(seed, salt, res.Chain, res.Events, describer(ref))
	checkDraws(rep, rep.Draws, got)
	verifyOwn(rep, ref.Rules(), res.Events)
	var expected []transcript.Post
	for _, p := range res.Thread(&replayed) {
		if strings.EqualFold(p.Author, tr.Bot) {
			expected = append(expected, p)
		}
	}
	for i := 0; i < max(len(bot), len(expected)); i++ {
		switch {
		case i >= len(expected):
			rep.add(false, "bot post %d (%s): the game would not have posted it", i+1, bot[i].At.Format("2006-01-02 15:04"))
		case i >= len(bot):
			rep.add(false, "bot post %d: missing from the thread (the game would have posted: %s)", i+1, excerpt(expected[i].Text))
		default:
			same := normal(bot[i].Text) == normal(expected[i].Text)
			if same {
				rep.add(true, "bot post %d (%s): as the seed and the players' posts give it", i+1, bot[i].At.Format("2006-01-02 15:04"))
			} else {
				rep.add(false, "bot post %d (%s) differs: the thread has %q, the seed gives %q", i+1,
					bot[i].At.Format("2006-01-02 15:04"), excerpt(firstDiff(bot[i].Text, expected[i].Text)), excerpt(firstDiff(expected[i].Text, bot[i].Text)))
			}
		}
	}
	return rep, nil
}

// Store checks a game kept in the store: its seed against the commitment in its opening post and
// against a revealed seed (if the game revealed it), and every draw recorded in its event log.
// newRef builds the game's referee (to decode its events).
func Store(ctx context.Context, st *store.Store, id string, newRef func() (*referee.Referee, error)) (*Report, error) {
	if _, err := st.Game(ctx, id); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	rec, err := st.GameSecret(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("audit: game %s has no seed in the store: %w", id, err)
	}
	chain, err := st.ChainPosts(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	rep := &Report{}
	want := game.Commitment(rec.Seed, rec.Salt)
	got := ""
	if first, err := st.Outbox(ctx, firstOutboxID(ctx, st, id)); err == nil {
		got = commitment(first.Body)
		rep.add(got == want, "commitment in the opening post %s; sha256(salt:seed) of the stored seed = %s", orNone(got), want)
	} else {
		rep.add(false, "the opening post is not in the store: %v", err)
	}
	recs, err := st.Records(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	ref, err := newRef()
	if err != nil {
		return nil, err
	}
	var evs []game.Event
	revealed := false
	for i, r := range recs {
		ev, err := ref.Decode(r)
		if err != nil {
			return nil, fmt.Errorf("audit: event %d: %w", i+1, err)
		}
		evs = append(evs, ev)
		if rv, ok := ev.(*referee.RevealedEvent); ok {
			revealed = true
			rep.add(rv.Seed == rec.Seed && rv.Salt == rec.Salt, "event %d: the revealed seed is the stored one", i+1)
		}
	}
	f := fairness.NewFile(rec.Seed, rec.Salt, chain, evs, describer(ref))
	checkDraws(rep, f, got)
	if revealed {
		rep.Draws = f // the file names the seed: only once the game made it public
	}
	verifyOwn(rep, ref.Rules(), evs)
	if err := ref.Restore(recs); err != nil {
		rep.add(false, "the event log does not fold: %v", err)
	} else {
		rep.add(true, "the event log folds (%d events)", len(recs))
	}
	return rep, nil
}

// checkDraws re-derives a draws file's chain and draws (fairness.File.Check) against the
// commitment the opening post published ("" when none was found: the file's own), a line per
// chain post and per draw, failing on the ones that do not check out.
func checkDraws(rep *Report, f *fairness.File, published string) {
	bad := map[string]map[uint64]string{"chain": {}, "draw": {}}
	for _, p := range f.Check(published) {
		if m, ok := bad[p.What]; ok {
			m[p.At] = p.Text
		}
	}
	for _, p := range f.Chain {
		if why, ok := bad["chain"][p.K]; ok {
			rep.add(false, "chain post %d: %s", p.K, why)
		} else {
			rep.add(true, "chain post %d: post %s by %s, head %s", p.K, p.Post, p.Author, p.Head)
		}
	}
	for _, d := range f.Draws {
		if why, ok := bad["draw"][d.N]; ok {
			rep.add(false, "%s", why)
			continue
		}
		head := game.ChainStart(f.Commitment)
		if d.K > 0 {
			head = f.Chain[d.K-1].Head
		}
		rep.add(true, "draw %d (%s): %d of 0..%d derived from the seed and the chain after post %d, head %s", d.N, d.Event, d.Value, d.Bound-1, d.K, head)
	}
}

// describer says what an event decided, in the referee's words (the review tools' label).
func describer(ref *referee.Referee) func(game.Event) string {
	return func(ev game.Event) string {
		rec, err := game.Encode(ev)
		if err != nil {
			return ""
		}
		return ref.Describe(rec)
	}
}

// verifyOwn runs the game's own fairness checks (game.Verifier: commitments of its own, such as
// a die table) over its events, when it has any.
func verifyOwn(rep *Report, rules game.Rules, evs []game.Event) {
	v, ok := rules.(game.Verifier)
	if !ok {
		return
	}
	if err := v.Verify(evs); err != nil {
		rep.add(false, "the game's own commitments: %v", err)
		return
	}
	rep.add(true, "the game's own commitments (%d events): every one matches what was revealed", len(evs))
}

// firstOutboxID is the id of the game's first queued item (its opening post).
func firstOutboxID(ctx context.Context, st *store.Store, gameID string) int64 {
	id, _ := st.FirstOutboxID(ctx, gameID)
	return id
}

func orNone(s string) string {
	if s == "" {
		return "(none found)"
	}
	return s
}

// normal folds what a forum may change in a post: line ends, surrounding space, the marker line.
func normal(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimRight(l, " \t"))
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// firstDiff is a from the first rune where it differs from b.
func firstDiff(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	return string(ra[max(0, i-20):])
}

func excerpt(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

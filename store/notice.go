package store

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"forumgm/game"
	"forumgm/templates"
)

// Fill adds a referee's outcome to c: the events encoded, the messages queued (a PM for a named
// recipient, a thread reply otherwise), the flags, and for each flag a private message to each of
// n's moderators (when the forum has private messages). in names the post the outcome is about
// (flags default to it). The notices are made once the store numbers the flags (Commit.Notices),
// so each names its flag's own number.
func (c *Commit) Fill(out game.Outcome, in *game.Input, n Notify) error {
	if out.Link != nil {
		c.Link = &Link{K: out.Link.K, PostID: out.Link.PostID, Head: out.Link.Head}
	}
	for _, ev := range out.Events {
		r, err := game.Encode(ev)
		if err != nil {
			return err
		}
		c.Events = append(c.Events, r)
	}
	for _, m := range out.Messages {
		if strings.TrimSpace(m.Body) == "" {
			continue
		}
		atts := m.Attachments
		if m.To == "" {
			c.Outbox = append(c.Outbox, OutboxItem{Kind: OutboxReply, Body: m.Body, Attachments: atts, Clock: m.Clock})
		} else {
			c.Outbox = append(c.Outbox, OutboxItem{Kind: OutboxPM, Recipient: m.To, Subject: m.Subject, Body: m.Body, Attachments: atts, Clock: m.Clock})
		}
	}
	first := len(c.Flags)
	for _, f := range out.Flags {
		nf := NewFlag{Kind: f.Kind, Detail: f.Detail}
		pid := f.PostID
		if pid == "" && in != nil {
			pid = in.PostID
		}
		if pid != "" {
			nf.PostID = pid
			nf.Source = SourceThread
			if in != nil && in.PostID == pid && in.Source == game.PM {
				nf.Source = SourcePM
			}
		}
		c.Flags = append(c.Flags, nf)
	}
	if n.PM && len(n.Moderators) > 0 && len(out.Flags) > 0 && first == 0 {
		c.Notices = notices(c.Game, out, in, c.Flags, n)
	}
	return nil
}

// escape makes player text safe to echo (templates.Escape: no tags, no marker, valid UTF-8).
func escape(s string) string { return templates.Escape(s) }

// Notify is who hears of a new flag and where they can settle it.
type Notify struct {
	Moderators []string // each gets a private message
	PM         bool     // the forum has private messages (else nobody is notified)
	// Settle is how they settle it: the notice's commands and web address.
	Settle Settle
}

// Settle is how a moderator settles a game's flags, as the notice tells it: commands that run as
// written (forumgm review --config PATH [--game ID] ...) and the web UI's address.
type Settle struct {
	// Config is the config file's absolute path (--config); "": not known (tools, tests).
	Config string
	// Game is the game's id when the config lists its games under games: (--game); else "".
	Game string
	// WebURL is the web UI's root: review.public_url, or the loopback address the daemon serves
	// it on (review.listen; Tunnel); "" when there is none.
	WebURL string
	// Tunnel: WebURL is the loopback listener on the daemon's host (reached through an SSH tunnel).
	Tunnel bool
	// Serve: the config has a web UI but no address for it (review.accounts without review.listen
	// or review.public_url): `forumgm review serve` starts it and prints its address.
	Serve bool
}

// Command is the console command a notice names: "forumgm review --config PATH --game ID", each
// word quoted for the shell where it needs it.
func (s Settle) Command() string {
	c := "forumgm review"
	if s.Config != "" {
		c += " --config " + shellQuote(s.Config)
	}
	if s.Game != "" {
		c += " --game " + shellQuote(s.Game)
	}
	return c
}

// shellQuote makes s one word for a POSIX shell: as it is when it holds only letters, digits and
// -_./:@+=, else in single quotes.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_./:@+=,", r)
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NoticeView is what the moderation templates get (templates/moderation/notice.tmpl).
type NoticeView struct {
	Game      string
	N         int64 // the flag's own number
	Kind      FlagKind
	PostID    string
	Author    string // escaped
	Permalink string
	// WebURL is the flag's page in the web UI ("" without one); Tunnel: it is the daemon's
	// loopback address (an SSH tunnel reaches it); Serve: no address is configured (the Review
	// command's serve starts the UI and prints one).
	WebURL string
	Tunnel bool
	Serve  bool
	// Review is the console command to settle the flag with, up to its action (forumgm review
	// --config PATH [--game ID]); By the recipient's name for --by (both quoted for the shell).
	Review string
	By     string
	// Excerpt is the start of the post (escaped lines); ExcerptMore: the post goes on.
	Excerpt     []string
	ExcerptMore bool
	// Diff is what an edit changed, first-seen against now; DiffMore counts changed lines left out.
	Diff     []DiffLine
	DiffMore int
	Reply    string // what the game answered the player (the game's own words)
	Failed   bool   // the referee failed on the post (an internal error)
	Detail   string // for kinds the template has no words of its own for (escaped)
}

// DiffLine is one changed line of an edited post.
type DiffLine struct {
	Added bool // else removed
	Text  string
}

// Limits of what a notice quotes.
const (
	noticeLines   = 6
	noticeLetters = 200
	noticeDiff    = 12
)

var (
	noticeOnce sync.Once
	noticeSet  *templates.Set
	noticeErr  error
)

func noticeTemplates() (*templates.Set, error) {
	noticeOnce.Do(func() { noticeSet, noticeErr = templates.LoadShared("moderation") })
	return noticeSet, noticeErr
}

// Notice renders the private message about a new flag: its subject and body.
func Notice(v NoticeView) (subject, body string, err error) {
	set, err := noticeTemplates()
	if err != nil {
		return "", "", err
	}
	if subject, err = set.Render("subject", v); err != nil {
		return "", "", err
	}
	if body, err = set.Render("notice", v); err != nil {
		return "", "", err
	}
	return subject, body, nil
}

// noticeView is the notice about flag f (numbered n) raised on in, with out the outcome that
// raised it.
func noticeView(game string, n int64, f game.Flag, kind FlagKind, in *game.Input, out game.Outcome, how Settle) NoticeView {
	v := NoticeView{Game: game, N: n, Kind: kind, PostID: f.PostID, Review: how.Command(), By: "ВАШЕ_ИМЯ",
		Tunnel: how.Tunnel && how.WebURL != "", Serve: how.Serve && how.WebURL == ""}
	if v.PostID == "" && in != nil {
		v.PostID = in.PostID
	}
	if how.WebURL != "" {
		v.WebURL = strings.TrimRight(how.WebURL, "/") + "/g/" + url.PathEscape(game) + "/flag/" + strconv.FormatInt(n, 10)
	}
	var text string
	if in != nil {
		v.Author, v.Permalink, text = escape(in.Author), in.Post.Permalink, in.Post.Text
	}
	switch kind {
	case FlagEdited:
		v.Diff, v.DiffMore = lineDiff(f.Was, text)
	case FlagDeleted:
	default:
		v.Excerpt, v.ExcerptMore = excerptLines(text)
	}
	if kind == FlagUnreadable {
		// The game's own words to the player say what it could not read (the flag's Detail is
		// the parser's, in English); no words means the referee failed.
		for _, m := range out.Messages {
			if strings.TrimSpace(m.Body) != "" {
				v.Reply = strings.TrimSpace(m.Body)
				break
			}
		}
		v.Failed = v.Reply == ""
	}
	switch {
	case kind == FlagOther:
		v.Detail = escape(templates.Cut(f.Detail, noticeLetters))
	case f.Warning != "":
		v.Detail = escape(templates.Cut(f.Warning, 2*noticeLetters)) // e.g. a name that looks like a player's
	}
	return v
}

// excerptLines is the start of a text: at most noticeLines lines, each cut, escaped.
func excerptLines(text string) ([]string, bool) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil, false
	}
	more := len(lines) > noticeLines
	if more {
		lines = lines[:noticeLines]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = escape(templates.Cut(strings.TrimRight(l, " \t\r"), noticeLetters))
	}
	return out, more
}

// lineDiff is what changed from was to now, line by line (a longest common subsequence): at most
// noticeDiff changed lines, each cut and escaped, and how many more were left out.
func lineDiff(was, now string) ([]DiffLine, int) {
	a := strings.Split(strings.TrimSpace(was), "\n")
	b := strings.Split(strings.TrimSpace(now), "\n")
	const maxLines = 400 // beyond this, no alignment: every line counts as changed
	var all []DiffLine
	if len(a) > maxLines || len(b) > maxLines {
		for _, l := range a {
			all = append(all, DiffLine{Text: l})
		}
		for _, l := range b {
			all = append(all, DiffLine{Added: true, Text: l})
		}
	} else {
		// lcs[i][j]: the common subsequence's length of a[i:] and b[j:].
		lcs := make([][]int, len(a)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(b)+1)
		}
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(a) || j < len(b) {
			switch {
			case i < len(a) && j < len(b) && a[i] == b[j]:
				i, j = i+1, j+1
			case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
				all = append(all, DiffLine{Text: a[i]})
				i++
			default:
				all = append(all, DiffLine{Added: true, Text: b[j]})
				j++
			}
		}
	}
	more := 0
	if len(all) > noticeDiff {
		all, more = all[:noticeDiff], len(all)-noticeDiff
	}
	for i := range all {
		all[i].Text = escape(templates.Cut(strings.TrimRight(all[i].Text, " \t\r"), noticeLetters))
	}
	return all, more
}

// notices is a commit's Notices: a private message to each moderator about each flag, made once
// the store has numbered the flags.
func notices(game string, out game.Outcome, in *game.Input, flags []NewFlag, n Notify) func([]int64) ([]OutboxItem, error) {
	return func(ids []int64) ([]OutboxItem, error) {
		var items []OutboxItem
		for i, id := range ids {
			if i >= len(out.Flags) || i >= len(flags) {
				break
			}
			v := noticeView(game, id, out.Flags[i], flags[i].Kind, in, out, n.Settle)
			for _, mod := range n.Moderators {
				// Each moderator's commands name them (--by), so they run as written.
				v.By = shellQuote(mod)
				subject, body, err := Notice(v)
				if err != nil {
					return nil, fmt.Errorf("store: moderator notice: %w", err)
				}
				items = append(items, OutboxItem{Kind: OutboxPM, Recipient: mod, Subject: subject, Body: body})
			}
		}
		return items, nil
	}
}

package store

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

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
	// PublicURL is the moderator web UI's address (review.public_url); "" when it is reached
	// only through an SSH tunnel, and the notice then names the CLI only.
	PublicURL string
}

// NoticeView is what the moderation templates get (templates/moderation/notice.tmpl).
type NoticeView struct {
	Game      string
	N         int64 // the flag's own number
	Kind      FlagKind
	PostID    string
	Author    string // escaped
	Permalink string
	WebURL    string // the flag's page in the web UI ("" without review.public_url)
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
func noticeView(game string, n int64, f game.Flag, kind FlagKind, in *game.Input, out game.Outcome, publicURL string) NoticeView {
	v := NoticeView{Game: game, N: n, Kind: kind, PostID: f.PostID}
	if v.PostID == "" && in != nil {
		v.PostID = in.PostID
	}
	if publicURL != "" {
		v.WebURL = strings.TrimRight(publicURL, "/") + "/g/" + url.PathEscape(game) + "/flag/" + strconv.FormatInt(n, 10)
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
			subject, body, err := Notice(noticeView(game, id, out.Flags[i], flags[i].Kind, in, out, n.PublicURL))
			if err != nil {
				return nil, fmt.Errorf("store: moderator notice: %w", err)
			}
			for _, mod := range n.Moderators {
				items = append(items, OutboxItem{Kind: OutboxPM, Recipient: mod, Subject: subject, Body: body})
			}
		}
		return items, nil
	}
}

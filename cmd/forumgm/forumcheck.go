package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"forumgm/daemon"
	"forumgm/forum"
)

func cmdForumCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("forum-check", stderr)
	last := fs.Int("last", 5, "how many of the thread's last posts to show")
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	password, err := cfg.Password()
	if err != nil {
		return err
	}
	f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username,
		Password: password, Location: cfg.ForumLocation(), UserAgent: cfg.Forum.UserAgent, Extra: cfg.Forum.Extra})
	if err != nil {
		return err
	}
	caps := f.Capabilities()
	fmt.Fprintf(stdout, "forum %s (%s): private messages %v, max post length %d\n", cfg.Forum.URL, cfg.Forum.Dialect, caps.PrivateMessages, caps.MaxPostLength)
	switch a := cfg.Attachments; {
	case caps.Attachments:
		fmt.Fprintf(stdout, "pictures: attached to posts (%s, up to %d bytes)\n", strings.Join(caps.AttachmentTypes, ", "), caps.MaxAttachmentSize)
	case a.PublicURL != "":
		fmt.Fprintf(stdout, "pictures: linked from %s (folder %s)\n", a.PublicURL, cfg.Resolve(a.Dir))
	default:
		fmt.Fprintln(stdout, "pictures: left out (the dialect takes no attachments and attachments.public_url is not set)")
	}
	if err := f.Login(ctx); err != nil {
		return fmt.Errorf("login as %s: %w", cfg.Bot.Username, err)
	}
	fmt.Fprintf(stdout, "login as %s: OK\n", cfg.Bot.Username)
	posts, cur, err := f.Posts(ctx, forum.Thread{ID: cfg.Forum.Thread}, forum.Cursor{})
	if err != nil {
		return fmt.Errorf("thread %s: %w", cfg.Forum.Thread, err)
	}
	authors := map[string]int{}
	for _, p := range posts {
		authors[p.Author]++
	}
	fmt.Fprintf(stdout, "thread %s: %d posts, last id %s (page %d), %d authors\n", cfg.Forum.Thread, len(posts), cur.PostID, cur.Page, len(authors))
	for _, p := range posts[max(0, len(posts)-*last):] {
		fmt.Fprintf(stdout, "  #%s %s %s: %s\n", p.ID, p.Time.Format("2006-01-02 15:04"), p.Author, fcLine(p.Text, 80))
	}
	merged := 0
	for _, p := range posts {
		if strings.EqualFold(p.Author, cfg.Bot.Username) && daemon.MarkerCount(p.Text) > 1 {
			merged++
		}
	}
	if merged > 0 {
		fmt.Fprintf(stdout, "  warning: the forum merged the bot's consecutive messages into one post (%d posts): announcements land inside older posts; exempt the bot's group from auto-merge (MyBB: postmergeuignore) — docs/operations.md\n", merged)
	} else {
		fmt.Fprintln(stdout, "  merging: no merged post of the bot in the thread (members cannot see the forum's auto-merge setting: exempt the bot's group from it, MyBB: postmergeuignore — docs/operations.md)")
	}
	if err := checkFlood(ctx, f, forum.Thread{ID: cfg.Forum.Thread}, stdout); err != nil {
		return err
	}
	checkSection(ctx, f, forum.Thread{ID: cfg.Forum.Thread}, stdout)
	for _, name := range cfg.Players() {
		if authors[name] == 0 {
			fmt.Fprintf(stdout, "  note: player %s has no post in the thread yet (check the spelling of the name)\n", name)
		}
	}
	newest := posts
	if caps.PrivateMessages {
		pms, _, err := f.Inbox(ctx, forum.Cursor{})
		if err != nil {
			return fmt.Errorf("inbox: %w", err)
		}
		newest = append(newest[:len(newest):len(newest)], pms...)
		fmt.Fprintf(stdout, "inbox: %d messages\n", len(pms))
		for _, p := range pms[max(0, len(pms)-*last):] {
			fmt.Fprintf(stdout, "  pm %s from %s: %s\n", p.ID, p.Author, fcLine(p.Subject+" — "+p.Text, 80))
		}
	}
	skewed := checkClock(newest, time.Now(), cmp.Or(cfg.Forum.MaxClockSkew.D(), forum.DefaultMaxSkew), stdout)
	missing, err := checkNames(ctx, f, cfg.Players(), cfg.Moderators, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "nothing was posted")
	if skewed != nil {
		return skewed
	}
	if len(missing) > 0 {
		return fmt.Errorf("no such user on the forum: %s (the game's private messages to them would be undeliverable: check the spelling in the config)", strings.Join(missing, ", "))
	}
	return nil
}

// checkClock compares the newest stamp read (thread and inbox) with now: a stamp in the future
// beyond max is a forum clock ahead of this host's or a wrong forum.timezone, reported with its
// likely cause (and returned as the error). A clock behind cannot show here without a post of
// known time: the daemon measures it on each reply of the bot's it reads back (clock_skew).
func checkClock(posts []forum.Post, now time.Time, max time.Duration, stdout io.Writer) error {
	var newest forum.Post
	for _, p := range posts {
		if !p.Time.IsZero() && (newest.Time.IsZero() || p.Time.After(newest.Time)) {
			newest = p
		}
	}
	if newest.Time.IsZero() {
		fmt.Fprintln(stdout, "clock: no dated post to compare with this host's clock")
		return nil
	}
	s := forum.SkewOf(newest.Time, now)
	if time.Duration(s) > max {
		err := fmt.Errorf("the forum's times are off this host's clock: post %s is stamped %s, %s (over forum.max_clock_skew %s): %s",
			newest.ID, newest.Time.Format("2006-01-02 15:04 MST"), s, max, s.Cause())
		fmt.Fprintf(stdout, "clock: error: %v\n", err)
		return err
	}
	fmt.Fprintf(stdout, "clock: the newest post (%s) is stamped %s, %s before this host's clock: none in the future (a forum clock behind shows once the bot posts: clock_skew on /healthz)\n",
		newest.ID, newest.Time.Format("2006-01-02 15:04 MST"), now.Sub(newest.Time).Round(time.Second))
	return nil
}

// checkFlood reports whether the forum's flood control applies to the bot in the game's thread,
// where the dialect can tell (forum.FloodExempter: MyBB shows a moderator of the forum the
// moderation tools on the thread page, and skips its flood check for them).
func checkFlood(ctx context.Context, f forum.Forum, t forum.Thread, stdout io.Writer) error {
	fe, ok := f.(forum.FloodExempter)
	if !ok {
		fmt.Fprintln(stdout, "flood control: this dialect cannot tell whether it applies to the bot")
		return nil
	}
	exempt, why, err := fe.FloodExempt(ctx, t)
	if err != nil {
		return fmt.Errorf("flood control: %w", err)
	}
	if exempt {
		fmt.Fprintf(stdout, "flood control: the bot is exempt (%s)\n", why)
		return nil
	}
	fmt.Fprintf(stdout, "flood control: applies to the bot (%s); replies in a row wait it out — make the bot a moderator of the game's forum (docs/operations.md)\n", why)
	return nil
}

// checkSection reports the game thread's section and its first page of threads, where the
// dialect lists sections (forum.SectionReader): one look at it stands for every game thread in it.
func checkSection(ctx context.Context, f forum.Forum, t forum.Thread, stdout io.Writer) {
	sr, ok := f.(forum.SectionReader)
	if !ok {
		return
	}
	sec := sr.SectionOf(t)
	if sec == "" {
		fmt.Fprintln(stdout, "section: the thread page does not name its section")
		return
	}
	heads, err := sr.Section(ctx, sec)
	if err != nil {
		fmt.Fprintf(stdout, "section %s: cannot be read (%v)\n", sec, err)
		return
	}
	listed := "not on its first page"
	for _, h := range heads {
		if h.ID == t.ID {
			listed = fmt.Sprintf("listed, %d replies, last post by %s at %s", h.Replies, h.LastPoster, h.LastAt.Format("2006-01-02 15:04"))
		}
	}
	fmt.Fprintf(stdout, "section %s: %d threads on its first page; the game's thread %s\n", sec, len(heads), listed)
}

// checkNames asks the forum whether every player and moderator exists, where the dialect can
// tell (forum.UserFinder); it returns the names not found.
func checkNames(ctx context.Context, f forum.Forum, players, moderators []string, stdout io.Writer) ([]string, error) {
	uf, ok := f.(forum.UserFinder)
	if !ok {
		fmt.Fprintln(stdout, "names: this dialect cannot look users up; check the players' and moderators' names by hand")
		return nil, nil
	}
	var missing []string
	for _, group := range []struct {
		what  string
		names []string
	}{{"player", players}, {"moderator", moderators}} {
		for _, name := range group.names {
			ok, err := uf.UserExists(ctx, name)
			if err != nil {
				return nil, fmt.Errorf("look up %s %s: %w", group.what, name, err)
			}
			if ok {
				fmt.Fprintf(stdout, "  %s %s: exists\n", group.what, name)
			} else {
				fmt.Fprintf(stdout, "  %s %s: NOT FOUND on the forum\n", group.what, name)
				missing = append(missing, name)
			}
		}
	}
	return missing, nil
}

func fcLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

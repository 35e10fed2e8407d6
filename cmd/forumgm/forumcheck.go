package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
)

// cmdForumCheck logs in to the forum of every game of the config (or of the one --game names),
// once per forum account, reads its inbox and each game's thread, and reports what forumgm would
// see; it posts nothing. The verdict comes last: the problems as the command's error, each
// naming its game.
func cmdForumCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("forum-check", stderr)
	gameID := gameFlag(fs)
	last := fs.Int("last", 5, "how many of the thread's last posts to show")
	all, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	views, err := gamesOf(all, *gameID)
	if err != nil {
		return err
	}
	// One login per forum account, in the order the games name them.
	type site struct {
		f      forum.Forum
		v      *config.Config // the first game on it (its forum and bot settings)
		newest []forum.Post   // the posts read there: the clock check
		err    error
	}
	var sites []*site
	byKey := map[string]*site{}
	var problems []error
	for _, v := range views {
		key := v.Forum.URL + "\x00" + v.Bot.Username
		s := byKey[key]
		if s == nil {
			s = &site{v: v}
			byKey[key] = s
			sites = append(sites, s)
			var pms []forum.Post
			s.f, pms, s.err = checkForum(ctx, v, *last, stdout)
			if s.err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", v.Where(), s.err))
			}
			s.newest = pms
		}
		if s.err != nil {
			continue
		}
		posts, err := checkThread(ctx, s.f, v, *last, stdout)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", v.Where(), err))
			continue
		}
		s.newest = append(s.newest, posts...)
		missing, err := checkNames(ctx, s.f, v.Players(), v.Moderators, stdout)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", v.Where(), err))
		} else if len(missing) > 0 {
			problems = append(problems, fmt.Errorf("%s: no such user on the forum: %s (the game's private messages to them would be undeliverable: check the spelling in %s and %s)",
				v.Where(), strings.Join(missing, ", "), v.Field("game.roster"), v.Field("moderators")))
		}
	}
	for _, s := range sites {
		if s.err != nil {
			continue
		}
		if err := checkClock(s.newest, time.Now(), cmp.Or(s.v.Forum.MaxClockSkew.D(), forum.DefaultMaxSkew), stdout); err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", s.v.Field("forum.max_clock_skew"), err))
		}
	}
	fmt.Fprintln(stdout, "nothing was posted")
	if len(problems) > 0 {
		return verdict(*path, problems)
	}
	fmt.Fprintf(stdout, "%s: OK (%s)\n", *path, countGames(views))
	return nil
}

// countGames names the games checked for a verdict: "game crusade-1" or "2 games".
func countGames(views []*config.Config) string {
	if len(views) == 1 {
		return views[0].Where()
	}
	return fmt.Sprintf("%d games", len(views))
}

// checkForum opens the forum of the game's view v, prints what it takes, logs in as the bot and
// reads the inbox (where the forum has private messages): it returns the forum logged in and the
// private messages read.
func checkForum(ctx context.Context, v *config.Config, last int, stdout io.Writer) (forum.Forum, []forum.Post, error) {
	password, err := v.Password()
	if err != nil {
		return nil, nil, err
	}
	f, err := openForum(v.Forum.Dialect, forum.Config{BaseURL: v.Forum.URL, Username: v.Bot.Username,
		Password: password, Location: v.ForumLocation(), UserAgent: v.Forum.UserAgent, Extra: v.Forum.Extra})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", v.Field("forum.dialect"), err)
	}
	caps := f.Capabilities()
	fmt.Fprintf(stdout, "forum %s (%s): private messages %v, max post length %d\n", v.Forum.URL, v.Forum.Dialect, caps.PrivateMessages, caps.MaxPostLength)
	switch a := v.Attachments; {
	case caps.Attachments:
		fmt.Fprintf(stdout, "pictures: attached to posts (%s, up to %d bytes)\n", strings.Join(caps.AttachmentTypes, ", "), caps.MaxAttachmentSize)
	case a.PublicURL != "":
		fmt.Fprintf(stdout, "pictures: linked from %s (folder %s)\n", a.PublicURL, v.Resolve(a.Dir))
	default:
		fmt.Fprintln(stdout, "pictures: left out (the dialect takes no attachments and attachments.public_url is not set)")
	}
	if err := f.Login(ctx); err != nil {
		return nil, nil, fmt.Errorf("login as %s (%s): %w", v.Bot.Username, v.Field("bot.username"), err)
	}
	fmt.Fprintf(stdout, "login as %s: OK\n", v.Bot.Username)
	if !caps.PrivateMessages {
		return f, nil, nil
	}
	pms, _, err := f.Inbox(ctx, forum.Cursor{})
	if err != nil {
		return nil, nil, fmt.Errorf("inbox: %w", err)
	}
	fmt.Fprintf(stdout, "inbox: %d messages\n", len(pms))
	for _, p := range pms[max(0, len(pms)-last):] {
		fmt.Fprintf(stdout, "  pm %s from %s: %s\n", p.ID, p.Author, fcLine(p.Subject+" — "+p.Text, 80))
	}
	return f, pms, nil
}

// checkThread reads the thread of the game's view v on f (logged in) and reports it: its last
// posts, the bot's merged posts, flood control, its section and the players with no post yet.
func checkThread(ctx context.Context, f forum.Forum, v *config.Config, last int, stdout io.Writer) ([]forum.Post, error) {
	t := forum.Thread{ID: v.Forum.Thread}
	posts, cur, err := f.Posts(ctx, t, forum.Cursor{})
	if err != nil {
		return nil, fmt.Errorf("thread %s (%s): %w", v.Forum.Thread, v.Field("forum.thread"), err)
	}
	authors := map[string]int{}
	for _, p := range posts {
		authors[p.Author]++
	}
	fmt.Fprintf(stdout, "%s: thread %s: %d posts, last id %s (page %d), %d authors\n", v.Where(), v.Forum.Thread, len(posts), cur.PostID, cur.Page, len(authors))
	for _, p := range posts[max(0, len(posts)-last):] {
		fmt.Fprintf(stdout, "  #%s %s %s: %s\n", p.ID, p.Time.Format("2006-01-02 15:04"), p.Author, fcLine(p.Text, 80))
	}
	merged := 0
	for _, p := range posts {
		if strings.EqualFold(p.Author, v.Bot.Username) && daemon.MarkerCount(p.Text) > 1 {
			merged++
		}
	}
	if merged > 0 {
		fmt.Fprintf(stdout, "  warning: the forum merged the bot's consecutive messages into one post (%d posts): announcements land inside older posts; exempt the bot's group from auto-merge (MyBB: postmergeuignore) — docs/operations.md\n", merged)
	} else {
		fmt.Fprintln(stdout, "  merging: no merged post of the bot in the thread (members cannot see the forum's auto-merge setting: exempt the bot's group from it, MyBB: postmergeuignore — docs/operations.md)")
	}
	if err := checkFlood(ctx, f, t, stdout); err != nil {
		return nil, err
	}
	checkSection(ctx, f, t, stdout)
	for _, name := range v.Players() {
		if authors[name] == 0 {
			fmt.Fprintf(stdout, "  note: player %s has no post in the thread yet (check the spelling of the name)\n", name)
		}
	}
	return posts, nil
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

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"forumgm/audit"
	"forumgm/daemon"
	"forumgm/dialects/detect"
	"forumgm/forum"
)

// publicCheck is forumgm verify URL and verify --file PAGE.html...: a game checked from its
// thread's public posts alone (audit.Public), read as a guest through the forum's dialect.
type publicCheck struct {
	dialect, bot, tz string
}

// thread reads every post of the thread at pageURL as a guest (no login), page after page.
func (c publicCheck) thread(ctx context.Context, pageURL string) ([]forum.Post, string, error) {
	name := c.dialect
	if name == "" {
		raw, ctype, err := pageFrom(ctx, "", pageURL)
		if err != nil {
			return nil, "", err
		}
		body, _, err := forum.Decode(raw, ctype)
		if err != nil {
			return nil, "", err
		}
		if name = detect.Identify(body).Dialect; name == "" {
			return nil, "", errors.New("the page's forum engine is not recognised: give --dialect")
		}
	}
	d, ok := registry().Lookup(name)
	if !ok || d.Open == nil {
		return nil, "", fmt.Errorf("dialect %q cannot read a forum (saved pages: --file)", name)
	}
	base, id := d.Board(pageURL)
	if base == "" || id == "" {
		return nil, "", fmt.Errorf("%s: the %s dialect does not find the thread's id in this address", pageURL, name)
	}
	loc, err := time.LoadLocation(c.tz)
	if err != nil {
		return nil, "", fmt.Errorf("timezone: %w", err)
	}
	f, err := openForum(name, forum.Config{BaseURL: base, Location: loc})
	if err != nil {
		return nil, "", err
	}
	var all []forum.Post
	var cur forum.Cursor
	for range 10000 {
		ps, next, err := f.Posts(ctx, forum.Thread{ID: id}, cur)
		if err != nil {
			return nil, "", fmt.Errorf("read thread %s as a guest: %w", id, err)
		}
		if len(ps) == 0 || next == cur {
			break
		}
		all, cur = append(all, ps...), next
	}
	return all, name, nil
}

// pages reads saved thread pages (the dialect given, or recognised on the first page).
func (c publicCheck) pages(ctx context.Context, files []string) ([]forum.Post, error) {
	name := c.dialect
	loc, err := time.LoadLocation(c.tz)
	if err != nil {
		return nil, fmt.Errorf("timezone: %w", err)
	}
	seen := map[string]bool{}
	var all []forum.Post
	for _, file := range files {
		raw, ctype, err := pageFrom(ctx, file, "")
		if err != nil {
			return nil, err
		}
		if name == "" {
			body, _, err := forum.Decode(raw, ctype)
			if err != nil {
				return nil, err
			}
			if name = detect.Identify(body).Dialect; name == "" {
				return nil, fmt.Errorf("%s: the forum engine is not recognised: give --dialect", file)
			}
		}
		x, err := registry().Extractor(name)
		if err != nil {
			return nil, err
		}
		ps, err := x(raw, ctype, forum.Config{Location: loc, Now: time.Now})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				all = append(all, p)
			}
		}
	}
	forum.SortPosts(all)
	return all, nil
}

// check runs audit.Public over posts as the daemon judged them (merged posts in their parts).
func (c publicCheck) check(posts []forum.Post, stdout io.Writer) (*audit.Report, error) {
	var pub []audit.PublicPost
	for _, p := range posts {
		for _, part := range daemon.Parts(p) {
			pub = append(pub, audit.PublicPost{ID: part.ID, Author: part.Author, Text: part.Text, Code: part.Code})
		}
	}
	bot := c.bot
	if bot == "" {
		if bot = audit.RevealedBy(pub); bot == "" {
			return nil, errors.New("no post of the thread reveals a seed with the list of draws (the game has not ended?): nothing to check yet")
		}
		fmt.Fprintf(stdout, "the bot, as the post revealing the seed names it: %s\n", bot)
	}
	return audit.Public(pub, bot, knownGames())
}

// filesFlag collects repeated --file flags.
type filesFlag []string

func (f *filesFlag) String() string     { return strings.Join(*f, ",") }
func (f *filesFlag) Set(v string) error { *f = append(*f, v); return nil }

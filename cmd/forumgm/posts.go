package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"forumgm/forum"
)

func init() {
	commands["posts"] = command{
		summary: "print the posts a dialect extracts from a saved page or a URL (--json)",
		run:     runPosts,
	}
}

func runPosts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("posts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dialect := fs.String("dialect", "", "forum dialect: "+strings.Join(forum.Dialects(), ", "))
	file := fs.String("file", "", "a saved page (HTML)")
	url := fs.String("url", "", "a page to fetch (thread page, inbox or private message)")
	asJSON := fs.Bool("json", false, "print one JSON array")
	tz := fs.String("timezone", "UTC", "the forum's time zone, for times shown without one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dialect == "" || (*file == "") == (*url == "") {
		fs.Usage()
		return errors.New("want --dialect and exactly one of --file or --url")
	}
	x, err := forum.ExtractorFor(*dialect)
	if err != nil {
		return err
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("timezone: %w", err)
	}
	cfg := forum.Config{Location: loc, Now: time.Now, BaseURL: *url}
	var page []byte
	ctype := "text/html"
	if *file != "" {
		if page, err = os.ReadFile(*file); err != nil {
			return err
		}
	} else {
		p, err := forum.NewClient(forum.ClientConfig{}).Get(ctx, *url)
		if err != nil {
			return err
		}
		page, ctype = p.Raw, p.Header.Get("Content-Type")
		if ctype == "" {
			ctype = http.DetectContentType(page)
		}
	}
	posts, err := x(page, ctype, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		if posts == nil {
			posts = []forum.Post{}
		}
		for i := range posts {
			if posts[i].Quotes == nil {
				posts[i].Quotes = []forum.Quote{}
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(posts)
	}
	for _, p := range posts {
		fmt.Fprintf(stdout, "#%s %s (%s) %s%s\n", p.ID, p.Author, p.AuthorID, p.Time.Format(time.RFC3339), map[bool]string{true: " [edited]"}[p.Edited])
		for _, q := range p.Quotes {
			fmt.Fprintf(stdout, "  > %s%s: %s\n", q.Author, map[bool]string{true: " #" + q.PostID}[q.PostID != ""], oneLine(q.Text))
		}
		fmt.Fprintf(stdout, "  %s\n\n", strings.ReplaceAll(p.Text, "\n", "\n  "))
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "…"
	}
	return s
}

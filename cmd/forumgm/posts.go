package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/forum"
)

func runPosts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("posts", stderr, "")
	dialect := fs.String("dialect", "", "the forum dialect's `NAME`: "+strings.Join(registry().ReaderNames(), ", ")+" (default: the config's)")
	file := fs.String("file", "", "a saved `PAGE` (HTML)")
	url := fs.String("url", "", "a page to fetch (thread page, inbox or private message)")
	asJSON := fs.Bool("json", false, "print one JSON array")
	tz := fs.String("timezone", "", "the forum's time zone, for times shown without one (default: the config's, else UTC)")
	cfgPath := fs.String("config", "", "a `FILE` with a forum: block (dialect, url, timezone, extra) to read the page with, or a config's forums:")
	gameID := fs.String("game", "", "with a config of several forums: the `ID` of the game whose forum reads the page")
	extra := extraFlag{}
	fs.Var(extra, "extra", "key=value added to the forum's extra settings (the generic dialect's selectors); repeatable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fb := forumBlock{}
	if *cfgPath != "" {
		var err error
		if fb, err = readForumBlock(*cfgPath, *gameID); err != nil {
			return err
		}
	}
	if *dialect == "" {
		*dialect = fb.Dialect
	}
	if *tz == "" {
		*tz = fb.Timezone
	}
	if *tz == "" {
		*tz = "UTC"
	}
	if *dialect == "" || (*file == "") == (*url == "") {
		fs.Usage()
		return errors.New("want --dialect (or --config) and exactly one of --file or --url")
	}
	x, err := registry().Extractor(*dialect)
	if err != nil {
		return err
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("timezone: %w", err)
	}
	settings := map[string]string{}
	for k, v := range fb.Extra {
		settings[k] = v
	}
	for k, v := range extra {
		settings[k] = v
	}
	base := *url
	if base == "" {
		base = fb.URL
	}
	cfg := forum.Config{Location: loc, Now: time.Now, BaseURL: base, Extra: settings}
	page, ctype, err := pageFrom(ctx, *file, *url)
	if err != nil {
		return err
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
		for _, pr := range p.Problems {
			fmt.Fprintf(stdout, "  ! %s\n", pr)
		}
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

// extraFlag collects repeated --extra key=value flags.
type extraFlag map[string]string

func (e extraFlag) String() string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func (e extraFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	e[strings.TrimSpace(k)] = v
	return nil
}

// forumBlock is the forum: block of a configuration file, read on its own (a newcomer trying
// selectors has no game or bot yet).
type forumBlock struct {
	URL      string            `yaml:"url"`
	Dialect  string            `yaml:"dialect"`
	Timezone string            `yaml:"timezone"`
	Extra    map[string]string `yaml:"extra"`
}

// readForumBlock reads the forum a page is read with from the file at path: its forum: block (a
// single-game config, detect's output), or in a several-game config the forum of the game id
// names (the only forum when there is one).
func readForumBlock(path, id string) (forumBlock, error) {
	var doc struct {
		Forum  forumBlock            `yaml:"forum"`
		Forums map[string]forumBlock `yaml:"forums"`
		Games  []struct {
			ID    string `yaml:"id"`
			Forum string `yaml:"forum"`
		} `yaml:"games"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return doc.Forum, err
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return doc.Forum, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Forums) == 0 {
		return doc.Forum, nil
	}
	var ids []string
	for _, g := range doc.Games {
		if g.ID == id && id != "" {
			fb, ok := doc.Forums[g.Forum]
			if !ok {
				return fb, fmt.Errorf("%s: games: %s's forum %q is not one of forums:", path, id, g.Forum)
			}
			return fb, nil
		}
		ids = append(ids, g.ID)
	}
	if id == "" && len(doc.Forums) == 1 {
		for _, fb := range doc.Forums {
			return fb, nil
		}
	}
	if id == "" {
		return forumBlock{}, fmt.Errorf("%s: %d forums; name the game whose forum reads the page with --game (%s)", path, len(doc.Forums), strings.Join(ids, ", "))
	}
	return forumBlock{}, fmt.Errorf("%s: no game %q (games: %s)", path, id, strings.Join(ids, ", "))
}

// pageFrom reads a forum page from a saved file, or else fetches it from url: its bytes as sent
// and their content type (a saved file is taken for HTML; the charset comes from its <meta>).
func pageFrom(ctx context.Context, file, url string) ([]byte, string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		return b, "text/html", err
	}
	p, err := forum.NewClient(forum.ClientConfig{}).Get(ctx, url)
	if err != nil {
		return nil, "", err
	}
	ctype := p.Header.Get("Content-Type")
	if ctype == "" {
		ctype = http.DetectContentType(p.Raw)
	}
	return p.Raw, ctype, nil
}

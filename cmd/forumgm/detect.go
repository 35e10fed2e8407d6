package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/dialects/detect"
	"forumgm/forum"
	"forumgm/forum/scrape"
)

func runDetect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("detect", stderr, "")
	file := fs.String("file", "", "a saved thread `PAGE` (HTML)")
	asJSON := fs.Bool("json", false, "print the finding as JSON")
	tz := fs.String("timezone", "UTC", "the forum's time zone, for times shown without one")
	// Flags may follow the URL: parse what comes after it too.
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	var pageURL string
	if len(rest) > 0 {
		pageURL, rest = rest[0], rest[1:]
		if err := fs.Parse(rest); err != nil {
			return err
		}
	}
	if (pageURL == "") == (*file == "") {
		fs.Usage()
		return errors.New("want a URL or --file PAGE")
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("timezone: %w", err)
	}
	raw, ctype, err := pageFrom(ctx, *file, pageURL)
	if err != nil {
		return err
	}
	body, _, err := forum.Decode(raw, ctype)
	if err != nil {
		return err
	}
	if pageURL == "" {
		pageURL = ownURL(body) // a saved page names its address (canonical link, og:url)
	}
	f := detect.Identify(body)
	guessed := false
	if f.Dialect == "" || (f.Dialect == "generic" && f.Extra == nil) {
		if g := detect.Guess(body); g != nil {
			f.Dialect, f.Extra, guessed = "generic", g, true
		}
	}
	cfg := forum.Config{Location: loc, Now: time.Now, BaseURL: pageURL, Extra: f.Extra}
	var posts []forum.Post
	var readErr error
	if f.Dialect != "" {
		if x, err := registry().Extractor(f.Dialect); err == nil {
			posts, readErr = x(raw, ctype, cfg)
		}
	}
	if *asJSON {
		out := struct {
			detect.Finding
			Guessed bool         `json:"guessed,omitempty"`
			Posts   []forum.Post `json:"posts"`
			Error   string       `json:"error,omitempty"`
		}{Finding: f, Guessed: guessed, Posts: posts}
		if readErr != nil {
			out.Error = readErr.Error()
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	name := f.Engine
	if name == "" {
		name = "unknown"
	}
	if f.Version != "" {
		name += " " + f.Version
	}
	if f.Theme != "" {
		name += " (style " + f.Theme + ")"
	}
	fmt.Fprintf(stdout, "engine:   %s\n", name)
	for _, e := range f.Evidence {
		fmt.Fprintf(stdout, "          - %s\n", e)
	}
	switch {
	case f.Dialect == "":
		fmt.Fprintln(stdout, "dialect:  none: forumgm cannot read this page yet")
	case guessed:
		fmt.Fprintln(stdout, "dialect:  generic, with selectors GUESSED from the page: check the posts below")
	case f.Dialect == "generic":
		fmt.Fprintf(stdout, "dialect:  generic, with the selectors known for %s\n", strings.TrimSpace(f.Engine+" "+f.Version))
		if f.Reader != "" {
			fmt.Fprintf(stdout, "          (pages alone: forumgm posts --dialect %s reads them)\n", f.Reader)
		}
	default:
		fmt.Fprintf(stdout, "dialect:  %s\n", f.Dialect)
	}
	if f.Dialect != "" {
		if readErr != nil {
			fmt.Fprintf(stdout, "reading:  failed: %v\n", readErr)
		} else {
			problems := 0
			for _, p := range posts {
				if len(p.Problems) > 0 {
					problems++
				}
			}
			fmt.Fprintf(stdout, "reading:  %d posts, %d with problems\n", len(posts), problems)
			for i, p := range posts {
				if i == 3 {
					fmt.Fprintf(stdout, "          … %d more (forumgm posts --json shows all)\n", len(posts)-3)
					break
				}
				fmt.Fprintf(stdout, "          #%s %s %s: %s\n", p.ID, p.Author, p.Time.Format(time.RFC3339), oneLine(p.Text))
				for _, pr := range p.Problems {
					fmt.Fprintf(stdout, "            ! %s\n", pr)
				}
			}
		}
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, forumBlockYAML(f, pageURL, *tz))
	}
	return nil
}

// forumBlockYAML is a ready forum: block for the finding.
func forumBlockYAML(f detect.Finding, pageURL, tz string) string {
	var b strings.Builder
	d, _ := registry().Lookup(f.Dialect)
	base, thread := "https://forum.example.org/", "\"1\""
	if u, id := d.Board(pageURL); u != "" {
		base = u
		if id != "" {
			thread = fmt.Sprintf("%q", id)
		}
	}
	fmt.Fprintf(&b, "forum:\n  url: %s\n  dialect: %s\n  thread: %s  # the game thread's id\n  timezone: %s\n", base, f.Dialect, thread, tz)
	if len(f.Extra) == 0 {
		b.WriteString("  extra: {}\n")
		return b.String()
	}
	b.WriteString("  extra:\n")
	keys := make([]string, 0, len(f.Extra))
	for k := range f.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(f.Extra[k]) // a JSON string is a YAML double-quoted string
		fmt.Fprintf(&b, "    %s: %s\n", k, v)
	}
	if f.Dialect == "generic" {
		b.WriteString("    # reading only: add thread_url, login_* and reply_* to post (forum/scrape/README.md)\n")
	}
	return b.String()
}

// ownURL is the absolute address a saved page gives for itself (its canonical link, else its
// og:url), "" when it names none: forum: blocks and thread ids then come from it, not from a
// placeholder.
func ownURL(body []byte) string {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return ""
	}
	for _, src := range scrape.Canonical(nil) { // the same places the dialects read a page's thread from
		v := strings.TrimSpace(doc.Find(src.Sel).First().AttrOr(src.Attr, ""))
		if u, err := url.Parse(v); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return u.String()
		}
	}
	return ""
}

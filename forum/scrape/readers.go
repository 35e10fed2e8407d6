// This file holds what the hand-written page readers share around their own markup. For
// PunBB and SMF: the options a page is read with, parsing a page's bytes, the
// forum.Extractor built on a dialect's parser (decode, parse, the page's own error when it has
// no posts, posts in forum.CompareIDs order), and which forum error an error message means (by a
// dialect's table of message fragments). For the readers of a forum's lists (the topic lists of
// PunBB, SMF, phpBB, Invision and XenForo, MyBB's board index; section.go): the counts of a list's
// cells (Count) and the last poster's name (Poster). What a page holds and how it is read stays in the dialect; the
// order of post ids is forum's.

package scrape

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// ReadOptions are what reading a page needs besides the page.
type ReadOptions struct {
	Base     *url.URL // to resolve relative links
	Location *time.Location
	Now      time.Time
}

// ReadOptionsFrom are the options cfg gives: its location, its clock's time now, its base URL.
func ReadOptionsFrom(cfg forum.Config) ReadOptions {
	opt := ReadOptions{Location: cfg.Location}
	if cfg.Now != nil {
		opt.Now = cfg.Now()
	}
	if cfg.BaseURL != "" {
		opt.Base, _ = url.Parse(cfg.BaseURL)
	}
	return opt
}

// ParseBytes parses a page's UTF-8 HTML and reads it with parse; name (the dialect) prefixes an
// error of the HTML parser.
func ParseBytes[P any](name string, body []byte, opt ReadOptions, parse func(*goquery.Document, ReadOptions) (P, error)) (P, *goquery.Document, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		var zero P
		return zero, nil, fmt.Errorf("%s: parse: %w", name, err)
	}
	p, err := parse(doc, opt)
	return p, doc, err
}

// Posts is a forum.Extractor's work for a dialect: page decoded by contentType, read with read
// (the posts, and the parsed document even when reading failed), and its posts in id order. When
// reading fails, the error the page shows (check) is returned in place of the parser's.
func Posts(page []byte, contentType string, cfg forum.Config, check func(doc *goquery.Document, status int) error,
	read func(body []byte, opt ReadOptions) ([]forum.Post, *goquery.Document, error)) ([]forum.Post, error) {
	body, _, err := forum.Decode(page, contentType)
	if err != nil {
		return nil, err
	}
	ps, doc, err := read(body, ReadOptionsFrom(cfg))
	if err != nil {
		if doc != nil {
			if perr := check(doc, 200); perr != nil {
				return nil, perr
			}
		}
		return nil, err
	}
	posts := append([]forum.Post(nil), ps...)
	forum.SortPosts(posts)
	return posts, nil
}

// ErrorText is a fragment of an error message a board shows, in lower case, and the forum error
// it means.
type ErrorText struct {
	Frag string
	Kind error
}

// KindOf is the Kind of the first of texts whose fragment msg holds (in any case), else nil.
func KindOf(msg string, texts []ErrorText) error {
	low := strings.ToLower(msg)
	for _, e := range texts {
		if strings.Contains(low, e.Frag) {
			return e.Kind
		}
	}
	return nil
}

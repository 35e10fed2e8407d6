package web

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Board is how the posters of PunBB, SMF, XenForo and Invision talk to a board: fetching and
// checking its pages (a write's retries are Retry's).
type Board struct {
	Name   string        // the dialect ("punbb"), the prefix of its errors
	Client *forum.Client // every request
	// Check turns the error a page shows into a typed error (nil: the page shows none).
	Check func(doc *goquery.Document, status int) error
}

// Fetch GETs (vals == nil) or POSTs a page and parses it; when check is set, the error the page
// shows comes back typed (Board.Check). A transport error comes back with the page parsed, if
// there was one.
func (b *Board) Fetch(ctx context.Context, rawURL string, vals url.Values, charset string, check bool) (*forum.Page, *goquery.Document, error) {
	var p *forum.Page
	var err error
	if vals == nil {
		p, err = b.Client.Get(ctx, rawURL)
	} else {
		p, err = b.Client.PostForm(ctx, rawURL, vals, charset)
	}
	if p == nil || p.Body == nil {
		if err == nil {
			err = fmt.Errorf("%s: %s: empty answer", b.Name, rawURL)
		}
		return p, nil, err
	}
	if vals == nil && err == nil {
		if werr := forum.CheckWhole(p); werr != nil { // a page cut short is never read
			return p, nil, fmt.Errorf("%s: %w", b.Name, werr)
		}
	}
	doc, derr := p.Doc()
	if derr != nil {
		return p, nil, derr
	}
	if check {
		if perr := b.Check(doc, p.Status); perr != nil {
			return p, doc, perr
		}
	}
	return p, doc, err
}

// PostsAfter gathers a topic's posts after the cursor, oldest first, reading back from its newest
// page: posts and prev are that page's posts and the URL of the page before it, and read reads an
// older page the same way. It stops at the first page holding a post at or before the cursor, at
// the topic's first page, or after maxPages pages (ids ordered by forum.CompareIDs). The cursor returned is
// past the newest post, on lastPage.
func PostsAfter(after forum.Cursor, lastPage int, posts []forum.Post, prev string,
	maxPages int, read func(rawURL string) ([]forum.Post, string, error)) ([]forum.Post, forum.Cursor, error) {
	var out []forum.Post
	seen := map[string]bool{}
	for n := 0; ; n++ {
		known := false
		for _, p := range posts {
			if after.PostID != "" && !forum.IDLess(after.PostID, p.ID) {
				known = true
				if !after.Listed(p.ID) {
					continue
				}
			}
			if !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
		if known || prev == "" || n >= maxPages {
			break
		}
		var err error
		if posts, prev, err = read(prev); err != nil {
			return nil, after, err
		}
	}
	forum.SortPosts(out)
	next := forum.Cursor{PostID: after.PostID, Page: lastPage}
	if len(out) > 0 && forum.IDLess(next.PostID, out[len(out)-1].ID) || next.PostID == "" && len(out) > 0 {
		next.PostID = out[len(out)-1].ID
	}
	return out, next, nil
}

// ExtraInt is cfg.Extra[key] as a positive number, else def.
func ExtraInt(cfg forum.Config, key string, def int) int {
	if v, err := strconv.Atoi(cfg.Extra[key]); err == nil && v > 0 {
		return v
	}
	return def
}

// Defaults sets what the options left unset: a client with cfg's user agent and limits.
func (b *Board) Defaults(cfg forum.Config) {
	if b.Client == nil {
		b.Client = forum.NewClient(cfg.ClientConfig())
	}
}

// ConfigDefaults is cfg with UTC for an unset Location and time.Now for an unset Now.
func ConfigDefaults(cfg forum.Config) forum.Config {
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return cfg
}

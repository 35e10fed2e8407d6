package xenforo

import (
	"context"
	"fmt"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Section lists the threads on the first page of forum section (forums/<id>/ or
// forums/<slug>.<id>/: the forum_view template): one request. A head's ID is the thread's number,
// or the slug.N form a caller named the thread by (Posts, SectionOf). XenForo redirects a forum URL
// without its slug to the slugged one; the first call follows the redirect (two round trips) and
// later calls ask for the slugged URL at once.
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if !reThread.MatchString(section) {
		return nil, fmt.Errorf("xenforo: forum id %q is neither N nor slug.N", section)
	}
	f.tok.Lock()
	target, known := f.forumURL[section]
	f.tok.Unlock()
	if !known {
		target = f.route("forums/" + section + "/")
	}
	var heads []forum.ThreadHead
	err := f.retry(ctx, true, func() error {
		p, doc, err := f.board.Fetch(ctx, target, nil, "", true)
		if err != nil {
			return err
		}
		if p.URL != nil && p.URL.String() != target && strings.Contains(p.URL.String(), "forums/") {
			f.tok.Lock()
			f.forumURL[section] = p.URL.String()
			f.tok.Unlock()
		}
		if in, known := loggedIn(doc); known && !in {
			return fmt.Errorf("xenforo: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		f.setToken(doc)
		heads, err = readSection(doc)
		return err
	})
	f.tok.Lock()
	for i, h := range heads {
		if name, ok := f.named[h.ID]; ok {
			heads[i].ID = name
		}
	}
	f.tok.Unlock()
	return heads, err
}

// name remembers the id a caller names thread t by ("a-dark-theme-option.8276"), so that a
// thread list, which knows threads by number, names t the same way (a head's ID is what the
// caller looks its thread up by).
func (f *Forum) name(t forum.Thread) {
	if n := threadNumber(t.ID); n != t.ID {
		f.tok.Lock()
		f.named[n] = t.ID
		f.tok.Unlock()
	}
}

// SectionOf names the forum of thread t as the breadcrumb of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.name(t)
	f.tok.Lock()
	defer f.tok.Unlock()
	if s, ok := f.sections[t.ID]; ok {
		return s
	}
	return f.sections[threadNumber(t.ID)]
}

// setSection remembers the forum a thread page's breadcrumb names, under the thread's id as
// configured and its bare number (the id a thread list gives).
func (f *Forum) setSection(t forum.Thread, section string) {
	if section == "" {
		return
	}
	f.tok.Lock()
	defer f.tok.Unlock()
	f.sections[t.ID] = section
	f.sections[threadNumber(t.ID)] = section
}

// noteForumURL remembers the URL of forum section as the thread page's breadcrumb links it (the
// last crumb ending in ".<id>/"), so that Section asks for it at once: on a board whose route
// filters renamed forums/ (RageZone: community/tales-of-pirates.440/) the dialect's forums/<id>/
// is never needed. A URL Section already followed a redirect to is kept.
func (f *Forum) noteForumURL(doc *goquery.Document, section string) {
	if section == "" {
		return
	}
	var href string
	doc.Find(".p-breadcrumbs a[href]").Each(func(_ int, a *goquery.Selection) {
		h := a.AttrOr("href", "")
		if u, err := f.base.Parse(h); err == nil && u.Host == f.base.Host && u.Fragment == "" &&
			(strings.HasSuffix(u.Path, "."+section+"/") || strings.HasSuffix(u.Path, "/"+section+"/") ||
				strings.HasSuffix(u.RawQuery, "."+section+"/") || strings.HasSuffix(u.RawQuery, "/"+section+"/")) {
			href = u.String()
		}
	})
	if href == "" {
		return
	}
	f.tok.Lock()
	defer f.tok.Unlock()
	if _, ok := f.forumURL[section]; !ok {
		f.forumURL[section] = href
	}
}

// threadNumber is the number of a thread id ("a-dark-theme-option.8276" → "8276").
func threadNumber(id string) string {
	return id[strings.LastIndex(id, ".")+1:]
}

var _ forum.SectionReader = (*Forum)(nil)

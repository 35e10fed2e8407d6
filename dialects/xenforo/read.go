package xenforo

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

var rePage = regexp.MustCompile(`/page-(\d+)`)

// latest asks XenForo for the thread's newest post: threads/<id>/latest answers 303 to the
// post's place (threads/<slug>.<id>/page-N#post-M, XF\ControllerPlugin\Thread::getPostLink)
// with a tiny body. It returns the post id and the page URL without the fragment.
func (f *Forum) latest(ctx context.Context, rt string) (id string, page *url.URL, err error) {
	err = f.retry(ctx, true, func() error {
		p, err := f.board.Client.GetNoRedirect(ctx, f.route(rt+"latest"))
		if p == nil {
			return err
		}
		if p.Status/100 != 3 {
			if doc, derr := p.Doc(); derr == nil {
				if cerr := f.checkPage(doc, p.Status); cerr != nil {
					return cerr
				}
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("xenforo: %slatest answered HTTP %d, not a redirect: %w", rt, p.Status, forum.ErrMarkupChanged)
		}
		loc, lerr := p.Location()
		if lerr != nil {
			return lerr
		}
		m := rePostID.FindStringSubmatch(loc.Fragment)
		if m == nil {
			m = rePostID.FindStringSubmatch(loc.Path)
		}
		if m == nil {
			return fmt.Errorf("xenforo: %slatest redirected to %s, no post: %w", rt, loc, forum.ErrMarkupChanged)
		}
		id = m[1]
		loc.Fragment = ""
		page = loc
		return nil
	})
	return id, page, err
}

func pageNumber(u *url.URL) int {
	if m := rePage.FindStringSubmatch(u.Path + "?" + u.RawQuery); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return 1
}

// Posts lists the posts of thread after the cursor, oldest first. An idle poll is one request
// (threads/<id>/latest, a redirect); the newest page is read only when its newest post is past
// the cursor (or the cursor asks for its own post again), older pages only while they may hold
// posts after the cursor.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	rt, err := threadRoute(t)
	if err != nil {
		return nil, after, err
	}
	f.name(t)
	last, pageURL, err := f.latest(ctx, rt)
	if err == nil {
		err = checkThread(t, nil, pageURL)
	}
	if err != nil {
		return nil, after, err
	}
	f.tok.Lock()
	f.newest[t.ID] = last
	if m := reSlugged.FindStringSubmatch(pageURL.Path); m != nil && threadNumber(m[1]) == threadNumber(t.ID) {
		if f.slugged == nil {
			f.slugged = map[string]string{}
		}
		f.slugged[t.ID] = m[1]
	}
	f.tok.Unlock()
	if after.PostID != "" && !forum.IDLess(after.PostID, last) && !(after.Include && after.PostID == last) {
		return nil, forum.Cursor{PostID: after.PostID, Page: pageNumber(pageURL)}, nil
	}
	page, doc, err := f.readPage(ctx, pageURL.String(), xf2)
	if err == nil {
		err = checkThread(t, doc, nil)
	}
	if err != nil {
		return nil, after, err
	}
	section := sectionOf(doc)
	f.setSection(t, section)
	f.noteForumURL(doc, section)
	current := page.Current
	if current <= 1 {
		current = pageNumber(pageURL)
	}
	return web.PostsAfter(after, current, page.Posts, page.Prev, maxPagesPerPoll,
		func(rawURL string) ([]forum.Post, string, error) {
			p, doc, err := f.readPage(ctx, rawURL, xf2)
			if err == nil {
				err = checkThread(t, doc, nil)
			}
			if err != nil {
				return nil, "", err
			}
			return p.Posts, p.Prev, nil
		})
}

// pageThread is the id of the thread doc is a page of: the page's data-content-key
// ("thread-8276", XenForo 2's html element), its canonical link or og:url, its reply form.
func pageThread(doc *goquery.Document) string {
	id := forum.ThreadIDFrom(threadURLRe)
	return scrape.PageThread(doc, append([]scrape.ThreadSource{{Sel: `html[data-content-key^="thread-"]`, Attr: "data-content-key",
		ID: func(v string) (string, bool) { return strings.CutPrefix(v, "thread-") }}},
		append(scrape.Canonical(id), scrape.ThreadSource{Sel: `form[action*="/add-reply"]`, Attr: "action", ID: id})...)...)
}

// checkThread checks that a page read for t (doc; or the URL a redirect named) is t's.
func checkThread(t forum.Thread, doc *goquery.Document, loc *url.URL) error {
	found := ""
	if doc != nil {
		found = pageThread(doc)
	} else if m := threadURLRe.FindStringSubmatch(loc.Path); m != nil {
		found = m[1]
	}
	if err := forum.CheckThread(threadNumber(t.ID), found); err != nil {
		return fmt.Errorf("xenforo: %w", err)
	}
	return nil
}

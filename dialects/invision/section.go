package invision

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Section lists the topics on the first page of forum section (forum/<id>/ or forum/<id>-<slug>/:
// the forumTable and topicRow templates): one request. Invision sends a forum URL without its
// SEO title on to the full one (\IPS\Dispatcher\Front::checkUrl); the first call follows that
// redirect (two round trips) and later calls ask for the full URL at once. A head's ID is the
// topic's number, or the N-slug form a caller named the topic by (Posts, SectionOf).
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if !reTopic.MatchString(section) {
		return nil, fmt.Errorf("invision: forum id %q is neither N nor N-slug", section)
	}
	f.state.Lock()
	target, known := f.forumURL[section]
	f.state.Unlock()
	if !known {
		target = f.route("forum/"+section+"/", nil)
	}
	var heads []forum.ThreadHead
	err := f.retry(ctx, true, func() error {
		p, doc, err := f.board.Fetch(ctx, target, nil, "", true)
		if err != nil {
			return err
		}
		if in, known := signedIn(doc); known && !in {
			return fmt.Errorf("invision: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		if p.URL != nil && p.URL.String() != target && strings.Contains(p.URL.String(), "/forum/") {
			f.state.Lock()
			f.forumURL[section] = p.URL.String()
			f.state.Unlock()
		}
		f.noteUnread(doc)
		heads, err = readSection(doc)
		return err
	})
	f.state.Lock()
	for i, h := range heads {
		if name, ok := f.named[h.ID]; ok {
			heads[i].ID = name
		}
	}
	f.state.Unlock()
	return heads, err
}

// name remembers the id a caller names topic t by ("34923-csc-armbian-…"), so that a topic list,
// which knows topics by number, names t the same way (a head's ID is what the caller looks its
// thread up by).
func (f *Forum) name(t forum.Thread) {
	if m := reTopic.FindStringSubmatch(t.ID); m != nil && m[1] != t.ID {
		f.state.Lock()
		f.named[m[1]] = t.ID
		f.state.Unlock()
	}
}

// SectionOf names the forum of topic t as the breadcrumb of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.name(t)
	f.state.Lock()
	defer f.state.Unlock()
	if s, ok := f.sections[t.ID]; ok {
		return s
	}
	if m := reTopic.FindStringSubmatch(t.ID); m != nil {
		return f.sections[m[1]]
	}
	return ""
}

// setSection remembers the forum a topic page's breadcrumb names, under the topic's id as
// configured and its bare number (the id a topic list gives).
func (f *Forum) setSection(t forum.Thread, number, section string) {
	if section == "" {
		return
	}
	f.state.Lock()
	defer f.state.Unlock()
	f.sections[t.ID] = section
	f.sections[number] = section
}

// reCrumbForum reads a forum's number from a breadcrumb link (forum/<id>-<slug>/).
var reCrumbForum = regexp.MustCompile(`/forum/(\d+)(?:[-/?#&]|$)`)

// noteForumURL remembers the full URL of forum section as the topic page's breadcrumb links it
// (go-piratia.ru: forum/28-c/), so that Section asks for it at once, without the SEO redirect of
// forum/<id>/. A URL Section already followed a redirect to is kept.
func (f *Forum) noteForumURL(doc *goquery.Document, section string) {
	if section == "" {
		return
	}
	var href string
	doc.Find(sectionSel.Crumb).Each(func(_ int, a *goquery.Selection) {
		u, err := f.base.Parse(a.AttrOr("href", ""))
		if err != nil || u.Host != f.base.Host {
			return
		}
		if m := reCrumbForum.FindStringSubmatch(u.Path + "?" + u.RawQuery); m != nil && m[1] == section {
			href = u.String()
		}
	})
	if href == "" {
		return
	}
	f.state.Lock()
	defer f.state.Unlock()
	if _, ok := f.forumURL[section]; !ok {
		f.forumURL[section] = href
	}
}

var _ forum.SectionReader = (*Forum)(nil)

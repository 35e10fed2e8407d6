package mybb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
)

// UserExists asks the board whether a user name exists, the way its private-message form's
// name autocompletion does (xmlhttp.php?action=get_users&query=NAME: the users whose names
// start with the query). MyBB 1.8 answers a JSON list; MyBB 1.6 answers one
// <div><span class="username">NAME</span></div> per user, and nothing at all when none matches or
// when the query is shorter than 3 characters (then the board cannot tell: an error). The
// comparison ignores case, as MyBB's logins do.
func (f *Forum) UserExists(ctx context.Context, name string) (bool, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return false, nil
	}
	p, err := f.c.Get(ctx, f.abs("xmlhttp.php?action=get_users&query="+url.QueryEscape(name)))
	if err != nil {
		return false, fmt.Errorf("mybb: look up user %q: %w", name, err)
	}
	var names []string
	var users []struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	body := bytes.TrimSpace(p.Body)
	switch {
	case len(body) == 0 && utf8.RuneCountInString(name) < 3:
		return false, fmt.Errorf("mybb: look up user %q: the board looks up names of 3 characters or more", name)
	case len(body) == 0:
		return false, nil
	case json.Unmarshal(body, &users) == nil:
		for _, u := range users {
			names = append(names, u.Text, u.ID)
		}
	default:
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		spans := doc.Find("span.username")
		if err != nil || spans.Length() == 0 {
			return false, fmt.Errorf("mybb: look up user %q: the board answered no user list", name)
		}
		spans.Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
	}
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), name) {
			return true, nil
		}
	}
	return false, nil
}

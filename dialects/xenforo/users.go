package xenforo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// UserExists asks the board whether a member name exists, the way its recipient field's
// autocompletion does: members/find?q=NAME answered in JSON (XF\Pub\Controller\Member::actionFind
// with XF\Pub\View\Member\Find: {"results":[{"id":NAME,"text":NAME,…}],"q":…}, the first ten
// members whose names start with the query, valid members only). A JSON request carries the
// token even as a GET. The comparison ignores case, as XenForo's names do.
func (f *Forum) UserExists(ctx context.Context, name string) (bool, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return false, nil
	}
	var found bool
	err := f.retry(ctx, true, func() error {
		rt, err := f.listRoute(ctx)
		if err != nil {
			return err
		}
		if err := f.ensureToken(ctx, rt); err != nil {
			return err
		}
		q := url.Values{"q": {name}, "_xfResponseType": {"json"}, "_xfToken": {f.currentToken()}}
		p, err := f.board.Client.Get(ctx, f.route("members/find")+sep(f.friendly)+q.Encode())
		if p == nil {
			return err
		}
		var a struct {
			answer
			Results []struct {
				ID   string `json:"id"`
				Text string `json:"text"`
			} `json:"results"`
		}
		if jerr := json.Unmarshal(p.Body, &a); jerr != nil {
			if err != nil {
				return err
			}
			return fmt.Errorf("xenforo: look up member %q: the board answered no member list: %w", name, jerr)
		}
		if msgs := errorList(a.Errors); a.Status == "error" || len(msgs) > 0 {
			return f.classify(p.Status, msgs)
		}
		for _, u := range a.Results {
			if strings.EqualFold(strings.TrimSpace(u.ID), name) || strings.EqualFold(strings.TrimSpace(u.Text), name) {
				found = true
			}
		}
		return nil
	})
	return found, err
}

// sep is what joins a route and its query: "?" with friendly URLs, "&" after index.php?route.
func sep(friendly bool) string {
	if friendly {
		return "?"
	}
	return "&"
}

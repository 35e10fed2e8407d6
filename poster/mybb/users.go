package mybb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// UserExists asks the board whether a user name exists, the way its private-message form's
// name autocompletion does (xmlhttp.php?action=get_users, MyBB 1.8: a JSON list of the users
// whose names start with the query). The comparison ignores case, as MyBB's logins do.
func (f *Forum) UserExists(ctx context.Context, name string) (bool, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return false, nil
	}
	p, err := f.c.Get(ctx, f.abs("xmlhttp.php?action=get_users&query="+url.QueryEscape(name)))
	if err != nil {
		return false, fmt.Errorf("mybb: look up user %q: %w", name, err)
	}
	var users []struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(p.Body, &users); err != nil {
		return false, fmt.Errorf("mybb: look up user %q: the board answered no user list: %w", name, err)
	}
	for _, u := range users {
		if strings.EqualFold(strings.TrimSpace(u.Text), name) || strings.EqualFold(strings.TrimSpace(u.ID), name) {
			return true, nil
		}
	}
	return false, nil
}

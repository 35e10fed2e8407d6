package invision

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// UserExists asks the board whether a member name exists, the way its member fields'
// autocompletion does: index.php?app=core&module=system&controller=ajax&do=findMember&input=NAME
// answers a JSON list of the members whose names start with it (\IPS\core\modules\front\system\
// ajax::findMember: id, value = the name, name, extra, photo; at most twenty). The comparison
// ignores case, as Invision's name search does.
func (f *Forum) UserExists(ctx context.Context, name string) (bool, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return false, nil
	}
	u := *f.base
	u.Path += "index.php"
	u.RawQuery = url.Values{"app": {"core"}, "module": {"system"}, "controller": {"ajax"}, "do": {"findMember"}, "input": {name}}.Encode()
	p, err := f.board.Client.Get(ctx, u.String())
	if err != nil {
		return false, fmt.Errorf("invision: look up member %q: %w", name, err)
	}
	var members []struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(p.Body, &members); err != nil {
		return false, fmt.Errorf("invision: look up member %q: the board answered no member list: %w", name, err)
	}
	for _, m := range members {
		if strings.EqualFold(strings.TrimSpace(m.Value), name) {
			return true, nil
		}
	}
	return false, nil
}

package mybb

import (
	"errors"
	"testing"

	"forumgm/forum"
)

// A maintenance page (the board closed by its administrator, the host's "technical works" page)
// or a login page read where a thread was expected is its own kind, not a theme change: the
// daemon logs maintenance as the forum's weather and logs in again on a login page.
func TestMaintenanceAndLoginPagesAreTyped(t *testing.T) {
	for name, c := range map[string]struct {
		html string
		want error
	}{
		"board closed": {`<html><head><title>Форум</title></head><body><div id="container"><table class="tborder"><tr><td class="thead"><strong>Board Closed</strong></td></tr>
<tr><td class="trow1">The board is currently closed for maintenance. Please check back later.</td></tr></table></div></body></html>`, forum.ErrMaintenance},
		"host's page": {`<html><body><h1>Ведутся технические работы</h1><p>Форум временно недоступен, зайдите позже.</p></body></html>`, forum.ErrMaintenance},
		"login page": {`<html><body><form action="member.php" method="post"><input type="text" name="username"><input type="password" name="password">
<input type="hidden" name="action" value="do_login"></form></body></html>`, forum.ErrLoggedOut},
	} {
		doc, err := parse([]byte(c.html))
		if err != nil {
			t.Fatal(err)
		}
		_, err = extract(doc, testOptions())
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	// A page that truly changed is still a markup change, and nothing else.
	doc, _ := parse([]byte(`<html><body><div class="new-theme">Новая тема оформления</div></body></html>`))
	if _, err := extract(doc, testOptions()); !errors.Is(err, forum.ErrMarkupChanged) || errors.Is(err, forum.ErrMaintenance) || errors.Is(err, forum.ErrLoggedOut) {
		t.Errorf("a changed page: %v", err)
	}
}

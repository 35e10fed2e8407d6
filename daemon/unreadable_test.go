package daemon

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/forum"
	"forumgm/ops"
)

// A maintenance page is the forum's weather (a warning of its own kind), a login page a lost
// session, a page over the cap "too large" (a person must look), and none of them is a markup
// change ("theme changed?"), whose alert is for a person.
func TestUnreadablePagesHaveTheirOwnKinds(t *testing.T) {
	markup := fmt.Errorf("mybb: no thread on the page: %w", forum.ErrMarkupChanged)
	for _, c := range []struct {
		err          error
		kind         string
		personToLook bool
	}{
		{forum.Unrecognised("The board is currently closed for maintenance.", false, markup), "maintenance", false},
		{forum.Unrecognised("Вход на форум", true, markup), "logged_out", false},
		{fmt.Errorf("forum: GET x: over the 16 MiB cap: %w", forum.ErrTooLarge), "too_large", true},
		{forum.Unrecognised("Новая тема оформления", false, markup), "markup_changed", true},
	} {
		if k := kindOf(c.err); k != c.kind || personKinds[k] != c.personToLook {
			t.Errorf("%v: kind %q (a person's: %v), want %q (%v)", c.err, k, personKinds[k], c.kind, c.personToLook)
		}
	}
}

// A slow forum request is logged with its URL (without a session id) and how long it took.
func TestSlowRequestsAreLogged(t *testing.T) {
	var b strings.Builder
	slow := ops.SlowRequests(zerolog.New(&b))
	slow("GET", "http://forum.example/viewtopic.php?t=5&sid=0123456789abcdef", 30*time.Second, errors.New("context deadline exceeded"))
	got := b.String()
	for _, want := range []string{`"level":"warn"`, `"kind":"slow_request"`, `"took":"30s"`, "viewtopic.php", "t=5", "context deadline exceeded"} {
		if !strings.Contains(got, want) {
			t.Errorf("the line lacks %s: %s", want, got)
		}
	}
	if strings.Contains(got, "0123456789abcdef") {
		t.Errorf("the session id is logged: %s", got)
	}
}

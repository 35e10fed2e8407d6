package forum

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrMaintenance is a maintenance page where a page of the forum was expected: a board its
// administrator closed, the host's "technical works" page. It is the forum's weather (retried,
// logged as a warning, kind maintenance), not a theme change (ErrMarkupChanged).
var ErrMaintenance = errors.New("forum: the forum shows a maintenance page (closed for maintenance)")

// ErrTooLarge is a page over the client's size cap (maxPage): it is refused whole, never read cut
// short.
var ErrTooLarge = errors.New("forum: page too large")

// maintenanceRe finds the notices of a closed board or a host's maintenance page, in English and
// Russian.
var maintenanceRe = regexp.MustCompile(`(?i)maintenance|board (is )?(currently )?closed|forum (is )?(currently |temporarily )?closed|temporarily unavailable|` +
	`техническ(ие|их|ое|ого) (работ|обслуживани)|профилактическ|(форум|сайт) (временно |сейчас )?(закрыт|недоступен)|временно недоступ`)

// Maintenance reports whether a page's visible text is a maintenance notice.
func Maintenance(text string) bool { return maintenanceRe.MatchString(text) }

// Unrecognised classifies a page a dialect could not read as what it expected (err, wrapping
// ErrMarkupChanged): a page with a login form (login: it holds a password field) is a lost session
// (ErrLoggedOut: the daemon logs in again), a maintenance notice in its visible text is
// ErrMaintenance; anything else is err, a page that truly changed. The error still wraps err
// (the page is not what was expected), so a caller that asks which kind it is asks for
// ErrLoggedOut and ErrMaintenance before ErrMarkupChanged.
func Unrecognised(text string, login bool, err error) error {
	switch {
	case login:
		return fmt.Errorf("forum: a login page where a page of the forum was expected: %w (%w)", ErrLoggedOut, err)
	case Maintenance(text):
		return fmt.Errorf("forum: a maintenance page where a page of the forum was expected: %q: %w (%w)",
			clip(strings.Join(strings.Fields(text), " "), 200), ErrMaintenance, err)
	}
	return err
}

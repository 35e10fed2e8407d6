package templates

import (
	"fmt"
	"strings"
	"text/template"
	"time"
)

// LoadFootball parses the football quiz's templates (templates/football) with the functions they
// use, showing times in loc (the game's zone). Besides the standard functions (esc, join, plural,
// add) they have:
//
//   - hhmm t: the time t as "20:10" in loc;
//   - problem code data: renders "problem.<code>" with data (every refusal code has one);
//   - unread reason data: renders "unread.<reason>" with data (every parser reason has one);
//   - mod a b, sub a b: integer arithmetic for tables;
//   - teams list: team names joined with ", ".
//
// The data each template expects is described at its definition.
func LoadFootball(loc *time.Location) (*Set, error) {
	if loc == nil {
		return nil, fmt.Errorf("templates: load football: no time zone")
	}
	var set *Set
	render := func(prefix string) func(key any, data any) (string, error) {
		return func(key any, data any) (string, error) {
			if set == nil {
				return "", fmt.Errorf("templates: football: not loaded")
			}
			return set.Render(prefix+fmt.Sprint(key), data)
		}
	}
	s, err := Load("football", template.FuncMap{
		"hhmm":    func(t time.Time) string { return t.In(loc).Format("15:04") },
		"problem": render("problem."),
		"unread":  render("unread."),
		"mod":     func(a, b int) int { return a % b },
		"sub":     func(a, b int) int { return a - b },
		"teams":   func(ts []string) string { return strings.Join(ts, ", ") },
	})
	if err != nil {
		return nil, err
	}
	set = s
	return s, nil
}

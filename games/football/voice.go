package football

import (
	"fmt"
	"strings"
	"sync"
	"text/template"
	"time"

	"forumgm/games/football/voice"
	"forumgm/templates"
)

// The templates (games/football/voice) are parsed once per time zone: their times are shown in the
// game's zone.
var (
	voiceMu   sync.Mutex
	voiceSets = map[string]*templates.Set{}
)

// loadVoice is the game's templates with times shown in loc, followed by zone's name when it is
// set (the forum shows another zone).
func loadVoice(loc *time.Location, zone string) (*templates.Set, error) {
	if loc == nil {
		return nil, fmt.Errorf("football: templates: no time zone")
	}
	voiceMu.Lock()
	defer voiceMu.Unlock()
	key := loc.String() + "\x00" + zone
	if s, ok := voiceSets[key]; ok {
		return s, nil
	}
	s, err := LoadIn(loc, zone)
	if err != nil {
		return nil, err
	}
	voiceSets[key] = s
	return s, nil
}

// Load parses the football quiz's templates (games/football/voice) with the functions they use,
// showing times in loc (the game's zone). Besides the standard functions of package templates
// (esc, join, plural, add) they have:
//
//   - hhmm t: the time t as "20:10" in loc;
//   - problem code data: renders "problem.<code>" with data (every refusal code has one);
//   - unread reason data: renders "unread.<reason>" with data (every parser reason has one);
//   - mod a b, sub a b: integer arithmetic for tables;
//   - teams list: team names joined with ", ";
//   - minutes d: a duration in minutes, in Russian ("10 минут").
//
// The data each template expects is described at its definition.
func Load(loc *time.Location) (*templates.Set, error) { return LoadIn(loc, "") }

// LoadIn is Load with zone's name written after every time (hhmm: "20:10 (MSK)"); "" none.
func LoadIn(loc *time.Location, zone string) (*templates.Set, error) {
	if loc == nil {
		return nil, fmt.Errorf("football: load templates: no time zone")
	}
	var set *templates.Set
	render := func(prefix string) func(key any, data any) (string, error) {
		return func(key any, data any) (string, error) {
			if set == nil {
				return "", fmt.Errorf("football: templates not loaded")
			}
			return set.Render(prefix+fmt.Sprint(key), data)
		}
	}
	s, err := templates.Load(voice.Files, Name, template.FuncMap{
		"hhmm": func(t time.Time) string {
			if zone != "" {
				return t.In(loc).Format("15:04") + " (" + zone + ")"
			}
			return t.In(loc).Format("15:04")
		},
		"problem": render("problem."),
		"unread":  render("unread."),
		"mod":     func(a, b int) int { return a % b },
		"sub":     func(a, b int) int { return a - b },
		"teams":   func(ts []string) string { return strings.Join(ts, ", ") },
		"minutes": minutes,
	})
	if err != nil {
		return nil, err
	}
	set = s
	return s, nil
}

// minutes says a duration in whole minutes ("10 минут", "1 минуту", "2 минуты"); under a minute,
// in seconds.
func minutes(d time.Duration) string {
	if d < time.Minute {
		n := int(d / time.Second)
		return fmt.Sprintf("%d %s", n, templates.Plural(n, "секунду", "секунды", "секунд"))
	}
	n := int(d / time.Minute)
	return fmt.Sprintf("%d %s", n, templates.Plural(n, "минуту", "минуты", "минут"))
}

package rules

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
	"time"
)

// Question is one question of the daily-question bank.
type Question struct {
	Text    string   `yaml:"text" json:"text"`
	Answers []string `yaml:"answers" json:"answers"` // every accepted answer; compared normalised
}

// Settings are a game's rule settings. The zero value is not valid: start from DefaultSettings.
type Settings struct {
	// FirstSide opens the game: "crusaders" (default) or "saracens".
	FirstSide Side `yaml:"first_side" json:"first_side"`
	// BoardRequired: a move post without the quoted board is sloppy (default true).
	BoardRequired bool `yaml:"board_required" json:"board_required"`
	// DailyQuestion: the game asks a question daily at QuestionTime (default true). Without a
	// question bank no question is asked.
	DailyQuestion bool `yaml:"daily_question" json:"daily_question"`
	// Timezone names the game's time zone (default "Europe/Moscow"). The engine reads no time
	// zone database: the caller loads it and sets Location.
	Timezone string `yaml:"timezone" json:"timezone"`
	// Location is the loaded Timezone (required). DefaultSettings sets a fixed UTC+3 zone, which
	// is Moscow time since 2014; callers should set time.LoadLocation(Timezone).
	Location *time.Location `yaml:"-" json:"-"`
	// WorkingDays are the days the evening time limit applies: English weekday names
	// ("Monday", or the 3-letter "Mon"), case-insensitive. Default Monday..Friday.
	WorkingDays []string `yaml:"working_days" json:"working_days"`
	// SaracenFlag and CrusaderFlag are the flags' cells (default J1 and J20).
	SaracenFlag  Cell `yaml:"saracen_flag" json:"saracen_flag"`
	CrusaderFlag Cell `yaml:"crusader_flag" json:"crusader_flag"`
	// Wounds per cause.
	WoundsSloppy     int `yaml:"wounds_sloppy" json:"wounds_sloppy"`         // per sloppy post (1)
	WoundsTimeLimit  int `yaml:"wounds_time_limit" json:"wounds_time_limit"` // per started hour over the limit (2)
	WoundsIdleDay    int `yaml:"wounds_idle_day" json:"wounds_idle_day"`     // per player idle a whole day (2)
	WoundsAllocation int `yaml:"wounds_allocation" json:"wounds_allocation"` // unallocated at 00:00 (3)
	WoundsQuestion   int `yaml:"wounds_question" json:"wounds_question"`     // later or no answer (4)
	// EveningStart and EveningEnd bound the evening time-limit window, "HH:MM" ("24:00" is
	// midnight). Default 19:00..24:00.
	EveningStart string `yaml:"evening_start" json:"evening_start"`
	EveningEnd   string `yaml:"evening_end" json:"evening_end"`
	// MoveLimit is the time the side to move has in the evening window, a Go duration ("1h").
	MoveLimit string `yaml:"move_limit" json:"move_limit"`
	// QuestionTime is when the daily question is asked, "HH:MM" (default 21:10).
	QuestionTime string `yaml:"question_time" json:"question_time"`
	// ForestInvisible hides forest warriors from the public board; forest moves then come by
	// private message (default false, as in the trial game).
	ForestInvisible bool `yaml:"forest_invisible" json:"forest_invisible"`
	// BoardPicture: every reply with the board carries a picture of it too (default false; the
	// opening post always does), for forums whose code box shows only part of the 23-line board
	// (docs/operations.md, "Pictures and attachments"). It changes no rule.
	BoardPicture bool `yaml:"board_picture" json:"board_picture"`
	// DeploymentDeadline ends private deployment: a side that has not sent its deployment gets
	// the default one. Nil: wait for both.
	DeploymentDeadline *time.Time `yaml:"deployment_deadline,omitempty" json:"deployment_deadline,omitempty"`
	// Questions is the daily-question bank (loaded from its file by the caller).
	Questions []Question `yaml:"questions,omitempty" json:"questions,omitempty"`
}

// DefaultSettings are the seed's rules with the rulings' defaults.
func DefaultSettings() Settings {
	return Settings{
		FirstSide:        Crusaders,
		BoardRequired:    true,
		DailyQuestion:    true,
		Timezone:         "Europe/Moscow",
		Location:         time.FixedZone("MSK", 3*3600),
		WorkingDays:      []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"},
		SaracenFlag:      Cell{Row: 9, Col: 1},
		CrusaderFlag:     Cell{Row: 9, Col: 20},
		WoundsSloppy:     1,
		WoundsTimeLimit:  2,
		WoundsIdleDay:    2,
		WoundsAllocation: 3,
		WoundsQuestion:   4,
		EveningStart:     "19:00",
		EveningEnd:       "24:00",
		MoveLimit:        "1h",
		QuestionTime:     "21:10",
	}
}

// clockSettings are the parsed time settings.
type clockSettings struct {
	loc          *time.Location
	working      [7]bool
	eveningStart time.Duration // since midnight
	eveningEnd   time.Duration
	moveLimit    time.Duration
	question     time.Duration
}

var weekdayNames = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

func parseClockTime(s string, allow24 bool) (time.Duration, error) {
	var h, m int
	if _, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil || len(s) < 4 {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	if m < 0 || m > 59 || h < 0 || h > 24 || (h == 24 && (m != 0 || !allow24)) {
		return 0, fmt.Errorf("%q is not a time of day", s)
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil
}

// Validate checks the settings and reports every problem found.
func (s Settings) Validate() error {
	_, err := s.clock()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if s.FirstSide != Crusaders && s.FirstSide != Saracens {
		errs = append(errs, fmt.Errorf("first_side %q: want crusaders or saracens", s.FirstSide))
	}
	if !s.SaracenFlag.Valid() || !s.CrusaderFlag.Valid() {
		errs = append(errs, errors.New("flag cells must be on the board"))
	} else if s.SaracenFlag == s.CrusaderFlag {
		errs = append(errs, errors.New("the two flags are on one cell"))
	}
	for name, v := range map[string]int{"wounds_sloppy": s.WoundsSloppy, "wounds_time_limit": s.WoundsTimeLimit,
		"wounds_idle_day": s.WoundsIdleDay, "wounds_allocation": s.WoundsAllocation, "wounds_question": s.WoundsQuestion} {
		if v < 0 {
			errs = append(errs, fmt.Errorf("%s is %d: must not be negative", name, v))
		}
	}
	for i, q := range s.Questions {
		if strings.TrimSpace(q.Text) == "" || len(q.Answers) == 0 {
			errs = append(errs, fmt.Errorf("question %d: needs a text and at least one answer", i+1))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return fmt.Errorf("crusade: settings: %w", errors.Join(errs...))
}

func (s Settings) clock() (clockSettings, error) {
	var c clockSettings
	var errs []error
	if s.Location == nil {
		errs = append(errs, fmt.Errorf("location not set (timezone %q): load it and set Settings.Location", s.Timezone))
	}
	c.loc = s.Location
	for _, d := range s.WorkingDays {
		wd, ok := weekdayNames[strings.ToLower(strings.TrimSpace(d))]
		if !ok {
			errs = append(errs, fmt.Errorf("working_days: %q is not an English weekday name", d))
			continue
		}
		c.working[wd] = true
	}
	var err error
	if c.eveningStart, err = parseClockTime(s.EveningStart, false); err != nil {
		errs = append(errs, fmt.Errorf("evening_start: %w", err))
	}
	if c.eveningEnd, err = parseClockTime(s.EveningEnd, true); err != nil {
		errs = append(errs, fmt.Errorf("evening_end: %w", err))
	} else if c.eveningEnd <= c.eveningStart {
		errs = append(errs, fmt.Errorf("evening_end %s is not after evening_start %s", s.EveningEnd, s.EveningStart))
	}
	if c.question, err = parseClockTime(s.QuestionTime, false); err != nil {
		errs = append(errs, fmt.Errorf("question_time: %w", err))
	}
	if c.moveLimit, err = time.ParseDuration(s.MoveLimit); err != nil || c.moveLimit <= 0 {
		errs = append(errs, fmt.Errorf("move_limit %q: want a positive Go duration such as 1h", s.MoveLimit))
	}
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	return c, nil
}

// Player is one forum user in the roster.
type Player struct {
	Name string `yaml:"name" json:"name"`
	Side Side   `yaml:"side" json:"side"`
	// Warriors the player controls; empty: every warrior of the side.
	Warriors []WarriorID `yaml:"warriors,omitempty" json:"warriors,omitempty"`
}

// Roster lists the players.
type Roster struct {
	Players []Player `yaml:"players" json:"players"`
}

func normName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Validate checks the roster: known sides, unique names (case-insensitively), each listed warrior
// of the player's side and listed by one player only, and at least one player per side.
func (r Roster) Validate() error {
	var errs []error
	names := map[string]bool{}
	owner := map[WarriorID]string{}
	sides := map[Side]bool{}
	for i, p := range r.Players {
		n := normName(p.Name)
		if n == "" {
			errs = append(errs, fmt.Errorf("player %d has no name", i+1))
		}
		if names[n] {
			errs = append(errs, fmt.Errorf("player %q is listed twice", p.Name))
		}
		names[n] = true
		if p.Side != Crusaders && p.Side != Saracens {
			errs = append(errs, fmt.Errorf("player %q: side %q: want crusaders or saracens", p.Name, p.Side))
			continue
		}
		sides[p.Side] = true
		for _, w := range p.Warriors {
			if !w.Valid() {
				errs = append(errs, fmt.Errorf("player %q: %q is not a warrior", p.Name, w))
				continue
			}
			if w.Side() != p.Side {
				errs = append(errs, fmt.Errorf("player %q: %s is a warrior of the other side", p.Name, w))
			}
			if o, ok := owner[w]; ok {
				errs = append(errs, fmt.Errorf("%s is given to both %q and %q", w, o, p.Name))
			}
			owner[w] = p.Name
		}
	}
	for _, s := range []Side{Crusaders, Saracens} {
		if !sides[s] {
			errs = append(errs, fmt.Errorf("no player plays the %s", s))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("crusade: roster: %w", errors.Join(errs...))
	}
	return nil
}

// player finds a player by forum name (case-insensitive).
func (r Roster) player(name string) (Player, bool) {
	for _, p := range r.Players {
		if p.Name == name {
			return p, true // as written in the roster (names are unique, case folded: Validate)
		}
	}
	n := normName(name)
	for _, p := range r.Players {
		if normName(p.Name) == n {
			return p, true
		}
	}
	return Player{}, false
}

// Controls reports whether the player controls w, and if not, who does (if anyone listed).
func (r Roster) controls(p Player, w WarriorID) (bool, string) {
	if w.Side() != p.Side {
		return false, ""
	}
	if len(p.Warriors) == 0 {
		return true, ""
	}
	for _, x := range p.Warriors {
		if x == w {
			return true, ""
		}
	}
	for _, o := range r.Players {
		for _, x := range o.Warriors {
			if x == w {
				return false, o.Name
			}
		}
	}
	return false, ""
}

// SetupMode is how the armies are placed at the start.
type SetupMode string

const (
	// SetupDefault places both armies as on the seed's example board.
	SetupDefault SetupMode = "default"
	// SetupCustom places the warriors listed in Setup.Cells anywhere; warriors left out are not
	// in play (they do not count as killed).
	SetupCustom SetupMode = "custom"
	// SetupPrivate waits for each side's Deployment by private message.
	SetupPrivate SetupMode = "private"
)

// Setup is the starting position.
type Setup struct {
	Mode  SetupMode          `yaml:"mode" json:"mode"`
	Cells map[WarriorID]Cell `yaml:"cells,omitempty" json:"cells,omitempty"` // SetupCustom
	// At is when the game starts (the board is published) for SetupDefault and SetupCustom;
	// the time limit and the idle-day rule count from it. Zero: from the first daily close.
	At time.Time `yaml:"at,omitempty" json:"at,omitempty"`
}

// DefaultDeployment is the seed's example board (with its second ш2 read as ш3).
func DefaultDeployment() map[WarriorID]Cell { return maps.Clone(defaultDeployment()) }

// defaultDeployment is DefaultDeployment built once; it is shared: nothing may change it.
var defaultDeployment = sync.OnceValue(buildDefaultDeployment)

func buildDefaultDeployment() map[WarriorID]Cell {
	m := make(map[WarriorID]Cell, warriorCount)
	put := func(w string, row byte, col int) {
		m[WarriorID(w)] = Cell{Row: strings.IndexByte(Rows, row), Col: col}
	}
	put("р1", 'P', 18)
	put("р2", 'R', 18)
	put("р3", 'S', 18)
	put("а1", 'C', 17)
	put("а2", 'D', 17)
	put("л1", 'F', 17)
	put("л2", 'G', 17)
	put("л3", 'H', 17)
	put("с1", 'I', 19)
	put("с2", 'J', 19)
	for i, r := range "KLMNO" {
		put(fmt.Sprintf("к%d", i+1), byte(r), 17)
	}
	put("ш1", 'I', 2)
	put("ш2", 'J', 2)
	put("ш3", 'K', 2)
	for i, r := range "EFGHIJKL" {
		put(fmt.Sprintf("в%d", i+1), byte(r), 4)
	}
	put("н1", 'O', 1)
	put("н2", 'O', 2)
	put("н3", 'P', 1)
	put("н4", 'P', 2)
	return m
}

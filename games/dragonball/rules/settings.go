package rules

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Settings are a game's rule settings, by the contract's names. Probabilities are whole
// percents. Start from DefaultSettings; DecodeSettings overlays YAML on the defaults.
type Settings struct {
	CatchSame            int `yaml:"catch_same" json:"catch_same"`
	CatchHeight          int `yaml:"catch_height" json:"catch_height"`
	CatchNear            int `yaml:"catch_near" json:"catch_near"`
	Catch2Same           int `yaml:"catch2_same" json:"catch2_same"`
	Catch2Height         int `yaml:"catch2_height" json:"catch2_height"`
	Catch2Near           int `yaml:"catch2_near" json:"catch2_near"`
	Steal1Same           int `yaml:"steal1_same" json:"steal1_same"`
	Steal1SameHolding    int `yaml:"steal1_same_holding" json:"steal1_same_holding"`
	Steal1Near           int `yaml:"steal1_near" json:"steal1_near"`
	Steal1NearHolding    int `yaml:"steal1_near_holding" json:"steal1_near_holding"`
	Steal2Same           int `yaml:"steal2_same" json:"steal2_same"`
	Steal2SameHolding    int `yaml:"steal2_same_holding" json:"steal2_same_holding"`
	Steal2Near           int `yaml:"steal2_near" json:"steal2_near"`
	Steal2NearHolding    int `yaml:"steal2_near_holding" json:"steal2_near_holding"`
	CollisionSecondFalls int `yaml:"collision_second_falls" json:"collision_second_falls"`
	DragonBodyHits       int `yaml:"dragon_body_hits" json:"dragon_body_hits"`
	HeadOpenHeight       int `yaml:"head_open_height" json:"head_open_height"`
	HeadClosedHeight     int `yaml:"head_closed_height" json:"head_closed_height"`
	HeadOpenNear         int `yaml:"head_open_near" json:"head_open_near"`
	MouthOpen            int `yaml:"mouth_open" json:"mouth_open"`
	BallSwallowHeight    int `yaml:"ball_swallow_height" json:"ball_swallow_height"`
	BallSwallowNear      int `yaml:"ball_swallow_near" json:"ball_swallow_near"`
	YellowToggle         int `yaml:"yellow_toggle" json:"yellow_toggle"`
	RandomFire           int `yaml:"random_fire" json:"random_fire"`

	// TeamSize is the most players a team may have (7).
	TeamSize int `yaml:"team_size" json:"team_size"`
	// Rounds is the most rounds a game lasts (10).
	Rounds int `yaml:"rounds" json:"rounds"`
	// Deadline is the time of day, "HH:MM" in the game's zone, at which a round resolves ("23:00"),
	// or a round's length, "every 6h" / "every 45m": rounds then resolve every that long from
	// midnight in the game's zone (the day's last round ends at midnight).
	Deadline string `yaml:"deadline" json:"deadline"`
	// Timezone names the game's zone (Europe/Moscow). The engine reads no zone database: the
	// caller loads it into Location; DefaultSettings sets a fixed UTC+3.
	Timezone string         `yaml:"timezone" json:"timezone"`
	Location *time.Location `yaml:"-" json:"-"`
	// OrdersPublic lets orders be posted in the thread (false: private messages only).
	OrdersPublic bool `yaml:"orders_public" json:"orders_public"`
	// EnchantedPasses, Volleys, Flames are per-game allowances (5 a team; 3 and 7 a dragon).
	EnchantedPasses int `yaml:"enchanted_passes" json:"enchanted_passes"`
	Volleys         int `yaml:"volleys" json:"volleys"`
	Flames          int `yaml:"flames" json:"flames"`
	// Seed is the seed the game's draws come from (the referee's business; default 1).
	Seed string `yaml:"seed" json:"seed"`
}

// DefaultSettings are the seed's numbers with the rulings' and the contract's defaults.
func DefaultSettings() Settings {
	return Settings{
		CatchSame: 100, CatchHeight: 75, CatchNear: 50,
		Catch2Same: 90, Catch2Height: 65, Catch2Near: 40,
		Steal1Same: 30, Steal1SameHolding: 22, Steal1Near: 15, Steal1NearHolding: 10,
		Steal2Same: 40, Steal2SameHolding: 30, Steal2Near: 25, Steal2NearHolding: 15,
		CollisionSecondFalls: 50, DragonBodyHits: 50,
		HeadOpenHeight: 75, HeadClosedHeight: 50, HeadOpenNear: 50, MouthOpen: 50,
		BallSwallowHeight: 75, BallSwallowNear: 50, YellowToggle: 50, RandomFire: 50,
		TeamSize: 7, Rounds: 10, Deadline: "23:00", Timezone: "Europe/Moscow",
		Location:        time.FixedZone("MSK", 3*3600),
		EnchantedPasses: 5, Volleys: 3, Flames: 7, Seed: "1",
	}
}

// DecodeSettings reads settings given in YAML (a transcript's `settings`) over the defaults; an
// unknown name is an error. The caller sets Location from Timezone.
func DecodeSettings(b []byte) (Settings, error) {
	s := DefaultSettings()
	if len(bytes.TrimSpace(b)) == 0 {
		return s, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	loc := s.Location
	if err := dec.Decode(&s); err != nil {
		return Settings{}, errf("settings: %v", err)
	}
	s.Location = loc
	return s, s.Validate()
}

// percents lists the probability settings by name, for Validate and the rules document.
func (s *Settings) percents() map[string]*int {
	out := map[string]*int{}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if f.Type.Kind() == reflect.Int && i < 24 {
			out[name] = v.Field(i).Addr().Interface().(*int)
		}
	}
	return out
}

// Validate checks the settings' ranges.
func (s Settings) Validate() error {
	ps := s.percents()
	names := make([]string, 0, len(ps))
	for name := range ps {
		names = append(names, name)
	}
	sort.Strings(names) // the same error for the same settings
	for _, name := range names {
		if p := ps[name]; *p < 0 || *p > 100 {
			return errf("setting %s: %d is not a percent", name, *p)
		}
	}
	if s.TeamSize < 1 || s.TeamSize > 21 {
		return errf("setting team_size: %d (1..21)", s.TeamSize)
	}
	if s.Rounds < 1 {
		return errf("setting rounds: %d", s.Rounds)
	}
	if every, err := ParseEvery(s.Deadline); err != nil {
		return errf("setting deadline: %v", err)
	} else if every == 0 {
		if _, err := parseClock(s.Deadline); err != nil {
			return errf("setting deadline: %v", err)
		}
	}
	if s.EnchantedPasses < 0 || s.Volleys < 0 || s.Flames < 0 {
		return errf("settings: negative allowance")
	}
	if s.Location == nil {
		return errf("settings: no location for %q", s.Timezone)
	}
	return nil
}

// parseClock reads "HH:MM" as the time since midnight.
func parseClock(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// ParseEvery reads a round length written "every 6h" or "every 45m" (from 10 minutes to a day);
// 0 with no error for anything else (a time of day).
func ParseEvery(s string) (time.Duration, error) {
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(s)), "every")
	if !ok {
		return 0, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(rest))
	if err != nil || d < 10*time.Minute || d > 24*time.Hour {
		return 0, fmt.Errorf("%q: want a round length from 10m to 24h, such as every 6h or every 45m", s)
	}
	return d, nil
}

// Every is the round length when rounds resolve every so long (0: once a day at Deadline).
func (s Settings) Every() time.Duration {
	d, _ := ParseEvery(s.Deadline)
	return d
}

// EveryWords is the round length in Russian ("6 ч", "45 мин", "1 ч 30 мин").
func (s Settings) EveryWords() string {
	d := s.Every()
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%d ч %d мин", h, m)
	case h > 0:
		return fmt.Sprintf("%d ч", h)
	}
	return fmt.Sprintf("%d мин", m)
}

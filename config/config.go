// Package config owns forumgm's configuration file (config.yaml): its schema, loading, defaults
// and validation with messages that name the offending field. Secrets never live in the file:
// the bot's password comes from an environment variable whose NAME the file gives.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
)

// Config is the whole config.yaml.
type Config struct {
	Forum      Forum    `yaml:"forum"`
	Bot        Bot      `yaml:"bot"`
	Moderators []string `yaml:"moderators"`
	Game       Game     `yaml:"game"`
	// Forums and Games run several games in one daemon: each forum (by a name games refer to)
	// with its own bot account, each game with its forum, thread and moderators. A config uses
	// either these two or forum/bot/game (one game); Games() gives every game its own
	// single-game view either way.
	Forums map[string]ForumEntry `yaml:"forums"`
	Games  []Game                `yaml:"games"`
	Poll   Poll                  `yaml:"poll"`
	Store  Store                 `yaml:"store"`
	Ops    Ops                   `yaml:"ops"`
	Review Review                `yaml:"review"`
	// Attachments is where forumgm serves the pictures a forum cannot take as attachments.
	Attachments Attachments `yaml:"attachments"`
	// Public is the players' read-only game pages the daemon serves (package public).
	Public Public `yaml:"public"`

	// path is the file the config was loaded from (relative paths resolve against its folder).
	path string
	// games are the games game.kind names one of (given to Validate; GameSetup decodes through them).
	games *game.Registry
	// ofGames: this is one game's view of a several-game config (GameConfigs); index is the
	// game's place in games: (its fields are games[index].*).
	ofGames bool
	index   int
}

// Forum is where the game is played.
type Forum struct {
	URL      string `yaml:"url"`      // the board's base URL, e.g. https://forum.example.org/
	Dialect  string `yaml:"dialect"`  // the forum engine: mybb, smf, punbb, ...
	Thread   string `yaml:"thread"`   // the game thread's id in the dialect's terms (MyBB: tid)
	Timezone string `yaml:"timezone"` // the zone the forum shows times in (default: the game's)
	// MaxClockSkew is how far the forum's post stamps may be from this host's clock before it is
	// an error (logged, counted, on /healthz); 0: 5m (forum.DefaultMaxSkew).
	MaxClockSkew Duration `yaml:"max_clock_skew,omitempty"`
	// UserAgent overrides the default descriptive User-Agent.
	UserAgent string `yaml:"user_agent"`
	// Extra holds dialect-specific settings (the generic dialect's selectors).
	Extra map[string]string `yaml:"extra"`
}

// ForumEntry is one forum of a several-game config: where it is and the bot's account there.
// Every game on it shares one login session and one request rate.
type ForumEntry struct {
	Forum `yaml:",inline"`
	Bot   Bot `yaml:"bot"`
}

// Bot is the forum account forumgm posts as.
type Bot struct {
	Username string `yaml:"username"`
	// PasswordEnv names the environment variable holding the password (never the password).
	PasswordEnv string `yaml:"password_env"`
	// Shared: other games run from this account too (one bot for a community). Its inbox is
	// then shared: a private message from someone who neither plays this game nor moderates it
	// is left to the other games instead of being answered as one this game cannot use.
	Shared bool `yaml:"shared"`
}

// Game is the game played in the thread: the keys every game shares, and the game's own (its
// settings by the game's names, roster, deployment, question bank, ...), decoded by the game.
type Game struct {
	// ID keys the game in the store (letters, digits, '-', '_'); default "<kind>-<thread>".
	ID   string `yaml:"id"`
	Kind string `yaml:"kind"` // the game: one of the known games' names (games.All)
	// Timezone is the game's clock (daily close, evening window, deadlines); IANA name.
	Timezone string `yaml:"timezone"`
	// Calendar: the working days (the game's and the poll's busy windows).
	Calendar Calendar `yaml:"calendar"`
	// Start is when the game starts (the opening post). Empty: when the daemon first runs it.
	Start string `yaml:"start"`
	// DisputeKeyword: a player's post containing it as a word goes to the moderator queue.
	DisputeKeyword string `yaml:"dispute_keyword"`
	// Section is the forum section (sub-forum) holding the thread, in the dialect's terms (MyBB:
	// the fid of forumdisplay.php?fid=N). Games in one section share one look at its thread list
	// per poll. Empty: learnt from the thread's pages where the dialect can.
	Section string `yaml:"section"`
	// Reminders is how long before each deadline the players who owe something are reminded by
	// private message ("2h", the default; "off": never). See ReminderLead.
	Reminders string `yaml:"reminders"`

	// Only in a several-game config's games list:
	Forum      string   `yaml:"forum"`      // the name of the forum (a key of forums)
	Thread     string   `yaml:"thread"`     // the game thread's id on that forum
	Moderators []string `yaml:"moderators"` // this game's moderators (default: the top-level list)
	// Spec holds the game's own keys.
	Spec yaml.Node `yaml:"-" json:"-"`
}

// gameCommon are the keys of Game decoded by config itself.
var gameCommon = map[string]bool{"id": true, "kind": true, "timezone": true, "calendar": true, "start": true,
	"dispute_keyword": true, "section": true, "forum": true, "thread": true, "moderators": true, "reminders": true}

// UnmarshalYAML decodes the common keys and keeps the rest for the game.
func (g *Game) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: game: want a mapping", n.Line)
	}
	common := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	g.Spec = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if gameCommon[n.Content[i].Value] {
			common.Content = append(common.Content, n.Content[i], n.Content[i+1])
		} else {
			g.Spec.Content = append(g.Spec.Content, n.Content[i], n.Content[i+1])
		}
	}
	type plain Game
	var p plain
	if len(common.Content) > 0 {
		if err := game.DecodeStrict(common, &p); err != nil {
			return err
		}
	}
	p.Spec = g.Spec
	*g = Game(p)
	return nil
}

// specKey is the value of one of the game's own keys (nil when absent).
func (g *Game) specKey(key string) *yaml.Node {
	for i := 0; i+1 < len(g.Spec.Content); i += 2 {
		if g.Spec.Content[i].Value == key {
			return g.Spec.Content[i+1]
		}
	}
	return nil
}

// Calendar is the working-day calendar.
type Calendar struct {
	// WorkingDays are English weekday names ("Monday" or "Mon"); default Monday..Friday.
	WorkingDays []string `yaml:"working_days"`
}

// Poll tunes how often the thread and the inbox are read.
type Poll struct {
	Floor   Duration `yaml:"floor"`   // fastest interval (while a side is expected to move)
	Ceiling Duration `yaml:"ceiling"` // slowest interval (at night, or long idle)
	// EveningStart..EveningEnd ("HH:MM", game time) is the busy window: poll at the floor.
	EveningStart string `yaml:"evening_start"`
	EveningEnd   string `yaml:"evening_end"`
	// NightStart..NightEnd ("HH:MM", may wrap midnight) is the quiet window: poll at the ceiling.
	NightStart string `yaml:"night_start"`
	NightEnd   string `yaml:"night_end"`
	// BackgroundShare is the part of each forum host's request rate that background reads
	// (rescans for edits, the first read of new games) may use at most, 0 < x <= 1; 0: 0.1.
	BackgroundShare float64 `yaml:"background_share"`
}

// Store is where forumgm keeps its state.
type Store struct {
	Path string `yaml:"path"` // the SQLite file (the default store)
	// URL, if set, is a PostgreSQL database (postgres://user@host:port/db?sslmode=…) used instead
	// of the file: several daemons may share it (games leased, see docs/operations.md). Its
	// password never goes here: PGPASSWORD or ~/.pgpass (the libpq conventions pgx reads).
	URL string `yaml:"url"`
	// LeaseTTL is how long a daemon's hold on a game lasts unrenewed when several daemons share
	// store.url (renewed every third of it): a dead daemon's games resume on another after at
	// most this plus a third plus a poll. Default 15s.
	LeaseTTL Duration `yaml:"lease_ttl"`
}

// Ops is logging and monitoring.
type Ops struct {
	// Listen is the /healthz and /metrics address; loopback only. Empty: not served.
	Listen    string `yaml:"listen"`
	LogFormat string `yaml:"log_format"` // json | console
	LogLevel  string `yaml:"log_level"`  // debug | info | warn | error
}

// Review is the moderator web UI (forumgm review serve).
type Review struct {
	// Listen is the web UI's default address (loopback only); --listen overrides it. Empty:
	// 127.0.0.1:0 (a free port, printed at start).
	Listen string `yaml:"listen"`
	// Accounts may log in to the web UI; the name goes into the event log with every action.
	Accounts []ReviewAccount `yaml:"accounts"`
	// PublicURL is where moderators reach the web UI from elsewhere: a reverse proxy with TLS in
	// front of the loopback listener (docs/operations.md). Moderators' notices link to it. Empty:
	// the UI is reached through an SSH tunnel only, and notices name the CLI.
	PublicURL string `yaml:"public_url"` // https://host[:port]/, the UI at the host's root
	// TrustedProxyHeader is the header that reverse proxy puts the real client's address in:
	// X-Real-IP, or X-Forwarded-For (its last entry, the one the proxy appended). Failed logins
	// are then counted per real client, not for the proxy's 127.0.0.1 as a whole, and the
	// proxy's X-Forwarded-Proto is believed. Both only from a loopback peer. Empty: none.
	TrustedProxyHeader string `yaml:"trusted_proxy_header"`
}

// Attachments is the folder of pictures forumgm serves itself, for a forum whose dialect takes no
// attachments (or that refuses one): each picture is written there once, named by its content
// hash, and linked in the post with [img] at PublicURL + name. A web server (or forumgm itself on
// Listen, behind a reverse proxy) serves the folder at PublicURL. Without PublicURL such pictures
// are left out and the text stands.
type Attachments struct {
	Dir       string `yaml:"dir"`        // the folder; relative paths resolve against this file's folder
	PublicURL string `yaml:"public_url"` // e.g. https://forumgm.example.org/pictures/
	// Listen, if set, has forumgm serve the folder itself on this loopback address (put a reverse
	// proxy in front of it for PublicURL).
	Listen string `yaml:"listen"`
}

// Public is the players' read-only game pages: the daemon serves them on Addr (loopback; a
// reverse proxy with TLS in front of it serves them at PublicURL), and the opening post, each
// round report and the final post link a game's page when PublicURL is set.
type Public struct {
	Addr      string `yaml:"addr"`       // e.g. 127.0.0.1:8092; empty: no pages
	PublicURL string `yaml:"public_url"` // e.g. https://forumgm.example.org/games/
	// TrustedProxyHeader is the header that proxy puts the real client's address in (X-Real-IP
	// or X-Forwarded-For), for the per-client rate limit; believed only from a loopback peer.
	TrustedProxyHeader string `yaml:"trusted_proxy_header"`
}

// ReviewAccount is one moderator's web login.
type ReviewAccount struct {
	Name string `yaml:"name"`
	// PasswordEnv names the environment variable holding the password (never the password).
	PasswordEnv string `yaml:"password_env"`
}

// Password reads the account's password from the environment variable it names.
func (a ReviewAccount) Password() (string, error) {
	v, ok := os.LookupEnv(a.PasswordEnv)
	if !ok || v == "" {
		return "", fmt.Errorf("config: review.accounts (%s): %s", a.Name, unsetEnv("password_env", a.PasswordEnv))
	}
	return v, nil
}

// Duration is a time.Duration written as a Go duration string in YAML ("30s", "10m").
type Duration time.Duration

// UnmarshalYAML reads "30s".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: want a duration such as 30s: %w", n.Line, err)
	}
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (write 30s, 5m, 1h)", n.Line, s)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes "30s".
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// D is the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Load reads, defaults and validates a config file of games in reg.
func Load(path string, reg *game.Registry) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	c.path = path
	if err := c.Validate(reg); err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	return c, nil
}

// Parse reads a config from YAML (unknown fields are errors) and fills the defaults. It does not
// validate: call Validate.
func Parse(b []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		var doc yaml.Node
		if yaml.Unmarshal(b, &doc) == nil {
			err = game.Explain(&doc, err, reflect.TypeOf(Config{}))
		}
		return nil, fmt.Errorf("parse: %w", err)
	}
	c.Defaults()
	return &c, nil
}

// Defaults fills the fields left empty (a several-game config: the shared ones; each game's view
// fills its own).
func (c *Config) Defaults() {
	if !c.Multi() {
		c.gameDefaults()
	}
	if c.Poll.Floor == 0 {
		c.Poll.Floor = Duration(5 * time.Second)
	}
	if c.Poll.Ceiling == 0 {
		c.Poll.Ceiling = Duration(10 * time.Minute)
	}
	if c.Poll.EveningStart == "" {
		c.Poll.EveningStart = "19:00"
	}
	if c.Poll.EveningEnd == "" {
		c.Poll.EveningEnd = "24:00"
	}
	if c.Poll.NightStart == "" {
		c.Poll.NightStart = "01:00"
	}
	if c.Poll.NightEnd == "" {
		c.Poll.NightEnd = "08:00"
	}
	if c.Store.Path == "" {
		c.Store.Path = "forumgm.db"
	}
	if c.Ops.LogFormat == "" {
		c.Ops.LogFormat = "json"
	}
	if c.Ops.LogLevel == "" {
		c.Ops.LogLevel = "info"
	}
}

// gameDefaults fills a single-game config's forum and game fields left empty.
func (c *Config) gameDefaults() {
	if c.Forum.Dialect == "" {
		c.Forum.Dialect = "mybb"
	}
	if c.Game.Timezone == "" {
		c.Game.Timezone = "Europe/Moscow"
	}
	if c.Forum.Timezone == "" {
		c.Forum.Timezone = c.Game.Timezone
	}
	if c.Game.ID == "" {
		c.Game.ID = c.Game.Kind + "-" + c.Forum.Thread
	}
	if len(c.Game.Calendar.WorkingDays) == 0 {
		c.Game.Calendar.WorkingDays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	}
}

// Multi reports whether the config lists its games under games: (forums under forums:).
func (c *Config) Multi() bool { return len(c.Games) > 0 || len(c.Forums) > 0 }

// GameConfigs gives every game of the config its single-game view: forum (with the game's
// thread), bot, moderators and game filled in, the shared sections (poll, store, ops, review,
// attachments) as they are. A single-game config is its own view. A bot account that several
// games use is marked shared (its inbox serves them all). Views of a config that did not
// validate may be incomplete.
func (c *Config) GameConfigs() []*Config {
	if !c.Multi() {
		return []*Config{c}
	}
	uses := c.forumUses()
	views := make([]*Config, 0, len(c.Games))
	for i, g := range c.Games {
		views = append(views, c.view(i, g, uses[g.Forum] > 1))
	}
	return views
}

// forumUses counts the games on each forum (a bot account of several games has a shared inbox).
func (c *Config) forumUses() map[string]int {
	uses := map[string]int{}
	for _, g := range c.Games {
		uses[g.Forum]++
	}
	return uses
}

func (c *Config) view(i int, g Game, shared bool) *Config {
	v := *c
	v.Forums, v.Games = nil, nil
	fe := c.Forums[g.Forum]
	v.Forum = fe.Forum
	v.Forum.Thread = g.Thread
	v.Forum.Extra = fe.Extra
	v.Bot = fe.Bot
	v.Bot.Shared = fe.Bot.Shared || shared
	if len(g.Moderators) > 0 {
		v.Moderators = g.Moderators
	}
	v.Game = g
	v.Game.Thread, v.Game.Moderators = "", nil // moved to forum.thread and moderators
	v.ofGames, v.index = true, i
	v.gameDefaults()
	return &v
}

// Field names a field (or a problem starting with one) of a single-game config — forum.dialect,
// bot.password_env, game.teams, moderators[0] — as the file spells it for this game: in one game's
// view of a several-game config forums.NAME.dialect, forums.NAME.bot.password_env,
// games[1].teams, games[1].moderators[0] (the shared sections keep their names); a single-game
// config's names are its own.
func (c *Config) Field(f string) string {
	if !c.ofGames {
		return f
	}
	game := fmt.Sprintf("games[%d]", c.index)
	switch {
	case strings.HasPrefix(f, "forum.thread"):
		return game + ".thread" + strings.TrimPrefix(f, "forum.thread")
	case strings.HasPrefix(f, "forum."):
		return "forums." + c.Game.Forum + "." + strings.TrimPrefix(f, "forum.")
	case strings.HasPrefix(f, "bot."):
		return "forums." + c.Game.Forum + "." + f
	case strings.HasPrefix(f, "game."):
		return game + "." + strings.TrimPrefix(f, "game.")
	case f == "game" || strings.HasPrefix(f, "game:"):
		return game + strings.TrimPrefix(f, "game")
	case strings.HasPrefix(f, "moderators"):
		return game + "." + f
	}
	return f // the shared sections: poll, store, ops, review, attachments
}

// Where names the game for a message: "game crusade-1", and in a several-game config its place
// too, "game football-1 (games[1])".
func (c *Config) Where() string {
	if c.ofGames {
		return fmt.Sprintf("game %s (games[%d])", c.Game.ID, c.index)
	}
	return "game " + c.Game.ID
}

// Listed reports whether this is one game's view of a config listing its games under games:
// (commands acting on one game then name it: --game ID; with one game listed it may be left out).
func (c *Config) Listed() bool { return c.ofGames }

// DropSpecs forgets the games' own keys (their YAML trees) once the games are set up from them:
// a daemon with hundreds of games keeps only what it runs them with. GameSetup and Validate no
// longer work on c afterwards; a reload reads the file again.
func (c *Config) DropSpecs() {
	c.Game.Spec = yaml.Node{}
	for i := range c.Games {
		c.Games[i].Spec = yaml.Node{}
	}
}

// Select is the view of the game with id; with id "" the only game (an error names the games
// when there are several).
func (c *Config) Select(id string) (*Config, error) {
	views := c.GameConfigs()
	var ids []string
	for _, v := range views {
		if v.Game.ID == id || id == "" && len(views) == 1 {
			return v, nil
		}
		ids = append(ids, v.Game.ID)
	}
	if id == "" {
		return nil, fmt.Errorf("config: %d games; name one with --game (%s)", len(views), strings.Join(ids, ", "))
	}
	return nil, fmt.Errorf("config: no game %q (games: %s)", id, strings.Join(ids, ", "))
}

// Validate checks every field and reports every problem, each naming its field; game.kind names
// one of the games in reg, which GameSetup then uses.
func (c *Config) Validate(reg *game.Registry) error {
	c.games = reg
	if c.Multi() {
		return c.validateMulti()
	}
	if c.Game.Forum != "" || c.Game.Thread != "" || len(c.Game.Moderators) > 0 {
		return &Error{Problems: []string{"game: forum, thread and moderators belong in forum.thread and moderators here (they are a game's keys only in a several-game config's games: list)"}}
	}
	return c.validate()
}

// validateMulti checks a several-game config: the shared sections once, each forum once, each
// game through its view (its problems named games[i] or forums.NAME), unique ids and threads.
func (c *Config) validateMulti() error {
	var errs []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			errs = append(errs, p)
		}
	}
	if c.Forum.URL != "" || c.Forum.Thread != "" || c.Bot.Username != "" || c.Game.Kind != "" || c.Game.ID != "" {
		add("forum, bot, game: a config with forums: and games: keeps each forum (with its bot) under forums: and each game under games:")
	}
	if len(c.Forums) == 0 {
		add("forums: missing (name: {url, dialect, bot: {username, password_env}} for each forum)")
	}
	if len(c.Games) == 0 {
		add("games: missing (each game: id, kind, forum, thread, roster, ...)")
	}
	names := make([]string, 0, len(c.Forums))
	for n := range c.Forums {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !validID(n) {
			add(fmt.Sprintf("forums.%s: use letters, digits, '-' and '_' in a forum's name", n))
		}
		if c.Forums[n].Thread != "" {
			add(fmt.Sprintf("forums.%s.thread: a game's thread goes in its games: entry", n))
		}
	}
	ids, threads := map[string]int{}, map[string]int{}
	uses := c.forumUses()
	for i, g := range c.Games {
		field := fmt.Sprintf("games[%d]", i)
		if _, ok := c.Forums[g.Forum]; !ok {
			if g.Forum == "" {
				add(field + ".forum: missing (the name of one of forums:)")
			} else {
				add(fmt.Sprintf("%s.forum: %q is not one of forums: (%s)", field, g.Forum, strings.Join(names, ", ")))
			}
			continue
		}
		v := c.view(i, g, uses[g.Forum] > 1)
		if j, ok := ids[v.Game.ID]; ok {
			add(fmt.Sprintf("%s.id: %q is also games[%d]'s id", field, v.Game.ID, j))
		}
		ids[v.Game.ID] = i
		key := g.Forum + "\x00" + strings.TrimSpace(g.Thread)
		if j, ok := threads[key]; ok && g.Thread != "" {
			add(fmt.Sprintf("%s.thread: %q on %s is also games[%d]'s thread", field, g.Thread, g.Forum, j))
		}
		threads[key] = i
		err := v.validate()
		var e *Error
		if !errors.As(err, &e) {
			continue
		}
		for _, p := range e.Problems {
			add(v.Field(p))
		}
	}
	// A web account moderates only the games whose moderators name it: one named nowhere could
	// log in and open no game.
	for i, a := range c.Review.Accounts {
		if strings.TrimSpace(a.Name) == "" {
			continue
		}
		mods := false
		for _, v := range c.GameConfigs() {
			mods = mods || v.IsModerator(a.Name)
		}
		if !mods {
			add(fmt.Sprintf("review.accounts[%d].name: %q moderates no game: name it in moderators (every game's default) or in a game's moderators", i, a.Name))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &Error{Problems: errs}
}

// validate checks a single-game config (or a game's view).
func (c *Config) validate() error {
	var errs []string
	bad := func(field, format string, a ...any) {
		errs = append(errs, field+": "+fmt.Sprintf(format, a...))
	}
	// forum
	if c.Forum.URL == "" {
		bad("forum.url", "missing (the board's base URL, e.g. https://forum.example.org/)")
	} else if u, err := url.Parse(c.Forum.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("forum.url", "%q is not an http(s) URL", c.Forum.URL)
	}
	if !validID(c.Forum.Dialect) {
		bad("forum.dialect", "%q is not a dialect name (mybb, smf, punbb, ...)", c.Forum.Dialect)
	}
	if strings.TrimSpace(c.Forum.Thread) == "" {
		bad("forum.thread", "missing (the game thread's id, MyBB: the tid in showthread.php?tid=N)")
	}
	if _, err := time.LoadLocation(c.Forum.Timezone); err != nil {
		bad("forum.timezone", "%q is not a time zone name (e.g. Europe/Moscow)", c.Forum.Timezone)
	}
	// bot
	if strings.TrimSpace(c.Bot.Username) == "" {
		bad("bot.username", "missing (the forum account forumgm posts as)")
	}
	switch {
	case c.Bot.PasswordEnv == "":
		bad("bot.password_env", "missing (the NAME of the environment variable holding the bot's password)")
	case !envName(c.Bot.PasswordEnv):
		bad("bot.password_env", "%q is not an environment variable name (letters, digits, _); put the password in the environment, never in this file", shorten(c.Bot.PasswordEnv))
	}
	// moderators
	seenMod := map[string]bool{}
	for i, m := range c.Moderators {
		n := strings.ToLower(strings.TrimSpace(m))
		if n == "" {
			bad(fmt.Sprintf("moderators[%d]", i), "empty name")
		} else if seenMod[n] {
			bad(fmt.Sprintf("moderators[%d]", i), "%q is listed twice", m)
		}
		seenMod[n] = true
	}
	// game
	if !validID(c.Game.ID) {
		bad("game.id", "%q: use letters, digits, '-' and '_' only", c.Game.ID)
	}
	if _, err := time.LoadLocation(c.Game.Timezone); err != nil {
		bad("game.timezone", "%q is not a time zone name (e.g. Europe/Moscow)", c.Game.Timezone)
	}
	if _, err := c.Game.ReminderLead(); err != nil {
		bad("game.reminders", "%v", err)
	}
	if c.Game.Start != "" {
		if _, err := time.Parse(time.RFC3339, c.Game.Start); err != nil {
			bad("game.start", "%q: want an RFC 3339 time such as 2026-12-01T18:00:00+03:00", c.Game.Start)
		}
	}
	for i, d := range c.Game.Calendar.WorkingDays {
		if _, ok := weekdays[strings.ToLower(strings.TrimSpace(d))]; !ok {
			bad(fmt.Sprintf("game.calendar.working_days[%d]", i), "%q is not an English weekday name (Monday or Mon)", d)
		}
	}
	if st := c.Game.specKey("settings"); st != nil {
		for i := 0; i+1 < len(st.Content); i += 2 {
			if k := st.Content[i].Value; k == "seed" || k == "salt" {
				bad("game.settings."+k, "the daemon draws the game's seed and salt itself when the game is created and keeps them in the store (never in this file, which players may read)")
			}
		}
	}
	if c.Game.Kind == "" {
		bad("game.kind", "missing (the game: %s)", strings.Join(c.games.Names(), ", "))
	} else if _, err := c.games.Lookup(c.Game.Kind); err != nil {
		bad("game.kind", "%q is not a game forumgm knows (%s)", c.Game.Kind, strings.Join(c.games.Names(), ", "))
	} else if setup, err := c.GameSetup(false, time.Time{}); err != nil {
		for _, p := range gameProblems(err) {
			bad(p.field, "%s", p.msg)
		}
	} else {
		if len(setup.Players) == 0 && !setup.SignUp {
			bad("game.roster", "no players (or a signup: block: players sign up in the thread)")
		}
		for i, name := range setup.Players {
			if seenMod[strings.ToLower(strings.TrimSpace(name))] {
				bad(fmt.Sprintf("game.roster[%d].name", i), "%q is also a moderator", name)
			}
			if strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(c.Bot.Username)) && name != "" {
				bad(fmt.Sprintf("game.roster[%d].name", i), "%q is the bot's own account", name)
			}
		}
	}
	if c.Forum.MaxClockSkew < 0 {
		bad("forum.max_clock_skew", "%s is negative", c.Forum.MaxClockSkew.D())
	}
	// poll
	if c.Poll.Floor.D() < time.Second {
		bad("poll.floor", "%s is too fast (at least 1s; be polite to the forum)", c.Poll.Floor.D())
	}
	if c.Poll.BackgroundShare < 0 || c.Poll.BackgroundShare > 1 {
		bad("poll.background_share", "%g is not a share of the rate (above 0, at most 1)", c.Poll.BackgroundShare)
	}
	if c.Poll.Ceiling.D() < c.Poll.Floor.D() {
		bad("poll.ceiling", "%s is below poll.floor %s", c.Poll.Ceiling.D(), c.Poll.Floor.D())
	}
	for _, f := range []struct{ name, v string }{{"poll.evening_start", c.Poll.EveningStart}, {"poll.evening_end", c.Poll.EveningEnd}, {"poll.night_start", c.Poll.NightStart}, {"poll.night_end", c.Poll.NightEnd}} {
		if _, err := ClockTime(f.v); err != nil {
			bad(f.name, "%v", err)
		}
	}
	// store
	if strings.TrimSpace(c.Store.Path) == "" {
		bad("store.path", "missing")
	}
	if c.Store.URL != "" {
		if u, err := url.Parse(c.Store.URL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
			bad("store.url", "want postgres://user@host:port/database (a PostgreSQL database), have %q", c.Store.URL)
		} else if _, has := u.User.Password(); has {
			bad("store.url", "holds a password: put it in the PGPASSWORD variable or ~/.pgpass, never in the config")
		}
	}
	// ops
	if c.Ops.Listen != "" {
		if err := loopback(c.Ops.Listen, "metrics"); err != nil {
			bad("ops.listen", "%v", err)
		}
	}
	// review (the moderator web UI)
	if c.Review.Listen != "" {
		if err := loopback(c.Review.Listen, "the moderator web UI"); err != nil {
			bad("review.listen", "%v", err)
		}
	}
	if u := c.Review.PublicURL; u != "" {
		pu, err := url.Parse(u)
		switch {
		case err != nil || pu.Host == "" || (pu.Scheme != "https" && pu.Scheme != "http"):
			bad("review.public_url", "%q: want https://host[:port]/path/ (the reverse proxy's address)", u)
		case pu.Scheme == "http" && !isLoopbackHost(pu.Hostname()):
			bad("review.public_url", "%q: use https (passwords and the session cookie cross the network)", u)
		case pu.Path != "" && pu.Path != "/":
			bad("review.public_url", "%q: serve the web UI at the root of a host name (https://mod.example.org/), not under a path", u)
		}
	}
	switch h := strings.ToLower(strings.TrimSpace(c.Review.TrustedProxyHeader)); h {
	case "", "x-forwarded-for", "x-real-ip":
	default:
		bad("review.trusted_proxy_header", "%q: want X-Forwarded-For or X-Real-IP (the header the reverse proxy sets to the client's address)", c.Review.TrustedProxyHeader)
	}
	seenAcc := map[string]bool{}
	for i, a := range c.Review.Accounts {
		field := fmt.Sprintf("review.accounts[%d]", i)
		n := strings.ToLower(strings.TrimSpace(a.Name))
		switch {
		case n == "":
			bad(field+".name", "missing (the moderator's name, recorded with every action)")
		case strings.ContainsFunc(a.Name, func(r rune) bool { return r < ' ' || r == 0x7f }):
			bad(field+".name", "%q holds control characters", a.Name)
		case seenAcc[n]:
			bad(field+".name", "%q is listed twice", a.Name)
		case c.isPlayer(n) && (!c.ofGames || c.IsModerator(a.Name)):
			// In a several-game config an account moderates only the games naming it.
			bad(field+".name", "%q is a player in game.roster; a player cannot moderate their own game", a.Name)
		}
		seenAcc[n] = true
		switch {
		case a.PasswordEnv == "":
			bad(field+".password_env", "missing (the NAME of the environment variable holding this moderator's password)")
		case !envName(a.PasswordEnv):
			bad(field+".password_env", "%q is not an environment variable name (letters, digits, _); put the password in the environment, never in this file", shorten(a.PasswordEnv))
		case a.PasswordEnv == c.Bot.PasswordEnv:
			ref, _ := EnvRef(a.PasswordEnv)
			bad(field+".password_env", "%s is the bot's password variable; give the moderators their own", ref)
		}
	}
	// attachments (pictures forumgm serves itself)
	if a := c.Attachments; a.Dir != "" || a.PublicURL != "" || a.Listen != "" {
		if strings.TrimSpace(a.Dir) == "" {
			bad("attachments.dir", "missing (the folder the pictures are written to)")
		}
		if a.PublicURL == "" {
			bad("attachments.public_url", "missing (the https:// URL the folder is served at)")
		} else if err := publicURL(a.PublicURL); err != nil {
			bad("attachments.public_url", "%v", err)
		}
		if a.Listen != "" {
			if err := loopback(a.Listen, "the pictures"); err != nil {
				bad("attachments.listen", "%v", err)
			}
		}
	}
	// public (the players' game pages)
	if p := c.Public; p.Addr != "" {
		if err := loopback(p.Addr, "the public game pages"); err != nil {
			bad("public.addr", "%v", err)
		}
	}
	if u := c.Public.PublicURL; u != "" {
		if err := publicURL(u); err != nil {
			bad("public.public_url", "%v", err)
		}
	}
	switch h := strings.ToLower(strings.TrimSpace(c.Public.TrustedProxyHeader)); h {
	case "", "x-forwarded-for", "x-real-ip":
	default:
		bad("public.trusted_proxy_header", "%q: want X-Forwarded-For or X-Real-IP (the header the reverse proxy sets to the client's address)", c.Public.TrustedProxyHeader)
	}
	if c.Ops.LogFormat != "json" && c.Ops.LogFormat != "console" {
		bad("ops.log_format", "%q: want json or console", c.Ops.LogFormat)
	}
	switch c.Ops.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("ops.log_level", "%q: want debug, info, warn or error", c.Ops.LogLevel)
	}
	if len(errs) == 0 {
		return nil
	}
	return &Error{Problems: errs}
}

// Error lists every problem Validate found.
type Error struct {
	Problems []string
}

func (e *Error) Error() string {
	if len(e.Problems) == 1 {
		return "invalid: " + e.Problems[0]
	}
	return fmt.Sprintf("%d problems:\n  - %s", len(e.Problems), strings.Join(e.Problems, "\n  - "))
}

// Password reads the bot's password from the environment variable the config names.
func (c *Config) Password() (string, error) {
	v, ok := os.LookupEnv(c.Bot.PasswordEnv)
	if !ok || v == "" {
		return "", fmt.Errorf("config: %s", unsetEnv(c.botPasswordField(), c.Bot.PasswordEnv))
	}
	return v, nil
}

// botPasswordField names the bot's password_env field as the file spells it.
func (c *Config) botPasswordField() string {
	if c.ofGames {
		return "forums." + c.Game.Forum + ".bot.password_env"
	}
	return "bot.password_env"
}

// CheckSecrets reports every password the config names an environment variable for that is not
// set here, each by its field: the bot's of every forum a game plays on (the game cannot start
// without it) and, with moderators, each moderator's (the web UI cannot). Validate does not look
// at the environment; check-config and a reload do (a running daemon's environment is the one it
// started with). No value that may be a password is printed.
func (c *Config) CheckSecrets(moderators bool) error {
	var errs []string
	seen := map[string]bool{}
	for _, v := range c.GameConfigs() {
		field := v.botPasswordField()
		if seen[field] {
			continue
		}
		seen[field] = true
		if _, err := v.Password(); err != nil {
			errs = append(errs, unsetEnv(field, v.Bot.PasswordEnv))
		}
	}
	for i, a := range c.Review.Accounts {
		if _, err := a.Password(); moderators && err != nil {
			errs = append(errs, unsetEnv(fmt.Sprintf("review.accounts[%d].password_env", i), a.PasswordEnv)+
				fmt.Sprintf(" (moderator %s: the web UI would not start)", a.Name))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}

// unsetEnv says that the environment variable named in field is not set, naming the variable
// only when the value looks like a variable's name (see EnvRef).
func unsetEnv(field, name string) string {
	ref, ok := EnvRef(name)
	if ok {
		return fmt.Sprintf("%s: the environment variable %s is not set", field, ref)
	}
	return fmt.Sprintf("%s: the environment variable named in %s is not set (the value there, %s, does not look like "+
		"a variable's name: if it is the password itself, put the password in the environment and the variable's NAME here)",
		field, field, ref)
}

// EnvRef shows the environment variable a *_env field names, for a message: "$NAME", ok, when
// the value looks like a variable's name (capital letters, digits and _, not starting with a
// digit); else only its first letters ("Hu***"): a value typed there may be the password itself.
func EnvRef(name string) (ref string, ok bool) {
	for i, r := range name {
		if !(r >= 'A' && r <= 'Z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return shorten(name), false
		}
	}
	if name == "" {
		return shorten(name), false
	}
	return "$" + name, true
}

// Path is the file the config was loaded from ("" when parsed from bytes).
func (c *Config) Path() string { return c.path }

// SetPath sets the file relative paths resolve against.
func (c *Config) SetPath(p string) { c.path = p }

// Resolve makes a path from the config relative to the config file's folder.
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || c.path == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.path), p)
}

// StoreLocation is where the store is: store.url (PostgreSQL) when set, else store.path (the
// SQLite file) resolved against the config's folder. store.Open takes either.
func (c *Config) StoreLocation() string {
	if c.Store.URL != "" {
		return c.Store.URL
	}
	return c.Resolve(c.Store.Path)
}

// GamePage is the game's public page under public.public_url ("" when none is served): the
// players' pages (package public) serve it at g/ID/.
func (c *Config) GamePage() string {
	if c.Public.PublicURL == "" || c.Game.ID == "" {
		return ""
	}
	return strings.TrimSuffix(c.Public.PublicURL, "/") + "/g/" + url.PathEscape(c.Game.ID) + "/"
}

// GameLocation is the game's time zone.
func (c *Config) GameLocation() *time.Location {
	l, err := time.LoadLocation(c.Game.Timezone)
	if err != nil {
		return time.UTC
	}
	return l
}

// ForumLocation is the forum's time zone.
func (c *Config) ForumLocation() *time.Location {
	l, err := time.LoadLocation(c.Forum.Timezone)
	if err != nil {
		return c.GameLocation()
	}
	return l
}

// StartTime is game.start parsed (zero when empty or bad).
func (c *Config) StartTime() time.Time {
	t, err := time.Parse(time.RFC3339, c.Game.Start)
	if err != nil {
		return time.Time{}
	}
	return t
}

func (c *Config) isPlayer(lowerName string) bool {
	for _, p := range c.Players() {
		if strings.ToLower(strings.TrimSpace(p)) == lowerName {
			return true
		}
	}
	return false
}

// Moderating is who may act on the game (a single-game config or one game's view) as a
// moderator: its moderators and, in a single-game config, every web UI account too. In a
// several-game config a web account moderates only the games whose moderators (their own list,
// else the top-level one) name it.
func (c *Config) Moderating() []string {
	out := append([]string(nil), c.Moderators...)
	if c.ofGames {
		return out
	}
	for _, a := range c.Review.Accounts {
		if !c.IsModerator(a.Name) {
			out = append(out, a.Name)
		}
	}
	return out
}

// IsModerator reports whether name is one of the moderators (case-insensitive).
func (c *Config) IsModerator(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, m := range c.Moderators {
		if strings.ToLower(strings.TrimSpace(m)) == n {
			return true
		}
	}
	return false
}

// GameSetup decodes the game's own keys through the game's plug-in. noPM: the forum has no
// private messages; start: the game's start (zero: now is not known yet).
func (c *Config) GameSetup(noPM bool, start time.Time) (*game.Setup, error) {
	if c.games == nil {
		return nil, errors.New("config: the games are not known yet (Validate first)")
	}
	g, err := c.games.Lookup(c.Game.Kind)
	if err != nil {
		return nil, err
	}
	return g.Setup(c.GameSpec(noPM, start))
}

// GameSpec is what the game's plugin is configured from (GameSetup), and what the players see of
// it (game.PublicSetup).
func (c *Config) GameSpec(noPM bool, start time.Time) game.Spec {
	dir := ""
	if c.path != "" {
		dir = filepath.Dir(c.path)
	}
	return game.Spec{Node: c.Game.Spec, Start: start, Timezone: c.Game.Timezone,
		WorkingDays: c.Game.Calendar.WorkingDays, Dir: dir, NoPM: noPM, Zone: c.ZoneLabel(start),
		Staff: append([]string{c.Bot.Username}, c.Moderators...)}
}

// Players are the roster's names ("" errors: none).
func (c *Config) Players() []string {
	setup, err := c.GameSetup(false, time.Time{})
	if err != nil {
		return nil
	}
	return setup.Players
}

// ClockTime parses "HH:MM" ("24:00" allowed) into the time since midnight.
func ClockTime(s string) (time.Duration, error) {
	var h, m int
	if n, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil || n != 2 || len(s) < 4 || m < 0 || m > 59 || h < 0 || h > 24 || (h == 24 && m != 0) {
		return 0, fmt.Errorf("%q is not a time of day HH:MM", s)
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil
}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// WorkingDay reports whether t's weekday is a working day of the calendar.
func (c *Config) WorkingDay(t time.Time) bool {
	for _, d := range c.Game.Calendar.WorkingDays {
		if wd, ok := weekdays[strings.ToLower(strings.TrimSpace(d))]; ok && wd == t.Weekday() {
			return true
		}
	}
	return false
}

func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func envName(s string) bool {
	for i, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '_' || (i > 0 && r >= '0' && r <= '9')) {
			return false
		}
	}
	return s != ""
}

// shorten keeps an invalid password_env value from being echoed in full (it may be a password
// pasted by mistake).
func shorten(s string) string {
	if len(s) <= 3 {
		return "***"
	}
	return s[:2] + "***"
}

func loopback(addr, what string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q: want host:port such as 127.0.0.1:9321", addr)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: serve %s on a loopback address only (127.0.0.1:PORT)", addr, what)
	}
	return nil
}

// publicURL checks the URL pictures are linked at: https (plain http only for a loopback host,
// as in tests), a host, no query or fragment (a file name is appended to it).
func publicURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%q: want an https:// URL such as https://forumgm.example.org/pictures/", raw)
	}
	if u.Scheme == "http" {
		h := u.Hostname()
		if ip := net.ParseIP(h); h != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("%q: use https (forums show pictures from http:// hosts as insecure or not at all)", raw)
		}
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%q: no query, fragment or user name (the picture's file name is appended)", raw)
	}
	return nil
}

// yamlProblemRe is a problem the game's decoder reported with a key (game.DecodeStrict):
// "settings: yaml: line 27: turn_evry: unknown field (...)"; lineProblemRe one of its lines.
var (
	yamlProblemRe = regexp.MustCompile(`^(?:([a-z_][a-z0-9_.]*): )?yaml: (line \d+: .*)$`)
	lineProblemRe = regexp.MustCompile(`^line (\d+): ([^\s:]+): (.*)$`)
	keyProblemRe  = regexp.MustCompile(`^([a-z_][a-z0-9_.\[\]]*): (.*)$`)
)

type problem struct{ field, msg string }

// gameProblems are the problems of a game's own keys, each under its field: a misspelt or
// mistyped key as game.settings.turn_evry with its line ("line 27: unknown field (...)"), the
// game's other problems under game.
func gameProblems(err error) []problem {
	var out []problem
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		m := yamlProblemRe.FindStringSubmatch(l)
		if m == nil {
			if k := keyProblemRe.FindStringSubmatch(l); k != nil {
				out = append(out, problem{"game." + k[1], k[2]}) // "roster: ...": game.roster
			} else {
				out = append(out, problem{"game", l})
			}
			continue
		}
		prefix := "game."
		if m[1] != "" {
			prefix += m[1] + "."
		}
		for _, part := range strings.Split(m[2], "; line ") {
			if !strings.HasPrefix(part, "line ") {
				part = "line " + part
			}
			if k := lineProblemRe.FindStringSubmatch(part); k != nil {
				out = append(out, problem{prefix + k[2], "line " + k[1] + ": " + k[3]})
			} else {
				out = append(out, problem{strings.TrimSuffix(prefix, "."), part})
			}
		}
	}
	return out
}

func flatten(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// isLoopbackHost reports whether a URL's host name is this machine (localhost, 127.0.0.1, ::1).
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

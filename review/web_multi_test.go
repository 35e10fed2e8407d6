package review

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	gfb "forumgm/games/football"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/store"
)

// Two games of different kinds in one store and one web UI: a Crusade game in Moscow time that
// Moderator and Анна moderate, a football quiz in Yekaterinburg time that only Moderator does.
const (
	crusadeID  = "crusade-1"
	footballID = "football-1"
	annaName   = "Анна"
	annaPass   = "пароль-анны-3"
)

var yekt = time.FixedZone("YEKT", 5*3600)

func footballFactory(t *testing.T) func() (*referee.Referee, error) {
	t.Helper()
	var n yaml.Node
	src := `teams:
  - {name: Команда 1, captain: Вася, members: [Петя]}
  - {name: Команда 2, captain: Гоша, members: [Саша]}
board: default
settings:
  first_turn: "2026-12-01T20:00:00+03:00"
  turn_every: 30m
  window: 10m
`
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	setup, err := gfb.Game{}.Setup(game.Spec{Node: *n.Content[0], Start: time.Date(2026, 12, 1, 19, 0, 0, 0, msk), Timezone: "Europe/Moscow"})
	if err != nil {
		t.Fatal(err)
	}
	return func() (*referee.Referee, error) {
		return referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "test", Salt: "salt"})
	}
}

// multiEnv is the two games' store and web UI; env is a webEnv over the same server, for its
// HTTP client.
type multiEnv struct {
	env   *webEnv
	st    *store.Store
	games map[string]*Review
	when  time.Time
}

func newMultiEnv(t *testing.T) *multiEnv {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	when := time.Date(2026, 12, 1, 19, 5, 0, 0, msk)
	now := when.Add(20 * time.Minute)
	clock := func() time.Time { return now }
	cr := &Review{Store: st, Game: crusadeID, NewReferee: reviewRef(crusadeFactory(t)), Now: clock, Moderators: []string{modName},
		Caps: forum.Capabilities{PrivateMessages: true}, Allowed: []string{modName, annaName}, Location: msk}
	fb := &Review{Store: st, Game: footballID, NewReferee: reviewRef(footballFactory(t)), Now: clock, Moderators: []string{modName},
		Caps: forum.Capabilities{PrivateMessages: true}, Allowed: []string{modName}, Location: yekt}
	// Both games started at 19:00 Moscow time: their opening posts queued, and a football player
	// said hello at once (the quiz logs its start's draws at the first player post; Crusade has
	// no event before the first move).
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	for _, g := range []struct {
		kind   string
		rv     *Review
		newRef func() (*referee.Referee, error)
	}{{"crusade", cr, crusadeFactory(t)}, {"football", fb, footballFactory(t)}} {
		if _, err := st.EnsureGame(ctx, g.rv.Game, g.kind, nil); err != nil {
			t.Fatal(err)
		}
		ref, err := g.newRef()
		if err != nil {
			t.Fatal(err)
		}
		out, err := ref.Start(start)
		if err != nil {
			t.Fatalf("%s start: %v", g.kind, err)
		}
		cm := store.Commit{Game: g.rv.Game, At: start, Cause: "start"}
		if err := cm.Fill(out, nil, store.Notify{}); err != nil {
			t.Fatal(err)
		}
		if err := st.Commit(ctx, cm); err != nil {
			t.Fatal(err)
		}
		if g.kind == "football" {
			post := parser.FromBBCode("Готовы!")
			post.ID, post.Author, post.Time = "5", "Петя", start
			in := game.Input{Source: game.Thread, PostID: post.ID, Author: post.Author, At: start, Post: post}
			out, err := ref.Judge(in)
			if err != nil || len(out.Events) == 0 {
				t.Fatalf("football's first post: %v, %d events", err, len(out.Events))
			}
			cm := store.Commit{Game: g.rv.Game, At: start, Cause: store.PostCause(store.SourceThread, in.PostID),
				Post: &store.Judgement{Source: store.SourceThread, Post: in.Post, Verdict: store.VerdictIgnored}}
			if err := cm.Fill(out, &in, store.Notify{}); err != nil {
				t.Fatal(err)
			}
			if err := st.Commit(ctx, cm); err != nil {
				t.Fatal(err)
			}
		}
	}
	web, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}, {Name: annaName, Password: annaPass}}, Location: time.UTC, Games: known}, cr, fb)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	return &multiEnv{env: &webEnv{t: t, st: st, web: web, srv: srv, when: when}, st: st,
		games: map[string]*Review{crusadeID: cr, footballID: fb}, when: when}
}

// flagPost stores a post of game the daemon flagged and returns the flag's id.
func (m *multiEnv) flagPost(game, id, author, text string, kind store.FlagKind) int64 {
	t := m.env.t
	t.Helper()
	ctx := context.Background()
	post := forum.Post{ID: id, Author: author, Time: m.when, Text: text}
	err := m.st.Commit(ctx, store.Commit{Game: game, At: m.when,
		Post:  &store.Judgement{Source: store.SourceThread, Post: post, Verdict: store.VerdictFlagged},
		Flags: []store.NewFlag{{Source: store.SourceThread, PostID: id, Kind: kind, Detail: "line 1: no cell"}}})
	if err != nil {
		t.Fatal(err)
	}
	flags, err := m.st.OpenFlags(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flags {
		if f.PostID == id {
			return f.ID
		}
	}
	t.Fatalf("flag for post %s not stored", id)
	return 0
}

func (m *multiEnv) open(game string) []store.Flag {
	m.env.t.Helper()
	flags, err := m.st.OpenFlags(context.Background(), game)
	if err != nil {
		m.env.t.Fatal(err)
	}
	return flags
}

// loginAs logs a client in and returns it.
func (m *multiEnv) loginAs(name, password string) *client {
	m.env.t.Helper()
	c := m.env.client()
	if r := c.get("/login"); r.status != http.StatusOK {
		m.env.t.Fatalf("login page: %d", r.status)
	}
	r := c.post("/login", url.Values{"csrf": {c.csrf}, "name": {name}, "password": {password}, "next": {"/"}})
	if r.status != http.StatusSeeOther || r.location != "/" {
		m.env.t.Fatalf("login %s: %d %q\n%s", name, r.status, r.location, r.body)
	}
	return c
}

func wantIn(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
	if t.Failed() {
		t.Fatalf("%s:\n%s", what, body)
	}
}

// One UI, two games: the list names both with their kinds, open flags and state; every page is
// under its game's path, labelled with its id and kind, with times in the game's own zone;
// settling a flag of one game leaves the other's queue as it was; an account that does not
// moderate a game is refused on its every page and action, and nothing changes.
func TestWebSeveralGames(t *testing.T) {
	m := newMultiEnv(t)
	crFlag := m.flagPost(crusadeID, "7", "Джелу", "к1 на К-шестнадцать", store.FlagUnreadable)
	fbFlag := m.flagPost(footballID, "8", "Петя", "бросаю что-нибудь", store.FlagUnreadable)
	mod := m.loginAs(modName, modPass)
	evs, err := m.st.Events(context.Background(), footballID)
	if err != nil {
		t.Fatal(err)
	}
	footballEvents := len(evs)

	idx := mod.get("/")
	if idx.status != http.StatusOK {
		t.Fatalf("list of games: %d\n%s", idx.status, idx.body)
	}
	wantIn(t, "list of games", idx.body, `id="game-crusade-1"`, `href="/g/crusade-1/"`, "Крестовый поход",
		`id="game-football-1"`, `href="/g/football-1/"`, "Футбол с кубиком", "<b>1</b>", "идёт",
		"01.12.2026 21:00") // the football start in Yekaterinburg time
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); !strings.Contains(row, `<td class="last">—</td>`) {
		t.Errorf("crusade row before any event: %s", row)
	}
	if strings.Contains(idx.body, "вы не модератор") {
		t.Errorf("Moderator is told a game is not theirs:\n%s", idx.body)
	}

	// Each game's pages carry its id and kind; times in its zone.
	cq := mod.get("/g/crusade-1/")
	wantIn(t, "crusade queue", cq.body, "<title>Игра · crusade-1 · Крестовый поход · forumgm</title>", `id="game-label"`,
		"Игра crusade-1 · Крестовый поход", `id="flag-`+itoa(crFlag)+`"`, "01.12.2026 19:05", `id="all-games"`)
	if strings.Contains(cq.body, `id="flag-`+itoa(fbFlag)+`"`) || strings.Contains(cq.body, "Петя") {
		t.Errorf("the crusade queue shows the football flag:\n%s", cq.body)
	}
	fq := mod.get("/g/football-1/")
	wantIn(t, "football queue", fq.body, "Футбол с кубиком", `id="flag-`+itoa(fbFlag)+`"`, "01.12.2026 21:05")
	// The state as people read it (the game's own view: the ring and the table), not JSON.
	wantIn(t, "football state", fq.body, `id="view"`, `class="football-ring fside-9"`, "Забито")
	for _, raw := range []string{`&#34;turn&#34;`, `"turn":`, `"teams":`, `&#34;teams&#34;`} {
		if strings.Contains(fq.body, raw) {
			t.Errorf("the football game page shows raw JSON (%s)", raw)
		}
	}
	for _, path := range []string{"/g/football-1/log", "/g/football-1/undo", "/g/football-1/end", fmtPath("/g/football-1/flag/%d", fbFlag)} {
		r := mod.get(path)
		if r.status != http.StatusOK || !strings.Contains(r.body, "football-1 · Футбол с кубиком") {
			t.Errorf("GET %s: %d, not labelled:\n%s", path, r.status, r.body)
		}
	}
	// A flag is reached only under its own game.
	if r := mod.get(fmtPath("/g/crusade-1/flag/%d", fbFlag)); r.status != http.StatusNotFound {
		t.Errorf("the football flag under the crusade game: %d", r.status)
	}
	if r := mod.send(fmtPath("/g/crusade-1/flag/%d/close", fbFlag), url.Values{"reason": {"не та игра"}}); !strings.Contains(r.body, "Нет такого флага") {
		t.Errorf("closing the football flag under the crusade game:\n%s", r.body)
	}

	// Settling the crusade flag leaves the football queue untouched.
	after := mod.send(fmtPath("/g/crusade-1/flag/%d/close", crFlag), url.Values{"reason": {"решено в ЛС"}})
	wantIn(t, "crusade queue after close", after.body, "закрыт без сообщения", "Очередь пуста")
	if got := m.open(crusadeID); len(got) != 0 {
		t.Errorf("crusade flags still open: %+v", got)
	}
	if got := m.open(footballID); len(got) != 1 || got[0].ID != fbFlag {
		t.Errorf("football flags: %+v", got)
	}
	if fq := mod.get("/g/football-1/"); !strings.Contains(fq.body, `id="flag-`+itoa(fbFlag)+`"`) {
		t.Errorf("the football queue lost its flag:\n%s", fq.body)
	}
	idx = mod.get("/")
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); !strings.Contains(row, `<span class="muted">0</span>`) {
		t.Errorf("crusade row after close: %s", row)
	}
	if row := between(idx.body, `id="game-football-1"`, "</tr>"); !strings.Contains(row, "<b>1</b>") {
		t.Errorf("football row after close: %s", row)
	}

	// Анна moderates the crusade game only.
	anna := m.loginAs(annaName, annaPass)
	idx = anna.get("/")
	if row := between(idx.body, `id="game-football-1"`, "</tr>"); strings.Contains(row, "href=") || !strings.Contains(row, "вы не модератор этой игры") {
		t.Errorf("Анна's football row: %s", row)
	}
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); !strings.Contains(row, `href="/g/crusade-1/"`) {
		t.Errorf("Анна's crusade row: %s", row)
	}
	for _, path := range []string{"/g/football-1/", "/g/football-1/log", "/g/football-1/undo", "/g/football-1/end", fmtPath("/g/football-1/flag/%d", fbFlag)} {
		r := anna.get(path)
		if r.status != http.StatusForbidden || !strings.Contains(r.body, "Вы не модератор этой игры") || !strings.Contains(r.body, modName) {
			t.Errorf("Анна GET %s: %d\n%s", path, r.status, r.body)
		}
		if strings.Contains(r.body, "бросаю что-нибудь") {
			t.Errorf("Анна sees the football post at %s", path)
		}
	}
	anna.get("/g/crusade-1/") // her session's token
	for _, path := range []string{fmtPath("/g/football-1/flag/%d/close", fbFlag), fmtPath("/g/football-1/flag/%d/reject", fbFlag), "/g/football-1/pause", "/g/football-1/end"} {
		r := anna.post(path, url.Values{"csrf": {anna.csrf}, "reason": {"хочу"}, "confirm": {"yes"}})
		if r.status != http.StatusForbidden || !strings.Contains(r.body, "Вы не модератор этой игры") {
			t.Errorf("Анна POST %s: %d\n%s", path, r.status, r.body)
		}
	}
	if got := m.open(footballID); len(got) != 1 {
		t.Errorf("Анна settled a football flag: %+v", got)
	}
	if g, err := m.st.Game(context.Background(), footballID); err != nil || g.Paused {
		t.Errorf("Анна paused the football game: %+v %v", g, err)
	}
	if evs, err := m.st.Events(context.Background(), footballID); err != nil || len(evs) != footballEvents {
		t.Errorf("football events after Анна's tries: %d, had %d (%v)", len(evs), footballEvents, err)
	}
	// Her own game works.
	p := anna.send("/g/crusade-1/pause", url.Values{"reason": {"перерыв"}})
	wantIn(t, "crusade after Анна's pause", p.body, "Игра на паузе")
	idx = mod.get("/")
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); !strings.Contains(row, "на паузе") || !strings.Contains(row, "01.12.2026 19:25") {
		t.Errorf("crusade row after the pause (at 19:25 Moscow time): %s", row)
	}
	// Moderator ends the football quiz: the list says it is over.
	end := mod.send("/g/football-1/end", url.Values{"reason": {"турнир отменён"}, "confirm": {"yes"}})
	wantIn(t, "football after the end", end.body, "Игра завершена")
	idx = mod.get("/")
	if row := between(idx.body, `id="game-football-1"`, "</tr>"); !strings.Contains(row, "окончена") {
		t.Errorf("football row after the end: %s", row)
	}
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); strings.Contains(row, "окончена") {
		t.Errorf("crusade row after the football end: %s", row)
	}
}

// between is the part of s from the first from to the next to after it ("" when absent).
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}

// The games' kinds have words for every registered game; games are given once each, with an id.
func TestWebGamesGiven(t *testing.T) {
	m := newMultiEnv(t)
	for _, k := range known.Names() {
		if m.env.web.msgs.Lookup("game."+k) == nil {
			t.Errorf("no words for the game %s", k)
		}
	}
	acc := []Account{{Name: modName, Password: modPass}}
	cr := m.games[crusadeID]
	if _, err := NewWeb(WebOptions{Accounts: acc}, cr, cr); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a game given twice: %v", err)
	}
	if _, err := NewWeb(WebOptions{Accounts: acc}); err == nil {
		t.Error("no game accepted")
	}
	if _, err := NewWeb(WebOptions{Accounts: acc}, &Review{}); err == nil {
		t.Error("a game without an id accepted")
	}
}

// A game with no moderators configured opens to no account in the web UI.
func TestWebGameWithoutModerators(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: move}, store.FlagUnreadable, "ошибка судьи")
	e.rv.Allowed = nil
	c := e.client()
	if r := c.login(modName, modPass); r.status != http.StatusSeeOther {
		t.Fatalf("login: %d", r.status)
	}
	r := c.get("/g/g/")
	if r.status != http.StatusForbidden || !strings.Contains(r.body, "нет модераторов") {
		t.Errorf("queue of a game without moderators: %d\n%s", r.status, r.body)
	}
	if r := c.post(fmtPath("/g/g/flag/%d/close", id), url.Values{"csrf": {c.csrf}, "reason": {"x"}}); r.status != http.StatusForbidden {
		t.Errorf("close on a game without moderators: %d", r.status)
	}
	if f := e.flag(id); f.State != store.FlagOpen {
		t.Errorf("flag %+v", f)
	}
}

// SetGames changes the games served while sessions stay (a config reload): a game added appears
// in the list, a game removed answers 404, and with one game left / leads to it.
func TestWebSetGames(t *testing.T) {
	m := newMultiEnv(t)
	cr, fb := m.games[crusadeID], m.games[footballID]
	if err := m.env.web.SetGames(cr); err != nil {
		t.Fatal(err)
	}
	mod := m.loginAs(modName, modPass)
	if r := mod.get("/"); r.status != http.StatusSeeOther || r.location != "/g/crusade-1/" {
		t.Errorf("one game: / answers %d %q", r.status, r.location)
	}
	if r := mod.get("/g/football-1/"); r.status != http.StatusNotFound {
		t.Errorf("a game not served: %d", r.status)
	}
	if err := m.env.web.SetGames(cr, fb); err != nil {
		t.Fatal(err)
	}
	r := mod.get("/")
	wantIn(t, "list after adding", r.body, `id="game-crusade-1"`, `id="game-football-1"`)
	if r := mod.get("/g/football-1/"); r.status != http.StatusOK {
		t.Errorf("the game added: %d", r.status)
	}
	if err := m.env.web.SetGames(fb); err != nil {
		t.Fatal(err)
	}
	if r := mod.get("/g/crusade-1/"); r.status != http.StatusNotFound {
		t.Errorf("the game removed: %d", r.status)
	}
	if err := m.env.web.SetGames(); err == nil {
		t.Error("no games accepted")
	}
	if r := mod.get("/"); r.status != http.StatusSeeOther || r.location != "/g/football-1/" {
		t.Errorf("after a refused change: / answers %d %q", r.status, r.location)
	}
}

// A game's long read (the cold catch-up of a long thread) shows in the list of games and on the
// game's page while it lasts, in Russian: pages read of all and about how long is left.
func TestWebShowsReading(t *testing.T) {
	m := newMultiEnv(t)
	mod := m.loginAs(modName, modPass)
	ctx := context.Background()
	if err := m.st.SetProgress(ctx, crusadeID, 60, 191, 191*time.Second, time.Now()); err != nil {
		t.Fatal(err)
	}
	const want = "читаю тему: 60 из 251 стр., осталось около 3 мин"
	idx := mod.get("/")
	if row := between(idx.body, `id="game-crusade-1"`, "</tr>"); !strings.Contains(row, want) {
		t.Errorf("the list of games does not show the crusade's read: %s", row)
	}
	if row := between(idx.body, `id="game-football-1"`, "</tr>"); strings.Contains(row, "читаю тему") {
		t.Errorf("the football row shows a read it has not: %s", row)
	}
	if cq := mod.get("/g/crusade-1/"); !strings.Contains(cq.body, `id="reading">`+want) {
		t.Errorf("the crusade page does not show its read:\n%s", cq.body)
	}
	if err := m.st.SetProgress(ctx, crusadeID, 251, 0, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	if cq := mod.get("/g/crusade-1/"); strings.Contains(cq.body, "читаю тему") {
		t.Errorf("the crusade page still shows a read that ended:\n%s", cq.body)
	}
}

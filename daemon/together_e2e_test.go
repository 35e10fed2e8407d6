package daemon

import (
	"fmt"
	"forumgm/audit"
	"forumgm/dialects/mybb"
	"forumgm/forum"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/referee"
	"forumgm/store"
)

// Games of different kinds in one process: a Crusade, a football and a Dragonball daemon run side
// by side against one sandbox board (a thread each), each with its own store and its own bot
// account, their cycles running concurrently. Each game's thread and private messages must be
// exactly what the same game posts when it runs alone.
//
// Each game has its own bot account: games sharing one would share its inbox, and each daemon
// would answer the other games' private messages as messages its game cannot use.

const crGame = `  kind: crusade
  timezone: Europe/Moscow
  start: "2026-12-01T18:00:00+03:00"
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`

// crSteps is a Crusade evening: moves, a refusal, a wound allocation by private message, the
// 21:10 question, the 00:00 close (day 2).
var crSteps = []struct {
	day          int
	at, who, txt string
	pm           bool
}{
	{1, "19:05", "Джелу", "1-й ход крестоносца к1 на K16", false},
	{1, "19:20", "snovaya", "1-й ход сарацина в1 на E6", false},
	{1, "19:40", "Джелу", "2-й ход крестоносца к2 на L13", false}, // too far: refused
	{1, "20:30", "Джелу", "ранения: к1 защита", true},
	{1, "21:11", "", "", false},
	{2, "00:05", "", "", false},
}

// step is one moment of the merged timeline: what one player of one game does (or nothing: the
// clock moves).
type step struct {
	at   time.Time
	game string // "cr" or "fb"
	i    int    // the index in its game's steps
	who  string
	txt  string
	pm   bool
}

// playTogether plays the games named (cr, fb, db) on one board along one timeline and returns them
// with the ids of their thread posts by step.
func playTogether(t *testing.T, games ...string) (map[string]*table, map[string]map[int]int) {
	users := []string{"Moderator", "gm-crusade", "gm-football", "gm-dragon", "Джелу", "snovaya"}
	users = append(users, fbUsers[1:len(fbUsers)-1]...)
	users = append(users, dbUsers[1:len(dbUsers)-1]...)
	b := newBoard(t, time.Date(2026, 12, 1, 10, 0, 0, 0, msk), users, "Крестовый поход", "Футбол", "Драконбол")
	bank := filepath.Join(b.dir, "questions.yaml")
	if err := os.WriteFile(bank, []byte(fbBank), 0o644); err != nil {
		t.Fatal(err)
	}
	tables := map[string]*table{}
	var steps []step
	for _, name := range games {
		switch name {
		case "cr":
			tables[name] = b.game(t, "cr", "gm-crusade", 1, crGame)
			for i, s := range crSteps {
				hm, _ := time.ParseInLocation("15:04", s.at, msk)
				at := time.Date(2026, 12, s.day, hm.Hour(), hm.Minute(), 0, 0, msk)
				steps = append(steps, step{at: at, game: name, i: i, who: s.who, txt: s.txt, pm: s.pm})
			}
		case "fb":
			tables[name] = b.game(t, "fb", "gm-football", 2, strings.Replace(fbGame, "QBANK", bank, 1))
			for i, s := range fbSteps {
				hm, _ := time.ParseInLocation("15:04", s.at, msk)
				at := time.Date(2026, 12, 1, hm.Hour(), hm.Minute(), 0, 0, msk)
				steps = append(steps, step{at: at, game: name, i: i, who: s.who, txt: s.txt, pm: s.pm})
			}
		case "db":
			tables[name] = b.game(t, "db", "gm-dragon", 3, dbGame)
			for i, s := range dbOrders {
				hm, _ := time.ParseInLocation("15:04", s.at, msk)
				at := time.Date(2026, 12, s.day, hm.Hour(), hm.Minute(), 0, 0, msk)
				steps = append(steps, step{at: at, game: name, i: i, who: s.who, txt: s.txt, pm: true})
			}
			steps = append(steps, step{at: time.Date(2026, 12, 1, 15, 0, 0, 0, msk), game: name, i: -1, who: "Джинни", txt: "Такт 1: 19 в2"})
		}
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].at.Before(steps[j].at) })
	// Every game sees every moment of the timeline, whether or not something happens in it, up to
	// Crusade's first close and Dragonball's end.
	steps = append(steps, step{at: time.Date(2026, 12, 2, 0, 5, 0, 0, msk)}, step{at: time.Date(2026, 12, 2, 23, 30, 0, 0, msk)})
	pids := map[string]map[int]int{"cr": {}, "fb": {}, "db": {}}
	settleAll(t, tables)
	for _, s := range steps {
		b.clock.Set(s.at)
		if g := tables[s.game]; g != nil && s.txt != "" {
			if s.pm {
				g.pm(t, s.who, s.txt)
			} else {
				pids[s.game][s.i] = g.post(t, s.who, s.txt)
			}
		}
		b.clock.Advance(30 * time.Second)
		settleAll(t, tables)
	}
	return tables, pids
}

// settleAll runs the games' cycles concurrently, round after round, until nothing is left to post.
func settleAll(t *testing.T, tables map[string]*table) {
	t.Helper()
	for round := 0; round < 10; round++ {
		var wg sync.WaitGroup
		errs := make(chan error, len(tables))
		for _, g := range tables {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := g.d.Cycle(g.b.ctx); err != nil {
					errs <- fmt.Errorf("%s: cycle: %w", g.id, err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		pending := 0
		for _, g := range tables {
			p, err := g.st.PendingOutbox(g.b.ctx, g.id)
			if err != nil {
				t.Fatal(err)
			}
			pending += len(p)
		}
		if pending == 0 {
			return
		}
	}
	t.Fatal("the outboxes do not empty")
}

// checkCrusade checks what crSteps must have led to.
func checkCrusade(t *testing.T, g *table, pids map[int]int) {
	t.Helper()
	want := map[int]store.Verdict{0: store.VerdictAccepted, 1: store.VerdictAccepted, 2: store.VerdictRefused}
	for i, v := range want {
		if got := g.verdict(t, store.SourceThread, strconv.Itoa(pids[i])); got != v {
			t.Errorf("crusade: %q: %s, want %s", crSteps[i].txt, got, v)
		}
	}
	if len(g.received(t, "Джелу")) == 0 {
		t.Errorf("crusade: no private answer to the wound allocation")
	}
	posts := g.botPosts(t)
	if withText(posts, "Вопрос дня №1") == "" {
		t.Errorf("crusade: no daily question")
	}
	k := g.kinds(t)
	if k["crusade.day_closed"] != 1 || k["crusade.turn_played"] != 2 || k["crusade.question_asked"] < 1 {
		t.Errorf("crusade: events %v", k)
	}
	g.exactlyOnce(t)
}

// attachRe is an attachment's tag: its number is the board's, counted across every game on it.
var attachRe = regexp.MustCompile(`\[attachment=\d+\]`)

// everything is a game's thread and the private messages its bot sent, markers and attachment
// numbers masked.
func everything(t *testing.T, g *table, users []string) string {
	var b strings.Builder
	b.WriteString(attachRe.ReplaceAllString(maskedThread(t, g), "[attachment=N]"))
	for _, u := range users {
		b.WriteString("\n" + u + ":\n" + keyRe.ReplaceAllString(strings.Join(g.received(t, u), "\n"), "${1}KEY"))
	}
	return b.String()
}

func TestGamesInOneProcess(t *testing.T) {
	players := map[string][]string{"cr": {"Джелу", "snovaya", "Moderator"}, "fb": fbUsers[1:], "db": dbUsers[1:]}
	names := []string{"cr", "fb", "db"}
	alone := map[string]string{}
	for _, name := range names {
		tables, _ := playTogether(t, name)
		alone[name] = everything(t, tables[name], players[name])
	}
	tables, pids := playTogether(t, names...)
	checkCrusade(t, tables["cr"], pids["cr"])
	checkFootball(t, tables["fb"], pids["fb"])
	checkDragonball(t, tables["db"])
	verifyAsGuest(t, tables["fb"]) // football, played to its end by the rules
	for _, name := range names {
		// What a draw made after players' posts decided (Crusade's day's question) depends on the
		// chain of those posts, their forum ids included (docs/fairness.md, section 1): the ids a
		// shared board gives differ from a board of one's own, so the question is masked here.
		if got := drawnMasked(everything(t, tables[name], players[name])); got != drawnMasked(alone[name]) {
			t.Errorf("%s played next to the others differs from %s alone:\n--- alone\n%s\n--- together\n%s", name, name, alone[name], got)
		}
		// No bot wrote to another game's players.
		for _, other := range names {
			if other == name {
				continue
			}
			for _, u := range players[other] {
				if u != "Moderator" && len(tables[name].received(t, u)) > 0 {
					t.Errorf("the %s bot wrote to %s, who plays %s", name, u, other)
				}
			}
		}
		t.Logf("%s: %d posts in its thread", name, len(tables[name].botPosts(t)))
	}
}

// chainDependent is what depends on the chain's posts' forum ids: the day's question's text in
// Crusade's posts (a draw made after players' posts decided it) and the final post's list of the
// chain's posts (ids and heads).
var chainDependent = regexp.MustCompile(`((?:Вопрос дня[^:\n]*|` + regexp.QuoteMeta(strings.TrimSuffix(referee.ChainLead, ":")) + `):(?:\[/b\])?) [^\n]*`)

// chainDrawn is what the start's draws and later ones decided, which depends on the chain's
// post ids too since the start's draws wait for the first player post (issue 20): football's die
// tables (their commitments, salts and faces) and the draws listed at the reveal.
var chainDrawn = regexp.MustCompile(`[0-9a-f]{64}|Соль: [0-9a-f]+|(?m)^[ \t]*(?:\d+:\d+[ \t]+)+\d+:\d+[ \t]*$|\d+:\d+:\d+@\d+`)

// drawnMasked masks what depends on the chain's post ids in a thread.
func drawnMasked(s string) string {
	return strings.TrimSpace(chainDrawn.ReplaceAllString(chainDependent.ReplaceAllString(s, "$1 …"), "…"))
}

// verifyAsGuest reads a finished game's thread as a guest (no login) through the mybb dialect and
// checks it from its public posts alone (audit.Public), merged posts in their parts as judged.
func verifyAsGuest(t *testing.T, g *table) {
	t.Helper()
	f, err := mybb.New(forum.Config{BaseURL: g.b.url + "/", Location: msk, Now: g.b.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000})))
	if err != nil {
		t.Fatal(err)
	}
	var pub []audit.PublicPost
	var cur forum.Cursor
	for range 100 {
		ps, next, err := f.Posts(g.b.ctx, forum.Thread{ID: strconv.Itoa(g.thread)}, cur)
		if err != nil {
			t.Fatalf("%s: read the thread as a guest: %v", g.id, err)
		}
		if len(ps) == 0 || next == cur {
			break
		}
		for _, p := range ps {
			for _, part := range Parts(p) {
				pub = append(pub, audit.PublicPost{ID: part.ID, Author: part.Author, Text: part.Text, Code: part.Code})
			}
		}
		cur = next
	}
	rep, err := audit.Public(pub, g.bot, known)
	if err != nil {
		t.Fatalf("%s: %v", g.id, err)
	}
	if !rep.OK() || !strings.Contains(rep.String(), "draw 0 (after") {
		t.Errorf("%s: the finished game does not check out from its public posts:\n%s", g.id, rep)
	}
}

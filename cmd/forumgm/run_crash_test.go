package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/sandbox"
	"forumgm/store"
)

var binOnce sync.Once
var binPath string
var binErr error

// buildBinary builds forumgm once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "forumgm-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "forumgm")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

var mskZone = time.FixedZone("MSK", 3*3600)

// crashWorld is a sandbox board served by the test process and a game folder for the child.
type crashWorld struct {
	dir, cfgPath, clockPath string
	board                   *sandbox.Server
	url                     string
	now                     time.Time
	mu                      sync.Mutex
	game                    *crashGame
	pids                    []int         // the players' thread posts
	proc                    *os.Process   // the running child, for a test that kills it from elsewhere
	childTimeout            time.Duration // how long a child may run (0: 60 s)
}

// crashGame is what a crash world plays: a game of any kind, the players' posts and private
// messages (all made before the daemon runs, at their times), and the clock the daemon runs at.
type crashGame struct {
	id            string // the game's id in the config; "": its kind
	seedAs        string // the fleet worlds register the game with the seed of this id; "": its own
	kind, subject string
	start         string   // RFC 3339
	players       []string // board users besides Moderator and the bot
	section       string   // the config's game section after id, kind and start (indented two spaces)
	posts         []crashPost
	until         time.Time         // the clock while the daemon runs
	clockAt       time.Time         // finished: the game clock has reached this
	files         map[string]string // written next to config.yaml (a question bank)
}

// crashPost is a thread post or a private message to the bot; at is "15:04" on the start day or
// "2006-01-02 15:04".
type crashPost struct {
	at, author, text string
	pm               bool
}

func (p crashPost) time(start time.Time) time.Time {
	layout, v := "2006-01-02 15:04", p.at
	if !strings.Contains(v, " ") {
		v = start.In(mskZone).Format("2006-01-02") + " " + v
	}
	at, err := time.ParseInLocation(layout, v, mskZone)
	if err != nil {
		panic(err)
	}
	return at
}

func (w *crashWorld) Now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

func (w *crashWorld) set(t *testing.T, at time.Time) {
	w.mu.Lock()
	w.now = at
	w.mu.Unlock()
	tmp := w.clockPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(at.Format(time.RFC3339Nano)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, w.clockPath); err != nil {
		t.Fatal(err)
	}
}

const crashStart = "2026-12-01T18:00:00+03:00" // a Tuesday

// crusadeCrash is the evening the Crusade crash test plays: moves, a refusal, chatter, a private
// message, the 21:10 question, the 00:00 close.
var crusadeCrash = crashGame{
	kind: "crusade", subject: "Крестовый поход", start: crashStart, players: []string{"Джелу", "snovaya"},
	section: "  timezone: Europe/Moscow\n  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]\n",
	posts: []crashPost{
		{"19:05", "Джелу", "1-й ход крестоносца к1 на K16", false},
		{"19:20", "snovaya", "1-й ход сарацина в1 на E6", false},
		{"19:40", "Джелу", "2-й ход крестоносца к2 на Z99", false},
		{"19:45", "Джелу", "всем привет, хорошей игры", false},
		{"20:10", "Джелу", "2-й ход крестоносца к2 на L16", false},
		{"20:30", "snovaya", "раны: в1", true},
		{"21:30", "snovaya", "2-й ход сарацина в2 на F6", false},
		{"22:00", "Джелу", "3-й ход крестоносца к3 на M16", false},
	},
	until:   time.Date(2026, 12, 2, 0, 40, 0, 0, mskZone),
	clockAt: time.Date(2026, 12, 2, 0, 0, 0, 0, mskZone),
}

func newCrashWorld(t *testing.T, ctx context.Context, game *crashGame) *crashWorld {
	dir := t.TempDir()
	w := &crashWorld{dir: dir, cfgPath: filepath.Join(dir, "config.yaml"), clockPath: filepath.Join(dir, "clock"), game: game}
	start, err := time.Parse(time.RFC3339, game.start)
	if err != nil {
		t.Fatal(err)
	}
	w.set(t, start)
	users := []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"}}
	for i, p := range game.players {
		users = append(users, sandbox.User{Name: p, Password: fmt.Sprintf("p-%d", i)})
	}
	w.board, err = sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: w.Now, Location: mskZone,
		Users:        users,
		Threads:      []sandbox.Thread{{Subject: game.subject, Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: "Партия начинается."}}}},
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.board.Close() })
	if w.url, err = w.board.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
moderators: [Moderator]
game:
  id: crash
  kind: %s
  start: %q
%sstore: {path: forumgm.db}
ops: {log_format: json, log_level: debug}
`, w.url+"/", game.kind, game.start, game.section)
	if err := os.WriteFile(w.cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range game.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every world's game is registered with the same seed (a live game draws its own), so the
	// threads of the runs can be compared byte for byte.
	pre, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"))
	if err != nil {
		t.Fatal(err)
	}
	rec := daemon.GameRecord{Kind: game.kind, Forum: w.url + "/", Thread: "1", Start: start.UTC(), Seed: "crash-seed", Salt: "crash-salt"}
	if _, err := daemon.RegisterRecord(ctx, pre, "crash", rec); err != nil {
		t.Fatal(err)
	}
	pre.Close()
	// The players post the whole game (board times), then the clock moves past its end.
	for _, p := range game.posts {
		w.set(t, p.time(start))
		if p.pm {
			if err := w.board.SendPM(ctx, p.author, "gm-bot", "ход", p.text); err != nil {
				t.Fatal(err)
			}
			continue
		}
		pid, _, err := w.board.Reply(ctx, p.author, 1, p.text)
		if err != nil {
			t.Fatal(err)
		}
		w.pids = append(w.pids, pid)
	}
	w.set(t, game.until)
	return w
}

// child runs the daemon against w until it exits, or until done() holds (then it is stopped with
// SIGTERM), or it is SIGKILLed after killAfter (>0).
func (w *crashWorld) child(t *testing.T, bin string, exitAfter string, killAfter time.Duration, done func() bool) (string, error) {
	cmd := exec.Command(bin, "run", "--config", w.cfgPath)
	cmd.Env = append(os.Environ(), "FORUMGM_TEST_BOT_PW=bot-secret-pw-1", "FORUMGM_TEST_CLOCK_FILE="+w.clockPath,
		"FORUMGM_TEST_POLL=20ms", "FORUMGM_TEST_FAST_HTTP=1", "FORUMGM_TEST_RESCAN=1h",
		"FORUMGM_TEST_FIXED_CHANCE=1") // scripted games fix their dice
	if exitAfter != "" {
		cmd.Env = append(cmd.Env, "FORUMGM_TEST_EXIT_AFTER="+exitAfter)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	w.proc = cmd.Process
	w.mu.Unlock()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(cmp.Or(w.childTimeout, 60*time.Second))
	var kill <-chan time.Time
	if killAfter > 0 {
		kill = time.After(killAfter)
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			return out.String(), err
		case <-kill:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			return out.String(), <-exited
		case <-tick.C:
			if done != nil && done() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				err := <-exited
				return out.String(), err
			}
		case <-deadline:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			t.Fatalf("child did not finish in time; output:\n%s", out.String())
		}
	}
}

// finished reports whether the game has judged every post, fired the close and posted everything.
func (w *crashWorld) finished(t *testing.T) bool {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(w.dir, "forumgm.db"), store.Shared())
	if err != nil {
		return false
	}
	defer st.Close()
	clk, ok, err := st.Clock(ctx, "crash")
	if err != nil || !ok {
		return false
	}
	if clk.Before(w.game.clockAt) {
		return false
	}
	pend, err := st.PendingOutbox(ctx, "crash")
	if err != nil || len(pend) > 0 {
		return false
	}
	for _, pid := range w.pids {
		if rec, ok, err := st.SeenPost(ctx, "crash", store.SourceThread, fmt.Sprint(pid)); err != nil || !ok || !rec.Judged() {
			return false
		}
	}
	pms, err := w.board.PMs(ctx, "gm-bot")
	if err != nil {
		return false
	}
	for _, pm := range pms {
		if pm.Folder != 1 {
			continue
		}
		if rec, ok, err := st.SeenPost(ctx, "crash", store.SourcePM, fmt.Sprint(pm.PMID)); err != nil || !ok || !rec.Judged() {
			return false
		}
	}
	return true
}

var crashMarker = regexp.MustCompile(`fgm-crash-\d+-[0-9a-f]{12}(-p\d+)?`)

// crashKey is the keyed part of a marker (each database has its own key): the runs compare
// threads with it masked.
var crashKey = regexp.MustCompile(`(fgm-crash-\d+-)[0-9a-f]{12}`)

var attachmentTag = regexp.MustCompile(`\[attachment=(\d+)\]`)

// namedAttachments writes each [attachment=AID] of post pid as the file it places (its name and
// the hash of its content): the board numbers every upload, so a run killed after uploading a
// picture and before posting its reply leaves an unposted upload behind, and the reply posted
// again places the same picture under the next number.
// sentPM is a private message the bot sent (as the board stored it in the recipient's inbox).
type sentPM struct{ to, message string }

// botPMs lists, user by user in order, the private messages the bot sent to users.
func botPMs(t *testing.T, board *sandbox.Server, users []string) []sentPM {
	t.Helper()
	var out []sentPM
	for _, u := range users {
		pms, err := board.PMs(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		for _, pm := range pms {
			if pm.From == "gm-bot" && pm.Folder == 1 {
				out = append(out, sentPM{u, pm.Message})
			}
		}
	}
	return out
}

func namedAttachments(t *testing.T, board *sandbox.Server, pid int, msg string) string {
	files, err := board.Attachments(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	placed := map[int]bool{}
	msg = attachmentTag.ReplaceAllStringFunc(msg, func(tag string) string {
		aid, _ := strconv.Atoi(attachmentTag.FindStringSubmatch(tag)[1])
		for _, f := range files {
			if f.AID == aid {
				placed[aid] = true
				return fmt.Sprintf("[attachment %s %x]", f.Name, sha256.Sum256(f.Data))
			}
		}
		return tag + " (not this post's)"
	})
	for _, f := range files {
		if !placed[f.AID] {
			msg += fmt.Sprintf("\n(unplaced attachment %s %x)", f.Name, sha256.Sum256(f.Data))
		}
	}
	return msg
}

type crashResult struct {
	thread   []string // the bot's posts, in thread order
	pms      []string // the bot's private messages, player by player, in the order received
	snapshot string
	events   []string // the event log, one line an event: seq, time, cause, kind, data (fleet worlds)
}

func (w *crashWorld) result(t *testing.T) crashResult {
	ctx := context.Background()
	posts, err := w.board.Posts(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var r crashResult
	count := map[string]int{}
	for _, p := range posts {
		if p.Author == "gm-bot" && p.PID != 1 {
			r.thread = append(r.thread, crashKey.ReplaceAllString(namedAttachments(t, w.board, p.PID, p.Message), "${1}KEY"))
			for _, m := range crashMarker.FindAllString(p.Message, -1) {
				count[m]++
			}
		}
	}
	for m, n := range count {
		if n != 1 {
			t.Errorf("reply %s is in the thread %d times", m, n)
		}
	}
	count = map[string]int{}
	for _, pm := range botPMs(t, w.board, w.game.players) {
		r.pms = append(r.pms, pm.to+": "+crashKey.ReplaceAllString(pm.message, "${1}KEY"))
		for _, m := range crashMarker.FindAllString(pm.message, -1) {
			count[m]++
		}
	}
	for m, n := range count {
		if n != 1 {
			t.Errorf("private message %s arrived %d times", m, n)
		}
	}
	cfg, err := config.Load(w.cfgPath, knownGames())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(w.dir, "forumgm.db"), store.Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := daemon.Register(ctx, st, cfg, cfg.StartTime()) // the child's record: its seed
	if err != nil {
		t.Fatal(err)
	}
	newRef, err := daemon.RefereeFactory(cfg, forum.Capabilities{PrivateMessages: true, MaxPostLength: 65535}, rec)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := newRef()
	recs, err := st.Records(ctx, "crash")
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Restore(recs); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ref.Snapshot())
	r.snapshot = string(b)
	return r
}

func TestCrashAnywhereExactlyOnce(t *testing.T) {
	crashAnywhere(t, &crusadeCrash, []string{"started:1", "judged:1", "attempt:2", "sent:1", "posted:1", "fired:1", "judged:2", "sent:2", "posted:2", "attempt:3"})
}

// crashAnywhere plays game once uninterrupted, then again with the daemon killed at the hook
// points in kinds (in turn, each run resuming the last) and at random moments, and compares the
// threads, the private messages and the final states.
func crashAnywhere(t *testing.T, game *crashGame, kinds []string) {
	bin := buildBinary(t)
	ctx := context.Background()

	// The uninterrupted run.
	base := newCrashWorld(t, ctx, game)
	out, err := base.child(t, bin, "", 0, func() bool { return base.finished(t) })
	if err != nil && !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("baseline run: %v\n%s", err, out)
	}
	if strings.Contains(out, "bot-secret-pw-1") {
		t.Fatalf("the bot's password is in the log")
	}
	want := base.result(t)
	if len(want.thread)+len(want.pms) < len(game.posts) {
		t.Fatalf("baseline: only %d bot replies:\n%s", len(want.thread), strings.Join(want.thread, "\n---\n"))
	}
	verifyAsGuest(t, base, want)

	// The same evening with the daemon killed at many points of the pipeline.
	w := newCrashWorld(t, ctx, game)
	kills, hookKills, runs := 0, 0, 0
	var exits []string
	for i := 0; i < 60 && !w.finished(t); i++ {
		runs++
		out, err := w.child(t, bin, kinds[i%len(kinds)], 0, w.finishedFn(t))
		if err != nil && strings.Contains(out, "test hook: exiting") {
			kills++
			hookKills++
			exits = append(exits, kinds[i%len(kinds)])
		}
	}
	// And a few SIGKILLs at random moments (fixed seed) on a fresh evening.
	w2 := newCrashWorld(t, ctx, game)
	rng := rand.New(rand.NewPCG(4, 2))
	for i := 0; i < 8 && !w2.finished(t); i++ {
		runs++
		if _, err := w2.child(t, bin, "", time.Duration(30+rng.IntN(300))*time.Millisecond, w2.finishedFn(t)); err != nil {
			kills++
		}
	}
	if _, err := w2.child(t, bin, "", 0, w2.finishedFn(t)); err != nil && !w2.finished(t) {
		t.Fatalf("random-kill world did not finish: %v", err)
	}
	got2 := w2.result(t)
	if strings.Join(got2.thread, "\n===\n") != strings.Join(want.thread, "\n===\n") || got2.snapshot != want.snapshot ||
		strings.Join(got2.pms, "\n===\n") != strings.Join(want.pms, "\n===\n") {
		t.Errorf("random SIGKILLs: the thread or the final state differs from the uninterrupted run's")
	}
	out, err = w.child(t, bin, "", 0, w.finishedFn(t))
	if !w.finished(t) {
		t.Fatalf("the game did not finish after the crashes (%v):\n%s", err, out)
	}
	got := w.result(t)
	t.Logf("%d runs, %d crashes (%d hook exits: %s; the rest SIGKILLs); %d bot replies, %d private messages", runs, kills, hookKills,
		strings.Join(exits, " "), len(got.thread), len(got.pms))
	// The hook exits are what the pipeline reached, not a matter of timing; the random SIGKILLs
	// may land after the game finished and are not counted on.
	if hookKills < 5 {
		t.Errorf("only %d hook crashes happened", hookKills)
	}
	sameAsUninterrupted(t, want, got)
}

func (w *crashWorld) finishedFn(t *testing.T) func() bool {
	return func() bool { return w.finished(t) }
}

// sameAsUninterrupted compares a run's thread, private messages and final state with the
// uninterrupted run's.
func sameAsUninterrupted(t *testing.T, want, got crashResult) {
	t.Helper()
	if strings.Join(got.thread, "\n===\n") != strings.Join(want.thread, "\n===\n") {
		t.Errorf("the thread differs from the uninterrupted run's:\n--- want\n%s\n--- got\n%s",
			strings.Join(want.thread, "\n===\n"), strings.Join(got.thread, "\n===\n"))
	}
	if strings.Join(got.pms, "\n===\n") != strings.Join(want.pms, "\n===\n") {
		t.Errorf("the private messages differ from the uninterrupted run's:\n--- want\n%s\n--- got\n%s",
			strings.Join(want.pms, "\n===\n"), strings.Join(got.pms, "\n===\n"))
	}
	if got.snapshot != want.snapshot {
		t.Errorf("final state differs:\nwant %s\ngot  %s", want.snapshot, got.snapshot)
	}
}

// verifyAsGuest checks a finished game's thread (its last bot post reveals the seed) with
// `forumgm verify URL`, read as a guest from the board over loopback: it passes (issue 20).
func verifyAsGuest(t *testing.T, w *crashWorld, res crashResult) {
	t.Helper()
	if len(res.thread) == 0 || !strings.Contains(res.thread[len(res.thread)-1], "Зерно партии") {
		return // the game runs on past the test's evening
	}
	var out, errb strings.Builder
	if code := run([]string{"verify", "--dialect", "mybb", w.url + "/showthread.php?tid=1"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "verified") || !strings.Contains(out.String(), "draw 0 (after") {
		t.Errorf("forumgm verify URL on the finished %s game: exit %d\n%s%s", w.game.kind, code, out.String(), errb.String())
		return
	}
	t.Logf("forumgm verify URL on the finished %s game: %d checks passed", w.game.kind, strings.Count(out.String(), "\nok "))
}

package fleet

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"forumgm/config"
	"forumgm/sandbox"
	"forumgm/store"
)

// The load benchmark: one forumgm daemon process running many Crusade games on the sandbox board
// (one forum, several sections, one bot account) at real politeness (1 request/s) and 60 s polls,
// measured from outside: its CPU time and resident memory from /proc, the requests and bytes at
// the board from a counting listener. It first runs the daemon with the rate limit off until
// every game has posted its opening (the warm-up), stops it, starts it again as a restarted
// daemon would be, lets it settle and then measures. Run it with
//
//	go test ./fleet -run XXX -bench FleetIdle -benchtime 1x -fleet.games 500 -fleet.for 3m
var (
	loadGames    = flag.Int("fleet.games", 500, "load benchmark: games (one thread each)")
	loadSections = flag.Int("fleet.sections", 10, "load benchmark: forum sections the threads are spread over")
	loadFor      = flag.Duration("fleet.for", 3*time.Minute, "load benchmark: how long to measure")
	loadSettle   = flag.Duration("fleet.settle", 90*time.Second, "load benchmark: how long the restarted daemon runs before measuring")
	loadPosts    = flag.Int("fleet.posts", 0, "load benchmark: player posts made while measuring (reply latency)")
	loadEnv      = flag.String("fleet.env", "", "load benchmark: extra environment of the daemon, e.g. GOMEMLIMIT=30MiB (space-separated)")
	loadPoll     = flag.Duration("fleet.poll", 60*time.Second, "load benchmark: the games' poll interval (floor and ceiling)")
	loadSeed     = flag.Uint64("fleet.seed", 0, "load benchmark: the player posts go at random moments of the measure drawn from this seed (0: evenly spread)")
	loadProfile  = flag.String("fleet.profile", "", "load benchmark: save the daemon's heap and goroutine profiles and its memory map to this `PREFIX` (.heap, .goroutine, .smaps) at the end")
	loadRescan   = flag.Duration("fleet.rescan", 0, "load benchmark: every game gets a move in the warm-up and the measured daemon rescans every game this often (0: no moves, default rescans)")
	loadTrace    = flag.Bool("fleet.trace", false, "load benchmark: log each reply's requests (those of its thread, and the index and section lists meanwhile) from the move to the reply")
)

func BenchmarkFleetIdle(b *testing.B) {
	for range b.N {
		r := runLoad(b, *loadGames, *loadSections, *loadFor, *loadSettle, *loadPosts)
		b.ReportMetric(r.cpuPercent, "cpu%_of_2_cores")
		b.ReportMetric(r.rssMB, "rss_MB")
		b.ReportMetric(r.anonMB, "rss_anon_MB")
		b.ReportMetric(r.requestsPerSec, "requests/s")
		b.ReportMetric(r.bytesPerGamePoll, "bytes/game_poll")
		b.ReportMetric(r.requestsPerGamePoll, "requests/game_poll")
		b.ReportMetric(r.byClass["background"], "background_requests")
		b.ReportMetric(float64(r.perSecond), "most_requests_in_a_second")
		if len(r.latencies) > 0 {
			b.ReportMetric(r.p50.Seconds(), "reply_p50_s")
			b.ReportMetric(r.p95.Seconds(), "reply_p95_s")
		}
		b.Logf("%d games, %d sections, measured %s: %s", *loadGames, *loadSections, *loadFor, r)
	}
}

type loadResult struct {
	cpuPercent, rssMB, anonMB, requestsPerSec, bytesPerGamePoll, requestsPerGamePoll float64
	requests, bytes                                                                  int64
	byPath                                                                           map[string]int64
	latencies                                                                        []time.Duration
	p50, p95                                                                         time.Duration
	warmup                                                                           time.Duration
	goMem                                                                            string             // the Go runtime's view (/metrics)
	byClass                                                                          map[string]float64 // requests let out in the measure, by scheduler class
	perSecond                                                                        int                // the most requests the board got in any second (a closed one)
}

func (r loadResult) String() string {
	var paths []string
	for p, n := range r.byPath {
		paths = append(paths, fmt.Sprintf("%s=%d", p, n))
	}
	sort.Strings(paths)
	var classes []string
	for c, n := range r.byClass {
		classes = append(classes, fmt.Sprintf("%s=%.0f", c, n))
	}
	sort.Strings(classes)
	return fmt.Sprintf("cpu %.2f%% of 2 cores, rss %.1f MB (%.1f MB anonymous; Go: %s), %d requests (%.3f/s), %d bytes (%.0f bytes and %.4f requests per game poll), by path %s, by class %s; warm-up %s; p50 %s p95 %s over %d replies; at most %d requests in any second",
		r.cpuPercent, r.rssMB, r.anonMB, r.goMem, r.requests, r.requestsPerSec, r.bytes, r.bytesPerGamePoll, r.requestsPerGamePoll,
		strings.Join(paths, " "), strings.Join(classes, " "), r.warmup.Round(time.Second), r.p50, r.p95, len(r.latencies), r.perSecond)
}

// saveProfile saves the daemon's pprof profile name (from its ops listener) to path.
func saveProfile(addr, name, path string) error {
	resp, err := http.Get("http://" + addr + "/debug/pprof/" + name)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// goMemory is the Go runtime's memory as the daemon's /metrics shows it: heap in use, stacks,
// goroutines, and what the runtime holds from the system.
func goMemory(addr string) string {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return "no /metrics: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	want := map[string]string{"go_memstats_heap_inuse_bytes": "heap in use", "go_memstats_heap_alloc_bytes": "heap live+garbage",
		"go_memstats_stack_inuse_bytes": "stacks", "go_memstats_sys_bytes": "from the system", "go_goroutines": "goroutines",
		"go_memstats_heap_idle_bytes": "heap idle", "go_memstats_heap_released_bytes": "released",
		"go_memstats_gc_sys_bytes": "GC metadata", "go_memstats_other_sys_bytes": "other runtime", "go_memstats_buck_hash_sys_bytes": "profiling buckets",
		"go_memstats_mspan_inuse_bytes": "span structures"}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 || want[f[0]] == "" {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		if f[0] == "go_goroutines" {
			out = append(out, fmt.Sprintf("%s %.0f", want[f[0]], v))
		} else {
			out = append(out, fmt.Sprintf("%s %.1f MB", want[f[0]], v/(1<<20)))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// classRequests is how many requests the daemon's schedulers let out, by class (the counts of
// forumgm_request_wait_seconds in its /metrics).
func classRequests(addr string) map[string]float64 {
	out := map[string]float64{}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "forumgm_request_wait_seconds_count{") {
			continue
		}
		_, rest, _ := strings.Cut(l, `class="`)
		class, _, _ := strings.Cut(rest, `"`)
		f := strings.Fields(l)
		v, _ := strconv.ParseFloat(f[len(f)-1], 64)
		out[class] += v
	}
	return out
}

// counting counts the bytes both ways on a listener's connections and the requests by script.
type counting struct {
	net.Listener
	in, out  atomic.Int64
	requests atomic.Int64
	paths    [8]atomic.Int64

	trace   bool // keep every request (traced)
	traceMu sync.Mutex
	traced  []tracedRequest
	stamps  []time.Time // when each request came (traceMu)
}

// mostInASecond is the most requests that came within one second of each other (both ends in).
func (c *counting) mostInASecond() int {
	c.traceMu.Lock()
	defer c.traceMu.Unlock()
	most := 0
	for i, j := 0, 0; j < len(c.stamps); j++ {
		for c.stamps[j].Sub(c.stamps[i]) > time.Second {
			i++
		}
		most = max(most, j-i+1)
	}
	return most
}

// tracedRequest is one request the board got: when, and what.
type tracedRequest struct {
	at   time.Time
	what string // method and request URI
}

var countedPaths = []string{"/showthread.php", "/forumdisplay.php", "/private.php", "/newreply.php", "/member.php", "/index.php", "/xmlhttp.php"}

func (c *counting) Accept() (net.Conn, error) {
	conn, err := c.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countConn{Conn: conn, c: c}, nil
}

func (c *counting) reset() {
	c.in.Store(0)
	c.out.Store(0)
	c.requests.Store(0)
	c.traceMu.Lock()
	c.traced, c.stamps = nil, nil
	c.traceMu.Unlock()
	for i := range c.paths {
		c.paths[i].Store(0)
	}
}

func (c *counting) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.requests.Add(1)
		i := len(countedPaths)
		for j, p := range countedPaths {
			if r.URL.Path == p {
				i = j
			}
		}
		c.paths[i].Add(1)
		c.traceMu.Lock()
		now := time.Now()
		c.stamps = append(c.stamps, now)
		if c.trace {
			c.traced = append(c.traced, tracedRequest{at: now, what: r.Method + " " + r.URL.RequestURI()})
		}
		c.traceMu.Unlock()
		h.ServeHTTP(w, r)
	})
}

type countConn struct {
	net.Conn
	c *counting
}

func (c *countConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.c.in.Add(int64(n))
	return n, err
}

func (c *countConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.c.out.Add(int64(n))
	return n, err
}

func buildForumgm(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "forumgm")
	if out, err := exec.Command("go", "build", "-o", bin, "forumgm/cmd/forumgm").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// procStat is a process's CPU time (user+system) and resident memory (all, and the anonymous
// part: heap and stacks, not the mapped binary), from /proc.
func procStat(tb testing.TB, pid int) (cpu time.Duration, rss, anon int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	cpu = time.Duration(utime+stime) * time.Second / 100 // USER_HZ is 100 on Linux
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(st), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			rss = kb * 1024
		}
		if strings.HasPrefix(l, "RssAnon:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			anon = kb * 1024
		}
	}
	return cpu, rss, anon
}

func runLoad(b *testing.B, games, sections int, measure, settle time.Duration, posts int) loadResult {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bin := buildForumgm(b)
	dir := b.TempDir()
	var forums []sandbox.Forum
	for i := range sections {
		forums = append(forums, sandbox.Forum{FID: 10 + i, Name: fmt.Sprintf("Игры %d", i+1)})
	}
	var threads []sandbox.Thread
	for i := range games {
		threads = append(threads, sandbox.Thread{FID: 10 + i%sections, Subject: fmt.Sprintf("Партия %d", i+1),
			Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Набор в партию закрыт, играем."}}})
	}
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Location: time.UTC,
		Forums: forums, Threads: threads, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Users: []sandbox.User{{Name: "gm-bot", Password: "bot-pw-123"}, {Name: "Moderator", Password: "m"},
			{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}}})
	if err != nil {
		b.Fatal(err)
	}
	defer board.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	cl := &counting{Listener: ln, trace: *loadTrace}
	srv := &http.Server{Handler: cl.wrap(board.Handler()), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(cl) }()
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"

	opsLn, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the daemon's /metrics
	if err != nil {
		b.Fatal(err)
	}
	opsAddr := opsLn.Addr().String()
	opsLn.Close()
	var cfg strings.Builder
	fmt.Fprintf(&cfg, `forums:
  main: {url: %q, dialect: mybb, timezone: UTC, bot: {username: gm-bot, password_env: FLEET_BOT_PW}, extra: {rate: "1"}}
moderators: [Moderator]
poll: {floor: %s, ceiling: %s}
store: {path: forumgm.db}
ops: {log_format: json, log_level: warn, listen: %q}
games:
`, url, *loadPoll, *loadPoll, opsAddr)
	for i := range games {
		fmt.Fprintf(&cfg, "  - {id: g%d, kind: crusade, forum: main, thread: %q, timezone: UTC, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}], settings: {daily_question: false, board_required: false}}\n", i+1, strconv.Itoa(i+1))
	}
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "board.db")+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	botThreads := func() int {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(DISTINCT p.tid) FROM posts p JOIN users u ON u.uid = p.uid WHERE u.username = 'gm-bot'`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	start := func(fast bool) (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(bin, "run", "--config", cfgPath)
		cmd.Env = append(os.Environ(), "FLEET_BOT_PW=bot-pw-123")
		if *loadProfile != "" {
			cmd.Env = append(cmd.Env, "GODEBUG=memprofilerate=4096") // the daemon samples no heap unless asked (resident.Tune)
		}
		cmd.Env = append(cmd.Env, strings.Fields(*loadEnv)...)
		if fast {
			cmd.Env = append(cmd.Env, "FORUMGM_TEST_FAST_HTTP=1", "FORUMGM_TEST_POLL=200ms")
		}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		return cmd, &out
	}
	stop := func(cmd *exec.Cmd) {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	b.StopTimer()
	var r loadResult
	// Warm-up: every game posts its opening.
	t0 := time.Now()
	cmd, out := start(true)
	for botThreads() < games {
		if time.Since(t0) > 30*time.Minute {
			stop(cmd)
			b.Fatalf("warm-up: %d of %d games opened after 30 minutes:\n%s", botThreads(), games, tail(out.String()))
		}
		time.Sleep(500 * time.Millisecond)
	}
	b.Logf("warm-up: %d openings after %s", games, time.Since(t0).Round(time.Second))
	if *loadRescan > 0 {
		// Every game gets a move, so that every game has a move post its rescans read again:
		// five games of each section at a time, the next round once the bot answered them. (All
		// 500 at once put more threads of a section than its list's first page holds (20)
		// between two looks at it: a thread pushed off the page looked unchanged (fleet.still)
		// and its move waited for the game's hourly verifying read; the games now read such
		// threads once (section.spill), but a burst is not what this warm-up is for.)
		for first := 1; first <= games; first += 5 * sections {
			round := min(games, first+5*sections-1)
			for tid := first; tid <= round; tid++ {
				if _, _, err := board.Reply(ctx, "Джелу", tid, "1-й ход крестоносца к1 на K16"); err != nil {
					b.Fatal(err)
				}
			}
			for tid := first; tid <= round; tid++ {
				for botCount(b, db, tid) < 2 {
					if time.Since(t0) > 30*time.Minute {
						stop(cmd)
						b.Fatalf("warm-up: game %d did not answer its move:\n%s", tid, tail(out.String()))
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		}
		b.Logf("warm-up: %d moves answered after %s", games, time.Since(t0).Round(time.Second))
		// The bot's replies are not read back, and the sections' lists that would show them
		// stand for 10 minutes while the board index shows only the bot's own posts: a cursor
		// keeps the head from before its reply until then, and a daemon started meanwhile reads
		// the thread once (a poll). That read is done here, by a restarted fast daemon, not
		// at 1 request/s in the measure (nor by waiting the 10 minutes).
		stop(cmd)
		cmd, out = start(true)
	}
	// ... and has read it back: every game's cursor is at its thread's last post, with the
	// section's head (as after any quiet spell).
	// (A few games probe their threads and keep no list head: the cursors need none.)
	for !settled(b, ctx, db, filepath.Join(dir, "forumgm.db"), games, games > maxProbeGames && games >= 2*sections) {
		if time.Since(t0) > 30*time.Minute {
			stop(cmd)
			b.Fatalf("warm-up: the games' cursors did not settle:\n%s", tail(out.String()))
		}
		time.Sleep(time.Second)
	}
	b.Logf("warm-up: cursors settled after %s", time.Since(t0).Round(time.Second))
	stop(cmd)
	r.warmup = time.Since(t0)

	// The restarted daemon at real politeness.
	if *loadRescan > 0 {
		os.Setenv("FORUMGM_TEST_RESCAN", loadRescan.String())
		defer os.Unsetenv("FORUMGM_TEST_RESCAN")
	}
	cmd, out = start(false)
	defer stop(cmd)
	time.Sleep(settle)
	cl.reset()
	class0 := classRequests(opsAddr)
	cpu0, _, _ := procStat(b, cmd.Process.Pid)
	m0 := time.Now()
	b.StartTimer()
	// Player moves during the measure, each in its own game: the time until the bot's reply is
	// on the board.
	latc := make(chan time.Duration, posts)
	type move struct {
		tid        int
		sent, seen time.Time
	}
	movec := make(chan move, posts)
	if posts > 0 {
		at := make([]time.Duration, posts) // when each post goes, from the measure's start
		rnd := rand.New(rand.NewPCG(*loadSeed, 23))
		for i := range at {
			at[i] = measure * time.Duration(i+1) / time.Duration(posts+1)
			if *loadSeed != 0 {
				at[i] = time.Duration(rnd.Int64N(int64(measure * 9 / 10))) // the last tenth left for the answers
			}
		}
		sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
		for i := range posts {
			time.Sleep(time.Until(m0.Add(at[i])))
			tid := 1 + (i*7919)%games
			n0 := botCount(b, db, tid)
			sent := time.Now()
			if _, _, err := board.Reply(ctx, "Джелу", tid, "1-й ход крестоносца к1 на K16"); err != nil {
				b.Fatal(err)
			}
			go func() {
				for time.Since(sent) < 5*time.Minute {
					if botCount(b, db, tid) > n0 {
						latc <- time.Since(sent)
						movec <- move{tid, sent, time.Now()}
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
				latc <- 5 * time.Minute
			}()
		}
	}
	time.Sleep(time.Until(m0.Add(measure)))
	b.StopTimer()
	wall := time.Since(m0)
	cpu1, rss, anon := procStat(b, cmd.Process.Pid)
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		b.Fatalf("the daemon died:\n%s", tail(out.String()))
	}
	r.goMem = goMemory(opsAddr)
	r.byClass = classRequests(opsAddr)
	for c, n := range class0 {
		r.byClass[c] -= n
	}
	if *loadProfile != "" {
		for _, p := range []string{"heap", "goroutine"} {
			if err := saveProfile(opsAddr, p, *loadProfile+"."+p); err != nil {
				b.Logf("profile %s: %v", p, err)
			}
		}
		if smaps, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", cmd.Process.Pid)); err == nil {
			_ = os.WriteFile(*loadProfile+".smaps", smaps, 0o644)
		}
	}
	r.requests = cl.requests.Load()
	r.bytes = cl.in.Load() + cl.out.Load()
	r.perSecond = cl.mostInASecond()
	r.byPath = map[string]int64{}
	for i, p := range append(countedPaths, "other") {
		if n := cl.paths[i].Load(); n > 0 {
			r.byPath[strings.TrimPrefix(p, "/")] = n
		}
	}
	r.cpuPercent = 100 * (cpu1 - cpu0).Seconds() / (2 * wall.Seconds())
	r.rssMB = float64(rss) / (1 << 20)
	r.anonMB = float64(anon) / (1 << 20)
	r.requestsPerSec = float64(r.requests) / wall.Seconds()
	gamePolls := float64(games) * wall.Seconds() / loadPoll.Seconds()
	r.bytesPerGamePoll = float64(r.bytes) / gamePolls
	r.requestsPerGamePoll = float64(r.requests) / gamePolls
	for range posts {
		r.latencies = append(r.latencies, <-latc)
	}
	if *loadTrace {
		close(movec)
		cl.traceMu.Lock()
		for m := range movec {
			fmt.Fprintf(os.Stderr, "move in thread %d answered in %s:\n%s\n", m.tid, m.seen.Sub(m.sent).Round(10*time.Millisecond), traceOf(cl.traced, m.tid, m.sent, m.seen))
		}
		cl.traceMu.Unlock()
	}
	if len(r.latencies) > 0 {
		sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
		r.p50 = r.latencies[len(r.latencies)/2]
		r.p95 = r.latencies[min(len(r.latencies)-1, len(r.latencies)*95/100)]
	}
	if strings.Contains(out.String(), `"level":"error"`) {
		b.Logf("daemon errors:\n%s", tail(out.String()))
	}
	return r
}

// traceOf lists the requests between a move in thread tid (sent) and its reply seen on the board:
// those naming the thread, and the index and section lists (which every reply waits for), each
// with its time from the move; the others are counted.
func traceOf(reqs []tracedRequest, tid int, sent, seen time.Time) string {
	var b strings.Builder
	others := 0
	id := "tid=" + strconv.Itoa(tid)
	for _, q := range reqs {
		if q.at.Before(sent) || q.at.After(seen) {
			continue
		}
		u := q.what
		if i := strings.Index(u, id); i >= 0 && (i+len(id) == len(u) || !strings.ContainsRune("0123456789", rune(u[i+len(id)]))) ||
			strings.Contains(u, "/index.php") || strings.Contains(u, "/forumdisplay.php") {
			fmt.Fprintf(&b, "  +%5.2fs %s\n", q.at.Sub(sent).Seconds(), u)
		} else {
			others++
		}
	}
	fmt.Fprintf(&b, "  and %d requests of other games", others)
	return b.String()
}

// settled reports whether every game's thread cursor is at its thread's last post (or its head
// shows the thread up to the bot's reply after it) and, when the games share their sections'
// lists (heads), carries a head.
func settled(b *testing.B, ctx context.Context, board *sql.DB, storePath string, games int, heads bool) bool {
	last := map[string]string{}
	count := map[string]int{}
	rows, err := board.QueryContext(ctx, `SELECT tid, MAX(pid), COUNT(*) FROM posts GROUP BY tid`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var tid, pid, n int
		if err := rows.Scan(&tid, &pid, &n); err != nil {
			b.Fatal(err)
		}
		last[strconv.Itoa(tid)], count[strconv.Itoa(tid)] = strconv.Itoa(pid), n
	}
	rows.Close()
	st, err := store.Open(ctx, storePath, store.Shared())
	if err != nil {
		return false
	}
	defer st.Close()
	for i := 1; i <= games; i++ {
		c, ok, err := st.Cursor(ctx, fmt.Sprintf("g%d", i), store.SourceThread)
		if err != nil || !ok || heads && c.Head == nil {
			return false
		}
		// At the last post, or at a player's post the bot replied to, with the list's head
		// showing the bot's reply (the bot's own reply is not read back).
		th := strconv.Itoa(i)
		if c.PostID != last[th] && (c.Head == nil || c.Head.Replies != count[th]-1 || c.Head.LastPoster != "gm-bot") {
			return false
		}
	}
	return true
}

func botCount(b *testing.B, db *sql.DB, tid int) int {
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM posts p JOIN users u ON u.uid = p.uid WHERE u.username = 'gm-bot' AND p.tid = ?`, tid).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

var (
	catchPages = flag.Int("catchup.pages", 251, "cold catch-up benchmark: pages of the thread (8 posts each)")
	catchRate  = flag.Float64("catchup.rate", 10, "cold catch-up benchmark: requests per second to the board")
)

// BenchmarkColdCatchUp reads a long thread from nothing (a game added to a thread with a long
// history) at the forum's rate and reports the time against pages ÷ rate, and the requests made:
// each page should be read once.
func BenchmarkColdCatchUp(b *testing.B) {
	for range b.N {
		b.StopTimer()
		ctx, cancel := context.WithCancel(context.Background())
		dir := b.TempDir()
		start := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
		var posts []sandbox.SeedPost
		for i := range *catchPages * 8 {
			author := []string{"Джелу", "snovaya", "Moderator"}[i%3]
			posts = append(posts, sandbox.SeedPost{Author: author, Message: fmt.Sprintf("Сообщение %d: обсуждаем партию.", i+1),
				Time: start.Add(time.Duration(i) * time.Minute)})
		}
		board, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Location: time.UTC,
			Threads: []sandbox.Thread{{Subject: "Долгая тема", Posts: posts}}, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
			Users: []sandbox.User{{Name: "gm-bot", Password: "bot-pw-123"}, {Name: "Moderator", Password: "m"},
				{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}}})
		if err != nil {
			b.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		cl := &counting{Listener: ln}
		srv := &http.Server{Handler: cl.wrap(board.Handler()), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(cl) }()
		cfgText := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: UTC, extra: {rate: %q}}
bot: {username: gm-bot, password_env: FLEET_BOT_PW}
moderators: [Moderator]
game: {id: long, kind: crusade, timezone: UTC, start: %q, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}], settings: {daily_question: false}}
poll: {floor: 1s, ceiling: 1s}
store: {path: %s}
`, "http://"+ln.Addr().String()+"/", strconv.FormatFloat(*catchRate, 'f', -1, 64), start.Add(time.Duration(*catchPages*8)*time.Minute).Format(time.RFC3339), filepath.Join(dir, "f.db"))
		os.Setenv("FLEET_BOT_PW", "bot-pw-123")
		c, err := config.Parse([]byte(cfgText))
		if err == nil {
			err = c.Validate(known)
		}
		if err != nil {
			b.Fatal(err)
		}
		st, err := store.Open(ctx, filepath.Join(dir, "f.db"))
		if err != nil {
			b.Fatal(err)
		}
		fl, err := New(Options{Store: st})
		if err != nil {
			b.Fatal(err)
		}
		last := strconv.Itoa(*catchPages * 8)
		b.StartTimer()
		t0 := time.Now()
		if err := fl.Apply(ctx, c); err != nil {
			b.Fatal(err)
		}
		for {
			cur, _, err := st.Cursor(ctx, "long", store.SourceThread)
			if err != nil {
				b.Fatal(err)
			}
			if n, _ := strconv.Atoi(cur.PostID); n >= *catchPages*8 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		elapsed := time.Since(t0)
		b.StopTimer()
		ideal := time.Duration(float64(*catchPages) / *catchRate * float64(time.Second))
		b.ReportMetric(elapsed.Seconds()/ideal.Seconds(), "time/(pages÷rate)")
		b.ReportMetric(float64(cl.requests.Load()), "requests")
		b.ReportMetric(float64(cl.paths[0].Load())/float64(*catchPages), "thread_reads/page")
		b.Logf("%d pages at %.0f requests/s: %s (pages÷rate %s), %d requests (%d thread pages), last post %s", *catchPages, *catchRate, elapsed.Round(time.Millisecond), ideal, cl.requests.Load(), cl.paths[0].Load(), last)
		cancel()
		fl.Wait()
		srv.Close()
		st.Close()
		board.Close()
	}
}

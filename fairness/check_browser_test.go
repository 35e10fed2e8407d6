package fairness_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"forumgm/fairness"
	"forumgm/game"
	"forumgm/internal/chrome"
	"forumgm/media"
)

// servedPage puts the check page in a pictures folder served by media.Handler (as forumgm run
// serves it) and opens it in Debian's chromium, with fragment after "#" ("" for none).
func servedPage(t *testing.T, fragment string) (*rod.Page, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pics")
	srv := httptest.NewServer(media.Handler(dir))
	t.Cleanup(srv.Close)
	f, err := media.New(dir, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.Put(fairness.Attachment())
	if err != nil {
		t.Fatal(err)
	}
	if u != fairness.URL(srv.URL+"/") {
		t.Fatalf("served at %s, linked at %s", u, fairness.URL(srv.URL+"/"))
	}
	b := chrome.Start(t, 3*time.Minute)
	if fragment != "" {
		u += "#" + fragment
	}
	p := b.MustPage(u).MustWaitLoad()
	return p, u
}

// fill sets an input's value (clearing it first).
func fill(p *rod.Page, id, value string) {
	p.MustEval(`(id, v) => { document.getElementById(id).value = v; }`, id, value)
}

// verdicts checks the page and returns each draw row's class ("ok"/"fail") and the summary.
func verdicts(t *testing.T, p *rod.Page) ([]string, string, string) {
	t.Helper()
	p.MustElement("#check").MustClick()
	p.MustElement("#commitment-result")
	var out []string
	for _, tr := range p.MustElements("#draws-result tr[id^=draw-]") {
		out = append(out, *tr.MustAttribute("class"))
	}
	summary := ""
	if has, el, _ := p.Has("#summary"); has {
		summary = el.MustText()
	}
	return out, summary, p.MustElement("#commitment-result").MustText()
}

// A player checks a game in the browser page: honest draws pass, a changed value fails on that
// draw alone, a changed seed fails the commitment and every draw it does not give, a changed salt
// fails the commitment. The fragment of the final post's link fills seed, salt and commitment.
func TestCheckPageBrowser(t *testing.T) {
	seed, salt := strings.Repeat("3f", 32), strings.Repeat("a1", 32)
	commit := game.Commitment(seed, salt)
	p, _ := servedPage(t, "seed="+seed+"&salt="+salt+"&c="+commit)
	if got := p.MustElement("#seed").MustProperty("value").String(); got != seed {
		t.Fatalf("the link's seed did not fill the form: %q", got)
	}
	if got := p.MustElement("#commitment").MustProperty("value").String(); got != commit {
		t.Fatalf("the link's commitment did not fill the form: %q", got)
	}

	type draw struct {
		n     uint64
		bound int
	}
	draws := []draw{{0, 2}, {1, 6}, {2, 100}, {3, 256}, {4, 1 << 31}, {5, 1000000007}, {17, 6}, {300, 3}}
	// Each draw under its own chain head, as a game's draws are made after different posts.
	heads := []string{game.ChainStart(commit)}
	for i := 1; i < len(draws); i++ {
		heads = append(heads, game.Chain(heads[i-1], "Катя", strconv.Itoa(i), "Бросаю "+strconv.Itoa(i)))
	}
	lines := func(tamper int) string {
		var b strings.Builder
		for i, d := range draws {
			v := game.Derive(seed, heads[i], d.n, d.bound)
			if i == tamper {
				v = (v + 1) % d.bound
			}
			fmt.Fprintf(&b, "%d %d %d %s\n", d.n, d.bound, v, heads[i])
		}
		return b.String()
	}

	fill(p, "draws", lines(-1))
	rows, summary, cm := verdicts(t, p)
	if len(rows) != len(draws) || strings.Contains(strings.Join(rows, " "), "fail") || !strings.Contains(summary, "Все розыгрыши") {
		t.Fatalf("honest draws: %v %q", rows, summary)
	}
	if !strings.Contains(cm, "Отпечаток совпадает") {
		t.Fatalf("honest commitment: %q", cm)
	}

	fill(p, "draws", lines(3))
	rows, summary, _ = verdicts(t, p)
	for i, r := range rows {
		if want := map[bool]string{true: "fail", false: "ok"}[i == 3]; r != want {
			t.Errorf("tampered draw 4: row %d is %s", i+1, r)
		}
	}
	if !strings.Contains(summary, "Не сходятся 1 из 8") {
		t.Errorf("tampered summary %q", summary)
	}

	other := strings.Repeat("3f", 31) + "40"
	fill(p, "draws", lines(-1))
	fill(p, "seed", other)
	rows, _, cm = verdicts(t, p)
	if !strings.Contains(cm, "НЕ совпадает") {
		t.Errorf("a changed seed passes the commitment: %q", cm)
	}
	fails := 0
	for i, d := range draws {
		want := "ok"
		if game.Derive(other, heads[i], d.n, d.bound) != game.Derive(seed, heads[i], d.n, d.bound) {
			want = "fail"
			fails++
		}
		if rows[i] != want {
			t.Errorf("changed seed: row %d is %s, want %s", i+1, rows[i], want)
		}
	}
	if fails < 5 {
		t.Errorf("a changed seed failed only %d of %d draws", fails, len(draws))
	}

	fill(p, "seed", seed)
	fill(p, "salt", salt[:len(salt)-1]+"0")
	rows, _, cm = verdicts(t, p)
	if !strings.Contains(cm, "НЕ совпадает") || strings.Contains(strings.Join(rows, " "), "fail") {
		t.Errorf("a changed salt: commitment %q, draws %v", cm, rows)
	}

	// The formats a player may paste: forumgm verify's lines (with the head) and the event log's
	// JSON (a draw at chain position 0 uses the chain's start, from the commitment).
	fill(p, "salt", salt)
	v := game.Derive(seed, heads[3], 5, 6)
	fill(p, "draws", fmt.Sprintf("ok   draw 5 (football.rolled): %d of 0..5 derived from the seed and the chain after post 3, head %s\n"+
		"ok   draw 7 (football.rolled): %d of 0..99 derived from the seed and the chain after post 0, head %s\nverified: the game follows from its committed seed\n",
		v, heads[3], game.Derive(seed, heads[0], 7, 100), heads[0]))
	rows, _, _ = verdicts(t, p)
	if len(rows) != 2 || rows[0] != "ok" || rows[1] != "ok" || !p.MustHas("#skipped") {
		t.Errorf("forumgm verify's lines: %v", rows)
	}
	v = game.Derive(seed, heads[0], 5, 6)
	js, _ := json.Marshal(game.Chance{Draws: []game.Draw{{N: 5, Bound: 6, Value: v}, {N: 9, Bound: 2, Value: 1 - game.Derive(seed, heads[0], 9, 2)}}})
	fill(p, "draws", string(js))
	if rows, _, _ = verdicts(t, p); len(rows) != 2 || rows[0] != "ok" || rows[1] != "fail" {
		t.Errorf("JSON draws: %v", rows)
	}
}

// The page's derivation, written from docs/fairness.md, is the Go one (game.Derive) for many
// seeds, draw numbers and bounds, bounds near 2^31 and 2^63 included; its commitment is
// game.Commitment.
func TestCheckPageDerivesAsGo(t *testing.T) {
	p, _ := servedPage(t, "")
	seeds := []string{"1", "7", "transcript", strings.Repeat("0", 64), "c0ffee" + strings.Repeat("9", 58), "зерно партии"}
	ns := []uint64{0, 1, 2, 99, 255, 256, 65535, 1 << 32, 1<<53 + 1, math.MaxUint64}
	bounds := []int{1, 2, 3, 6, 100, 256, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 1, 1 << 53, math.MaxInt64}
	type c struct {
		Seed  string `json:"seed"`
		N     string `json:"n"`
		Bound string `json:"bound"`
		Head  string `json:"head"`
	}
	var cases []c
	var want []string
	for _, s := range seeds {
		for _, n := range ns {
			for _, b := range bounds {
				h := game.ChainStart(game.Commitment(s, strconv.FormatUint(n, 10)))
				cases = append(cases, c{s, strconv.FormatUint(n, 10), strconv.Itoa(b), h})
				want = append(want, strconv.Itoa(game.Derive(s, h, n, b)))
			}
		}
	}
	// and a run of consecutive draws, as a game makes them
	head := game.ChainStart(game.Commitment("a1b2", "соль"))
	for n := uint64(0); n < 300; n++ {
		b := 2 + int(n%7)*1000 + int(n%3)<<30
		if n%5 == 0 {
			head = game.Chain(head, "Игрок "+strconv.FormatUint(n, 10), strconv.FormatUint(n, 10), "ход «"+strconv.FormatUint(n, 10)+"»\nвторая строка")
		}
		cases = append(cases, c{"a1b2", strconv.FormatUint(n, 10), strconv.Itoa(b), head})
		want = append(want, strconv.Itoa(game.Derive("a1b2", head, n, b)))
	}
	res := p.MustEval(`async (cases) => {
		const out = [];
		for (const c of cases) out.push(await window.forumgmDerive(c.seed, c.n, c.bound, c.head));
		return out;
	}`, cases)
	got := res.Arr()
	if len(got) != len(want) {
		t.Fatalf("%d results for %d cases", len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i].String() != want[i] {
			bad++
			if bad <= 10 {
				t.Errorf("draw %s of seed %q, bound %s: the page gives %s, Go %s", cases[i].N, cases[i].Seed, cases[i].Bound, got[i].String(), want[i])
			}
		}
	}
	for _, s := range seeds {
		if got := p.MustEval(`(s) => window.forumgmCommitment(s, "соль")`, s).String(); got != game.Commitment(s, "соль") {
			t.Errorf("commitment of %q: page %s, Go %s", s, got, game.Commitment(s, "соль"))
		}
		c := game.Commitment(s, "соль")
		if got := p.MustEval(`(c) => window.forumgmChainStart(c)`, c).String(); got != game.ChainStart(c) {
			t.Errorf("chain start of %s: page %s, Go %s", c, got, game.ChainStart(c))
		}
		next := p.MustEval(`(h, a, id, text) => window.forumgmChainNext(h, a, id, text)`, game.ChainStart(c), s, "42", "текст\nпоста «"+s+"»").String()
		if want := game.Chain(game.ChainStart(c), s, "42", "текст\nпоста «"+s+"»"); next != want {
			t.Errorf("chain link by %q: page %s, Go %s", s, next, want)
		}
	}
}

// A whole game's draws file (forumgm verify --draws), pasted into the page: the honest file
// passes post by post and draw by draw; a player's post changed in it fails from that post on
// (the chain) and every draw made after it; a changed value fails its draw alone.
func TestCheckPageDrawsFile(t *testing.T) {
	for _, ex := range []string{"football/examples/football-twelve.yaml", "dragonball/examples/dragonball-score.yaml"} {
		t.Run(filepath.Base(ex), func(t *testing.T) {
			f := drawsFile(t, filepath.Join("..", "games", ex))
			if len(f.Chain) < 3 || len(f.Draws) < 10 {
				t.Fatalf("a small game: %d chain posts, %d draws", len(f.Chain), len(f.Draws))
			}
			p, _ := servedPage(t, "")
			paste := func(f *fairness.File) {
				b, err := f.JSON()
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range []string{"seed", "salt", "commitment"} {
					fill(p, id, "")
				}
				fill(p, "draws", string(b))
			}
			chainRows := func() []string {
				var out []string
				for _, tr := range p.MustElements("#chain-result tr[id^=chain-]") {
					out = append(out, *tr.MustAttribute("class"))
				}
				return out
			}
			paste(f)
			rows, summary, cm := verdicts(t, p)
			if len(rows) != len(f.Draws) || strings.Contains(strings.Join(rows, " "), "fail") || !strings.Contains(summary, "Все розыгрыши") {
				t.Fatalf("honest file: %d rows of %d, %q", len(rows), len(f.Draws), summary)
			}
			if ch := chainRows(); len(ch) != len(f.Chain) || strings.Contains(strings.Join(ch, " "), "fail") || !strings.Contains(cm, "совпадает") {
				t.Fatalf("honest chain: %v, %q", ch, cm)
			}

			// The start's draws wait for the first player post: none is made under H_0, and
			// changing that post fails its chain row and the start's first draw on the page.
			if f.Draws[0].K != 1 {
				t.Fatalf("the game's first draw was made after chain post %d, want 1 (the first player post)", f.Draws[0].K)
			}
			first := *f
			first.Chain = append([]fairness.ChainPost(nil), f.Chain...)
			first.Chain[0].Text += "!"
			paste(&first)
			rows, _, _ = verdicts(t, p)
			if ch := chainRows(); ch[0] != "fail" || rows[0] != "fail" {
				t.Errorf("the first player's post changed: chain post 1 %s, the start's draw 0 %s; want both fail", ch[0], rows[0])
			}

			// A player's post changed: the chain fails from it on, the draws after it fail.
			k := len(f.Chain) / 2
			bad := *f
			bad.Chain = append([]fairness.ChainPost(nil), f.Chain...)
			bad.Chain[k-1].Text += " "
			paste(&bad)
			rows, _, _ = verdicts(t, p)
			ch := chainRows()
			for i, r := range ch {
				if want := map[bool]string{true: "fail", false: "ok"}[i+1 >= k]; r != want {
					t.Errorf("chain post %d after changing post %d: %s", i+1, k, r)
				}
			}
			// The page fails exactly the draws Go's check fails (a later draw of a small bound may
			// come out the same under the changed chain), and only draws made after the post.
			failing := map[uint64]bool{}
			for _, pr := range bad.Check("") {
				if pr.What == "draw" {
					failing[pr.At] = true
				}
			}
			if len(failing) < 3 {
				t.Fatalf("changing post %d failed only %d draws", k, len(failing))
			}
			for i, d := range f.Draws {
				if want := map[bool]string{true: "fail", false: "ok"}[failing[d.N]]; rows[i] != want {
					t.Errorf("draw %d (after chain post %d), post %d changed: the page says %s, Go %s", d.N, d.K, k, rows[i], want)
				}
				if failing[d.N] && d.K < uint64(k) {
					t.Errorf("draw %d made before the changed post %d fails", d.N, k)
				}
			}

			// A value changed: that draw alone fails.
			bad = *f
			bad.Draws = append([]fairness.Draw(nil), f.Draws...)
			j := len(bad.Draws) - 1
			bad.Draws[j].Value = (bad.Draws[j].Value + 1) % bad.Draws[j].Bound
			paste(&bad)
			rows, summary, _ = verdicts(t, p)
			for i, r := range rows {
				if want := map[bool]string{true: "fail", false: "ok"}[i == j]; r != want {
					t.Errorf("changed draw %d: row %d is %s", j+1, i+1, r)
				}
			}
			if !strings.Contains(summary, "Не сходятся 1 из") {
				t.Errorf("summary %q", summary)
			}
		})
	}
}

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
	lines := func(tamper int) string {
		var b strings.Builder
		for i, d := range draws {
			v := game.Derive(seed, d.n, d.bound)
			if i == tamper {
				v = (v + 1) % d.bound
			}
			fmt.Fprintf(&b, "%d %d %d\n", d.n, d.bound, v)
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
		if game.Derive(other, d.n, d.bound) != game.Derive(seed, d.n, d.bound) {
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

	// The formats a player may paste: forumgm verify's lines and the event log's JSON.
	fill(p, "salt", salt)
	v := game.Derive(seed, 5, 6)
	fill(p, "draws", fmt.Sprintf("ok   draw 5 (football.rolled): %d of 0..5 derived from the seed\n"+
		"ok   event 3 (football.rolled): draw 7 = %d of 0..99 derived from the seed\nverified: the game follows from its committed seed\n",
		v, game.Derive(seed, 7, 100)))
	rows, _, _ = verdicts(t, p)
	if len(rows) != 2 || rows[0] != "ok" || rows[1] != "ok" || !p.MustHas("#skipped") {
		t.Errorf("forumgm verify's lines: %v", rows)
	}
	js, _ := json.Marshal(game.Chance{Draws: []game.Draw{{N: 5, Bound: 6, Value: v}, {N: 9, Bound: 2, Value: 1 - game.Derive(seed, 9, 2)}}})
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
	}
	var cases []c
	var want []string
	for _, s := range seeds {
		for _, n := range ns {
			for _, b := range bounds {
				cases = append(cases, c{s, strconv.FormatUint(n, 10), strconv.Itoa(b)})
				want = append(want, strconv.Itoa(game.Derive(s, n, b)))
			}
		}
	}
	// and a run of consecutive draws, as a game makes them
	for n := uint64(0); n < 300; n++ {
		b := 2 + int(n%7)*1000 + int(n%3)<<30
		cases = append(cases, c{"a1b2", strconv.FormatUint(n, 10), strconv.Itoa(b)})
		want = append(want, strconv.Itoa(game.Derive("a1b2", n, b)))
	}
	res := p.MustEval(`async (cases) => {
		const out = [];
		for (const c of cases) out.push(await window.forumgmDerive(c.seed, c.n, c.bound));
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
	}
}

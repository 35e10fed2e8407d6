package public

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"forumgm/internal/chrome"
	"forumgm/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden screenshots in testdata/")

// shadeTolerance is how far (of 255) a pixel's channel may differ from the golden's: chromium's
// anti-aliasing of a CSS grid's fractional edges moves by a few levels between runs; text or
// colour that changed moves by far more.
const shadeTolerance = 48

// TestBrowserPhone opens each game's page in Debian's chromium on a phone-sized screen: the
// position, the standings, the story and the fair play are there and fit the screen's width (a
// wide board scrolls in its own box), the countdown runs, a picture loads, a moment opens from
// the story; and the page looks as its golden screenshot does, pixel for pixel (-update rewrites
// the goldens: look at them first).
func TestBrowserPhone(t *testing.T) {
	browser := chrome.Start(t, 3*time.Minute)
	for _, c := range []struct {
		name, path string
		posts      int // the transcript's posts played
	}{
		{"crusade", "games/crusade/examples/crusade-flag.yaml", 6},
		{"dragonball", "games/dragonball/examples/dragonball-score.yaml", 12},
		{"football", "games/football/examples/football-twelve.yaml", 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.path)
			e.play(t, c.posts)
			page := browser.MustPage("")
			defer page.MustClose()
			page.MustSetViewport(390, 844, 1, true)
			page.MustNavigate(e.srv.URL + "/g/g1/").MustWaitLoad()
			for _, id := range []string{"#next", "#position", "#standings", "#fair", "#story"} {
				if !page.MustHas(id) {
					t.Errorf("no %s", id)
				}
			}
			if w := page.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 390 {
				t.Errorf("the page is %d px wide on a 390 px screen", w)
			}
			if els := page.MustElements(".countdown"); len(els) > 0 {
				if txt := els[0].MustText(); !strings.HasPrefix(txt, "— ") {
					t.Errorf("the countdown did not run: %q", txt)
				}
			}
			for _, img := range page.MustElements("#position img") {
				img.MustWaitLoad()
				if w := img.MustEval(`() => this.naturalWidth`).Int(); w == 0 {
					t.Errorf("picture %s did not load", *img.MustAttribute("src"))
				}
			}
			// The countdown's text depends on the real clock: replaced by an empty one for the
			// screenshot (the running one ticks on, detached).
			page.MustEval(`() => document.querySelectorAll(".countdown").forEach(e => e.replaceWith(document.createElement("span")))`)
			// Overlay scrollbars (a wide table scrolling in its card) fade out on their own time.
			page.MustEval(`() => document.querySelectorAll(".card").forEach(c => { c.style.scrollbarWidth = "none"; })`)
			shot, err := page.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", c.name+"-phone.png")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if n, why, err := testkit.PixelDiff(shot, want, shadeTolerance); err != nil {
				t.Fatal(err)
			} else if n != 0 {
				if dir := os.Getenv("PUBLIC_SCREENSHOTS"); dir != "" {
					_ = os.WriteFile(filepath.Join(dir, c.name+"-phone.png"), shot, 0o644)
				}
				t.Errorf("%s: %d pixels differ%s (run with -update to accept, after looking at it)", golden, n, why)
			}
			// A moment of the story opens as it stood.
			href := page.MustElement(`#story a[href*="/at/"]`).MustProperty("href").String()
			page.MustNavigate(href).MustWaitLoad()
			if !page.MustHas("#moment") || !strings.Contains(page.MustElement("#moment").MustText(), "после события") {
				t.Errorf("the moment page does not say which moment it shows")
			}
		})
	}
}

// TestBrowserTacts: in Debian's chromium, Dragonball's page before the round's deadline shows no
// picture of the round's tacts (nor any order); once the round is resolved, a picture per tact,
// in order, each loaded.
func TestBrowserTacts(t *testing.T) {
	browser := chrome.Start(t, 2*time.Minute)
	e := newEnv(t, "games/dragonball/examples/dragonball-score.yaml")
	to := e.beforeFirstDeadline(t)
	page := browser.MustPage("")
	defer page.MustClose()
	srcs := func() []string {
		page.MustNavigate(e.srv.URL + "/g/g1/").MustWaitLoad()
		var out []string
		for _, img := range page.MustElements("#position img") {
			img.MustWaitLoad()
			if w := img.MustEval(`() => this.naturalWidth`).Int(); w == 0 {
				t.Errorf("picture %s did not load", *img.MustAttribute("src"))
			}
			out = append(out, *img.MustAttribute("src"))
		}
		return out
	}
	before := srcs()
	for _, s := range before {
		if strings.Contains(s, "tact-") {
			t.Errorf("before the deadline the page shows %s", s)
		}
	}
	if !strings.Contains(page.MustElement("#next").MustText(), "приказ") {
		t.Error("the page does not say who still owes orders")
	}
	e.play(t, to+1)
	after := strings.Join(srcs(), " ")
	i1, i2, i3 := strings.Index(after, "round-1-tact-1.png"), strings.Index(after, "round-1-tact-2.png"), strings.Index(after, "round-1.png")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Errorf("after the deadline the pictures are %s, want round 1's tacts 1, 2 and the field after it", after)
	}
}

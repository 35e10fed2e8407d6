package detect_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/dialects"
	"forumgm/dialects/detect"
	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// want is what every real page (testdata/realboards) and every captured thread page
// (testdata/forums) is: engine, version, dialect.
var want = map[string][3]string{
	"phpbb/phpbb30-prosilver-ilovephilosophy.html":      {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb30-raspite-raspberrypi.html":            {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb32-prosilver-dcbase-t155-excerpt.html":  {"phpBB", "3.2", "phpbb"},
	"phpbb/phpbb32-prosilver-dcbase-t724-excerpt.html":  {"phpBB", "3.2", "phpbb"},
	"phpbb/phpbb33-prosilver-ssvc-t35155-excerpt.html":  {"phpBB", "3.3", "phpbb"},
	"phpbb/phpbb33-prosilver-ssvc-p930314-excerpt.html": {"phpBB", "3.3", "phpbb"},
	"phpbb/phpbb30-subsilver2-avalanches-p7464.html":    {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb30-subsilver2-avalanches-p20514.html":   {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb30-subsilver2-dildano-quotes.html":      {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb30-subsilver2-dildano-edited.html":      {"phpBB", "3.0", "phpbb"},
	"phpbb/phpbb32-allanstyle-subsilver-dostips.html":   {"phpBB", "3.2", "phpbb"},
	"phpbb/phpbb32-allanstyle-dostips-t5588.html":       {"phpBB", "3.2", "phpbb"},
	"phpbb/phpbb32-allanstyle-dostips-t5819.html":       {"phpBB", "3.2", "phpbb"},
	"phpbb/phpbb33-prosilverdark-nesdev-excerpt.html":   {"phpBB", "3.3", "phpbb"},
	"smf/smf20rc3-core-contribs.html":                   {"SMF", "2.0 RC3", "smf"},
	"smf/smf20-nostalgia-geekhack-excerpt.html":         {"SMF", "2.0.15.10", "smf"},
	"punbb/fluxbb-air-bittorrent-t28.html":              {"FluxBB", "1.4-1.5", "punbb"},
	"punbb/fluxbb-air-bittorrent-t6.html":               {"FluxBB", "1.4-1.5", "punbb"},
	"punbb/fluxbb-air-bittorrent-t134.html":             {"FluxBB", "1.4-1.5", "punbb"},
	"punbb/punbb12-oxygen-textdrive-excerpt.html":       {"PunBB", "1.2", "punbb"},
	"generic/xenforo2-default-xenforo-community.html":   {"XenForo", "2", "xenforo"},
	"generic/xenforo1-flexgray-sufficientvelocity.html": {"XenForo", "1", "generic"},
	"generic/xenforo23-ragezone-t539161.html":           {"XenForo", "2.3", "xenforo"},
	"generic/xenforo23-ragezone-t676761.html":           {"XenForo", "2.3", "xenforo"},
	"generic/xenforo23-ragezone-t680281.html":           {"XenForo", "2.3", "xenforo"},
	"generic/xenforo23-uix-pkodev-t161.html":            {"XenForo", "2.3", "xenforo"},
	"generic/vbulletin423-airforceforums.html":          {"vBulletin", "4.2.3", "generic"},
	"generic/vbulletin423-custom-airforce.html":         {"vBulletin", "4.2.3", "generic"},
	"generic/vbulletin422-xenfovb-astyles-t10236.html":  {"vBulletin", "4.2.2", "generic"},
	"generic/vbulletin422-xenfovb-astyles-t26792.html":  {"vBulletin", "4.2.2", "generic"},
	"generic/vbulletin420-xenfovb-astyles-t21767.html":  {"vBulletin", "4.2.0", "generic"},
	"generic/vbulletin552-fandompost.html":              {"vBulletin", "5.5.2", "generic"},
	"invision/ips47-armbian-rk322x-comments.html":       {"Invision Community", "4", "invision"},
	"invision/ips47-gopiratia-t230.html":                {"Invision Community", "4", "invision"},
	"invision/ips47-gopiratia-t9.html":                  {"Invision Community", "4", "invision"},
	"invision/ips47-gopiratia-t16.html":                 {"Invision Community", "4", "invision"},
	"generic/vbulletin3811-guessed.html":                {"vBulletin", "3.8.11", "generic"},
	"ucoz/ucoz-needforkill-t23-p1.html":                 {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t520-p1.html":                {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t564-p4.html":                {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t578-p1.html":                {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t602-p1.html":                {"uCoz", "", "generic"},
	"ucoz/ucoz-lehrer3dn-t1-p1-excerpt.html":            {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t424-p32.html":               {"uCoz", "", "generic"},
	"ucoz/ucoz-needforkill-t250-p3.html":                {"uCoz", "", "generic"},
	"forums/mybb/10-thread-p1.guest.html":               {"MyBB", "1.8", "mybb"},
	"forums/mybb16/10-thread-p1.guest.html":             {"MyBB", "1.6", "mybb"},
	"mybb/mybb18-emerald-burgershot-t1808.html":         {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-emerald-burgershot-t2159.html":         {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-emerald-burgershot-t1026.html":         {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-bootbb-samp-t594242-p2.html":           {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-bootbb-samp-t587166.html":              {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-bootbb-samp-t593146.html":              {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-vienna-starboundfr-t263.html":          {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-vienna-starboundfr-t162-p3.html":       {"MyBB", "1.8", "mybb"},
	"mybb/mybb18-vienna-starboundfr-t17-p2.html":        {"MyBB", "1.8", "mybb"},
	"forums/phpbb30/10-thread-p1.guest.html":            {"phpBB", "3.0", "phpbb"},
	"forums/phpbb31/10-thread-p1.guest.html":            {"phpBB", "3.1", "phpbb"},
	"forums/phpbb32/10-thread-p1.guest.html":            {"phpBB", "3.2", "phpbb"},
	"forums/phpbb33/10-thread-p1.guest.html":            {"phpBB", "3.3", "phpbb"},
	"forums/punbb/10-thread-p1.guest.html":              {"PunBB", "1.4", "punbb"},
	"forums/punbb13/10-thread-p1.guest.html":            {"PunBB", "1.3", "punbb"},
	"forums/fluxbb12/10-thread-p1.guest.html":           {"FluxBB", "1.2", "punbb"},
	"forums/fluxbb14/10-thread-p1.guest.html":           {"FluxBB", "1.4-1.5", "punbb"},
	"forums/fluxbb15/10-thread-p1.guest.html":           {"FluxBB", "1.5", "punbb"},
	"forums/fluxbb15-russian/10-thread-p1.guest.html":   {"FluxBB", "1.5", "punbb"},
	"forums/punbb-russian/10-thread-p1.guest.html":      {"PunBB", "1.4", "punbb"},
	"forums/smf/10-thread-p1.guest.html":                {"SMF", "2.1.4", "smf"},
	"forums/smf20/10-thread-p1.guest.html":              {"SMF", "2.0.15", "smf"},

	// MyBB 1.8.37 with imported themes (SEO URLs, Google SEO, plain), and with the Russian pack.
	"forums/mybb-cerise/10-thread-p1.guest.html":          {"MyBB", "1.8", "mybb"},
	"forums/mybb-russian/10-thread-p1.guest.html":         {"MyBB", "1.8", "mybb"},
	"forums/mybb-multicolors/10-thread-p1.guest.html":     {"MyBB", "1.8", "mybb"},
	"forums/mybb-simplerealistic/10-thread-p1.guest.html": {"MyBB", "1.8", "mybb"},
}

// Every real page in testdata/realboards is named (engine and version) and read by the dialect
// named, without an error.
func TestRealBoards(t *testing.T) {
	root := fixture.Root(t)
	pages, err := filepath.Glob(filepath.Join(root, "testdata", "realboards", "*", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatal("no real pages", err)
	}
	local, err := filepath.Glob(filepath.Join(root, "testdata", "forums", "*", "10-thread-p1.guest.html"))
	if err != nil || len(local) == 0 {
		t.Fatal("no local captures", err)
	}
	pages = append(pages, local...)
	seen := 0
	for _, path := range pages {
		rel, _ := filepath.Rel(filepath.Join(root, "testdata", "realboards"), path)
		if strings.HasPrefix(rel, "..") {
			rel, _ = filepath.Rel(filepath.Join(root, "testdata"), path)
		}
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			w, ok := want[rel]
			if !ok {
				t.Fatalf("%s is not in the table of this test: add what it is", rel)
			}
			seen++
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			body, _, err := forum.Decode(raw, "")
			if err != nil {
				t.Fatal(err)
			}
			f := detect.Identify(body)
			if f.Engine != w[0] || f.Version != w[1] || f.Dialect != w[2] || len(f.Evidence) == 0 {
				t.Fatalf("got %q %q dialect %q (%q), want %q", f.Engine, f.Version, f.Dialect, f.Evidence, w)
			}
			extra := f.Extra
			if f.Dialect == "generic" && extra == nil {
				extra = detect.Guess(body)
			}
			x, err := dialects.Registry(dialects.Options{}).Extractor(f.Dialect)
			if err != nil {
				t.Fatal(err)
			}
			cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }, Extra: extra}
			posts, err := x(raw, "", cfg)
			if err != nil || len(posts) == 0 {
				t.Fatalf("%d posts, %v", len(posts), err)
			}
		})
	}
	if seen != len(want) {
		t.Errorf("%d pages checked, the table has %d", seen, len(want))
	}
}

// The guess reads the vBulletin 3 page (no preset) whole: every post with its author, date and
// body.
func TestGuessVBulletin3(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "vbulletin3811-guessed.html"))
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := forum.Decode(raw, "")
	g := detect.Guess(body)
	posts, err := scrape.ExtractPage(raw, "", forum.Config{Location: time.UTC, Now: time.Now, Extra: g})
	if err != nil || len(posts) != 20 {
		t.Fatalf("%d posts, %v (guess %v)", len(posts), err, g)
	}
	for _, p := range posts {
		if p.Author == "" || p.Time.IsZero() || p.Text == "" || len(p.Problems) > 0 {
			t.Errorf("post %s: %q %v %q", p.ID, p.Author, p.Time, p.Problems)
		}
	}
	if posts[0].ID != "5768670" || posts[0].Author != "Shirohige" || !posts[0].Time.Equal(time.Date(2016, 2, 1, 2, 21, 0, 0, time.UTC)) {
		t.Errorf("first post %+v", posts[0])
	}
}

// The presets read their engine's real pages right: goldens checked against the pages.
func TestPresets(t *testing.T) {
	for name, preset := range map[string][2]string{
		"xenforo2-default-xenforo-community.html":   {"XenForo", "2"},
		"xenforo1-flexgray-sufficientvelocity.html": {"XenForo", "1"},
		"vbulletin423-airforceforums.html":          {"vBulletin", "4.2.3"},
		"vbulletin422-xenfovb-astyles-t10236.html":  {"vBulletin", "4.2.2"},
		"vbulletin422-xenfovb-astyles-t26792.html":  {"vBulletin", "4.2.2"},
		"vbulletin420-xenfovb-astyles-t21767.html":  {"vBulletin", "4.2.0"},
	} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", name))
			if err != nil {
				t.Fatal(err)
			}
			extra := detect.Preset(preset[0], preset[1])
			if extra == nil {
				t.Fatal("no preset")
			}
			posts, err := scrape.ExtractPage(raw, "", forum.Config{Location: time.UTC, Now: time.Now, Extra: extra})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range posts {
				if p.ID == "" || p.Author == "" || p.Time.IsZero() || p.Text == "" && len(p.Quotes) == 0 || len(p.Problems) > 0 {
					t.Errorf("post %q: %q %v problems %q", p.ID, p.Author, p.Time, p.Problems)
				}
				for _, q := range p.Quotes {
					if strings.Contains(q.Text, "Click to expand") || strings.ContainsRune(q.Text, '\u200b') {
						t.Errorf("post %s: quote keeps chrome: %q", p.ID, q.Text)
					}
				}
			}
			fixture.Golden(t, strings.TrimSuffix(name, ".html")+".json", posts, *update)
		})
	}
}

// A page of no forum is no engine, and a page without numbered posts gives no guess.
func TestUnknown(t *testing.T) {
	page := []byte(`<html><head><title>x</title></head><body><p>Hello</p></body></html>`)
	if f := detect.Identify(page); f.Engine != "" || f.Dialect != "" {
		t.Errorf("got %+v", f)
	}
	if g := detect.Guess(page); g != nil {
		t.Errorf("guess %v", g)
	}
	g := detect.Guess([]byte(`<div id="post_7" class="entry"><a href="/user/ann">ann</a><span class="date">2026-11-30 10:00</span><div class="message">move E2-E4</div></div>`))
	if g["post"] != "div[id^='post_']" || g["author"] != "a[href*='user']" || g["time"] != "span.date" || g["body"] != "div.message" {
		t.Errorf("guess %v", g)
	}
}

// vBulletin 4 and 5 write a code block inside a quote as a bbcode_container inside the quote's
// container: the outer one is the quote (not code), the inner one stays in the quote's text.
func TestVBulletinQuoteHoldingCode(t *testing.T) {
	page := `<html><body><ol id="posts"><li class="postbitlegacy postcontainer" id="post_9">
<div class="username_container"><a class="username" href="member.php?u=3"><strong>ann</strong></a></div>
<span class="postdate"><span class="date">06-15-2016, 03:03 PM</span></span>
<blockquote class="postcontent restore"><div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">
<div class="bbcode_postedby"><img src="quote_icon.png" alt="Quote" /> Originally Posted by <strong>bob</strong> <a href="showthread.php?p=8#post8" rel="nofollow"><img class="inlineimg" src="viewpost-right.png" alt="View Post" /></a></div>
<div class="message">move<div class="bbcode_container"><div class="bbcode_description">Code:</div><pre class="bbcode_code">E2-E4</pre></div></div>
</div></div></div>ok</blockquote></li></ol></body></html>`
	posts, err := scrape.ExtractPage([]byte(page), "", forum.Config{Location: time.UTC, Now: time.Now, Extra: detect.Preset("vBulletin", "4.2.3")})
	if err != nil || len(posts) != 1 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p := posts[0]
	if p.Text != "ok" || len(p.Code) != 0 || len(p.Quotes) != 1 || p.Quotes[0].Author != "bob" || p.Quotes[0].PostID != "8" || p.Quotes[0].Text != "move\nE2-E4" {
		t.Errorf("got %+v", p)
	}
}

// The real vBulletin 4.2 pages of a Vietnamese board (astyles.org) through the preset: dates day
// first (the page's "30-09-2012" settles "11-10-2012" as the 11th of October), quotes cited
// "Gửi bởi <strong>Name</strong>" with their post from ?p=N or #postN, [PHP] code blocks, edit notes.
func TestVBulletin4Astyles(t *testing.T) {
	read := func(name, version string) []forum.Post {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", name))
		if err != nil {
			t.Fatal(err)
		}
		posts, err := scrape.ExtractPage(raw, "", forum.Config{Location: time.UTC, Now: time.Now, Extra: detect.Preset("vBulletin", version)})
		if err != nil {
			t.Fatal(err)
		}
		return posts
	}
	posts := read("vbulletin422-xenfovb-astyles-t10236.html", "4.2.2")
	if len(posts) != 6 || !posts[0].Time.Equal(time.Date(2012, 9, 30, 13, 13, 0, 0, time.UTC)) ||
		!posts[3].Time.Equal(time.Date(2012, 10, 11, 15, 12, 0, 0, time.UTC)) || posts[0].AuthorID != "14752" || !posts[0].Edited || len(posts[0].Code) != 5 ||
		!strings.HasPrefix(posts[0].Code[0], "- app // Bao gồm các file về cấu hình cho client + giao diện website\n- quanly") {
		t.Errorf("t10236: %+v", posts[0])
	}
	if q := posts[3].Quotes; len(q) != 1 || q[0].Author != "cc0mm" || q[0].PostID != "85103" || q[0].Text != "Trình bày tốt thật đó ~~" {
		t.Errorf("t10236 quote: %+v", q)
	}
	posts = read("vbulletin422-xenfovb-astyles-t26792.html", "4.2.2")
	if q := posts[5].Quotes; len(posts) != 6 || len(q) != 1 || q[0].Author != "No loli No Life" || q[0].PostID != "285209" || !posts[5].Edited ||
		!posts[4].Time.Equal(time.Date(2016, 3, 8, 21, 55, 0, 0, time.UTC)) {
		t.Errorf("t26792: %+v", posts[5])
	}
	posts = read("vbulletin420-xenfovb-astyles-t21767.html", "4.2.0")
	if q := posts[0].Quotes; len(posts) != 4 || len(q) != 1 || q[0].Author != "" || q[0].Text != "http://warface.goplay.vn/" || posts[2].Quotes[0].Author != "koolbong" {
		t.Errorf("t21767: %+v", posts)
	}
}

// Every thread page captured from the local phpBB installs (testdata/forums/phpbbNN, both styles
// of 3.0 and 3.1) is named phpBB of the folder's version, with its style.
func TestPhpBBCaptures(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(fixture.Root(t), "testdata", "forums", "phpbb*", "*thread*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatal("no captured phpBB thread pages", err)
	}
	for _, path := range pages {
		dir := filepath.Base(filepath.Dir(path))
		version := dir[len("phpbb"):len("phpbb")+1] + "." + dir[len("phpbb")+1:]
		style := "prosilver"
		if strings.Contains(path, "subsilver2") {
			style = "subsilver2"
		}
		t.Run(dir+"/"+filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			body, _, err := forum.Decode(raw, "")
			if err != nil {
				t.Fatal(err)
			}
			f := detect.Identify(body)
			if f.Engine != "phpBB" || f.Version != version || f.Theme != style || f.Dialect != "phpbb" {
				t.Errorf("got %q %q style %q dialect %q, want phpBB %s %s", f.Engine, f.Version, f.Theme, f.Dialect, version, style)
			}
		})
	}
}

package mybb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// realBoards are the boards of the real pages, by the pages' name prefix: their addresses make
// the permalinks absolute.
var realBoards = map[string]string{
	"mybb18-emerald-burgershot-": "https://www.burgershot.gg/",
	"mybb18-bootbb-samp-":        "https://sampforum.blast.hk/",
	"mybb18-vienna-starboundfr-": "http://starbound-fr.net/forum/",
}

// realConfig reads a real page as its board showed it to a guest: the board's address for the
// permalinks, its dates as shown (the guest's time zone, taken as UTC).
func realConfig(name string) forum.Config {
	base := ""
	for prefix, b := range realBoards {
		if strings.HasPrefix(name, prefix) {
			base = b
		}
	}
	return forum.Config{BaseURL: base, Location: time.UTC,
		Now: func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }}
}

// TestRealPages reads the thread pages saved from real MyBB 1.8 boards (testdata/realboards/mybb
// at the module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGoldenFor(t, Dialect(), func(name string) forum.Config {
		if realConfig(name).BaseURL == "" {
			t.Fatalf("%s: add its board to realBoards", name)
		}
		return realConfig(name)
	}, *update, nil)
}

// What the real pages show, field by field: quotes with their author and quoted post (nested
// and uncited ones too), code blocks apart and in the text, the edit notices, and signatures
// never in the text.
func TestRealPagesFields(t *testing.T) {
	read := func(name string) []forum.Post {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "mybb", name))
		if err != nil {
			t.Fatal(err)
		}
		posts, err := Extractor(raw, "", realConfig(name))
		if err != nil {
			t.Fatal(err)
		}
		return posts
	}
	posts := read("mybb18-emerald-burgershot-t1808.html")
	if len(posts) != 5 {
		t.Fatalf("t1808: %d posts", len(posts))
	}
	p := posts[0]
	if p.ID != "10432" || p.Author != "Boxi" || p.AuthorID != "3290" || !p.Edited ||
		!p.Time.Equal(time.Date(2021, 3, 24, 18, 49, 0, 0, time.UTC)) || len(p.Code) != 1 ||
		p.Code[0] != "new carvid_0;\n\ncarvid_0 = CreateVehicle(506,539.846,-1287.868,16.946,359.176,6,0,-1);" ||
		p.Permalink != "https://www.burgershot.gg/showthread1ed0-2.html?tid=1808&pid=10432#pid10432" {
		t.Errorf("t1808 first post: %+v", p)
	}
	q := posts[1].Quotes
	if len(q) != 2 || q[0].Author != "Boxi" || q[0].PostID != "10432" || !strings.Contains(q[0].Text, "carvid_0 = CreateVehicle") ||
		q[1].Author != "" || q[1].Text != "carvid_0" || len(posts[1].Code) != 0 || posts[1].Edited {
		t.Errorf("t1808 quotes: %+v", posts[1])
	}

	posts = read("mybb18-emerald-burgershot-t2159.html")
	if len(posts) != 5 || posts[3].Author != "Pinch" || posts[3].Text != "SetVehicleZAngle(GetPlayerVehicleID(playerid), 0);\n\nJust this one line was enough." {
		t.Errorf("t2159: the signature is part of the text or the post is misread: %+v", posts)
	}
	if q := posts[4].Quotes; len(q) != 3 || q[1].Text != "(...) the vehicle has really flipped and is about to explode" || !posts[4].Edited {
		t.Errorf("t2159 uncited quotes: %+v", posts[4])
	}

	posts = read("mybb18-emerald-burgershot-t1026.html")
	last := posts[len(posts)-1]
	if len(posts) != 5 || last.ID != "7307" || len(last.Quotes) != 1 || last.Quotes[0].Author != "Jarnokai" || last.Quotes[0].PostID != "7301" ||
		!strings.HasPrefix(last.Quotes[0].Text, "NVM, Fixed!\n\nIt would be helpful") || !strings.HasPrefix(last.Text, "I forgot to add CA_Init ();") {
		t.Errorf("t1026 nested quote: %+v", last)
	}

	// SA-MP forum archive (BootBB theme, posts converted from vBulletin): quotes whose cite is
	// vBulletin's "Name;pid Wrote:" (no link), unnamed "Quote:" quotes, PHP code blocks, the old
	// board's edit notices ("Последний раз редактировалось X; date"), d.m.Y dates.
	posts = read("mybb18-bootbb-samp-t594242-p2.html")
	if len(posts) != 6 || posts[0].ID != "3615268" || posts[0].Author != "Dutheil" || posts[0].AuthorID != "238036" ||
		!posts[0].Time.Equal(time.Date(2015, 11, 16, 10, 48, 0, 0, time.UTC)) ||
		posts[0].Permalink != "https://sampforum.blast.hk/showthreadb7bd.html?tid=594242&pid=3615268#pid3615268" ||
		len(posts[0].Quotes) != 1 || posts[0].Quotes[0].Author != "TheArrow" || posts[0].Quotes[0].PostID != "3614879" {
		t.Errorf("t594242 vBulletin cite: %+v", posts[0])
	}
	var edited []string
	for _, p := range posts {
		if p.Edited {
			edited = append(edited, p.ID)
		}
	}
	if strings.Join(edited, ",") != "3615337" || strings.Contains(posts[3].Text, "редактировалось") {
		t.Errorf("t594242 edits: %v %q", edited, posts[3].Text)
	}
	posts = read("mybb18-bootbb-samp-t593146.html")
	if len(posts) != 10 {
		t.Fatalf("t593146: %d posts", len(posts))
	}
	if q := posts[2].Quotes; len(q) != 1 || q[0].Author != "" || q[0].PostID != "" || q[0].Text != "/adminduty serait йgale a /aduty" {
		t.Errorf("t593146 unnamed quote: %+v", posts[2])
	}
	if p := posts[3]; len(p.Quotes) != 1 || p.Quotes[0].Author != "vitespirite" || p.Quotes[0].PostID != "3610732" ||
		len(p.Code) != 1 || p.Code[0] != "CMD:aduty(playerid, params[])\n{\n     return cmd_adminduty(playerid, params);\n} " {
		t.Errorf("t593146 PHP code block: %+v", p)
	}
	if p := posts[4]; len(p.Code) != 0 || !strings.Contains(p.Quotes[0].Text, "return cmd_adminduty") || p.Text != "Merci :)" {
		t.Errorf("t593146 code inside a quote belongs to the quote: %+v", p)
	}
}

// Starbound-Fr.net (MyBB 1.8.0, theme Vienna, French pack): dates "30-12-2012, 16h30", cites
// "Name a écrit :" and the unnamed "Citation :", 1.8.0's blockquote without a class, quotes
// three deep, the author in span.protext, the board's own spoiler MyCode (its head holds the
// show button), signatures left out.
func TestRealPagesFrench(t *testing.T) {
	read := func(name string) []forum.Post {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "mybb", name))
		if err != nil {
			t.Fatal(err)
		}
		posts, err := Extractor(raw, "", realConfig(name))
		if err != nil {
			t.Fatal(err)
		}
		return posts
	}
	posts := read("mybb18-vienna-starboundfr-t263.html")
	if len(posts) != 10 {
		t.Fatalf("t263: %d posts", len(posts))
	}
	for _, p := range posts {
		if len(p.Problems) > 0 || p.Time.IsZero() {
			t.Errorf("t263 %s: %v %q", p.ID, p.Time, p.Problems)
		}
	}
	if p := posts[0]; p.Author != "OniriCorpe" || p.AuthorID != "1" || !p.Time.Equal(time.Date(2012, 12, 30, 16, 30, 0, 0, time.UTC)) ||
		p.Text != "Accéder à l'article." || len(p.Quotes) != 1 || p.Quotes[0].Author != "" {
		t.Errorf("t263 first post (unnamed quote, signature left out): %+v", p)
	}
	if q := posts[3].Quotes; len(q) != 2 || q[0].Author != "Clint Eastwood" || q[1].Author != "Lee Van Cliff" || !posts[3].Edited {
		t.Errorf("t263 cites \"X a écrit :\": %+v", posts[3])
	}
	if q := posts[5].Quotes; len(q) != 1 || q[0].Author != "Gloomy54" || q[0].PostID != "4533" ||
		!strings.HasPrefix(q[0].Text, "Non, camarade Bender") || !strings.HasSuffix(q[0].Text, "Calimero") {
		t.Errorf("t263 quote three deep: %+v", posts[5])
	}
	posts = read("mybb18-vienna-starboundfr-t17-p2.html")
	if len(posts) != 4 {
		t.Fatalf("t17: %d posts", len(posts))
	}
	p := posts[3]
	if len(p.Code) != 2 || p.Code[0] != "[spoiler]Je suis un message caché[/spoiler]" || len(p.Spoilers) != 2 ||
		p.Spoilers[0] != (forum.Spoiler{Title: "Alerte Spoiler de Noob:", Text: "Je suis un message caché"}) ||
		strings.Contains(p.Text, "Je suis un message caché\n") {
		t.Errorf("t17 spoilers of the board's MyCode: %+v", p)
	}
}

// A quote's cite: the quick_jump link names the quoted post; vBulletin's "Name;pid" form (boards
// converted from vBulletin, no link) names it too; a link wins over the form.
func TestCiteInfo(t *testing.T) {
	for _, c := range []struct{ cite, author, pid string }{
		{`<cite><span> (11-30-2026, 03:17 AM)</span>Jarnokai Wrote:  <a href="showthread.php?tid=1&amp;pid=7301#pid7301" class="quick_jump"></a></cite>`, "Jarnokai", "7301"},
		{`<cite>TheArrow;3614879 Wrote:</cite>`, "TheArrow", "3614879"},
		{`<cite>Pinch;12 Wrote: <a href="showthread.php?pid=99#pid99" class="quick_jump"></a></cite>`, "Pinch;12", "99"},
		{`<cite>Quote:</cite>`, "", ""},
		{`<cite>Сергей Wrote:</cite>`, "Сергей", ""},
		{`<cite>Citation :</cite>`, "", ""},
		{`<cite>Carte qui parle a écrit :</cite>`, "Carte qui parle", ""},
		{`<cite><span> (30-12-2012, 17h47)</span>La Chouette a écrit :  <a href="http://starbound-fr.net/forum/showthread.php?pid=4527#pid4527" class="quick_jump"></a></cite>`, "La Chouette", "4527"},
	} {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader("<blockquote>" + c.cite + "</blockquote>"))
		if err != nil {
			t.Fatal(err)
		}
		author, pid := citeInfo(doc.Find("cite").Nodes[0])
		if author != c.author || pid != c.pid {
			t.Errorf("%s: %q %q, want %q %q", c.cite, author, pid, c.author, c.pid)
		}
	}
}

package mybb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// realConfig reads the real pages as the board showed them to a guest: the board's address for
// the permalinks, its dates as shown (the guest's time zone, taken as UTC).
func realConfig() forum.Config {
	return forum.Config{BaseURL: "https://www.burgershot.gg/", Location: time.UTC,
		Now: func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }}
}

// TestRealPages reads the thread pages saved from a real MyBB 1.8 board (testdata/realboards/mybb
// at the module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, "mybb", realConfig(), *update, nil)
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
		posts, err := Extractor(raw, "", realConfig())
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
}

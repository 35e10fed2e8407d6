package mybb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// The board index of the captured real board (testdata/forums/mybb, MyBB 1.8): every forum row
// with its counts and last post.
func TestExtractBoardRealIndex(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "forums", "mybb", "17-index-with-pm-notice.dzhelu.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := extractBoard(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []forum.SectionHead{
		{ID: "2", Threads: 0, Posts: 0},
		{ID: "3", Threads: 2, Posts: 17, LastThread: "2", LastPoster: "snovaya"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("forum %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSectionHeadSame(t *testing.T) {
	a := forum.SectionHead{ID: "3", Threads: 2, Posts: 17, LastThread: "2", LastPoster: "snovaya"}
	for _, tc := range []struct {
		name string
		o    forum.SectionHead
		want bool
	}{
		{"equal", a, true},
		{"a new post", forum.SectionHead{ID: "3", Threads: 2, Posts: 18, LastThread: "2", LastPoster: "snovaya"}, false},
		{"a new thread", forum.SectionHead{ID: "3", Threads: 3, Posts: 18, LastThread: "5", LastPoster: "Джелу"}, false},
		{"counts not shown", forum.SectionHead{ID: "3", Threads: -1, Posts: -1}, false},
		{"another forum", forum.SectionHead{ID: "4", Threads: 2, Posts: 17, LastThread: "2", LastPoster: "snovaya"}, false},
	} {
		if got := a.Same(tc.o); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}

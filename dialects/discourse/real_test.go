package discourse

import (
	"flag"
	"strings"
	"testing"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// Topic answers (/t/<id>.json) of a real forum, discourse.urho3d.io, as an archive of it saved
// them (testdata/real, see testdata/README.md): every post read, quotes with their author and
// post id, code blocks, edits; goldens checked against the answers post by post. A quote of
// another topic (an aside.quote with no data-username, its title a link to that topic) keeps
// its text with no author and no post id: its data-post numbers a post of the other topic.
func TestRealPages(t *testing.T) {
	for _, c := range []struct {
		name                        string
		posts, quotes, code, edited int
	}{
		{"urho3d-angelscript-loading-a-char-file-into-a-2d-array-how.7065", 7, 2, 4, 3},
		{"urho3d-degree-character-in-string-displayed-in-urhosharp-label.6460", 18, 5, 1, 4},
		{"urho3d-using-custom-c-component-from-angelscript.6834", 18, 17, 7, 2},
	} {
		name := c.name
		t.Run(name, func(t *testing.T) {
			posts, err := Extract(readTestdata(t, "real/"+name+".json"), "application/json", forum.Config{BaseURL: "https://discourse.urho3d.io/"})
			if err != nil || len(posts) == 0 {
				t.Fatalf("%d posts, %v", len(posts), err)
			}
			quotes, code, edited := 0, 0, 0
			for _, p := range posts {
				if p.ID == "" || p.Author == "" || p.AuthorID == "" || p.Time.IsZero() || len(p.Problems) > 0 {
					t.Errorf("post %s: %q (%s) %v %q", p.ID, p.Author, p.AuthorID, p.Time, p.Problems)
				}
				for _, q := range p.Quotes {
					if q.Author != "" && q.PostID != "" {
						quotes++
					} else if q.Author != "" || q.PostID != "" || strings.Contains(q.Text, "Urhosharp Community?") {
						t.Errorf("post %s: quote %+v", p.ID, q)
					}
				}
				code += len(p.Code)
				if p.Edited {
					edited++
				}
			}
			if len(posts) != c.posts || quotes != c.quotes || code != c.code || edited != c.edited {
				t.Errorf("%d posts, %d quotes with author and post, %d code blocks, %d edited; want %d, %d, %d, %d",
					len(posts), quotes, code, edited, c.posts, c.quotes, c.code, c.edited)
			}
			fixture.Golden(t, "real/"+name+".json", posts, *update)
		})
	}
}

package discourse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The answers of real forums (testdata/api, see its README) read into posts.
func TestExtractFixtures(t *testing.T) {
	cfg := forum.Config{BaseURL: "https://try.example/"}
	posts, err := Extract(readTestdata(t, "api/topic.json"), "application/json", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	if want := []string{"83", "84", "86", "226"}; !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	first := posts[0]
	if first.Author != "samsaffron" || first.AuthorID != "15" || !first.Edited {
		t.Errorf("first post: author %q id %q edited %v", first.Author, first.AuthorID, first.Edited)
	}
	if want := time.Date(2013, 2, 4, 20, 26, 26, 278e6, time.UTC); !first.Time.Equal(want) {
		t.Errorf("time %v, want %v", first.Time, want)
	}
	if !strings.HasPrefix(first.Text, "Welcome!\nTry is a sandbox") || !strings.Contains(first.Text, "\nFor more information") {
		t.Errorf("text %q", first.Text)
	}
	if first.Permalink != "https://try.example/t/this-site-is-a-sandbox-it-is-reset-every-day/57/1" {
		t.Errorf("permalink %q", first.Permalink)
	}
	if posts[1].Edited || posts[1].Text != "This topic is now pinned. It will appear at the top of its category." {
		t.Errorf("second post %+v", posts[1])
	}

	// The documentation's topic answer, a posts answer with the new user fields, one post.
	for _, c := range []struct {
		file   string
		ids    []string
		author string
	}{
		{"api/topic_response.json", []string{"16"}, "discourse1"},
		{"api/topic_posts.json", []string{"123456"}, "Some-username"},
		{"api/post.json", []string{"11"}, "system"},
		{"api/new_topic_response.json", []string{"20"}, "discourse1"},
	} {
		posts, err := Extract(readTestdata(t, c.file), "", cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		var ids []string
		for _, p := range posts {
			ids = append(ids, p.ID)
			if p.Author != c.author || len(p.Problems) > 0 || p.Text == "" {
				t.Errorf("%s: post %+v", c.file, p)
			}
		}
		if !slices.Equal(ids, c.ids) {
			t.Errorf("%s: ids %v, want %v", c.file, ids, c.ids)
		}
	}
	if _, err := Extract([]byte("<html>"), "text/html", cfg); err == nil {
		t.Error("HTML read as a topic")
	}
}

func TestHeadsFixture(t *testing.T) {
	var list TopicList
	if err := json.Unmarshal(readTestdata(t, "api/category_topics.json"), &list); err != nil {
		t.Fatal(err)
	}
	got := Heads(list)
	want := []forum.ThreadHead{
		{ID: "5", Title: "About the category", Replies: 1, LastAt: time.Date(2014, 4, 16, 18, 31, 10, 406e6, time.UTC), LastPoster: "fuzzy", Sticky: true},
		{ID: "4", Title: "This is a markdown post", Replies: 1, LastAt: time.Date(2014, 4, 16, 18, 31, 37, 371e6, time.UTC), LastPoster: "fuzzy"},
	}
	for i := range want {
		if i >= len(got) || !got[i].Same(want[i]) || got[i].Title != want[i].Title || got[i].Sticky != want[i].Sticky {
			t.Fatalf("heads %+v, want %+v", got, want)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d heads, want %d", len(got), len(want))
	}
}

// schemaProps walks a JSON schema along path (object properties; "[]" steps into array items)
// and returns the property names found there.
func schemaProps(t *testing.T, file string, path ...string) []string {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(readTestdata(t, "schema/"+file), &s); err != nil {
		t.Fatal(err)
	}
	for _, step := range path {
		if step == "[]" {
			items := s["items"]
			if l, ok := items.([]any); ok && len(l) > 0 {
				items = l[0]
			}
			s, _ = items.(map[string]any)
		} else {
			props, _ := s["properties"].(map[string]any)
			s, _ = props[step].(map[string]any)
		}
		if s == nil {
			t.Fatalf("%s: no %v in the schema", file, path)
		}
	}
	props, _ := s["properties"].(map[string]any)
	var out []string
	for k := range props {
		out = append(out, k)
	}
	return out
}

func jsonFields(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := 0; i < rt.NumField(); i++ {
		tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// Every field the dialect reads is one Discourse's API schemas (testdata/schema, from
// docs.discourse.org's openapi.json, generated from Discourse's spec/requests/api/schemas)
// declare: a renamed field fails here, not on a live forum.
func TestFieldsInSchemas(t *testing.T) {
	for _, c := range []struct {
		what   string
		fields []string
		file   string
		path   []string
	}{
		{"topic post", jsonFields(Post{}), "topic.json", []string{"post_stream", "posts", "[]"}},
		{"posts post", jsonFields(Post{}), "topic_posts.json", []string{"post_stream", "posts", "[]"}},
		{"single post", jsonFields(Post{}), "post.json", nil},
		{"created post", jsonFields(Post{}), "post_create.json", nil},
		{"topic", jsonFields(Topic{}), "topic.json", nil},
		{"category topic", jsonFields(ListTopic{}), "category_topics.json", []string{"topic_list", "topics", "[]"}},
		{"private message topic", jsonFields(ListTopic{}), "private_messages.json", []string{"topic_list", "topics", "[]"}},
	} {
		have := schemaProps(t, c.file, c.path...)
		for _, f := range c.fields {
			if !slices.Contains(have, f) {
				t.Errorf("%s: field %q is not in %s %v", c.what, f, c.file, c.path)
			}
		}
	}
}

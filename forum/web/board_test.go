package web

import (
	"fmt"
	"testing"

	"forumgm/forum"
)

func TestPostsAfter(t *testing.T) {
	post := func(ids ...string) []forum.Post {
		var ps []forum.Post
		for _, id := range ids {
			ps = append(ps, forum.Post{ID: id})
		}
		return ps
	}
	pages := map[string][]forum.Post{"p2": post("4", "5", "6"), "p1": post("1", "2", "3")}
	prevOf := map[string]string{"p2": "p1"}
	var read []string
	got, next, err := PostsAfter(forum.Cursor{PostID: "5"}, 3, post("7", "8"), "p2", 10,
		func(u string) ([]forum.Post, string, error) { read = append(read, u); return pages[u], prevOf[u], nil })
	if err != nil || fmt.Sprint(got) != fmt.Sprint(post("6", "7", "8")) || next != (forum.Cursor{PostID: "8", Page: 3}) ||
		fmt.Sprint(read) != "[p2]" {
		t.Errorf("after 5: %v %+v %v, read %v", got, next, err, read)
	}
	got, next, err = PostsAfter(forum.Cursor{PostID: "9"}, 3, post("7", "8"), "p2", 10, nil)
	if err != nil || len(got) != 0 || next != (forum.Cursor{PostID: "9", Page: 3}) {
		t.Errorf("idle: %v %+v %v", got, next, err)
	}
	read = nil
	got, _, err = PostsAfter(forum.Cursor{}, 3, post("7", "8"), "p2", 10,
		func(u string) ([]forum.Post, string, error) { read = append(read, u); return pages[u], prevOf[u], nil })
	if err != nil || len(got) != 8 || fmt.Sprint(read) != "[p2 p1]" {
		t.Errorf("from the start: %v %v, read %v", got, err, read)
	}
}

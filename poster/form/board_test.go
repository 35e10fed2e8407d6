package form

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

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

func TestBoardRetry(t *testing.T) {
	var slept []time.Duration
	b := &Board{FloodRetries: 2, MaxFloodWait: time.Minute,
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	flood := fmt.Errorf("x: %w", &forum.FloodError{Wait: 5 * time.Second})
	logins := 0
	login := func(context.Context) error { logins++; return nil }
	errs := []error{flood, forum.ErrLoggedOut, forum.ErrBadToken, flood, nil}
	n := 0
	err := b.Retry(context.Background(), login, nil, func() error { n++; return errs[n-1] })
	if err != nil || n != 5 || logins != 1 || fmt.Sprint(slept) != "[6s 6s]" {
		t.Errorf("err %v, attempts %d, logins %d, slept %v", err, n, logins, slept)
	}
	// A third flood, a second logout, a logout without login, a long wait: given up.
	for _, c := range []struct {
		login func(context.Context) error
		errs  []error
		want  error
	}{
		{login, []error{flood, flood, flood}, flood},
		{login, []error{forum.ErrLoggedOut, forum.ErrLoggedOut}, forum.ErrLoggedOut},
		{nil, []error{forum.ErrLoggedOut}, forum.ErrLoggedOut},
		{login, []error{&forum.FloodError{Wait: time.Hour}}, &forum.FloodError{}},
	} {
		n := 0
		err := b.Retry(context.Background(), c.login, nil, func() error { n++; return c.errs[n-1] })
		var fe *forum.FloodError
		if n != len(c.errs) || !(errors.Is(err, c.want) || errors.As(c.want, &fe) && errors.As(err, &fe)) {
			t.Errorf("%v: %v after %d attempts", c.errs, err, n)
		}
	}
	again := 0
	errAgain := errors.New("again")
	n = 0
	err = b.Retry(context.Background(), nil, func(err error) bool { again++; return errors.Is(err, errAgain) && again < 3 },
		func() error { n++; return errAgain })
	if !errors.Is(err, errAgain) || n != 3 {
		t.Errorf("again: %v after %d attempts", err, n)
	}
}

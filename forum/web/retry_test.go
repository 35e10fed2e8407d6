package web

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"forumgm/forum"
)

var errStale = errors.New("stale form")

func TestRetry(t *testing.T) {
	flood := fmt.Errorf("slow down: %w", &forum.FloodError{Wait: 7 * time.Second})
	for _, tc := range []struct {
		name     string
		noLogin  bool
		again    []error
		answers  []error // what the attempts answer, in turn (nil: done)
		wantErr  error
		logins   int
		freshes  int
		attempts int
	}{
		{name: "done", answers: []error{nil}, attempts: 1},
		{name: "logged out", answers: []error{fmt.Errorf("page: %w", forum.ErrLoggedOut), nil}, logins: 1, attempts: 2},
		{name: "logged out twice", answers: []error{forum.ErrLoggedOut, forum.ErrLoggedOut}, wantErr: forum.ErrLoggedOut, logins: 1, attempts: 2},
		{name: "logged out, no login", noLogin: true, answers: []error{forum.ErrLoggedOut}, wantErr: forum.ErrLoggedOut, attempts: 1},
		{name: "bad token once", answers: []error{forum.ErrBadToken, nil}, freshes: 1, attempts: 2},
		{name: "bad token twice", answers: []error{forum.ErrBadToken, forum.ErrBadToken}, wantErr: forum.ErrBadToken, freshes: 1, attempts: 2},
		{name: "again", again: []error{errStale}, answers: []error{errStale, nil}, attempts: 2},
		{name: "again runs out", again: []error{errStale}, answers: []error{errStale, errStale, errStale, errStale}, wantErr: errStale, attempts: 4},
		{name: "not again", answers: []error{errStale}, wantErr: errStale, attempts: 1},
		{name: "every kind once", again: []error{errStale},
			answers: []error{forum.ErrLoggedOut, forum.ErrBadToken, errStale, nil}, logins: 1, freshes: 1, attempts: 4},
		// The daemon waits out flood control and splits a message too long: both come back at once.
		{name: "flood", answers: []error{flood}, wantErr: flood, attempts: 1},
		{name: "too long", answers: []error{forum.ErrTooLong}, wantErr: forum.ErrTooLong, attempts: 1},
		{name: "other error", answers: []error{forum.ErrNoPermission}, wantErr: forum.ErrNoPermission, attempts: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logins, freshes, n := 0, 0, 0
			r := Retry{Again: tc.again, Fresh: func(context.Context) error { freshes++; return nil }}
			if !tc.noLogin {
				r.Login = func(context.Context) error { logins++; return nil }
			}
			err := r.Do(context.Background(), func() error { n++; return tc.answers[n-1] })
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("err %v; want %v", err, tc.wantErr)
			}
			if n != tc.attempts || logins != tc.logins || freshes != tc.freshes {
				t.Errorf("%d attempts, %d logins, %d fresh forms; want %d, %d, %d", n, logins, freshes, tc.attempts, tc.logins, tc.freshes)
			}
		})
	}
	// A failed login is reported together with the error that caused it.
	r := Retry{Login: func(context.Context) error { return forum.ErrBadLogin }}
	err := r.Do(context.Background(), func() error { return forum.ErrLoggedOut })
	if !errors.Is(err, forum.ErrLoggedOut) || !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("failed re-login must report both: %v", err)
	}
}

package web

import (
	"context"
	"errors"
	"fmt"

	"forumgm/forum"
)

// maxAgain bounds how often Retry sends a fresh form again after one of a dialect's passing
// refusals (Retry.Again), per write.
const maxAgain = 3

// Retry is the one write-retry policy of every dialect: how one write (a reply, a private
// message, an edit, a login-protected read) is tried again when the board refused it for a
// passing reason, each attempt on a freshly fetched form. A lost session (forum.ErrLoggedOut) is
// logged in again once; a rejected form token (forum.ErrBadToken) gets a fresh form once (after
// Fresh); one of the dialect's own passing refusals (Again: new posts since the form was loaded,
// a stale CSRF token) gets a fresh form at most maxAgain times. Everything else comes back at
// once: flood control (*forum.FloodError) and a message too long (forum.ErrTooLong) included, since
// the daemon waits out flood control (reading and judging meanwhile) and splits a message itself.
type Retry struct {
	// Login logs in again; nil: a lost session is not retried.
	Login func(context.Context) error
	// Fresh runs before a form whose token the board rejected is sent again (MyBB logs in again:
	// its token belongs to the session); nil: only the form is fetched afresh.
	Fresh func(context.Context) error
	// Again are the dialect's passing refusals (errors.Is).
	Again []error
}

// Do runs attempt until it succeeds or fails for good (see Retry). A failed login is reported
// together with the error that caused it.
func (r Retry) Do(ctx context.Context, attempt func() error) error {
	relogged, refreshed, again := r.Login == nil, false, 0
	for {
		err := attempt()
		switch {
		case err == nil:
			return nil
		case errors.Is(err, forum.ErrLoggedOut) && !relogged:
			relogged = true
			if lerr := r.Login(ctx); lerr != nil {
				return fmt.Errorf("%w (logging in again failed: %w)", err, lerr)
			}
		case errors.Is(err, forum.ErrBadToken) && !refreshed:
			refreshed = true
			if r.Fresh != nil {
				if ferr := r.Fresh(ctx); ferr != nil {
					return fmt.Errorf("%w (before a fresh form: %w)", err, ferr)
				}
			}
		case again < maxAgain && r.again(err):
			again++
		default:
			return err
		}
	}
}

func (r Retry) again(err error) bool {
	for _, a := range r.Again {
		if errors.Is(err, a) {
			return true
		}
	}
	return false
}

// Post is Do for an attempt that makes a post: the new post's id, and whether the board merged
// it into the bot's previous post.
func (r Retry) Post(ctx context.Context, attempt func() (id string, merged bool, err error)) (string, bool, error) {
	var id string
	var merged bool
	err := r.Do(ctx, func() error {
		var err error
		id, merged, err = attempt()
		return err
	})
	return id, merged, err
}

package form

import (
	"context"
	"errors"

	"forumgm/forum"
)

// Retry is how a poster gets one message onto the board through forms that may be refused: the
// message is split into parts of at most Max runes (Split), and each part is sent until it goes
// through or fails for good. Logged out → log in and send again; flood control → wait as long as
// the board said and send again; an error in Again (a stale token, new posts since the form was
// loaded) → send a fresh form again; too long after all → split that part in halves and send
// those. At most MaxRetries retries a part.
type Retry struct {
	Max        int // runes a part; <= 0: no limit
	MaxRetries int
	// ReturnFlood returns a flood error at once (forum.Config.ReturnFlood).
	ReturnFlood bool
	// ReturnTooLong returns a too-long error instead of splitting (forum.Config.ReturnTooLong).
	ReturnTooLong bool
	Sleep         Sleeper
	Login         func(context.Context) error
	Again         []error
}

// Send is one attempt at posting part: the new post's id, and whether the board merged it into
// the bot's previous post.
type Send func(ctx context.Context, part string) (id string, merged bool, err error)

// Post posts body with send and returns the last part's id and merged.
func (r Retry) Post(ctx context.Context, body string, send Send) (string, bool, error) {
	var id string
	var merged bool
	for _, part := range Split(body, r.Max, Runes) {
		var err error
		if id, merged, err = r.part(ctx, part, 0, send); err != nil {
			return id, merged, err
		}
	}
	return id, merged, nil
}

func (r Retry) again(err error) bool {
	for _, a := range r.Again {
		if errors.Is(err, a) {
			return true
		}
	}
	return false
}

func (r Retry) part(ctx context.Context, part string, depth int, send Send) (string, bool, error) {
	var lastErr error
	for attempt := 0; attempt <= r.MaxRetries; attempt++ {
		id, merged, err := send(ctx, part)
		if err == nil {
			return id, merged, nil
		}
		lastErr = err
		var fe *forum.FloodError
		switch {
		case errors.Is(err, forum.ErrLoggedOut):
			if lerr := r.Login(ctx); lerr != nil {
				return "", false, lerr
			}
		case errors.As(err, &fe):
			if r.ReturnFlood {
				return "", false, err
			}
			if serr := r.Sleep(ctx, fe.Wait); serr != nil {
				return "", false, serr
			}
		case r.again(err):
			// fetch a fresh form and send again
		case errors.Is(err, forum.ErrTooLong) && depth < 8 && len([]rune(part)) > 1 && !r.ReturnTooLong:
			var id string
			var merged bool
			for _, sub := range Split(part, len([]rune(part))/2+1, Runes) {
				if id, merged, err = r.part(ctx, sub, depth+1, send); err != nil {
					return id, merged, err
				}
			}
			return id, merged, nil
		default:
			return "", false, err
		}
	}
	return "", false, lastErr
}

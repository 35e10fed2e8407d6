package form

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Board is how the posters of PunBB and SMF talk to a board: fetching and checking its pages,
// and trying a form again when the board refuses it for a passing reason.
type Board struct {
	Name         string        // the dialect ("punbb"), the prefix of its errors
	Client       *forum.Client // every request
	Sleep        Sleeper       // the wait before a retry after flood control
	FloodRetries int           // flood waits at most, per Retry
	MaxFloodWait time.Duration // a longer flood wait is not waited out
	// Check turns the error a page shows into a typed error (nil: the page shows none).
	Check func(doc *goquery.Document, status int) error
}

// Fetch GETs (vals == nil) or POSTs a page and parses it; when check is set, the error the page
// shows comes back typed (Board.Check). A transport error comes back with the page parsed, if
// there was one.
func (b *Board) Fetch(ctx context.Context, rawURL string, vals url.Values, charset string, check bool) (*forum.Page, *goquery.Document, error) {
	var p *forum.Page
	var err error
	if vals == nil {
		p, err = b.Client.Get(ctx, rawURL)
	} else {
		p, err = b.Client.PostForm(ctx, rawURL, vals, charset)
	}
	if p == nil || p.Body == nil {
		if err == nil {
			err = fmt.Errorf("%s: %s: empty answer", b.Name, rawURL)
		}
		return p, nil, err
	}
	if vals == nil && err == nil {
		if werr := forum.CheckWhole(p); werr != nil { // a page cut short is never read
			return p, nil, fmt.Errorf("%s: %w", b.Name, werr)
		}
	}
	doc, derr := p.Doc()
	if derr != nil {
		return p, nil, derr
	}
	if check {
		if perr := b.Check(doc, p.Status); perr != nil {
			return p, doc, perr
		}
	}
	return p, doc, err
}

// WaitFlood waits out err when it is flood control the board may be waited out of after floods
// earlier waits: the board's time and a second. waited says whether it did; werr is the wait's
// own error (the context ended).
func (b *Board) WaitFlood(ctx context.Context, err error, floods int) (waited bool, werr error) {
	var fe *forum.FloodError
	if !errors.As(err, &fe) || floods >= b.FloodRetries || fe.Wait > b.MaxFloodWait {
		return false, nil
	}
	return true, b.Sleep(ctx, fe.Wait+time.Second)
}

// Retry runs attempt until it succeeds or fails for good: flood → wait the board's time and retry
// (at most FloodRetries times), logged out → login once (never when login is nil), bad token → a
// fresh form once, an error again accepts → once more (again may be nil).
func (b *Board) Retry(ctx context.Context, login func(context.Context) error, again func(error) bool, attempt func() error) error {
	floods := 0
	relogged, refreshed := login == nil, false
	for {
		err := attempt()
		var fe *forum.FloodError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &fe):
			waited, werr := b.WaitFlood(ctx, err, floods)
			if !waited {
				return err
			}
			if werr != nil {
				return werr
			}
			floods++
		case errors.Is(err, forum.ErrLoggedOut) && !relogged:
			relogged = true
			if lerr := login(ctx); lerr != nil {
				return fmt.Errorf("%w (log in again: %v)", err, lerr)
			}
		case errors.Is(err, forum.ErrBadToken) && !refreshed:
			refreshed = true
		case again != nil && again(err):
		default:
			return err
		}
	}
}

// PostsAfter gathers a topic's posts after the cursor, oldest first, reading back from its newest
// page: posts and prev are that page's posts and the URL of the page before it, and read reads an
// older page the same way. It stops at the first page holding a post at or before the cursor, at
// the topic's first page, or after maxPages pages (ids ordered by forum.CompareIDs). The cursor returned is
// past the newest post, on lastPage.
func PostsAfter(after forum.Cursor, lastPage int, posts []forum.Post, prev string,
	maxPages int, read func(rawURL string) ([]forum.Post, string, error)) ([]forum.Post, forum.Cursor, error) {
	var out []forum.Post
	seen := map[string]bool{}
	for n := 0; ; n++ {
		known := false
		for _, p := range posts {
			if after.PostID != "" && !forum.IDLess(after.PostID, p.ID) {
				known = true
				if !after.Listed(p.ID) {
					continue
				}
			}
			if !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
		if known || prev == "" || n >= maxPages {
			break
		}
		var err error
		if posts, prev, err = read(prev); err != nil {
			return nil, after, err
		}
	}
	forum.SortPosts(out)
	next := forum.Cursor{PostID: after.PostID, Page: lastPage}
	if len(out) > 0 && forum.IDLess(next.PostID, out[len(out)-1].ID) || next.PostID == "" && len(out) > 0 {
		next.PostID = out[len(out)-1].ID
	}
	return out, next, nil
}

// ExtraInt is cfg.Extra[key] as a positive number, else def.
func ExtraInt(cfg forum.Config, key string, def int) int {
	if v, err := strconv.Atoi(cfg.Extra[key]); err == nil && v > 0 {
		return v
	}
	return def
}

// Defaults sets what the options left unset: a client with cfg's user agent, the timer Sleep.
func (b *Board) Defaults(cfg forum.Config) {
	if b.Client == nil {
		b.Client = forum.NewClient(cfg.ClientConfig())
	}
	if b.Sleep == nil {
		b.Sleep = forum.Sleep
	}
	if cfg.ReturnFlood {
		b.FloodRetries = 0 // the caller waits
	}
}

// ConfigDefaults is cfg with UTC for an unset Location and time.Now for an unset Now.
func ConfigDefaults(cfg forum.Config) forum.Config {
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return cfg
}

// SplitFloor is the size under which SendParts stops halving a part the board finds too long:
// min, or no halving at all when the caller splits itself (forum.Config.ReturnTooLong).
func SplitFloor(cfg forum.Config, min int) int {
	if cfg.ReturnTooLong {
		return math.MaxInt
	}
	return min
}

// SendParts posts body with send in parts of at most limit (as size counts them), cut where Split
// cuts; a part the board still finds too long is cut in halves again while it is over min. ids are the new posts' ids in order; merged is what send said of the first part.
// name (the dialect) prefixes the error of a part.
func SendParts(ctx context.Context, name, body string, limit, min int, size func(string) int, send Send) (ids []string, merged bool, err error) {
	for i, part := range Split(body, limit, size) {
		id, m, err := send(ctx, part)
		if errors.Is(err, forum.ErrTooLong) && size(part) > min {
			// The board allows less than we thought: halve and try again.
			sub, m2, err := SendParts(ctx, name, part, size(part)/2, min, size, send)
			if len(ids) == 0 {
				merged = m2
			}
			ids = append(ids, sub...)
			if err != nil {
				return ids, merged, err
			}
			continue
		}
		if err != nil {
			return ids, merged, fmt.Errorf("%s: reply part %d: %w", name, i+1, err)
		}
		if len(ids) == 0 {
			merged = m
		}
		ids = append(ids, id)
	}
	return ids, merged, nil
}

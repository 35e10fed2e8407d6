package daemon

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"forumgm/forum"
	"forumgm/forum/web"
	"forumgm/game"
	"forumgm/media"
	"forumgm/store"
)

// errAttempt is recorded before a send: if the process dies during it, the attempt count says the
// message may be on the forum, and the marker is looked up before any new attempt.
var errAttempt = errors.New("sending (outcome unknown until confirmed)")

// maxAmbiguous bounds the sends of one item in one drain whose outcome was unknown (a 5xx or a
// reset after the POST went out): each is followed by a look for the marker before sending again.
const maxAmbiguous = 2

// Drain posts the pending outbox items and reports how many it delivered. Thread replies go in
// the order they were queued and private messages round-robin across recipients (each's in
// their order; a recipient's burst as one message: pmfair.go), each queue on its own: the first
// reply that cannot be delivered now holds back the later replies (never the private messages),
// and the first private message that cannot be delivered now holds back the later private
// messages (never the replies). A private message that can never be delivered (an unknown user,
// private messages disabled, a full inbox) is given up on, reported at error level and counted,
// and the next one goes on. The error is the first reason an item waits.
func (d *Daemon) Drain(ctx context.Context) (int, error) {
	items, err := d.o.Store.PendingOutbox(ctx, d.o.Game)
	if err != nil {
		d.fail("store", err)
		return 0, err
	}
	d.m.OutboxPending.WithLabelValues(d.o.Game).Set(float64(len(items)))
	n, left := 0, len(items)
	var first error
	held := map[store.OutboxKind]bool{}
	for _, b := range d.schedule(items) { // private messages fairly (pmfair.go)
		it := b[0]
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if held[it.Kind] {
			continue
		}
		if t, ok := d.retryAt[it.ID]; ok && d.o.Clock.Now().Before(t) {
			held[it.Kind] = true
			continue
		}
		got, gaveUp, err := d.deliverBatch(forum.Urgent(ctx, outboxClass(it.Kind)), b)
		n, left = n+got, left-got-gaveUp
		switch {
		case err == nil, errors.Is(err, errGivenUp):
		case errors.Is(err, errHeld):
			held[it.Kind] = true // the board asked to wait: not a failure, the game goes on
			continue
		case err != nil:
			held[it.Kind] = true
			if first == nil {
				first = err
			}
			continue
		}
		delete(d.retryAt, it.ID)
		d.m.OutboxPending.WithLabelValues(d.o.Game).Set(float64(left))
	}
	return n, first
}

// outboxClass is the forum request class of delivering an item: a reply in the thread goes out
// first, a private message next (forum.Scheduler).
func outboxClass(k store.OutboxKind) forum.Class {
	if k == store.OutboxReply {
		return forum.ClassReply
	}
	return forum.ClassPM
}

// errHeld is deliver's report of an item the board asked to wait with (flood control): it goes
// out at its retry time, and nothing failed.
var errHeld = errors.New("held by the board's flood control")

// errGivenUp is deliver's report of an item given up on for good (marked failed for a person).
var errGivenUp = errors.New("given up")

// undeliverable says whether err means a private message can never be delivered as it stands:
// the recipient is unknown, cannot receive private messages (disabled, a full inbox), or the
// forum has none. Retrying would only hold back the messages behind it.
func undeliverable(err error) bool {
	return errors.Is(err, forum.ErrNotFound) || errors.Is(err, forum.ErrNoPermission) ||
		errors.Is(err, forum.ErrNoPM) || errors.Is(err, forum.ErrRecipient)
}

// giveUp marks an item failed for a person to look at, loudly: an error-level log line and the
// outbox_failed counter.
func (d *Daemon) giveUp(ctx context.Context, it store.OutboxRow, err error) error {
	d.m.Errors.WithLabelValues(d.o.Game, "undeliverable").Inc()
	d.m.OutboxFailed.WithLabelValues(d.o.Game, string(it.Kind)).Inc()
	if d.o.Health != nil {
		d.o.Health.Error(err)
	}
	d.log.Error().Err(err).Int64("outbox", it.ID).Str("kind", string(it.Kind)).Str("recipient", it.Recipient).
		Str("marker", it.Marker).Msg("message cannot be delivered: given up (see forumgm review / the outbox); later messages go on")
	cctx, cancel := durable(ctx)
	defer cancel()
	if merr := d.o.Store.MarkFailed(cctx, it.ID, err); merr != nil {
		d.fail("store", merr)
		return merr
	}
	return fmt.Errorf("daemon: outbox %d (%s): %w: %w", it.ID, it.Marker, errGivenUp, err)
}

// sendError handles a failed send: a private message that can never be delivered is given up on,
// anything else is retried later.
func (d *Daemon) sendError(ctx context.Context, it store.OutboxRow, err error) error {
	if it.Kind == store.OutboxPM && undeliverable(err) {
		return d.giveUp(ctx, it, err)
	}
	return d.sendFailed(ctx, it, err)
}

// deliver sends one item (in parts if it is too long), unless its marker shows it is already on
// the forum, and marks it posted.
func (d *Daemon) deliver(ctx context.Context, it store.OutboxRow) error {
	log := d.log.With().Int64("outbox", it.ID).Str("marker", it.Marker).Str("kind", string(it.Kind)).Logger()
	caps := d.o.Forum.Capabilities()
	if it.Kind == store.OutboxPM && !caps.PrivateMessages {
		err := fmt.Errorf("daemon: outbox %d: private message to %s: %w", it.ID, it.Recipient, forum.ErrNoPM)
		return d.giveUp(ctx, it, err) // a human looks at it; later items go on
	}
	limit := d.limit
	if limit == 0 {
		limit = caps.MaxPostLength
	}
	ambiguous := 0
	refused := false // the forum refused an attachment: every file is linked instead
	for {
		body, native, err := d.attachments(it, caps, refused)
		if err != nil {
			return d.sendFailed(ctx, it, err)
		}
		now := d.o.Clock.Now()
		body, err = d.render(ctx, it, body, now)
		if err != nil {
			return d.sendFailed(ctx, it, err)
		}
		parts := web.Split(body, bodyLimit(limit), web.Runes)
		files := partFiles(parts, native)
		markers := make([]string, len(parts))
		for i := range parts {
			markers[i] = PartMarker(it.Marker, i+1, len(parts))
		}
		// An item tried before may be on the forum; any item may be when the store is behind the
		// thread (an older backup restored): the first of each kind after a start looks, the
		// others find what that look and the later reads saw (restore.go).
		if it.Attempts > 0 || !d.lookedFor(it.Kind) {
			if _, err := d.findMarkers(ctx, it, markers); err != nil {
				return d.sendFailed(ctx, it, err)
			}
		}
		found := d.knownMarkers(markers)
		firstID := ""
		var postedAt time.Time // when the first part went out: the forum's time of a part found
		foundFirst := false    // the first part was found on the forum (postedAt is the forum's)
		again := false         // redo the split and the marker look-up (flood wait, shorter limit)
		for i, part := range parts {
			if p, ok := found[markers[i]]; ok {
				ev := log.Info()
				msg := "already on the forum (found by marker): not posting again"
				if it.Attempts == 0 {
					ev = log.Warn()
					msg = "already on the forum though this store never sent it (an older backup restored?): marked posted at the forum's time, not posted again"
				}
				ev.Str("post", p.ID).Int("part", i+1).Time("forum_time", p.Time).Msg(msg)
				d.m.RepliesPosted.WithLabelValues(d.o.Game, string(it.Kind), "found").Inc()
				if i == 0 {
					firstID, postedAt, foundFirst = p.ID, p.Time, !p.Time.IsZero()
				}
				continue
			}
			if it.Attempts == 0 {
				cctx, cancel := durable(ctx)
				err := d.o.Store.MarkAttempt(cctx, it.ID, errAttempt)
				cancel()
				if err != nil {
					d.fail("store", err)
					return err
				}
				it.Attempts = 1
			}
			d.hook("attempt")
			id, err := d.send(ctx, it, Mark(part, markers[i]), files[i], i == 0)
			var fe *forum.FloodError
			switch {
			case err == nil:
			case errors.As(err, &fe):
				// Flood control: the item waits for the board's time while the game goes on
				// (posts are read and judged meanwhile); the drain sends it when allowed.
				wait := max(fe.Wait, time.Second) + time.Second
				d.retryAt[it.ID] = d.o.Clock.Now().Add(wait)
				d.m.Errors.WithLabelValues(d.o.Game, "flood").Inc()
				d.log.Info().Dur("wait", wait).Int("part", i+1).Msg("flood control: the message waits; reading and judging go on")
				return fmt.Errorf("daemon: outbox %d: %w: %w", it.ID, errHeld, err)
			case errors.Is(err, forum.ErrAmbiguous) && ambiguous < maxAmbiguous:
				// The forum may have taken the part (a proxy's 502 after the post was stored):
				// never send it again blindly; look for its marker first.
				ambiguous++
				d.fail("ambiguous", err)
				again = true
			case errors.Is(err, forum.ErrLoggedOut) || errors.Is(err, forum.ErrBadToken):
				d.fail(kindOf(err), err)
				if lerr := d.o.Forum.Login(ctx); lerr != nil {
					return d.sendFailed(ctx, it, lerr)
				}
				id, err = d.send(ctx, it, Mark(part, markers[i]), files[i], i == 0)
				if err != nil {
					return d.sendError(ctx, it, err)
				}
			case errors.Is(err, forum.ErrAttachmentRefused) && !refused:
				// Nothing was posted: link the files instead and post again.
				d.fail("attachment", err)
				log.Warn().Err(err).Msg("the forum refused an attachment: the picture is linked instead")
				refused = true
				again = true
			case errors.Is(err, forum.ErrTooLong):
				d.fail("too_long", err)
				n := utf8.RuneCountInString(part)
				if n <= 200 {
					return d.sendFailed(ctx, it, err)
				}
				d.limit = n * 2 / 3
				limit = d.limit
				again = true
			default:
				return d.sendError(ctx, it, err)
			}
			if again {
				break
			}
			d.hook("sent")
			if i == 0 {
				firstID, postedAt = id, d.o.Clock.Now()
			}
			log.Info().Str("post", id).Int("part", i+1).Int("parts", len(parts)).Msg("posted")
			d.m.RepliesPosted.WithLabelValues(d.o.Game, string(it.Kind), "posted").Inc()
		}
		if again {
			// Parts already posted carry their own markers: every part is looked up again
			// before posting.
			it.Attempts = max(it.Attempts, 1)
			continue
		}
		if postedAt.IsZero() {
			postedAt = now
		}
		if _, ok := found[markers[0]]; !ok && it.Kind == store.OutboxReply && firstID != "" {
			d.toConfirm(it, firstID, markers[0]) // the redirect named the bot's post? (the next read tells)
		}
		if err := d.posted(ctx, it, firstID, postedAt, foundFirst); err != nil {
			return err
		}
		d.hook("posted")
		return nil
	}
}

// render makes an item's body as it goes out at now: a reply that starts a side's clock states
// the deadline that follows from now (the referee's FillDeadline).
func (d *Daemon) render(ctx context.Context, it store.OutboxRow, body string, now time.Time) (string, error) {
	if it.Clock == "" && !strings.Contains(body, game.DeadlineSlot) {
		return body, nil
	}
	ref, _, err := d.referee(ctx)
	if err != nil {
		return "", err
	}
	return ref.FillDeadline(body, it.Clock, now), nil
}

// posted marks an item posted. An item that starts a side's clock first tells the game when it
// was posted (the referee's Delivered, at the posting minute: the forum's time of a post found by its
// marker after a crash or a restore); the events that move the clock are committed with the mark,
// both or neither. A referee that fails on it does not hold the outbox up: the item is marked
// posted, at now, or at the forum's time (at) of a post found by its marker (found).
func (d *Daemon) posted(ctx context.Context, it store.OutboxRow, forumID string, at time.Time, found bool) error {
	now := d.o.Clock.Now()
	if found {
		now = at
	}
	for try := 1; it.Clock != "" && try <= maxRedecide; try++ {
		ref, seq, err := d.referee(ctx)
		if err != nil {
			return err
		}
		out, err := ref.Delivered(it.Clock, it.Marker, at)
		if err != nil {
			d.invalidate()
			d.fail("referee", fmt.Errorf("daemon: outbox %d (%s): delivered: %w", it.ID, it.Marker, err))
			break
		}
		if len(out.Events) == 0 {
			break
		}
		c := store.Commit{Game: d.o.Game, At: game.PostingMinute(at), Cause: store.OutboxCause(it.Marker),
			Posted: &store.Posted{ID: it.ID, ForumPostID: forumID, At: now}, ExpectSeq: store.Expect(seq)}
		err = d.commit(ctx, &c, out, nil)
		if err == nil {
			d.log.Info().Int64("outbox", it.ID).Str("clock", it.Clock).Time("at", c.At).Int("events", len(c.Events)).
				Msg("the reply came later than the move: the side's time limit counts from the reply")
			return nil
		}
		if !errors.Is(err, store.ErrLogMoved) {
			return err
		}
		if err := d.sync(ctx); err != nil {
			d.fail("store", err)
			return err
		}
	}
	cctx, cancel := durable(ctx)
	err := d.o.Store.MarkPosted(cctx, it.ID, forumID, now)
	cancel()
	if err != nil {
		d.fail("store", err)
	}
	return err
}

// attachments decides where an item's files go: those the forum takes with a thread reply are
// returned to be attached (native); the others are linked in the body ([img] at Files' public
// URL, in place of their placeholder or on top) or, without Files, dropped (their placeholders
// removed; logged once). With refused, no file is attached. The body is the same for the same
// item and forum on every attempt, so the parts and their markers are too.
func (d *Daemon) attachments(it store.OutboxRow, caps forum.Capabilities, refused bool) (string, []forum.Attachment, error) {
	if len(it.Attachments) == 0 {
		return it.Body, nil, nil
	}
	_, attacher := forum.As[forum.Attacher](d.o.Forum)
	var native, linked []forum.Attachment
	for _, a := range it.Attachments {
		if it.Kind == store.OutboxReply && attacher && !refused && caps.Takes(a) {
			native = append(native, a)
		} else {
			linked = append(linked, a)
		}
	}
	if len(linked) == 0 {
		return d.fullSize(it, native)
	}
	if d.o.Files == nil {
		if !d.dropped {
			d.dropped = true
			d.log.Warn().Int64("outbox", it.ID).Str("file", linked[0].Name).
				Msg("a picture cannot be attached here and no attachments.public_url is configured: pictures are left out, the text stands (logged once)")
		}
		return forum.PlaceAttachments(it.Body, linked, dropped), native, nil
	}
	for _, a := range linked {
		if _, err := d.o.Files.Put(a); err != nil {
			return "", nil, fmt.Errorf("daemon: outbox %d: serve %s: %w", it.ID, a.Name, err)
		}
	}
	return forum.PlaceAttachments(it.Body, linked, func(_ int, a forum.Attachment) string { return d.o.Files.Img(a) }), native, nil
}

// dropped is the markup of a file that can be neither attached nor served: nothing for a picture
// (the text stands without it), a short note for another file (the final post's draws file), so
// the line that announces it does not end in nothing.
func dropped(_ int, a forum.Attachment) string {
	if media.Picture(a) {
		return ""
	}
	return "(файл не приложен: форум не принимает файлы; его делает команда forumgm verify --draws)"
}

// fullSize adds, under each picture the forum takes as an attachment, a link to the same file on
// the media server when one is configured (attachments.public_url): a forum shows an attached
// picture as a small thumbnail, often one guests may not open, while the link is the full size
// for everyone. Without a media server the body stays as it is.
func (d *Daemon) fullSize(it store.OutboxRow, native []forum.Attachment) (string, []forum.Attachment, error) {
	if d.o.Files == nil || len(native) == 0 {
		return it.Body, native, nil
	}
	for _, a := range native {
		if _, err := d.o.Files.Put(a); err != nil {
			return "", nil, fmt.Errorf("daemon: outbox %d: serve %s: %w", it.ID, a.Name, err)
		}
	}
	body := forum.PlaceAttachments(it.Body, native, func(_ int, a forum.Attachment) string {
		return forum.Placeholder(a.Name) + "\n" + d.o.Files.Link(a)
	})
	return body, native, nil
}

// partFiles gives each part the files to attach to it: a file goes with the first part that
// holds its placeholder, else with the first part.
func partFiles(parts []string, files []forum.Attachment) [][]forum.Attachment {
	out := make([][]forum.Attachment, len(parts))
	for _, a := range files {
		k := 0
		for i, p := range parts {
			if strings.Contains(p, forum.Placeholder(a.Name)) {
				k = i
				break
			}
		}
		out[k] = append(out[k], a)
	}
	return out
}

// send posts one marked part, with files (a thread reply through the dialect's Attacher); the
// first part of a reply the forum merged into the bot's previous post gets its header
// (headMerged). A private message has no forum id: the marker stands for it.
func (d *Daemon) send(ctx context.Context, it store.OutboxRow, body string, files []forum.Attachment, first bool) (string, error) {
	if d.o.Hold != nil {
		if _, err := d.o.Hold(ctx); err != nil {
			return "", err // the game's lease is not ours (any more): nothing goes out
		}
		// And again right before the post itself goes out (after the form's read and the wait).
		ctx = forum.WithWriteGuard(ctx, d.o.Hold)
	}
	if it.Kind == store.OutboxPM {
		subject := it.Subject
		if subject == "" {
			subject = "forumgm"
		}
		if err := d.o.Forum.SendPM(ctx, it.Recipient, subject, body); err != nil {
			return "", err
		}
		return "", nil
	}
	var id string
	var merged bool
	var err error
	if at, ok := forum.As[forum.Attacher](d.o.Forum); ok && len(files) > 0 {
		id, merged, err = at.ReplyWithAttachments(ctx, d.o.Thread, body, files)
	} else {
		id, merged, err = d.o.Forum.Reply(ctx, d.o.Thread, body)
	}
	if err != nil {
		return "", err
	}
	d.noteSent(id, d.o.Clock.Now(), merged)
	if d.ownLast == "" || forum.IDLess(d.ownLast, id) {
		d.ownLast = id
	}
	if merged && first {
		// (A later part of a split message merging into the first is its continuation.)
		d.headMerged(ctx, id, body, d.o.Clock.Now())
	}
	return id, nil
}

// sendFailed records a failed attempt and schedules a retry with back-off.
func (d *Daemon) sendFailed(ctx context.Context, it store.OutboxRow, err error) error {
	kind := kindOf(err)
	d.fail(kind, err)
	cctx, cancel := durable(ctx)
	defer cancel()
	if merr := d.o.Store.MarkAttempt(cctx, it.ID, err); merr != nil {
		d.fail("store", merr)
	}
	back := d.o.Poll.Floor << min(it.Attempts, 6)
	back = min(back, d.o.Poll.Ceiling)
	d.retryAt[it.ID] = d.o.Clock.Now().Add(back)
	return fmt.Errorf("daemon: outbox %d (%s): %w", it.ID, it.Marker, err)
}

func bodyLimit(limit int) int {
	if limit <= 0 {
		return 0
	}
	return max(limit-markOverhead, 100)
}

// findMarkers looks for markers in the bot's recent posts (replies) or sent messages (PMs) and
// returns the post holding each one found (its forum id and time: a merged post's is its first
// part's). A marker counts only in a post by the bot and only on a line of its own, where Mark
// puts it. Every marker of the game found on the way is kept (noteMarkers).
func (d *Daemon) findMarkers(ctx context.Context, it store.OutboxRow, markers []string) (map[string]forum.Post, error) {
	var posts []forum.Post
	switch it.Kind {
	case store.OutboxPM:
		sf, ok := forum.As[forum.SentFolder](d.o.Forum)
		if !ok {
			if it.Attempts > 0 {
				d.log.Warn().Int64("outbox", it.ID).Msg("the dialect cannot list sent messages: a private message whose first attempt may have gone out is sent again")
			}
			d.setLookedFor(it.Kind)
			return nil, nil
		}
		var err error
		if posts, _, err = sf.Sent(ctx, forum.Cursor{}); err != nil {
			return nil, fmt.Errorf("daemon: sent folder: %w", err)
		}
	default:
		var err error
		if posts, _, err = d.o.Forum.Posts(ctx, d.o.Thread, d.checkFrom(ctx, it)); err != nil {
			return nil, fmt.Errorf("daemon: look for %s: %w", it.Marker, err)
		}
	}
	d.noteMarkers(posts)
	if it.Kind == store.OutboxReply {
		d.confirmSeen(ctx, posts)
	}
	d.setLookedFor(it.Kind)
	return d.knownMarkers(markers), nil
}

// checkFrom is where to start reading the thread to find an item's marker: the post of the
// game's last reply posted before it, that post included (a merged reply lands in that post;
// its own permalink: the id before it may be another thread's post), or the whole thread when
// that is not known. (Include also keeps a fleet's probe turns from answering the look with
// nothing read.)
func (d *Daemon) checkFrom(ctx context.Context, it store.OutboxRow) forum.Cursor {
	for id, k := it.ID-1, 0; id > 0 && k < 200; id, k = id-1, k+1 {
		prev, err := d.o.Store.Outbox(ctx, id)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			return forum.Cursor{}
		}
		if prev.Game != it.Game || prev.Kind != store.OutboxReply {
			continue
		}
		if prev.State != store.OutboxPosted {
			return forum.Cursor{}
		}
		return forum.Cursor{PostID: prev.ForumPostID, Include: true}
	}
	return forum.Cursor{}
}

// containsMarker finds m where Mark puts it: a line of its own (the last line of a reply, or of
// each reply a forum merged into one post), not inside other text such as a quoted or echoed line,
// and as a whole token (not the prefix of a part's marker).
func containsMarker(text, m string) bool {
	for line := range markerLines(text) {
		if line == m {
			return true
		}
	}
	return false
}

// markerLines are text's lines trimmed of what may surround a marker's line (markerSpace).
func markerLines(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for line := range strings.Lines(text) {
			if !yield(strings.TrimFunc(line, markerSpace)) {
				return
			}
		}
	}
}

// markerSpace is what may surround the marker's line: spaces and the invisible characters a
// forum's rendering may leave around a tag.
func markerSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff' || r == '\u00a0'
}

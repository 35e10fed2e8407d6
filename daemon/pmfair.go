package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"forumgm/store"
)

// Private replies are drained fairly (issue 19): one player's burst of private messages must not
// hold up another player's answer. The drain takes the private messages round-robin across
// recipients (each recipient's in their own order), and a recipient's burst of plain answers
// (burstPMs or more pending, no attachment, no clock to start) goes out as one message: the
// answers one after another, with every item's marker on a line of its own at the end, so that
// after a crash each item is found by its own marker in the sent folder.

// burstPMs is how many pending private messages to one recipient make a burst sent as one: more
// than a game's ordinary backlog (a captain's roll, points and question in one turn), so that
// only a flood is merged and the usual answers go out as they always did.
const burstPMs = 10

// burstBudget bounds a burst's message in characters where the forum states no limit; burstMax
// bounds the items in it.
const (
	burstBudget = 8000
	burstMax    = 50
)

// schedule orders a drain's pending items: thread replies keep their places and their order; the
// places of private messages are taken round-robin across recipients, a recipient's burst as one
// batch. Each batch is one send.
func (d *Daemon) schedule(items []store.OutboxRow) [][]store.OutboxRow {
	var order []string // recipients, by their first pending message
	queues := map[string][]store.OutboxRow{}
	for _, it := range items {
		if it.Kind != store.OutboxPM {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(it.Recipient))
		if _, ok := queues[k]; !ok {
			order = append(order, k)
		}
		queues[k] = append(queues[k], it)
	}
	var pms [][]store.OutboxRow
	for left := true; left; {
		left = false
		for _, k := range order {
			q := queues[k]
			if len(q) == 0 {
				continue
			}
			b := d.burst(q)
			queues[k] = q[len(b):]
			pms = append(pms, b)
			left = left || len(queues[k]) > 0
		}
	}
	out := make([][]store.OutboxRow, 0, len(items))
	for _, it := range items {
		if it.Kind != store.OutboxPM {
			out = append(out, []store.OutboxRow{it})
		} else if len(pms) > 0 {
			out = append(out, pms[0])
			pms = pms[1:]
		}
	}
	return out
}

// burst is the batch at the head of one recipient's queue: the plain messages from its head, as
// many as fit one message, when burstPMs or more are pending; else the head alone.
func (d *Daemon) burst(q []store.OutboxRow) []store.OutboxRow {
	if len(q) < burstPMs || !plain(q[0]) {
		return q[:1]
	}
	budget := burstBudget
	limit := d.limit
	if limit == 0 {
		limit = d.o.Forum.Capabilities().MaxPostLength
	}
	if limit > 0 {
		budget = bodyLimit(limit)
	}
	n, size := 0, 0
	for _, it := range q {
		add := utf8.RuneCountInString(it.Body) + 2 + markOverhead
		if !plain(it) || n >= burstMax || n > 0 && size+add > budget {
			break
		}
		n, size = n+1, size+add
	}
	return q[:max(n, 1)]
}

// plain reports whether a private message can ride in a burst: no attachment, no clock to start.
func plain(it store.OutboxRow) bool {
	return it.Kind == store.OutboxPM && len(it.Attachments) == 0 && it.Clock == ""
}

// deliverBatch sends a batch: one item as deliver does; a burst as one message carried by its
// first item. Items of an earlier attempt (a crash, a failed send) are first looked for by their
// markers. It returns how many items were delivered and how many given up on.
func (d *Daemon) deliverBatch(ctx context.Context, b []store.OutboxRow) (delivered, gaveUp int, err error) {
	if len(b) > 1 {
		if b, delivered, err = d.foundInSent(ctx, b); err != nil || len(b) == 0 {
			return delivered, 0, err
		}
	}
	if len(b) == 1 {
		err := d.deliver(ctx, b[0])
		switch {
		case err == nil:
			return delivered + 1, 0, nil
		case errors.Is(err, errGivenUp):
			return delivered, 1, err
		}
		return delivered, 0, err
	}
	riders := b[1:]
	for i, it := range riders {
		if it.Attempts > 0 {
			continue
		}
		cctx, cancel := durable(ctx)
		err := d.o.Store.MarkAttempt(cctx, it.ID, fmt.Errorf("%w: in one message with outbox %d (%s)", errAttempt, b[0].ID, b[0].Marker))
		cancel()
		if err != nil {
			d.fail("store", err)
			return delivered, 0, err
		}
		riders[i].Attempts = 1
	}
	carrier := b[0]
	carrier.Body = burstBody(b)
	err = d.deliver(ctx, carrier)
	switch {
	case errors.Is(err, errGivenUp):
		for _, it := range riders {
			cctx, cancel := durable(ctx)
			merr := d.o.Store.MarkFailed(cctx, it.ID, err)
			cancel()
			if merr != nil {
				d.fail("store", merr)
				return delivered, 1, merr
			}
		}
		return delivered, len(b), err
	case err != nil:
		return delivered, 0, err
	}
	for _, it := range riders {
		if err := d.markSent(ctx, it); err != nil {
			return delivered + 1, 0, err
		}
	}
	d.log.Info().Int64("outbox", carrier.ID).Str("recipient", carrier.Recipient).Int("messages", len(b)).
		Msg("a burst of private answers to one player sent as one message")
	return delivered + len(b), 0, nil
}

// burstBody is a burst's message: the answers in order, then the markers of all but the first
// (deliver marks the message with the first's).
func burstBody(b []store.OutboxRow) string {
	bodies := make([]string, len(b))
	for i, it := range b {
		bodies[i] = strings.TrimSpace(it.Body)
	}
	body := strings.Join(bodies, "\n\n")
	for _, it := range b[1:] {
		body = Mark(body, it.Marker)
	}
	return body
}

// foundInSent looks the items of a batch with an earlier attempt up in the sent folder by their
// markers, marks those found posted, and returns the rest and how many were found.
func (d *Daemon) foundInSent(ctx context.Context, b []store.OutboxRow) ([]store.OutboxRow, int, error) {
	var markers []string
	for _, it := range b {
		if it.Attempts > 0 {
			markers = append(markers, it.Marker)
		}
	}
	if len(markers) == 0 {
		return b, 0, nil
	}
	found, err := d.findMarkers(ctx, b[0], markers)
	if err != nil {
		return b, 0, d.sendFailed(ctx, b[0], err)
	}
	var rest []store.OutboxRow
	n := 0
	for _, it := range b {
		if _, ok := found[it.Marker]; !ok {
			rest = append(rest, it)
			continue
		}
		d.log.Info().Int64("outbox", it.ID).Str("marker", it.Marker).Msg("already sent (found by marker): not sending again")
		d.m.RepliesPosted.WithLabelValues(d.o.Game, string(it.Kind), "found").Inc()
		if err := d.markSent(ctx, it); err != nil {
			return b, n, err
		}
		n++
	}
	return rest, n, nil
}

// markSent marks a private message posted (it has no forum id).
func (d *Daemon) markSent(ctx context.Context, it store.OutboxRow) error {
	cctx, cancel := durable(ctx)
	defer cancel()
	if err := d.o.Store.MarkPosted(cctx, it.ID, "", d.o.Clock.Now()); err != nil {
		d.fail("store", err)
		return err
	}
	return nil
}

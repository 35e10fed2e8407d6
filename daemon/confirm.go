package daemon

import (
	"context"

	"forumgm/forum"
	"forumgm/store"
)

// confirmPost checks the post id the forum named for a reply just posted (its redirect) before
// it is recorded: the post under that id must be the bot's and hold the reply's marker. A
// redirect naming another post (a plugin's, a proxy's rewrite, a board that redirects to the
// thread's last page) would otherwise be recorded as the bot's post, and the marker look-ups that
// start from it would miss the bot's later replies. If the post is not the bot's with the marker,
// the marker is looked for (in the posts read, then from the last reply known); the post found is
// recorded. When the check cannot be made (the read fails, the marker is not found yet: a lagging
// replica), the forum's id stands, with a warning.
func (d *Daemon) confirmPost(ctx context.Context, it store.OutboxRow, id, marker string) string {
	log := d.log.With().Int64("outbox", it.ID).Str("marker", marker).Str("named", id).Logger()
	// The reply is out: its check waits behind the replies of other games (a poll's class).
	ctx = forum.WithClass(ctx, forum.ClassPoll)
	posts, _, err := d.o.Forum.Posts(ctx, d.o.Thread, forum.Before(id))
	if err != nil {
		d.fail(kindOf(err), err) // counted like any read's error
		log.Warn().Err(err).Msg("could not read the reply's post back to check its id: the forum's id stands")
		return id
	}
	var found string
	for _, p := range posts {
		if !d.isBot(p.Author) || !containsMarker(p.Text, marker) {
			continue
		}
		if p.ID == id {
			return id
		}
		if found == "" {
			found = p.ID
		}
	}
	if found == "" {
		more, err := d.findMarkers(ctx, it, []string{marker})
		if err != nil {
			d.fail(kindOf(err), err)
		} else if p, ok := more[marker]; ok {
			found = p.ID
		}
	}
	if found == "" {
		d.m.Errors.WithLabelValues(d.o.Game, "wrong_post_id").Inc()
		log.Warn().Msg("the post the forum named for the reply is not the bot's with its marker, and the marker was not found yet: the forum's id stands")
		return id
	}
	d.m.Errors.WithLabelValues(d.o.Game, "wrong_post_id").Inc()
	log.Error().Str("kind", "wrong_post_id").Str("post", found).
		Msg("the forum named another post for the reply (its redirect): the post holding the reply's marker is recorded instead")
	return found
}

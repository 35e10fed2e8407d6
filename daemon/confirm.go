package daemon

import (
	"context"

	"forumgm/forum"
	"forumgm/store"
)

// The post id the forum named for a reply (its redirect) is checked when the thread is next read,
// not by a read of its own (issue 23: nothing is read for a reply that the reply does not need):
// the post under that id must be the bot's and hold the reply's marker. A redirect naming another
// post (a plugin's, a proxy's rewrite, a board that redirects to the thread's last page) would
// otherwise stay recorded as the bot's post, and the marker look-ups that start from it would miss
// the bot's later replies. When a later read shows the marker in another post of the bot's, that
// post is recorded instead (store.Repoint), counted and logged at error; when the read shows the
// named post without the marker and the marker nowhere, the forum's id stands, with a warning.
// Until then the forum's id stands. The checks wait in memory (a restart forgets them: the id
// stands).

// unconfirmed is a reply posted whose forum id is not checked yet: its outbox id, not the item
// (its text and pictures are not kept in memory while the check waits; issue 23: memory).
type unconfirmed struct {
	id     int64  // the outbox item's id
	named  string // the id the forum named
	marker string // its first part's marker
}

// maxUnconfirmed bounds the replies waiting for their check; the oldest is given up (the forum's
// id stands, with a warning) when more wait.
const maxUnconfirmed = 32

// toConfirm notes a reply just posted under the forum's id named, to be checked on the next read.
func (d *Daemon) toConfirm(it store.OutboxRow, named, marker string) {
	if len(d.confirms) >= maxUnconfirmed {
		old := d.confirms[0]
		d.confirms = d.confirms[1:]
		d.log.Warn().Int64("outbox", old.id).Str("marker", old.marker).Str("named", old.named).
			Msg("the reply's post id was not checked (no read of the thread showed it yet): the forum's id stands")
	}
	d.confirms = append(d.confirms, unconfirmed{id: it.ID, named: named, marker: marker})
}

// confirmSeen checks the replies waiting for it against posts, a read of the thread (whose bot
// markers noteMarkers has kept): a marker found in the named post confirms it; in another post of
// the bot's, that post is recorded instead; the named post read without the marker, and the
// marker not found, leaves the forum's id standing with a warning. Others wait for a later read.
func (d *Daemon) confirmSeen(ctx context.Context, posts []forum.Post) {
	if len(d.confirms) == 0 || len(posts) == 0 {
		return
	}
	read := map[string]bool{}
	for _, p := range posts {
		read[p.ID] = true
	}
	left := d.confirms[:0]
	for _, c := range d.confirms {
		log := d.log.With().Int64("outbox", c.id).Str("marker", c.marker).Str("named", c.named).Logger()
		p, found := d.knownMarkers([]string{c.marker})[c.marker]
		switch {
		case found && p.ID == c.named:
		case found:
			d.m.Errors.WithLabelValues(d.o.Game, "wrong_post_id").Inc()
			cctx, cancel := durable(ctx)
			err := d.o.Store.Repoint(cctx, c.id, p.ID)
			cancel()
			if err != nil {
				d.fail("store", err)
				log.Warn().Err(err).Str("post", p.ID).Msg("the forum named another post for the reply (its redirect), and the post holding its marker could not be recorded: the forum's id stands")
				continue
			}
			log.Error().Str("kind", "wrong_post_id").Str("post", p.ID).
				Msg("the forum named another post for the reply (its redirect): the post holding the reply's marker is recorded instead")
		case read[c.named]:
			d.m.Errors.WithLabelValues(d.o.Game, "wrong_post_id").Inc()
			log.Warn().Msg("the post the forum named for the reply is not the bot's with its marker, and the marker was not found yet: the forum's id stands")
		default:
			left = append(left, c)
		}
	}
	clear(d.confirms[len(left):]) // the checked ones are not kept by the array
	d.confirms = left
}

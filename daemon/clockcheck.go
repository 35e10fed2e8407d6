package daemon

import (
	"context"
	"fmt"
	"strings"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/store"
)

// The clocks' sanity (issue 19). The game is judged by the forum's stamps: a forum clock behind
// this host's, or a wrong forum.timezone, makes every new post look older than it is ("before
// the start": not judged), one ahead makes them look newer. Every read compares the stamps with
// this host's clock two ways: the bot's own reply, read back, against when it was sent (either
// way), and the newest post read against now (a stamp in the future). A skew over
// Options.MaxClockSkew is logged at error (kind clock_skew, with the likely cause), counted
// (forumgm_errors_total{kind="clock_skew"}, the forumgm_clock_skew_seconds gauge) and shown on
// /healthz (clock_skew, unhealthy) until a reply of the bot's reads back in time again. A post not
// judged because it is stamped before the start is counted (forumgm_posts_before_start_total) and
// logged, never dropped silently. And this host's own clock is watched between cycles: a jump
// (a suspended host, a clock set by hand) is logged at error (kind clock_jump) and shown on
// /healthz (clock_jump, a warning for a day). A forward jump past a timed rule holds the game
// (HoldAfterJump, the fleet's setting): the daemon cannot tell a host that slept (the rules are
// owed: a day's deadlines and penalties) from a clock set a day ahead by mistake (they are not),
// so it fires nothing and judges nothing, raises a clock_jump flag (the moderators get a private
// message) and /healthz fails (timers_held) until a moderator confirms by accepting or closing
// the flag; then the rules due fire in order and the waiting posts are judged. A moderator who
// finds the clock wrong fixes it first. Without HoldAfterJump the rules fire at once and a
// moderator checks them afterwards.

// clockWatch is what the checks remember: when the bot's replies were sent, the skew found, the
// posts skipped as before the start in the current read, and the last cycle's time.
type clockWatch struct {
	sent     map[string]time.Time // the bot's replies not read back yet: forum post id → when sent
	skewed   bool                 // a skew over the limit stands
	before   []input              // posts of this read not judged: stamped before the start
	lastTick time.Time            // the previous cycle's time
	jumpAt   time.Time            // when a jump was last found (its /healthz warning stands a day)
	holding  bool                 // the game waits for a moderator after a jump (holdAfterJump)
}

// jumpSlack is how much longer than the longest wait between cycles (the poll ceiling) a gap may
// be before it is a jump of this host's clock, when the timed rules are not held after a jump;
// with HoldAfterJump the limit is the clock skew allowed (MaxClockSkew).
const jumpSlack = time.Hour

func (d *Daemon) jumpLimit() time.Duration {
	if d.o.HoldAfterJump {
		return d.maxSkew()
	}
	return jumpSlack
}

// jumpShown is how long /healthz shows a jump.
const jumpShown = 24 * time.Hour

// sentKept bounds how long a reply's send time is kept waiting to be read back.
const sentKept = 24 * time.Hour

func (d *Daemon) maxSkew() time.Duration {
	if d.o.MaxClockSkew > 0 {
		return d.o.MaxClockSkew
	}
	return forum.DefaultMaxSkew
}

// noteSent remembers when the bot's reply id was sent, to compare with its stamp when it is read
// back. A reply the forum merged into an older post is not noted: the post's stamp is the older
// post's.
func (d *Daemon) noteSent(id string, at time.Time, merged bool) {
	if id == "" || merged {
		return
	}
	if d.cw.sent == nil {
		d.cw.sent = map[string]time.Time{}
	}
	for k, t := range d.cw.sent {
		if at.Sub(t) > sentKept {
			delete(d.cw.sent, k)
		}
	}
	d.cw.sent[id] = at
}

// checkStamps compares the stamps of the posts a read returned with this host's clock.
func (d *Daemon) checkStamps(src store.Source, posts []forum.Post, now time.Time) {
	var newest forum.Post
	for _, p := range posts {
		if p.Time.IsZero() {
			continue
		}
		if sentAt, ok := d.cw.sent[p.ID]; ok && src == store.SourceThread && d.isBot(p.Author) {
			delete(d.cw.sent, p.ID)
			d.measured(forum.SkewOf(p.Time, sentAt), fmt.Sprintf("the bot's post %s, sent at %s, is stamped %s",
				p.ID, sentAt.Format(time.RFC3339), p.Time.Format(time.RFC3339)), true)
		}
		if newest.Time.IsZero() || p.Time.After(newest.Time) {
			newest = p
		}
	}
	// A stamp in the future proves the forum ahead (an old post proves nothing: it may be old).
	if !newest.Time.IsZero() && newest.Time.Sub(now) > d.maxSkew() {
		d.measured(forum.SkewOf(newest.Time, now), fmt.Sprintf("%s %s is stamped %s, in the future (now %s)",
			src, newest.ID, newest.Time.Format(time.RFC3339), now.Format(time.RFC3339)), false)
	}
}

// measured records a skew measured as how says; exact: measured against a known send time (it
// can clear a skew found before).
func (d *Daemon) measured(s forum.Skew, how string, exact bool) {
	d.m.ClockSkew.WithLabelValues(d.o.Game).Set(time.Duration(s).Seconds())
	if !s.Over(d.maxSkew()) {
		if exact && d.cw.skewed {
			d.cw.skewed = false
			if d.o.Health != nil {
				d.o.Health.Warn("clock_skew", d.o.Game, "", true)
			}
			d.log.Info().Str("skew", s.String()).Str("how", how).Msg("the forum's times agree with this host's clock again")
		}
		return
	}
	d.cw.skewed = true
	err := fmt.Errorf("daemon: the forum's times are off this host's clock: %s (over forum.max_clock_skew %s): %s; %s",
		s, d.maxSkew(), how, s.Cause())
	if d.o.Health != nil {
		d.o.Health.Warn("clock_skew", d.o.Game, err.Error(), true)
	}
	d.fail("clock_skew", err)
}

// skipBeforeStart counts a post not judged because it is stamped before the game's start; the
// read's skipped posts are logged together (reportBeforeStart).
func (d *Daemon) skipBeforeStart(in input) {
	d.m.BeforeStart.WithLabelValues(d.o.Game, string(in.src)).Inc()
	d.cw.before = append(d.cw.before, in)
}

// reportBeforeStart logs the posts of this read not judged as stamped before the start: the
// thread's history before the game, or, when they are new, a forum clock or zone that is off.
func (d *Daemon) reportBeforeStart() {
	if len(d.cw.before) == 0 {
		return
	}
	skipped := d.cw.before
	d.cw.before = nil
	last := skipped[len(skipped)-1]
	ids := make([]string, 0, min(len(skipped), 10))
	for _, in := range skipped[:min(len(skipped), 10)] {
		ids = append(ids, string(in.src)+" "+in.post.ID)
	}
	ev := d.log.Warn()
	if d.cw.skewed {
		ev = d.log.Error()
	}
	ev.Int("posts", len(skipped)).Str("first", strings.Join(ids, ", ")).Str("last", string(last.src)+" "+last.post.ID).
		Time("last_stamp", last.post.Time).Time("start", d.o.Start).Bool("clock_skew", d.cw.skewed).
		Msg("posts stamped before the game's start were not judged: the thread's history, or, if they are new, the forum's clock or forum.timezone is off (see clock_skew)")
}

// checkJump compares this cycle's time with the last one's: a gap longer than the longest wait
// between cycles (plus jumpSlack), or time going back, is a jump of this host's clock. It
// returns the jump (0: none).
func (d *Daemon) checkJump(now time.Time) time.Duration {
	last := d.cw.lastTick
	d.cw.lastTick = now
	if !d.cw.jumpAt.IsZero() && now.Sub(d.cw.jumpAt) > jumpShown {
		d.cw.jumpAt = time.Time{}
		if d.o.Health != nil {
			d.o.Health.Warn("clock_jump", d.o.Game, "", false)
		}
	}
	if last.IsZero() {
		return 0
	}
	gap := now.Sub(last)
	if gap <= d.o.Poll.Ceiling+d.jumpLimit() && gap > -time.Minute {
		return 0
	}
	way := "forward"
	if gap < 0 {
		way = "back"
	}
	err := fmt.Errorf("daemon: this host's clock jumped %s by %s between two cycles (%s → %s): a suspended host or a clock set by hand; timed rules due in the gap (deadlines, penalties) fire now at once: check them (forumgm review)",
		way, gap.Abs().Round(time.Second), last.Format(time.RFC3339), now.Format(time.RFC3339))
	d.cw.jumpAt = now
	if d.o.Health != nil {
		d.o.Health.Warn("clock_jump", d.o.Game, err.Error(), false)
	}
	d.fail("clock_jump", err)
	return gap
}

// afterJump logs how many timed rules the cycle after a jump fired at once.
func (d *Daemon) afterJump(gap time.Duration, fired int) {
	if gap <= 0 || fired == 0 {
		return
	}
	d.log.Error().Str("kind", "clock_jump").Dur("jump", gap).Int("fired", fired).
		Msg("timed rules fired at once after this host's clock jumped: a moderator should check the penalties they gave (forumgm review)")
	if d.o.Health != nil {
		d.o.Health.Warn("clock_jump", d.o.Game, fmt.Sprintf("at %s: forward by %s; %d timed rules fired at once: check them",
			d.cw.jumpAt.Format(time.RFC3339), gap.Round(time.Second), fired), false)
	}
}

// holdAfterJump reports whether the game waits for a moderator after a forward jump of this
// host's clock (see above): a jump past a timed rule raises the clock_jump flag, and the game
// waits while one is open.
func (d *Daemon) holdAfterJump(ctx context.Context, jumped time.Duration, now time.Time) (bool, error) {
	if !d.o.HoldAfterJump {
		return false, nil
	}
	open, err := d.jumpFlag(ctx)
	if err != nil {
		return false, err
	}
	if open == 0 && jumped > 0 {
		ref, seq, err := d.referee(ctx)
		if err != nil {
			return false, err
		}
		d.mu.Lock()
		from, has := d.clock, d.hasClock
		d.mu.Unlock()
		if at, due := ref.NextTimer(from); has && due && !at.After(now) {
			warn := fmt.Sprintf("Часы сервера ведущего прыгнули вперёд на %s (%s → %s). Сроки и штрафы, наступившие за это время (первый — %s), "+
				"не применены, ходы не рассматриваются. Проверьте время на сервере: если оно верное (сервер просто спал), "+
				"примите или закройте этот флаг — ведущий применит их по порядку; если нет — сначала исправьте часы.",
				jumped.Round(time.Minute), now.Add(-jumped).Format("02.01.2006 15:04"), now.Format("02.01.2006 15:04"), at.Format("02.01.2006 15:04"))
			out := game.Outcome{Flags: []game.Flag{{Kind: game.FlagClockJump, Warning: warn,
				Detail: fmt.Sprintf("%s this host's clock jumped forward by %s; the timed rules due from %s are held", warn, jumped.Round(time.Second), at.Format(time.RFC3339))}}}
			c := store.Commit{Game: d.o.Game, At: now, ExpectSeq: store.Expect(seq)}
			if err := d.commit(ctx, &c, out, nil); err != nil {
				return false, err
			}
			if open, err = d.jumpFlag(ctx); err != nil {
				return false, err
			}
			d.log.Error().Str("kind", "clock_jump").Dur("jump", jumped).Time("first_due", at).Int64("flag", open).
				Msg("timed rules held after this host's clock jumped forward: nothing fires or is judged until a moderator accepts or closes the clock_jump flag")
		}
	}
	if open == 0 {
		if d.cw.holding {
			d.cw.holding = false
			d.log.Warn().Str("kind", "clock_jump").Msg("a moderator confirmed the clock: the held timed rules fire, the waiting posts are judged")
			if d.o.Health != nil {
				d.o.Health.Problem("timers_held", d.o.Game, "")
			}
		}
		return false, nil
	}
	d.cw.holding = true
	if d.o.Health != nil {
		d.o.Health.Problem("timers_held", d.o.Game, fmt.Sprintf("this host's clock jumped forward: timed rules and judging held until a moderator accepts or closes flag %d", open))
	}
	return true, nil
}

// jumpFlag is the game's open clock_jump flag (0: none).
func (d *Daemon) jumpFlag(ctx context.Context) (int64, error) {
	flags, err := d.o.Store.OpenFlags(ctx, d.o.Game)
	if err != nil {
		return 0, err
	}
	for _, f := range flags {
		if f.Kind == store.FlagClockJump {
			return f.ID, nil
		}
	}
	return 0, nil
}

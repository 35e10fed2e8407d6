package transcript

// The conformance suite every game runs: a game joins it by being in games.All (known, here) and
// by having at least one example transcript in ../games/<name>/examples.

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
)

// examples are the example transcripts by game.
func examples(t testing.TB) map[string][]*Transcript {
	t.Helper()
	files, err := filepath.Glob("../games/*/examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example transcripts: %v", err)
	}
	sort.Strings(files)
	out := map[string][]*Transcript{}
	for _, f := range files {
		tr, err := Load(f, known)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[tr.Game] = append(out[tr.Game], tr)
	}
	return out
}

func snapshot(t testing.TB, r *referee.Referee) string {
	t.Helper()
	b, err := json.Marshal(r.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// step is one judged post of a replay: the log before it and the state before and after.
type step struct {
	index         int
	before        []game.Record
	stateBefore   string
	stateAfter    string
	out           game.Outcome
	input         game.Input
	undoableEvent bool
	chain         []game.Link // the chain before the post
	// drew: the post fixed the game's start draws (game.StartDrawer), made before it is judged
	// whatever its verdict; their events lead out.Events (one event in every game today: the
	// first event that records draws).
	drew int
}

// play replays a transcript step by step, keeping the whole event log.
func play(t testing.TB, tr *Transcript) (*referee.Referee, []game.Record, []step) {
	t.Helper()
	ref, err := tr.Referee()
	if err != nil {
		t.Fatal(err)
	}
	var log []game.Record
	var chain []game.Link
	keep := func(evs []game.Event) {
		for _, ev := range evs {
			rec, err := game.Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, rec)
		}
	}
	emit := func(_ time.Time, o game.Outcome) error { keep(o.Events); return nil }
	start, err := ref.Start(tr.Start)
	if err != nil {
		t.Fatal(err)
	}
	// No game draws in its opening post (docs/fairness.md, section 7): a start's chance waits for
	// the first player post, so the operator who chose the seed cannot foresee it.
	for _, ev := range start.Events {
		if d, ok := ev.(game.Drawer); ok && len(d.Drawn()) > 0 {
			t.Errorf("the opening post drew %d numbers (%s)", len(d.Drawn()), ev.EventKind())
		}
	}
	keep(start.Events)
	last := tr.Start
	var steps []step
	for i, p := range tr.Posts {
		if last, err = ref.Advance(last, p.At, emit); err != nil {
			t.Fatal(err)
		}
		src := game.Thread
		if p.Private {
			src = game.PM
		}
		in := game.Input{Source: src, PostID: strconv.Itoa(i), Author: p.Author, At: p.At, Post: parser.FromBBCode(p.Text)}
		st := step{index: i, before: append([]game.Record(nil), log...), stateBefore: snapshot(t, ref), input: in}
		st.chain = append([]game.Link(nil), chain...)
		sd, drawer := ref.Rules().(game.StartDrawer)
		pending := drawer && sd.StartPending()
		out, err := ref.Judge(in)
		if err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		if out.Link != nil {
			chain = append(chain, *out.Link)
		}
		keep(out.Events)
		if pending && !sd.StartPending() {
			for _, ev := range out.Events {
				if d, ok := ev.(game.Drawer); !ok || len(d.Drawn()) == 0 || st.drew > 0 {
					break
				}
				st.drew++
			}
		}
		st.out, st.stateAfter = out, snapshot(t, ref)
		rules := ref.Rules()
		for _, ev := range out.Events {
			if _, ok := rules.Undoable(ev); ok {
				st.undoableEvent = true
			}
		}
		steps = append(steps, st)
		if p.At.After(last) {
			last = p.At
		}
	}
	if !tr.Until.IsZero() {
		if _, err := ref.Advance(last, tr.Until, emit); err != nil {
			t.Fatal(err)
		}
	}
	return ref, log, steps
}

func TestConformance(t *testing.T) {
	byGame := examples(t)
	for _, name := range known.Names() {
		t.Run(name, func(t *testing.T) {
			trs := byGame[name]
			if len(trs) == 0 {
				t.Fatalf("game %s has no example transcript in games/%s/examples/", name, name)
			}
			for i, tr := range trs {
				t.Run(strconv.Itoa(i), func(t *testing.T) { conform(t, tr) })
			}
		})
	}
}

func conform(t *testing.T, tr *Transcript) {
	// The same transcript twice gives the same bytes.
	a, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tr.Replay()
	ja, _ := a.JSON()
	jb, _ := b.JSON()
	if string(ja) != string(jb) {
		t.Fatal("two replays of one transcript differ")
	}

	ref, log, steps := play(t, tr)
	rules := ref.Rules()

	// Every template the game may render exists (events, refusal codes, parser reasons) and
	// every template the referee renders.
	for _, n := range append(rules.Required(), game.RefereeTemplates...) {
		if !rules.Defined(n) {
			t.Errorf("no template %q", n)
		}
	}

	// A post that is not accepted changes no state, but for the start's draws it fixed (made
	// before it is judged, whatever its verdict): the state after it is the state with them alone.
	for _, s := range steps {
		before := s.stateBefore
		if s.drew > 0 && s.out.Verdict != game.Accepted {
			with, err := tr.Referee()
			if err != nil {
				t.Fatal(err)
			}
			recs := append([]game.Record(nil), s.before...)
			for _, ev := range s.out.Events[:s.drew] {
				rec, err := game.Encode(ev)
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rec)
			}
			if err := with.Restore(recs); err != nil {
				t.Fatal(err)
			}
			before = snapshot(t, with)
		}
		if s.out.Verdict != game.Accepted && before != s.stateAfter {
			t.Errorf("post %d (%s) changed the state", s.index, s.out.Verdict)
		}
		if s.out.Verdict != game.Accepted && len(s.out.Events) > s.drew {
			t.Errorf("post %d (%s) produced events", s.index, s.out.Verdict)
		}
	}

	// Re-folding the log gives the live state.
	fresh, err := tr.Referee()
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Restore(log); err != nil {
		t.Fatal(err)
	}
	if snapshot(t, fresh) != snapshot(t, ref) {
		t.Error("the state re-folded from the log differs from the live one")
	}

	// A lean referee (the daemon's) restores the same state, keeps no log, refuses an undo, and
	// judges the last post as the full one did.
	lean, err := tr.Referee()
	if err != nil {
		t.Fatal(err)
	}
	lean.Lean()
	if err := lean.Restore(log); err != nil {
		t.Fatal(err)
	}
	if snapshot(t, lean) != snapshot(t, ref) {
		t.Error("a lean referee's state differs from the full one's")
	}
	if _, ok := lean.LastUndoable(); ok {
		t.Error("a lean referee offers an undo")
	}
	if _, err := lean.Moderate(game.ModCommand{Action: game.ModUndo, By: "Moderator", Reason: "test"}); !errors.Is(err, referee.ErrNeedsLog) {
		t.Errorf("a lean referee's undo: %v", err)
	}
	if len(steps) > 0 {
		last := steps[len(steps)-1]
		full, lean2 := mustReferee(t, tr), mustReferee(t, tr)
		lean2.Lean()
		for _, r := range []*referee.Referee{full, lean2} {
			if err := r.Restore(last.before); err != nil {
				t.Fatal(err)
			}
			if err := r.Rechain(last.chain); err != nil { // what the daemon reads back from the store
				t.Fatal(err)
			}
		}
		a, errA := full.Judge(last.input)
		b, errB := lean2.Judge(last.input)
		if (errA == nil) != (errB == nil) || a.Verdict != b.Verdict || len(a.Messages) != len(b.Messages) || snapshot(t, full) != snapshot(t, lean2) {
			t.Errorf("the lean referee judged the last post otherwise: %v/%v, %v/%v", a.Verdict, b.Verdict, errA, errB)
		}
		for i := range min(len(a.Messages), len(b.Messages)) {
			if a.Messages[i].Body != b.Messages[i].Body {
				t.Errorf("the lean referee's message %d differs", i)
			}
		}
		// Restored with the chain the store keeps, the referee decides the post as the live one did.
		ja, _ := json.Marshal(a.Events)
		jl, _ := json.Marshal(last.out.Events)
		if string(ja) != string(jl) || len(a.Messages) != len(last.out.Messages) {
			t.Errorf("restored with its chain, the referee decided the last post otherwise:\n%s\nlive:\n%s", ja, jl)
		}
	}

	// Every draw recorded in the log derives from the seed and the chain at its position.
	heads := []string{game.ChainStart(game.Commitment(tr.Seed, tr.Salt))}
	for _, s := range steps {
		if s.out.Link != nil {
			if s.out.Link.K != uint64(len(heads)) || s.out.Link.Head != game.Chain(heads[len(heads)-1], s.input.Author, s.input.PostID, s.input.Post.Text) {
				t.Errorf("post %d: chain link %+v is not the next post's", s.index, *s.out.Link)
			}
			heads = append(heads, s.out.Link.Head)
		}
	}
	for i, rec := range log {
		ev, err := fresh.Decode(rec)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := ev.(game.Drawer); ok {
			for _, dr := range d.Drawn() {
				if dr.K >= uint64(len(heads)) || game.Derive(tr.Seed, heads[dr.K], dr.N, dr.Bound) != dr.Value {
					t.Errorf("event %d (%s): draw %d does not derive from the seed", i, rec.Kind, dr.N)
				}
			}
		}
	}

	// Undoing a move gives the state before it (the last move of the transcript).
	for k := len(steps) - 1; k >= 0; k-- {
		s := steps[k]
		if !s.undoableEvent {
			continue
		}
		r, err := tr.Referee()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Restore(s.before); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, r)
		if _, err := r.Judge(s.input); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Moderate(game.ModCommand{Action: game.ModUndo, By: "Moderator", Reason: "test", At: s.input.At}); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(t, r); got != before {
			t.Errorf("undo of post %d: the state is not the state before it", s.index)
		}
		break
	}
}

// A hostile post (65 KB of 4,700 move-like junk lines) is answered with one short reply and at
// most one flag: nothing of it is echoed at length, whatever the game.
func TestNoReplyAmplification(t *testing.T) {
	byGame := examples(t)
	var b strings.Builder
	for i := 0; b.Len() < 65000; i++ {
		fmt.Fprintf(&b, "%d-й ход к%d на Z%d атакует http://evil.example/%d [b]x[/b]\n", i%3+1, i%9, i, i)
	}
	junk := b.String()
	for _, name := range known.Names() {
		t.Run(name, func(t *testing.T) {
			tr := byGame[name][0]
			_, _, steps := play(t, tr)
			for _, s := range steps[:min(len(steps), 3)] {
				r, err := tr.Referee()
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Restore(s.before); err != nil {
					t.Fatal(err)
				}
				for _, private := range []bool{false, true} {
					in := s.input
					in.Post = parser.FromBBCode(junk)
					if private {
						in.Source = game.PM
					}
					out, err := r.Judge(in)
					if err != nil {
						t.Fatal(err)
					}
					size := 0
					for _, m := range out.Messages {
						size += len([]rune(m.Body))
						if strings.Contains(m.Body, "http://evil") {
							t.Errorf("a live link echoed: %.200s", m.Body)
						}
					}
					for _, f := range out.Flags {
						if len([]rune(f.Detail)) > 300 {
							t.Errorf("a flag's detail of %d characters", len([]rune(f.Detail)))
						}
					}
					if len(out.Messages) > 2 || size > 6000 || len(out.Flags) > 1 {
						t.Errorf("post %d (private %v): %d messages, %d characters, %d flags for one junk post", s.index, private, len(out.Messages), size, len(out.Flags))
					}
				}
			}
		})
	}
}

// FuzzReferee: any post, by a player, a stranger or the bot, in the thread or privately, at any
// point of any game's example, gets a verdict without a panic, and a post that is not accepted
// changes nothing.
func FuzzReferee(f *testing.F) {
	byGame := examples(f)
	var trs []*Transcript
	var played [][]step
	for _, name := range known.Names() {
		for _, tr := range byGame[name] {
			_, _, steps := play(f, tr)
			if len(steps) == 0 {
				continue
			}
			trs, played = append(trs, tr), append(played, steps)
			for _, p := range tr.Posts {
				f.Add(p.Text, uint8(len(trs)-1), uint16(3))
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string, who uint8, at uint16) {
		k := int(who) % len(trs)
		tr, steps := trs[k], played[k]
		s := steps[int(at)%len(steps)]
		r, err := tr.Referee()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Restore(s.before); err != nil {
			t.Fatal(err)
		}
		authors := []string{tr.Posts[0].Author, tr.Posts[len(tr.Posts)-1].Author, "Незнакомец", tr.Bot}
		in := s.input
		in.Author = authors[int(who>>4)%len(authors)]
		in.Post = parser.FromBBCode(text)
		if who&8 != 0 {
			in.Source = game.PM
		}
		before := snapshot(t, r)
		out, err := r.Judge(in)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if out.Verdict != game.Accepted && snapshot(t, r) != before {
			t.Fatalf("%q: verdict %s changed the state", text, out.Verdict)
		}
	})
}

func mustReferee(t *testing.T, tr *Transcript) *referee.Referee {
	t.Helper()
	r, err := tr.Referee()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// A private message that reaches the inbox late is judged or flagged, never skipped (issue 19: the
// rule of a late thread post, for Dragonball's orders and football's points). Two ways:
//   - the inbox lists it only after a later message was judged (a lagging replica): the rescan
//     reads the inbox again and hands it to the referee as late;
//   - it is listed in its turn, but a timed rule it was written before has fired meanwhile (the
//     window it was meant for closed): judged as late too, not applied to the game that moved on.
//
// Either way the move goes to a moderator, its author is told privately, and it is flagged once.
func TestLatePMIsJudgedOrFlagged(t *testing.T) {
	cases := []struct {
		name string
		// late makes snovaya's message reach the bot late; the clock is at 23:50 of the start day.
		late func(t *testing.T, r *rig) (pmid int)
	}{
		{"listed after a later message", func(t *testing.T, r *rig) int {
			send(t, r, "snovaya", "мой приказ")
			pmid, err := r.board.HoldPM(r.ctx, "snovaya", "gm-bot") // the replica lags
			if err != nil {
				t.Fatal(err)
			}
			r.clock.Advance(time.Minute)
			send(t, r, "Джелу", "мой приказ")
			r.clock.Advance(time.Minute)
			r.cycle(t) // Джелу's message is judged: the inbox's cursor is past snovaya's
			if err := r.board.ApprovePM(r.ctx, pmid); err != nil {
				t.Fatal(err)
			}
			return pmid
		}},
		{"read after its window closed", func(t *testing.T, r *rig) int {
			send(t, r, "snovaya", "мой приказ")
			pmid, err := r.board.HoldPM(r.ctx, "snovaya", "gm-bot")
			if err != nil {
				t.Fatal(err)
			}
			r.clock.Set(time.Date(2026, 12, 2, 0, 1, 0, 0, msk))
			r.cycle(t) // midnight's timer fires (the fake game's daily close) without the message
			if err := r.board.ApprovePM(r.ctx, pmid); err != nil {
				t.Fatal(err)
			}
			return pmid
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Date(2026, 12, 1, 23, 45, 0, 0, msk)
			r := newRig(t, start, fakeFactory)
			r.cycle(t)
			r.clock.Set(start.Add(5 * time.Minute))
			pmid := c.late(t, r)
			_, before := botPMs(t, r, "snovaya")
			for range 3 { // each cycle rescans (Rescan: a minute)
				r.clock.Advance(2 * time.Minute)
				r.cycle(t)
			}
			rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourcePM, strconv.Itoa(pmid))
			if err != nil || !ok || rec.Verdict != store.VerdictFlagged {
				t.Fatalf("the late message must be flagged: %q seen %v, %v", rec.Verdict, ok, err)
			}
			flags, _ := r.st.OpenFlags(r.ctx, "g1")
			if len(flags) != 1 || flags[0].PostID != strconv.Itoa(pmid) || flags[0].Kind != store.FlagLate || !strings.Contains(flags[0].Detail, "Личное сообщение пришло с опозданием") {
				t.Fatalf("one flag for the late message: %+v", flags)
			}
			_, after := botPMs(t, r, "snovaya")
			told := after[len(before):]
			if len(told) != 1 || !strings.Contains(told[0], "Ход опоздал и передан модератору") {
				t.Fatalf("snovaya is told once, privately: %q", told)
			}
			if !strings.Contains(r.logText(), "judged as a late message") {
				t.Error("a late private message is logged")
			}
		})
	}
}

func send(t *testing.T, r *rig, from, text string) {
	t.Helper()
	if err := r.board.SendPM(r.ctx, from, "gm-bot", "Приказ", text); err != nil {
		t.Fatal(err)
	}
}

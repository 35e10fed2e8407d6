package main

import (
	"testing"
	"time"
)

// The sandbox's bot is exempt from auto-merge, as docs/operations.md advises a real MyBB board to
// set, so a report never lands inside the opening post; --merge-bot keeps MyBB's merge of the
// bot's posts for trying the daemon's merged-reply handling (issue 21, item 8).
func TestSandboxBotNotMerged(t *testing.T) {
	for _, mergeBot := range []bool{false, true} {
		_, sg, err := sandboxGame("")
		if err != nil {
			t.Fatal(err)
		}
		board, err := sandboxBoard(t.Context(), t.TempDir(), sg, time.UTC, time.Now, mergeBot)
		if err != nil {
			t.Fatal(err)
		}
		pid, merged, err := board.Reply(t.Context(), sandboxBot.Name, 1, "Отчёт: первый раунд сыгран.")
		board.Close()
		if err != nil {
			t.Fatal(err)
		}
		if merged != mergeBot || (pid == 1) != mergeBot {
			t.Errorf("merge-bot %v: the bot's reply became post %d, merged %v", mergeBot, pid, merged)
		}
	}
}

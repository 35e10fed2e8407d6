package daemon

import (
	"testing"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/store"
)

// TestFillAttachments: a message's attachments are queued with its outbox item, a reply's and a
// private message's alike; a message without any queues none.
func TestFillAttachments(t *testing.T) {
	pic := forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: []byte("\x89PNG")}
	out := game.Outcome{Messages: []game.Message{
		{Body: "report", Attachments: []forum.Attachment{pic}},
		{To: "Вася", Subject: "s", Body: "copy", Attachments: []forum.Attachment{pic}},
		{Body: "plain"},
	}}
	var c store.Commit
	if err := c.Fill(out, nil, store.Notify{PM: true}); err != nil {
		t.Fatal(err)
	}
	if len(c.Outbox) != 3 {
		t.Fatalf("%d items, want 3", len(c.Outbox))
	}
	for i, want := range []int{1, 1, 0} {
		got := c.Outbox[i].Attachments
		if len(got) != want {
			t.Fatalf("item %d: %d attachments, want %d", i, len(got), want)
		}
		if want == 1 && (got[0].Name != pic.Name || got[0].ContentType != pic.ContentType || string(got[0].Data) != string(pic.Data)) {
			t.Errorf("item %d: attachment %+v", i, got[0])
		}
	}
}

package mybb

import (
	"errors"
	"strings"
	"testing"

	"forumgm/forum"
)

var picture = forum.Attachment{Name: "round-2.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x01field")}

// ReplyWithAttachments uploads the file with "Add Attachment" on the full reply form, then posts
// the form that came back (same posthash) with [attachment=AID] where the body's placeholder was.
func TestReplyWithAttachmentsUploadsThenPosts(t *testing.T) {
	fk := newFake(t)
	fk.lastPID = "15"
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	body := "Отчёт раунда 2\n" + forum.Placeholder(picture.Name) + "\nПозиции: …"
	id, merged, err := fm.ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, body, []forum.Attachment{picture})
	if err != nil || id != "16" || merged {
		t.Fatalf("reply: %q merged=%v %v", id, merged, err)
	}
	if len(fk.uploads) != 1 || fk.uploads[0].name != picture.Name || fk.uploads[0].ctype != "image/png" || string(fk.uploads[0].data) != string(picture.Data) {
		t.Fatalf("uploads %+v", fk.uploads)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs, want 2 (upload, post)", len(fk.posts))
	}
	up, post := fk.posts[0], fk.posts[1]
	if up.Get("newattachment") == "" || up.Has("submit") || up.Get("my_post_key") != "f8405dfcf6435de0e756d5130990f6b8" {
		t.Errorf("upload POST pressed the wrong button or lacks the key: %v", up)
	}
	if post.Get("posthash") != up.Get("posthash") || post.Get("posthash") != "269400a14267e4bf9ab5414811018eab" {
		t.Errorf("posthash: upload %q, post %q", up.Get("posthash"), post.Get("posthash"))
	}
	if post.Get("submit") != "Post Reply" || post.Has("newattachment") || post.Get("action") != "do_newreply" {
		t.Errorf("post POST: %v", post)
	}
	if want := "Отчёт раунда 2\n[attachment=100]\nПозиции: …"; post.Get("message") != want {
		t.Errorf("message %q, want %q", post.Get("message"), want)
	}
	if !fm.Capabilities().Takes(picture) {
		t.Error("the default capabilities do not take a small PNG")
	}
}

// Without a placeholder the picture goes on top; two files get their own aids.
func TestReplyWithAttachmentsOnTop(t *testing.T) {
	fk := newFake(t)
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	legend := forum.Attachment{Name: "legend.png", ContentType: "image/png", Data: []byte("\x89PNGlegend")}
	_, _, err := fk.forum(t, nil).ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, "текст", []forum.Attachment{picture, legend})
	if err != nil {
		t.Fatal(err)
	}
	if got := fk.posts[len(fk.posts)-1].Get("message"); got != "[attachment=100]\n[attachment=101]\nтекст" {
		t.Errorf("message %q", got)
	}
}

// A refused upload is forum.ErrAttachmentRefused and nothing is posted; flood control on the post
// is waited out and the same filled form posted again (one upload, its aid placed once).
func TestReplyWithAttachmentsRefusedAndFlood(t *testing.T) {
	fk := newFake(t)
	fk.refuseUpload = true
	_, _, err := fk.forum(t, nil).ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, "текст", []forum.Attachment{picture})
	if !errors.Is(err, forum.ErrAttachmentRefused) || len(fk.posts) != 1 {
		t.Fatalf("refused upload: %v after %d POSTs", err, len(fk.posts))
	}

	fk = newFake(t)
	fk.replies = []string{"28-reply-error-flood.snovaya.html", "22-reply-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	var fe *forum.FloodError
	if _, _, err := fm.ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, "текст", []forum.Attachment{picture}); !errors.As(err, &fe) {
		t.Fatalf("flood: %v", err)
	}
	id, _, err := fm.ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, "текст", []forum.Attachment{picture})
	if err != nil || id != "16" {
		t.Fatalf("flood then success: %q %v", id, err)
	}
	if len(fk.uploads) != 1 || len(fk.posts) != 3 {
		t.Fatalf("%d uploads, %d POSTs; want 1 and 3 (upload, flood, post)", len(fk.uploads), len(fk.posts))
	}
	if got := fk.posts[2].Get("message"); got != "[attachment=100]\nтекст" || fk.posts[2].Get("posthash") != fk.posts[0].Get("posthash") {
		t.Errorf("the retry posted %q under %q", got, fk.posts[2].Get("posthash"))
	}
}

// The caller waits out flood control: the next call with the same reply posts the staged form without uploading again; a call with another reply uploads afresh
// and leaves the staged one for its own next try.
func TestReplyWithAttachmentsStagedAcrossCalls(t *testing.T) {
	fk := newFake(t)
	fk.replies = []string{"28-reply-error-flood.snovaya.html", "22-reply-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	th := forum.Thread{ID: "1"}
	var fe *forum.FloodError
	if _, _, err := fm.ReplyWithAttachments(ctx, th, "текст", []forum.Attachment{picture}); !errors.As(err, &fe) {
		t.Fatalf("first call: %v, want the flood error", err)
	}
	id, _, err := fm.ReplyWithAttachments(ctx, th, "текст", []forum.Attachment{picture})
	if err != nil || id != "16" || len(fk.uploads) != 1 || len(fk.posts) != 3 {
		t.Fatalf("second call: %q %v; %d uploads, %d POSTs (want 1, 3)", id, err, len(fk.uploads), len(fk.posts))
	}
	if fm.staged != nil {
		t.Error("the staged reply outlives its post")
	}

	fk.replies = []string{"28-reply-error-flood.snovaya.html", "24-reply-error-empty.gm-bot.html", "22-reply-success.gm-bot.html"}
	_, _, _ = fm.ReplyWithAttachments(ctx, th, "другой текст", []forum.Attachment{picture})
	if _, _, err := fm.ReplyWithAttachments(ctx, th, "ещё другой", []forum.Attachment{picture}); !errors.Is(err, forum.ErrTooShort) {
		t.Fatalf("another reply: %v", err)
	}
	if len(fk.uploads) != 3 {
		t.Errorf("%d uploads, want 3 (another reply is uploaded afresh)", len(fk.uploads))
	}
	if fm.staged == nil || fm.staged.key != stageKey("1", "другой текст", []forum.Attachment{picture}) {
		t.Fatal("a reply refused otherwise than by flood control replaced the staged one")
	}
	if _, _, err := fm.ReplyWithAttachments(ctx, th, "другой текст", []forum.Attachment{picture}); err != nil || len(fk.uploads) != 3 || fm.staged != nil {
		t.Errorf("the staged reply: %v, %d uploads, staged %v", err, len(fk.uploads), fm.staged != nil)
	}
}

// Configured off, the capabilities say no attachments; a file above MyBB's default size is not
// taken; a bad size setting is refused.
func TestReplyWithAttachmentsOff(t *testing.T) {
	fm := newFake(t).forum(t, map[string]string{"attachments": "off"})
	if c := fm.Capabilities(); c.Attachments || c.Takes(picture) {
		t.Errorf("attachments off: %+v", c)
	}
	big := forum.Attachment{Name: "big.png", Data: make([]byte, defaultMaxAttachmentSize+1)}
	if newFake(t).forum(t, nil).Capabilities().Takes(big) {
		t.Error("a file above MyBB's default 500 KB is taken")
	}
	if _, err := New(forum.Config{BaseURL: "http://x/", Extra: map[string]string{"max_attachment_size": "lots"}}); err == nil || !strings.Contains(err.Error(), "max_attachment_size") {
		t.Errorf("bad max_attachment_size: %v", err)
	}
}

// MyBB's older single "attachment" field: one upload per file, each keeping the posthash; both
// placed.
func TestReplyWithAttachmentsOldField(t *testing.T) {
	fk := newFake(t)
	fk.oldField = true
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	legend := forum.Attachment{Name: "legend.png", ContentType: "image/png", Data: []byte("\x89PNGlegend")}
	if _, _, err := fk.forum(t, nil).ReplyWithAttachments(ctx, forum.Thread{ID: "1"}, "текст", []forum.Attachment{picture, legend}); err != nil {
		t.Fatal(err)
	}
	if len(fk.posts) != 3 || len(fk.uploads) != 2 {
		t.Fatalf("%d POSTs, %d uploads; want 3 (two uploads, the post) and 2", len(fk.posts), len(fk.uploads))
	}
	if fk.posts[1].Get("posthash") != fk.posts[0].Get("posthash") || fk.posts[2].Get("posthash") != fk.posts[0].Get("posthash") {
		t.Error("the posthash changed between the uploads and the post")
	}
	if got := fk.posts[2].Get("message"); got != "[attachment=100]\n[attachment=101]\nтекст" {
		t.Errorf("message %q", got)
	}
}

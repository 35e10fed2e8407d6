package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/media"
	"forumgm/sandbox"
)

// fieldPNG stands for a picture of the field: a PNG signature and some bytes, binary included.
var fieldPNG = forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 0xff, 0x80}, 3000)...)}

// get fetches a page or file of the board as a guest.
func get(t *testing.T, url string) (string, http.Header) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	return string(b), res.Header
}

// The MyBB dialect attaches a PNG to a reply on the sandbox (UTF-8 and windows-1251 boards): the
// upload and the post are two POSTs of the full reply form, the picture is in the bot's post on
// the thread page (an <img> linked to attachment.php?aid=N, which serves the same bytes to a
// guest), the text reads back without the tag, and the text list stands beside the picture.
func TestReplyWithPictureAttached(t *testing.T) {
	for _, charset := range []string{"", "windows-1251"} {
		t.Run("charset="+charset, func(t *testing.T) {
			b := newBoard(t, func(o *sandbox.Options) { noFloodNoMerge(o); o.Charset = charset })
			tid, _ := b.thread("Драконбол — матч 1", post{p1Name, "Ждём отчёта."})
			bot := b.dial(botName, botPass)
			th := forum.Thread{ID: itoa(tid)}
			b.clock.Advance(time.Minute)
			body := "Отчёт раунда 1 «Драконы»\n" + forum.Placeholder(fieldPNG.Name) + "\nПозиции: Ё1 D4, Щ2 E5"
			n := bot.rec.mark()
			id, merged, err := bot.ReplyWithAttachments(b.ctx, th, body, []forum.Attachment{fieldPNG})
			if err != nil || merged {
				t.Fatalf("reply: %q merged=%v %v", id, merged, err)
			}
			if got := bot.rec.count(n, "POST /newreply.php"); got != 2 {
				t.Errorf("%d reply-form POSTs, want 2 (upload, post)", got)
			}
			ps := b.stored(tid)
			last := ps[len(ps)-1]
			if itoa(last.PID) != id || !strings.HasPrefix(last.Message, "Отчёт раунда 1 «Драконы»\n[attachment=") {
				t.Fatalf("stored post %d: %q", last.PID, last.Message)
			}
			atts, err := b.sb.Attachments(b.ctx, last.PID)
			if err != nil || len(atts) != 1 || !bytes.Equal(atts[0].Data, fieldPNG.Data) {
				t.Fatalf("attachments of %d: %d (%v)", last.PID, len(atts), err)
			}
			aid := itoa(atts[0].AID)
			page, _ := get(t, b.base+"/showthread.php?tid="+itoa(tid)+"&pid="+id)
			if !strings.Contains(page, `<a href="attachment.php?aid=`+aid+`" target="_blank"><img src="attachment.php?aid=`+aid+`" class="attachment"`) {
				t.Fatal("the thread page does not show the picture")
			}
			data, h := get(t, b.base+"/attachment.php?aid="+aid)
			if data != string(fieldPNG.Data) || h.Get("Content-Type") != "image/png" {
				t.Errorf("attachment.php: %d bytes, %s", len(data), h.Get("Content-Type"))
			}
			got, _, err := bot.Posts(b.ctx, th, forum.Cursor{})
			// The picture's line reads as blank (MyBB puts &nbsp; after an attachment's image).
			if err != nil || len(got) != 2 || got[1].ID != id || trimLines(got[1].Text) != "Отчёт раунда 1 «Драконы»\n\nПозиции: Ё1 D4, Щ2 E5" {
				t.Fatalf("read back: %+v %v", got, err)
			}
		})
	}
}

// MyBB's auto-merge: a report with a picture posted within the merge window lands in the bot's
// previous post (merged), and the picture is shown there.
func TestPictureInMergedReply(t *testing.T) {
	b := newBoard(t, func(o *sandbox.Options) { o.FloodSeconds, o.PMFloodSeconds = -1, -1 })
	tid, _ := b.thread("Драконбол — матч 2", post{p1Name, "Готовы."})
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	b.clock.Advance(time.Minute)
	first, _, err := bot.Reply(b.ctx, th, "Раунд начался.")
	if err != nil {
		t.Fatal(err)
	}
	b.clock.Advance(5 * time.Minute)
	id, merged, err := bot.ReplyWithAttachments(b.ctx, th, "Отчёт раунда.", []forum.Attachment{fieldPNG})
	if err != nil || !merged || id != first {
		t.Fatalf("second: %q merged=%v %v; want %s merged", id, merged, err, first)
	}
	atts, _ := b.sb.Attachments(b.ctx, b.stored(tid)[1].PID)
	if len(atts) != 1 {
		t.Fatalf("the merged post has %d attachments", len(atts))
	}
	page, _ := get(t, b.base+"/showthread.php?tid="+itoa(tid))
	if !strings.Contains(page, `<img src="attachment.php?aid=`+itoa(atts[0].AID)+`"`) {
		t.Error("the picture is not shown in the merged post")
	}
}

// The fallback as a reader meets it: the picture written to forumgm's folder, served there (here
// by media.Handler on loopback, as behind a reverse proxy), linked with [img] in a plain reply; the
// sandbox shows it as MyBB does (<img class="mycode_img">) and the URL serves the bytes.
func TestPictureLinkedFromFolder(t *testing.T) {
	b := newBoard(t, noFloodNoMerge)
	tid, _ := b.thread("Драконбол — матч 3", post{p1Name, "Ждём."})
	dir := filepath.Join(t.TempDir(), "pictures")
	srv := httptest.NewServer(media.Handler(dir))
	defer srv.Close()
	files, err := media.New(dir, srv.URL+"/pictures/")
	if err != nil {
		t.Fatal(err)
	}
	url, err := files.Put(fieldPNG)
	if err != nil {
		t.Fatal(err)
	}
	body := forum.PlaceAttachments("Отчёт.\n"+forum.Placeholder(fieldPNG.Name)+"\nПозиции: …", []forum.Attachment{fieldPNG},
		func(_ int, a forum.Attachment) string { return files.Img(a) })
	bot := b.dial(botName, botPass)
	b.clock.Advance(time.Minute)
	id, _, err := bot.Reply(b.ctx, forum.Thread{ID: itoa(tid)}, body)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := get(t, b.base+"/showthread.php?tid="+itoa(tid)+"&pid="+id)
	if !strings.Contains(page, `<img src="`+url+`" loading="lazy"  alt="[Image: `+media.Name(fieldPNG)+`]" class="mycode_img" />`) {
		t.Fatalf("the thread page does not show %s", url)
	}
	data, h := get(t, url)
	if data != string(fieldPNG.Data) || h.Get("Content-Type") != "image/png" {
		t.Errorf("%s: %d bytes, %s", url, len(data), h.Get("Content-Type"))
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimFunc(l, func(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\t' })
	}
	return strings.Join(lines, "\n")
}

// BenchmarkReplyWithPicture: one reply with a 200 KB picture through the MyBB dialect and the
// sandbox over loopback: the form, the upload, the post (no flood control, no merging).
func BenchmarkReplyWithPicture(b *testing.B) {
	bd := newBoard(b, noFloodNoMerge)
	tid, _ := bd.thread("Драконбол — замер", post{p1Name, "Старт."})
	bot := bd.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	pic := forum.Attachment{Name: "round.png", ContentType: "image/png", Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 50<<10)}
	for b.Loop() {
		if _, _, err := bot.ReplyWithAttachments(bd.ctx, th, "Отчёт раунда.", []forum.Attachment{pic}); err != nil {
			b.Fatal(err)
		}
	}
}

// Flood control after the upload (the board's 60 s between a user's posts, merging off): the
// flood error comes back, and the next try after the wait posts the same filled form again; one
// upload, none left unattached.
func TestPictureAfterFloodControl(t *testing.T) {
	b := newBoard(t, func(o *sandbox.Options) { o.MergeMinutes = -1 })
	tid, _ := b.thread("Драконбол — матч 4", post{p1Name, "Ждём."})
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	b.clock.Advance(2 * time.Minute)
	if _, _, err := bot.Reply(b.ctx, th, "Раунд закрыт."); err != nil {
		t.Fatal(err)
	}
	b.clock.Advance(10 * time.Second)
	id, _, err := bot.ReplyWithAttachments(b.ctx, th, "Отчёт раунда.", []forum.Attachment{fieldPNG})
	if err != nil {
		t.Fatal(err)
	}
	if w := bot.slept(); len(w) != 1 {
		t.Errorf("flood waits %v, want one", w)
	}
	posted, pending, err := b.sb.AllAttachments(b.ctx)
	if err != nil || posted != 1 || pending != 0 {
		t.Fatalf("%d posted, %d unattached uploads (%v); want 1, 0", posted, pending, err)
	}
	page, _ := get(t, b.base+"/showthread.php?tid="+itoa(tid)+"&pid="+id)
	if strings.Count(page, `class="attachment"`) != 1 {
		t.Error("the picture is not shown once")
	}
}

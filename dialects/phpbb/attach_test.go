package phpbb

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"testing"

	"forumgm/forum"
)

// attachBoard is the stand-in's attachment panel, after prosilver's posting_attach_body.html and
// posting_gen_attachment_entry() of phpBB 3.3 (includes/functions_posting.php): a "fileupload"
// field with "Add the file" (add_file); each upload is kept as an orphan and the form comes back
// carrying every file in hidden attachment_data[INDEX][…] fields, the newest at index 0, with
// phpBB's DISALLOWED_EXTENSION error for an extension outside the Images group.
type attachBoard struct {
	files []phpbbFile // oldest first
	next  int
}

type phpbbFile struct {
	id         int
	name, kind string
	data       []byte
}

var imageExt = map[string]bool{"gif": true, "png": true, "jpg": true, "jpeg": true}

// panel puts the attachment panel (with the files so far) into a reply form page, the message
// kept and an error shown when given.
func (a *attachBoard) panel(page, message, errMsg string) string {
	var rows strings.Builder
	for i := len(a.files) - 1; i >= 0; i-- {
		f := a.files[i]
		idx := len(a.files) - 1 - i
		fmt.Fprintf(&rows, `<tr class="attach-row" data-attach-id="%d">
<td class="attach-name"><span class="file-name ellipsis-text"><a href="./download/file.php?id=%d&amp;mode=view">%s</a></span>
<span class="attach-controls"><input type="button" value="Place inline" class="button2 file-inline-bbcode" />&nbsp;<input type="submit" name="delete_file[%d]" value="Delete file" class="button2 file-delete" /></span></td>
<td class="attach-comment"><textarea name="comment_list[%d]" rows="1" cols="30" class="inputbox"></textarea>
<input type="hidden" name="attachment_data[%d][attach_id]" value="%d" /><input type="hidden" name="attachment_data[%d][is_orphan]" value="1" /><input type="hidden" name="attachment_data[%d][real_filename]" value="%s" /><input type="hidden" name="attachment_data[%d][attach_comment]" value="" /><input type="hidden" name="attachment_data[%d][filesize]" value="%d" /></td>
<td class="attach-filesize"><span class="file-size">%d B</span></td>
</tr>
`, f.id, f.id, html.EscapeString(f.name), idx, idx, idx, f.id, idx, idx, html.EscapeString(f.name), idx, idx, len(f.data), len(f.data))
	}
	panel := `<div class="panel bg3 panel-container" id="attach-panel"><div class="inner">
<fieldset class="fields2" id="attach-panel-basic"><dl><dt><label for="fileupload">Filename:</label></dt>
<dd><input type="file" accept=".gif,.png,.jpeg,.jpg" name="fileupload" id="fileupload" class="inputbox autowidth" />
<input type="submit" name="add_file" value="Add the file" class="button2" onclick="upload = true;" /></dd></dl>
<dl><dt><label for="filecomment">File comment:</label></dt><dd><textarea name="filecomment" id="filecomment" rows="1" cols="40" class="inputbox autowidth"></textarea></dd></dl></fieldset>
<div class="panel file-list-container" id="file-list-container"><div class="inner"><table class="table1 zebra-list fixed-width-table"><tbody class="responsive-skip-empty file-list" id="file-list">
` + rows.String() + `</tbody></table></div></div></div></div>
`
	page = strings.Replace(page, `<div class="panel bg3" id="options-panel">`, panel+`<div class="panel bg3" id="options-panel">`, 1)
	if message != "" {
		page = strings.Replace(page, `class="inputbox"></textarea>`, `class="inputbox">`+html.EscapeString(message)+`</textarea>`, 1)
	}
	if errMsg != "" {
		page = strings.Replace(page, `<fieldset class="fields1">`, `<fieldset class="fields1">`+"\n"+`<p class="error">`+errMsg+`</p>`, 1)
	}
	return page
}

// upload handles an "Add the file" POST; false for any other POST.
func (a *attachBoard) upload(b *board, w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return false
	}
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		b.t.Error(err)
		return true
	}
	if r.PostForm.Get("add_file") == "" {
		return false
	}
	b.posted = append(b.posted, r.PostForm)
	errMsg := ""
	if fhs := r.MultipartForm.File["fileupload"]; len(fhs) == 1 {
		ext := strings.TrimPrefix(path.Ext(fhs[0].Filename), ".")
		if !imageExt[ext] {
			errMsg = "The extension " + ext + " is not allowed."
		} else {
			fh, _ := fhs[0].Open()
			data, _ := io.ReadAll(fh)
			fh.Close()
			a.next++
			a.files = append(a.files, phpbbFile{id: 40 + a.next, name: fhs[0].Filename, kind: fhs[0].Header.Get("Content-Type"), data: data})
		}
	}
	s := a.panel(page(b.t, "posting-reply-form.html"), r.PostForm.Get("message"), errMsg)
	s = creationRe.ReplaceAllString(s, `name="creation_time" value="`+strconv.FormatInt(b.clock.Now().Unix(), 10)+`"`)
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	_, _ = w.Write([]byte(s))
	return true
}

var fieldPNG = forum.Attachment{Name: "round-2.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfield")}

// Each file is uploaded with "Add the file" on the whole reply form (a fresh form token and wait
// each time), then the form that came back is submitted with [attachment=INDEX]NAME[/attachment]
// where the placeholders were and every attachment_data field.
func TestReplyWithAttachments(t *testing.T) {
	b, f := setup(t)
	b.attach = &attachBoard{}
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	legend := forum.Attachment{Name: "legend.png", ContentType: "image/png", Data: []byte("\x89PNGlegend")}
	body := "Отчёт\n" + forum.Placeholder(fieldPNG.Name) + "\nПозиции"
	id, _, err := f.ReplyWithAttachments(ctx, forum.Thread{ID: "2"}, body, []forum.Attachment{fieldPNG, legend})
	if err != nil || id != "16" {
		t.Fatalf("reply: %q %v", id, err)
	}
	if len(b.attach.files) != 2 || string(b.attach.files[0].data) != string(fieldPNG.Data) || b.attach.files[0].kind != "image/png" {
		t.Fatalf("uploads: %+v", b.attach.files)
	}
	if len(b.posted) != 3 {
		t.Fatalf("%d POSTs, want 3 (two uploads, the post)", len(b.posted))
	}
	final := b.posted[2]
	// round-2.png was uploaded first: after legend.png it is at index 1.
	if want := "[attachment=0]legend.png[/attachment]\nОтчёт\n[attachment=1]round-2.png[/attachment]\nПозиции"; final.Get("message") != want {
		t.Errorf("message %q, want %q", final.Get("message"), want)
	}
	if final.Get("attachment_data[1][attach_id]") != "41" || final.Get("attachment_data[0][real_filename]") != "legend.png" || final.Get("post") != "Submit" || final.Has("add_file") {
		t.Errorf("the post does not carry the attachments: %v", final)
	}
	for i, v := range b.posted[:2] {
		if v.Get("add_file") == "" || v.Has("post") {
			t.Errorf("upload %d pressed the wrong button: %v", i, v)
		}
	}
}

// An extension phpBB refuses is forum.ErrAttachmentRefused, nothing posted; a form without the
// panel (attachments off for the bot) too; configured off, no attachments in the capabilities.
func TestReplyWithAttachmentsRefused(t *testing.T) {
	b, f := setup(t)
	b.attach = &attachBoard{}
	ctx := context.Background()
	bmp := forum.Attachment{Name: "field.bmp", ContentType: "image/bmp", Data: []byte("BM")}
	if _, _, err := f.ReplyWithAttachments(ctx, forum.Thread{ID: "2"}, "текст", []forum.Attachment{bmp}); !errors.Is(err, forum.ErrAttachmentRefused) {
		t.Errorf("bmp: %v", err)
	}
	b.attach = nil
	if _, _, err := f.ReplyWithAttachments(ctx, forum.Thread{ID: "2"}, "текст", []forum.Attachment{fieldPNG}); !errors.Is(err, forum.ErrAttachmentRefused) {
		t.Errorf("no panel: %v", err)
	}
	for _, v := range b.posted {
		if v.Get("post") != "" {
			t.Errorf("something was posted: %v", v)
		}
	}
	if !f.Capabilities().Takes(fieldPNG) || f.Capabilities().Takes(forum.Attachment{Name: "a.png", Data: make([]byte, defaultMaxAttachmentSize+1)}) {
		t.Error("default capabilities")
	}
	off, err := New(forum.Config{BaseURL: "http://x/", Extra: map[string]string{"attachments": "off"}}, options{})
	if err != nil || off.Capabilities().Attachments {
		t.Errorf("attachments off: %v %+v", err, off.Capabilities())
	}
}

// Flood control on the post comes back typed; the next attempt (the daemon's, after the wait):
// a fresh form, the file uploaded again, only that upload placed.
func TestReplyWithAttachmentsFlood(t *testing.T) {
	b, f := setup(t)
	b.attach = &attachBoard{}
	b.floods = 1
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	var fe *forum.FloodError
	if _, _, err := f.ReplyWithAttachments(ctx, forum.Thread{ID: "2"}, "текст", []forum.Attachment{fieldPNG}); !errors.As(err, &fe) {
		t.Fatalf("flood: %v", err)
	}
	if _, _, err := f.ReplyWithAttachments(ctx, forum.Thread{ID: "2"}, "текст", []forum.Attachment{fieldPNG}); err != nil {
		t.Fatal(err)
	}
	if len(b.posted) != 4 {
		t.Fatalf("%d POSTs, want 4 (upload, flood, upload, post)", len(b.posted))
	}
	final := b.posted[3]
	if got := final.Get("message"); got != "[attachment=0]round-2.png[/attachment]\nтекст" {
		t.Errorf("message %q", got)
	}
	// The stand-in shows the first attempt's orphan (41) on the fresh form: it is left out.
	if final.Get("attachment_data[0][attach_id]") != "42" || final.Has("attachment_data[1][attach_id]") || final.Has("comment_list[1]") {
		t.Errorf("the post carries the first attempt's upload: %v", final)
	}
}

package smf

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"forumgm/forum"
)

// smfFile is one file of a multipart post2 POST.
type smfFile struct {
	name, kind string
	data       []byte
}

// multipart reads a multipart POST (the full post form with files) into its values, recording
// the files.
func (f *fakeSMF) multipart(r *http.Request) url.Values {
	// SMF's query uses ';', which ParseMultipartForm's query parsing refuses: read the body only.
	mr, err := r.MultipartReader()
	if err != nil {
		f.t.Errorf("multipart POST: %v", err)
		return url.Values{}
	}
	mf, err := mr.ReadForm(8 << 20)
	if err != nil {
		f.t.Errorf("multipart POST: %v", err)
		return url.Values{}
	}
	var files []smfFile
	for _, fh := range mf.File["attachment[]"] {
		file, _ := fh.Open()
		data, _ := io.ReadAll(file)
		file.Close()
		files = append(files, smfFile{name: fh.Filename, kind: fh.Header.Get("Content-Type"), data: data})
	}
	f.uploads = append(f.uploads, files)
	return url.Values(mf.Value)
}

var fieldPNG = forum.Attachment{Name: "round-2.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfield")}

// The files go with the post in one multipart POST to post2 (the captured form's attachment[]
// field and every field Reply sends); the placeholder is removed (SMF shows the picture under the
// post); the new post is found as after Reply.
func TestReplyWithAttachments(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	fm, _ := newForum(t, srv, nil)
	body := "Отчёт раунда\n" + forum.Placeholder(fieldPNG.Name) + "\nПозиции: в1 C4"
	id, merged, err := fm.ReplyWithAttachments(context.Background(), forum.Thread{ID: "2"}, body, []forum.Attachment{fieldPNG})
	if err != nil || id != "18" || merged {
		t.Fatalf("reply: %q %v %v", id, merged, err)
	}
	if len(srv.uploads) != 1 || len(srv.uploads[0]) != 1 {
		t.Fatalf("uploads %+v", srv.uploads)
	}
	up := srv.uploads[0][0]
	if up.name != fieldPNG.Name || up.kind != "image/png" || string(up.data) != string(fieldPNG.Data) {
		t.Errorf("file %+v", up)
	}
	p := srv.posts[len(srv.posts)-1]
	if p.Get("message") != "Отчёт раунда\n\nПозиции: в1 C4" || p.Get("post") != "Post" || p.Get("seqnum") != "7818572" ||
		p.Get("e19bacb2") != "ece01887e8a858e0576fac8b4be9e2bb" || p.Get("last_msg") != "17" {
		t.Errorf("post fields %v", p)
	}
	if !fm.Capabilities().Takes(fieldPNG) || fm.Capabilities().MaxAttachmentSize != 131072 {
		t.Errorf("capabilities %+v", fm.Capabilities())
	}
}

// A type SMF refuses comes back on the form: forum.ErrAttachmentRefused, nothing retried; a form
// without the file field too; "attachments: off" leaves them out of the capabilities.
func TestReplyWithAttachmentsRefused(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	refused := strings.Replace(srv.file("24-reply-error-empty.gm-bot.html"), "The message body was left empty.",
		"You cannot upload that type of file. The only allowed extensions are doc, gif, jpg, mpg, pdf, png, txt, zip.", 1)
	srv.bodies = map[string]string{"refused": refused}
	srv.replies = []string{"refused", "24-reply-error-empty.gm-bot.html"}
	fm, _ := newForum(t, srv, nil)
	bmp := forum.Attachment{Name: "field.bmp", ContentType: "image/bmp", Data: []byte("BM")}
	if _, _, err := fm.ReplyWithAttachments(context.Background(), forum.Thread{ID: "2"}, "текст", []forum.Attachment{bmp}); !errors.Is(err, forum.ErrAttachmentRefused) {
		t.Errorf("refused type: %v", err)
	}
	// A refusal that is not about the file keeps its own type.
	if _, _, err := fm.ReplyWithAttachments(context.Background(), forum.Thread{ID: "2"}, " ", []forum.Attachment{fieldPNG}); !errors.Is(err, forum.ErrTooShort) || errors.Is(err, forum.ErrAttachmentRefused) {
		t.Errorf("empty: %v", err)
	}
	if !reAttachError.MatchString("You cannot upload that type of file. The only allowed extensions are png.") ||
		!reAttachError.MatchString("Your file is too large. The maximum attachment size allowed is 128 KB.") ||
		reAttachError.MatchString("The message body was left empty.") {
		t.Error("reAttachError")
	}
	srv.bodies["action=post;topic=2.0"] = strings.ReplaceAll(srv.file("20-reply-form.gm-bot.html"), `name="attachment[]"`, `name="nofile"`)
	n := len(srv.posts)
	if _, _, err := fm.ReplyWithAttachments(context.Background(), forum.Thread{ID: "2"}, "текст", []forum.Attachment{fieldPNG}); !errors.Is(err, forum.ErrAttachmentRefused) || len(srv.posts) != n {
		t.Errorf("no file field: %v after %d POSTs", err, len(srv.posts)-n)
	}
	off, err := New(forum.Config{BaseURL: "http://x/", Extra: map[string]string{"attachments": "off"}})
	if err != nil || off.Capabilities().Attachments {
		t.Errorf("off: %v %+v", err, off.Capabilities())
	}
}

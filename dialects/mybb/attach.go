package mybb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"strings"

	"forumgm/forum"

	"github.com/PuerkitoBio/goquery"
)

// defaultMaxAttachmentSize is MyBB's default limit for PNG, JPEG and GIF files (500 KB, the
// attachtypes table of a fresh install); Extra["max_attachment_size"] (bytes) overrides it.
const defaultMaxAttachmentSize = 500 * 1024

// attachmentTypes are the image types a fresh MyBB 1.8 takes (attachtypes with the image icon).
var attachmentTypes = []string{"gif", "jpeg", "jpg", "png"}

// attachCaps reads the attachment settings of cfg.Extra: "attachments: off" for a board (or a
// bot group) without attachments, "max_attachment_size" in bytes.
func attachCaps(extra map[string]string) (on bool, max int64, err error) {
	switch strings.ToLower(strings.TrimSpace(extra["attachments"])) {
	case "", "on", "yes", "true":
		on = true
	case "off", "no", "false":
	default:
		return false, 0, fmt.Errorf("mybb: bad attachments %q (on or off)", extra["attachments"])
	}
	max = defaultMaxAttachmentSize
	if s := extra["max_attachment_size"]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return false, 0, fmt.Errorf("mybb: bad max_attachment_size %q (bytes)", s)
		}
		max = n
	}
	return on, max, nil
}

// ReplyWithAttachments posts body to thread t with files attached, the way a person does on
// newreply.php: the full reply form is posted once as multipart/form-data with the files in its
// "attachments[]" field and the "Add Attachment" button (newattachment), which stores them under
// the form's posthash and shows the form again listing each with its aid
// (<tr id="attachment_AID">… <span class="attachment_filename">NAME</span>); then that form is
// posted with "Post Reply", the body's placeholders replaced by [attachment=AID] (files without
// one go on top), and MyBB binds the posthash's attachments to the new post.
//
// Errors are acted on as Reply does (logged out, bad token). A post refused for flood control
// keeps its upload: the same filled form (posthash, aids) is posted again by the next call with
// the same thread, text and files (the daemon's next try, after the wait); any other failure
// starts the next try from a fresh form: a new posthash, a new upload. An upload whose post never went through stays unattached under its posthash
// (pid 0); it never shows in a post, and MyBB's ACP lists it under Attachments → Find Orphans for
// an administrator to delete. A file MyBB refuses (attachments off, a type or size it does not
// take, a full quota) is forum.ErrAttachmentRefused, before anything is posted. A message too long
// is forum.ErrTooLong: the caller splits long messages.
func (f *Forum) ReplyWithAttachments(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(files) == 0 {
		return f.retry().Post(ctx, func() (string, bool, error) { return f.replyOnce(ctx, t.ID, body) })
	}
	key := stageKey(t.ID, body, files)
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyAttachOnce(ctx, t.ID, key, body, files) })
}

// staged is a reply whose files are uploaded and whose post was refused for flood control: the
// filled form (its posthash holds the files) is posted again as it is, so a wait costs no second
// upload. One at a time: the daemon sends one reply at a time.
type staged struct {
	key     string
	form    Form
	charset string
}

// stageKey names a reply by its thread, text and files.
func stageKey(tid, body string, files []forum.Attachment) string {
	h := sha256.New()
	for _, s := range []string{tid, body} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	for _, a := range files {
		fmt.Fprintf(h, "%d:%s%d:%s", len(a.Name), a.Name, len(a.ContentType), a.ContentType)
		sum := sha256.Sum256(a.Data)
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (f *Forum) replyAttachOnce(ctx context.Context, tid, key, body string, files []forum.Attachment) (string, bool, error) {
	if st := f.staged; st != nil && st.key == key {
		f.staged = nil
		id, merged, err := f.submitReply(ctx, tid, cloneForm(st.form), st.charset)
		var flood *forum.FloodError
		if errors.As(err, &flood) {
			f.staged = st // still waiting: keep the upload for the next try
		}
		return id, merged, err
	}
	form, charset, sel, err := f.replyForm(ctx, tid)
	if err != nil {
		return "", false, err
	}
	// MyBB 1.8.37 (the capture) has "attachments[]" (several files at once, since 1.8.18); earlier MyBB
	// had a single "attachment" field: one file per upload.
	field, batch := "attachments[]", len(files)
	if sel.Find(`input[type="file"][name="attachments[]"]`).Length() == 0 {
		if sel.Find(`input[type="file"][name="attachment"]`).Length() == 0 {
			return "", false, fmt.Errorf("mybb: the reply form has no attachment field (attachments off for the bot here?): %w", forum.ErrAttachmentRefused)
		}
		field, batch = "attachment", 1
	}
	posthash := form.Values.Get("posthash")
	if posthash == "" {
		return "", false, fmt.Errorf("mybb: the reply form has no posthash: %w", forum.ErrMarkupChanged)
	}
	var doc *goquery.Document
	var pageURL *url.URL
	for i := 0; i < len(files); i += batch {
		form.Values.Set("message", body)
		form.Values.Set("newattachment", "Add Attachment")
		var ff []forum.FormFile
		for _, a := range files[i:min(i+batch, len(files))] {
			ff = append(ff, forum.FormFile{Field: field, Name: a.Name, ContentType: a.ContentType, Data: a.Data})
		}
		up, err := f.c.PostMultipart(ctx, form.Action, form.Values, ff, charset)
		if err != nil {
			return "", false, err
		}
		if doc, err = up.Doc(); err != nil {
			return "", false, err
		}
		if perr := pageError(doc); perr != nil {
			if errors.Is(perr, errFormRejected) { // the upload's own error ("file type not allowed", …)
				return "", false, fmt.Errorf("mybb: upload: %w: %w", perr, forum.ErrAttachmentRefused)
			}
			return "", false, perr
		}
		if sel, err = replyFormOf(doc); err != nil {
			return "", false, err
		}
		pageURL = up.URL
		form = readForm(sel, up.URL)
		if form.Values.Get("my_post_key") == "" {
			form.Values.Set("my_post_key", myPostKey(doc))
		}
	}
	aids := uploaded(sel)
	next := readForm(sel, pageURL)
	if next.Values.Get("posthash") != posthash {
		return "", false, fmt.Errorf("mybb: the form came back with another posthash (%q, sent %q): %w", next.Values.Get("posthash"), posthash, forum.ErrMarkupChanged)
	}
	if next.Values.Get("my_post_key") == "" {
		next.Values.Set("my_post_key", myPostKey(doc))
	}
	if next.Values.Get("tid") == "" {
		next.Values.Set("tid", tid)
	}
	for _, a := range files {
		if aids[a.Name] == "" {
			return "", false, fmt.Errorf("mybb: %q is not listed after the upload: %w", a.Name, forum.ErrAttachmentRefused)
		}
	}
	next.Values.Set("action", "do_newreply")
	next.Values.Set("message", forum.PlaceAttachments(body, files, func(_ int, a forum.Attachment) string {
		return "[attachment=" + aids[a.Name] + "]"
	}))
	ready := cloneForm(next)
	id, merged, err := f.submitReply(ctx, tid, next, charset)
	var flood *forum.FloodError
	if errors.As(err, &flood) {
		f.staged = &staged{key: key, form: ready, charset: charset}
	}
	return id, merged, err
}

func cloneForm(f Form) Form {
	return Form{Action: f.Action, Values: url.Values(maps.Clone(map[string][]string(f.Values)))}
}

// uploaded lists the attachments a reply form shows (post_attachments_attachment rows), by file
// name: the aid of each. A name listed twice keeps the newest (highest) aid.
func uploaded(form *goquery.Selection) map[string]string {
	out := map[string]string{}
	form.Find(`tr[id^="attachment_"]`).Each(func(_ int, tr *goquery.Selection) {
		aid := strings.TrimPrefix(tr.AttrOr("id", ""), "attachment_")
		if _, err := strconv.Atoi(aid); err != nil {
			return
		}
		name := strings.TrimSpace(tr.Find(".attachment_filename").First().Text())
		if name == "" {
			name = strings.TrimSpace(tr.Find("a").First().Text())
		}
		if name != "" && forum.CompareIDs(aid, out[name]) > 0 {
			out[name] = aid
		}
	})
	return out
}

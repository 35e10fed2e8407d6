package phpbb

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

// defaultMaxAttachmentSize is phpBB's default max_filesize (256 KiB, a fresh 3.3 install);
// Extra["max_attachment_size"] (bytes) overrides it.
const defaultMaxAttachmentSize = 262144

// attachmentTypes are the image extensions a fresh phpBB 3.3 allows (the "Images" group).
var attachmentTypes = []string{"gif", "jpeg", "jpg", "png", "tga", "tif", "tiff", "webp"}

// attachSettings reads Extra["attachments"] (on/off) and Extra["max_attachment_size"] (bytes).
func attachSettings(extra map[string]string) (bool, int64, error) {
	on := true
	switch strings.ToLower(strings.TrimSpace(extra["attachments"])) {
	case "", "on", "yes", "true":
	case "off", "no", "false":
		on = false
	default:
		return false, 0, fmt.Errorf("phpbb: bad attachments %q (on or off)", extra["attachments"])
	}
	max := int64(defaultMaxAttachmentSize)
	if s := extra["max_attachment_size"]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return false, 0, fmt.Errorf("phpbb: bad max_attachment_size %q (bytes)", s)
		}
		max = n
	}
	return on, max, nil
}

// ReplyWithAttachments posts body to thread t with files attached, through posting.php's
// attachment panel (prosilver's posting_attach_body.html, phpBB 3.3): each file is sent with the
// whole reply form as multipart/form-data in the "fileupload" field with "Add the file"
// (add_file); phpBB stores it as an orphan of the bot and shows the form again carrying every
// file so far in hidden attachment_data[INDEX][attach_id|is_orphan|real_filename|attach_comment|
// filesize] fields and a row (tr.attach-row[data-attach-id], its file name, comment_list[INDEX]).
// The body's placeholders become [attachment=INDEX]NAME[/attachment] (phpBB's inline attachment
// BBCode; files without one go on top) and the form is submitted: phpBB adopts the orphans into
// the new post.
//
// Each attempt starts from a fresh form; errors are acted on as Reply does (form.Retry: a stale
// form, a lost session).
// An upload whose post never went through stays an orphan of the bot's (never shown; the ACP's
// "Orphaned attachments" lists it for an administrator to delete). A file refused by the
// board (the extension, the size, attachments off for the bot) is forum.ErrAttachmentRefused
// before anything is posted. No captured phpBB pages exist: the flow follows the templates and
// posting.php of phpBB 3.3 (see README.md).
func (f *Forum) ReplyWithAttachments(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	if len(files) == 0 {
		return f.Reply(ctx, t, body)
	}
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyAttachOnce(ctx, t, body, files) })
}

func (f *Forum) replyAttachOnce(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	p, doc, err := f.replyForm(ctx, t)
	if err != nil {
		return "", false, err
	}
	if loginShown(doc) {
		return "", false, fmt.Errorf("phpbb: reply form: %w", forum.ErrLoggedOut)
	}
	fm, err := web.Read(p, doc, postSel)
	if err != nil {
		if msg := errorText(doc); msg != "" {
			return "", false, f.classify(msg)
		}
		return "", false, scrape.Markup("phpbb", "%v", err)
	}
	if doc.Find(`form#postform input[type="file"][name="fileupload"]`).Length() == 0 {
		return "", false, fmt.Errorf("phpbb: the reply form has no attachment panel (attachments off for the bot here?): %w", forum.ErrAttachmentRefused)
	}
	charset := p.Charset
	// Files the fresh form already carries (none on phpBB 3.3; a board that showed an earlier
	// attempt's orphans again would) are left out of this post.
	stale := map[string]bool{}
	for _, id := range attachIDs(fm.Values) {
		stale[id] = true
	}
	for _, a := range files {
		loaded := f.now()
		fm.Values.Set("message", body)
		fm.Values.Set("filecomment", "")
		fm.Values.Set("add_file", "Add the file")
		if err := f.waitFormAge(ctx, loaded); err != nil {
			return "", false, err
		}
		up, err := f.c.PostMultipart(ctx, fm.Action.String(), fm.Values,
			[]forum.FormFile{{Field: "fileupload", Name: a.Name, ContentType: a.ContentType, Data: a.Data}}, charset)
		if err != nil {
			return "", false, err
		}
		udoc, err := up.Doc()
		if err != nil {
			return "", false, err
		}
		if loginShown(udoc) {
			return "", false, fmt.Errorf("phpbb: upload: %w", forum.ErrLoggedOut)
		}
		next, err := web.Read(up, udoc, postSel)
		if err != nil {
			if msg := errorText(udoc); msg != "" {
				return "", false, f.classify(msg)
			}
			return "", false, scrape.Markup("phpbb", "after the upload: %v", err)
		}
		if _, ok := attachIndex(udoc, stale)[a.Name]; !ok {
			msg := errorText(udoc)
			if cerr := f.classify(msg); msg != "" && !errors.Is(cerr, errRejected) {
				return "", false, fmt.Errorf("phpbb: upload of %q: %w", a.Name, cerr)
			}
			// DISALLOWED_EXTENSION, WRONG_FILESIZE, the quota, …: phpBB's own words.
			return "", false, fmt.Errorf("phpbb: upload of %q: %q: %w", a.Name, msg, forum.ErrAttachmentRefused)
		}
		fm, doc = next, udoc
		fm.Values.Del("add_file")
	}
	for key, id := range attachIDs(fm.Values) {
		if stale[id] {
			dropAttachment(fm.Values, key)
		}
	}
	idx := attachIndex(doc, stale)
	fm.Values.Set("message", forum.PlaceAttachments(body, files, func(_ int, a forum.Attachment) string {
		return "[attachment=" + idx[a.Name] + "]" + a.Name + "[/attachment]"
	}))
	return f.submitReply(ctx, fm, charset, f.now())
}

// attachIDs maps each INDEX of the form's attachment_data[INDEX][attach_id] fields to the id.
func attachIDs(v url.Values) map[string]string {
	out := map[string]string{}
	for k := range v {
		if i, ok := attachKey(k, "attach_id"); ok {
			out[i] = v.Get(k)
		}
	}
	return out
}

// attachKey reads "attachment_data[INDEX][field]": INDEX.
func attachKey(name, field string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "attachment_data[")
	if !ok || !strings.HasSuffix(rest, "]["+field+"]") {
		return "", false
	}
	i := strings.TrimSuffix(rest, "]["+field+"]")
	if _, err := strconv.Atoi(i); err != nil {
		return "", false
	}
	return i, true
}

// dropAttachment removes the file at INDEX from the form (its data and its comment).
func dropAttachment(v url.Values, index string) {
	for k := range v {
		if strings.HasPrefix(k, "attachment_data["+index+"][") || k == "comment_list["+index+"]" {
			v.Del(k)
		}
	}
}

// attachIndex maps the file names the form carries (attachment_data[INDEX][real_filename]) to
// their INDEX, the number phpBB's [attachment=INDEX] names, leaving out the stale attach ids. A
// name carried twice keeps the newest upload (phpBB puts a new file at index 0).
func attachIndex(doc *goquery.Document, stale map[string]bool) map[string]string {
	ids := map[string]string{}
	doc.Find(`form#postform input[type="hidden"][name^="attachment_data["]`).Each(func(_ int, s *goquery.Selection) {
		if i, ok := attachKey(s.AttrOr("name", ""), "attach_id"); ok {
			ids[i] = s.AttrOr("value", "")
		}
	})
	out := map[string]string{}
	doc.Find(`form#postform input[type="hidden"][name^="attachment_data["]`).Each(func(_ int, s *goquery.Selection) {
		i, ok := attachKey(s.AttrOr("name", ""), "real_filename")
		if !ok || stale[ids[i]] {
			return
		}
		fn := s.AttrOr("value", "")
		if cur, seen := out[fn]; !seen || forum.IDLess(i, cur) {
			out[fn] = i
		}
	})
	return out
}

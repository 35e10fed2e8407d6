package smf

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"forumgm/forum"
	"forumgm/forum/web"
)

// defaultMaxAttachmentSize is SMF 2.1's default attachmentSizeLimit (128 KB; the captured reply
// form says "maximum individual size 128 KB" and MAX_FILE_SIZE 131072);
// Extra["max_attachment_size"] (bytes) overrides it.
const defaultMaxAttachmentSize = 131072

// attachmentTypes are the image extensions among SMF 2.1's default attachmentExtensions
// (doc,gif,jpg,mpg,pdf,png,txt,zip).
var attachmentTypes = []string{"gif", "jpg", "png"}

// attachSettings reads Extra["attachments"] (on/off) and Extra["max_attachment_size"] (bytes).
func attachSettings(extra map[string]string) (bool, int64, error) {
	on := true
	switch strings.ToLower(strings.TrimSpace(extra["attachments"])) {
	case "", "on", "yes", "true":
	case "off", "no", "false":
		on = false
	default:
		return false, 0, fmt.Errorf("smf: bad attachments %q (on or off)", extra["attachments"])
	}
	max := int64(defaultMaxAttachmentSize)
	if s := extra["max_attachment_size"]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return false, 0, fmt.Errorf("smf: bad max_attachment_size %q (bytes)", s)
		}
		max = n
	}
	return on, max, nil
}

// reAttachError is SMF's refusal of a file on a re-shown post form: "You cannot upload that type
// of file…" (cant_upload_type), "Your file is too large…" (file_too_big), "Error uploading
// attachments." (attach_error_title), the per-post limits, no permission to post attachments;
// English and Russian.
var reAttachError = regexp.MustCompile(`(?i)attach|upload|file|вложени|файл`)

// ReplyWithAttachments posts body to topic t with files attached, the way SMF 2.1's full post
// form sends them without JavaScript: one multipart/form-data POST to action=post2 with the files
// in the form's "attachment[]" field (the field and enctype of the captured reply form
// 20-reply-form.gm-bot.html) and every other field replayed as Reply does. SMF stores the files
// with the new post and shows them under its text. SMF's inline [attach id=N] needs the ids of
// files uploaded beforehand (its drag-and-drop upload, action=uploadAttach, not captured), so the
// body's placeholders are removed and the pictures show under the post. Errors are acted on as
// Reply does (session, logged out, new replies while typing: a fresh form each time). A file SMF refuses (type, size, per-post limits,
// no permission) is forum.ErrAttachmentRefused; SMF takes the files and the post in one request,
// so there is no upload without its post.
func (f *Forum) ReplyWithAttachments(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	if len(files) == 0 {
		return f.Reply(ctx, t, body)
	}
	if _, err := strconv.Atoi(t.ID); err != nil {
		return "", false, fmt.Errorf("smf: topic id %q is not a number", t.ID)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	body = forum.PlaceAttachments(body, files, func(int, forum.Attachment) string { return "" })
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyAttachAttempt(ctx, t, body, files) })
}

func (f *Forum) replyAttachAttempt(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	page, doc, err := f.fetch(ctx, f.u("action=post;topic="+t.ID+".0"), nil, "", true)
	if err != nil {
		return "", false, err
	}
	fs := doc.Find("form#postmodify").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok || fs.Find("textarea[name='message']").Length() == 0 {
		return "", false, fmt.Errorf("smf: no post form on %s: %w", page.URL, forum.ErrMarkupChanged)
	}
	if fs.Find(`input[type="file"][name="attachment[]"]`).Length() == 0 {
		return "", false, fmt.Errorf("smf: the post form has no attachment field (attachments off for the bot here?): %w", forum.ErrAttachmentRefused)
	}
	vals := web.Replay{Submit: "post", TrimTextarea: true}.Values(fs)
	vals.Set("message", body)
	lastMsg := vals.Get("last_msg")
	var ff []forum.FormFile
	for _, a := range files {
		ff = append(ff, forum.FormFile{Field: "attachment[]", Name: a.Name, ContentType: a.ContentType, Data: a.Data})
	}
	p, err := f.board.Client.PostMultipart(ctx, action, vals, ff, web.Charset(fs, page))
	if p == nil || p.Body == nil {
		if err == nil {
			err = fmt.Errorf("smf: %s: empty answer", action)
		}
		return "", false, err
	}
	rdoc, derr := p.Doc()
	if derr != nil {
		return "", false, derr
	}
	if perr := checkError(rdoc, p.Status); perr != nil {
		var pe *pageError
		if errors.As(perr, &pe) && (pe.Kind == nil || errors.Is(perr, forum.ErrNoPermission)) && reAttachError.MatchString(pe.Msg) {
			return "", false, fmt.Errorf("smf: %w: %w", perr, forum.ErrAttachmentRefused)
		}
		return "", false, perr
	}
	if err != nil {
		return "", false, err
	}
	if id, _, _ := session(rdoc); id > 0 {
		f.memberID.Store(int64(id))
	}
	if rdoc.Find("form#postmodify textarea[name='message']").Length() > 0 {
		return "", false, fmt.Errorf("smf: the post form came back without a recognised error at %s", p.URL)
	}
	return f.findNewPost(ctx, t, rdoc, body, lastMsg)
}

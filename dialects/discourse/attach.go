package discourse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"forumgm/forum"
)

// DefaultMaxAttachmentSize is Discourse's default max_image_size_kb (4096 KB);
// Extra["max_attachment_size"] (bytes) overrides it.
const DefaultMaxAttachmentSize = 4096 * 1024

// attachmentTypes are Discourse's default authorized_extensions.
var attachmentTypes = []string{"avif", "gif", "heic", "heif", "jpeg", "jpg", "png", "svg", "webp"}

// attachCaps reads Extra "attachments" (on, the default, or off) and "max_attachment_size".
func attachCaps(extra map[string]string) (on bool, max int64, err error) {
	switch strings.ToLower(strings.TrimSpace(extra["attachments"])) {
	case "", "on", "yes", "true":
		on = true
	case "off", "no", "false":
	default:
		return false, 0, fmt.Errorf("discourse: bad attachments %q (on or off)", extra["attachments"])
	}
	max = DefaultMaxAttachmentSize
	if s := extra["max_attachment_size"]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return false, 0, fmt.Errorf("discourse: bad max_attachment_size %q (bytes)", s)
		}
		max = n
	}
	return on, max, nil
}

// upload is the answer of POST /uploads.json (UploadSerializer).
type upload struct {
	ID               int    `json:"id"`
	URL              string `json:"url"`
	ShortURL         string `json:"short_url"`
	OriginalFilename string `json:"original_filename"`
	Width            int    `json:"width"`
	Height           int    `json:"height"`
	HumanFilesize    string `json:"human_filesize"`
}

// markup is how a raw post shows the upload, as Discourse's composer writes it: a picture
// ![name|WxH](upload://…), any other file [name|attachment](upload://…) (size).
func (u upload) markup(name string) string {
	ref := u.ShortURL
	if ref == "" {
		ref = u.URL
	}
	name = strings.NewReplacer("[", "(", "]", ")", "|", "/", "\n", " ").Replace(name)
	if u.Width > 0 && u.Height > 0 {
		return fmt.Sprintf("![%s|%dx%d](%s)", name, u.Width, u.Height, ref)
	}
	if u.HumanFilesize != "" {
		return fmt.Sprintf("[%s|attachment](%s) (%s)", name, ref, u.HumanFilesize)
	}
	return fmt.Sprintf("[%s|attachment](%s)", name, ref)
}

// ReplyWithAttachments uploads each file (POST /uploads.json, multipart: file, upload_type and
// type "composer", synchronous), then replies with the body whose placeholders are replaced by
// each upload's markup (files without one go on top, forum.PlaceAttachments). A file Discourse
// refuses (an extension it does not authorise, a file too large: HTTP 422 or 413) is
// forum.ErrAttachmentRefused before anything is posted. The uploads are made once per call: a
// reply refused for flood control is sent again with them; an upload whose reply never went
// through is shown nowhere, and Discourse's clean-up job deletes it after a while.
func (f *Forum) ReplyWithAttachments(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (string, bool, error) {
	if len(files) > 0 {
		f.mu.Lock()
		if !f.attach {
			f.mu.Unlock()
			return "", false, fmt.Errorf("discourse: attachments are off (extra attachments): %w", forum.ErrAttachmentRefused)
		}
		ups := make([]upload, len(files))
		for i, a := range files {
			u, err := f.uploadRetry(ctx, a)
			if err != nil {
				f.mu.Unlock()
				return "", false, err
			}
			ups[i] = u
		}
		f.mu.Unlock()
		body = forum.PlaceAttachments(body, files, func(i int, a forum.Attachment) string { return ups[i].markup(a.Name) })
	}
	return f.Reply(ctx, t, body)
}

// uploadRetry uploads a, logging in first, and again when the session turned out to be gone or
// its token stale.
func (f *Forum) uploadRetry(ctx context.Context, a forum.Attachment) (upload, error) {
	var u upload
	if err := f.ensureLogin(ctx); err != nil {
		return u, err
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		u, err = f.uploadOnce(ctx, a)
		switch {
		case errors.Is(err, forum.ErrLoggedOut):
			if lerr := f.login(ctx); lerr != nil {
				return u, lerr
			}
		case errors.Is(err, errBadCSRF):
		default:
			return u, err
		}
	}
	return u, err
}

func (f *Forum) uploadOnce(ctx context.Context, a forum.Attachment) (upload, error) {
	var u upload
	extra, err := f.writeHeader(ctx)
	if err != nil {
		return u, err
	}
	form := url.Values{"type": {"composer"}, "upload_type": {"composer"}, "synchronous": {"true"}}
	p, err := f.c.SendMultipart(ctx, f.abs("uploads.json"), form,
		[]forum.FormFile{{Field: "file", Name: a.Name, ContentType: a.ContentType, Data: a.Data}}, "utf-8", f.header(extra))
	if err != nil {
		if p != nil && (p.Status == 413 || p.Status == 422) {
			msg := fmt.Sprintf("HTTP %d", p.Status)
			if e, ok := parseErr(p.Raw); ok {
				msg = e
			}
			return u, fmt.Errorf("discourse: upload %q: %q: %w", a.Name, msg, forum.ErrAttachmentRefused)
		}
		err = f.typed(p, err)
		if errors.Is(err, errBadCSRF) {
			f.csrf = ""
		}
		return u, fmt.Errorf("discourse: upload %q: %w", a.Name, err)
	}
	if err := json.Unmarshal(p.Body, &u); err != nil || (u.ShortURL == "" && u.URL == "") {
		return u, fmt.Errorf("discourse: upload %q: uploads.json answered no upload: %w", a.Name, forum.ErrMarkupChanged)
	}
	return u, nil
}

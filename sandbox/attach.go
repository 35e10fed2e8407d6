package sandbox

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Attachments work as on a fresh MyBB 1.8 (newreply.php, attachment.php, the default attachment
// types): the reply form's "attachments[]" file field with the "Add Attachment" button
// (newattachment) stores the files under the form's posthash and shows the form again listing
// each (<tr id="attachment_AID">, its [attachment=AID] insert button); "Post Reply" binds the
// posthash's files to the new post (or to the post a reply was merged into). In a post,
// [attachment=AID] of one of its own files becomes the picture, linked to attachment.php?aid=AID
// which serves the file; files the text does not place are listed under the post, as MyBB does.
// A file the uploader has not posted yet is served to the uploader only.

// MaxAttachmentSize is the largest file the sandbox takes (MyBB's default for images: 500 KB).
const MaxAttachmentSize = 500 * 1024

// attachTypes are the types the sandbox takes, by extension (MyBB's default image types).
var attachTypes = map[string]string{"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif"}

const attachSchema = `
CREATE TABLE IF NOT EXISTS attachments(
	aid INTEGER PRIMARY KEY,
	pid INTEGER NOT NULL DEFAULT 0,
	posthash TEXT NOT NULL,
	uid INTEGER NOT NULL,
	filename TEXT NOT NULL,
	filetype TEXT NOT NULL,
	filesize INTEGER NOT NULL,
	data BLOB NOT NULL,
	dateuploaded INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS attachments_pid ON attachments(pid);
CREATE INDEX IF NOT EXISTS attachments_posthash ON attachments(posthash);
`

// StoredAttachment is a file as the sandbox stores it (for tests).
type StoredAttachment struct {
	AID, PID int
	Name     string
	Type     string
	Data     []byte
}

type attachRow struct {
	AID      int
	Filename string
	Size     string
}

// addAttachments stores the uploaded files of a reply form under posthash; the refusals are
// MyBB's error texts.
func (s *Server) addAttachments(ctx context.Context, uid int, posthash string, files []*multipart.FileHeader) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []string
	for _, fh := range files {
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(fh.Filename), "."))
		typ, ok := attachTypes[ext]
		if !ok {
			errs = append(errs, "The type of file that you attached is not allowed. Please remove the attachment or choose a different type.")
			continue
		}
		if fh.Size > MaxAttachmentSize {
			errs = append(errs, fmt.Sprintf("The file %q is too large. The maximum size for that type of file is %d kilobytes.", fh.Filename, MaxAttachmentSize/1024))
			continue
		}
		f, err := fh.Open()
		if err != nil {
			errs = append(errs, "The file upload failed. Please choose a valid file and try again.")
			continue
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || len(data) == 0 {
			errs = append(errs, "The file upload failed. Please choose a valid file and try again.")
			continue
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO attachments(posthash, uid, filename, filetype, filesize, data, dateuploaded) VALUES(?,?,?,?,?,?,?)`,
			posthash, uid, fh.Filename, typ, len(data), data, s.Now().Unix()); err != nil {
			errs = append(errs, "The file upload failed. Please choose a valid file and try again.")
		}
	}
	return errs
}

// pendingAttachments lists the files uid uploaded under posthash and not yet posted.
func (s *Server) pendingAttachments(ctx context.Context, uid int, posthash string) ([]attachRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT aid, filename, filesize FROM attachments WHERE posthash = ? AND uid = ? AND pid = 0 ORDER BY aid`, posthash, uid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []attachRow
	for rows.Next() {
		var a attachRow
		var size int
		if err := rows.Scan(&a.AID, &a.Filename, &size); err != nil {
			return nil, err
		}
		a.Size = friendlySize(size)
		out = append(out, a)
	}
	return out, rows.Err()
}

// bindAttachments gives the files uid uploaded under posthash to post pid.
func (s *Server) bindAttachments(ctx context.Context, uid int, posthash string, pid int) error {
	if posthash == "" {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `UPDATE attachments SET pid = ? WHERE posthash = ? AND uid = ? AND pid = 0`, pid, posthash, uid)
	return err
}

// Attachments lists the files of post pid, in upload order.
func (s *Server) Attachments(ctx context.Context, pid int) ([]StoredAttachment, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT aid, pid, filename, filetype, data FROM attachments WHERE pid = ? ORDER BY aid`, pid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredAttachment
	for rows.Next() {
		var a StoredAttachment
		if err := rows.Scan(&a.AID, &a.PID, &a.Name, &a.Type, &a.Data); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AllAttachments counts every stored file, posted or not (tests: an orphan upload).
func (s *Server) AllAttachments(ctx context.Context) (posted, pending int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(CASE WHEN pid > 0 THEN 1 END), COUNT(CASE WHEN pid = 0 THEN 1 END) FROM attachments`).Scan(&posted, &pending)
	return posted, pending, err
}

func friendlySize(n int) string {
	switch {
	case n >= 1024*1024:
		return fmt.Sprintf("%.2f MB", float64(n)/1024/1024)
	case n >= 1024:
		return fmt.Sprintf("%.2f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// placeAttachments puts a post's pictures where its rendered body says [attachment=AID] (the
// post's own files only, as MyBB does) and returns the list of the others, shown under the post.
func (q *req) placeAttachments(pid int, body string) (string, template.HTML) {
	atts, err := q.s.Attachments(q.ctx, pid)
	if err != nil || len(atts) == 0 {
		return body, ""
	}
	var rest strings.Builder
	for _, a := range atts {
		tag := "[attachment=" + strconv.Itoa(a.AID) + "]"
		name := template.HTMLEscapeString(a.Name)
		if strings.Contains(body, tag) {
			img := fmt.Sprintf(`<a href="attachment.php?aid=%d" target="_blank"><img src="attachment.php?aid=%d" class="attachment" alt="" title="Filename: %s&#13;Size: %s" /></a>&nbsp;&nbsp;&nbsp;`,
				a.AID, a.AID, name, friendlySize(len(a.Data)))
			body = strings.ReplaceAll(body, tag, img)
			continue
		}
		fmt.Fprintf(&rest, `<br /><img src="images/attachtypes/image.png" title="%s" border="0" alt=".%s" />&nbsp;&nbsp;<a href="attachment.php?aid=%d" target="_blank">%s</a> (Size: %s)`,
			template.HTMLEscapeString(a.Type), path.Ext(a.Name), a.AID, name, friendlySize(len(a.Data)))
	}
	if rest.Len() == 0 {
		return body, ""
	}
	return body, template.HTML(`<br />
<br />
<fieldset>
<legend><strong>Attached Files</strong></legend>
` + rest.String() + `
</fieldset>
`)
}

// attachment is attachment.php: ?aid=N (or ?thumbnail=N; the sandbox makes no thumbnails) serves
// the file inline with its type. A file not yet posted is served to its uploader only.
func (q *req) attachment() {
	aid := q.inInt("aid")
	if aid == 0 {
		aid = q.inInt("thumbnail")
	}
	var pid, uid int
	var name, typ string
	var data []byte
	err := q.s.db.QueryRowContext(q.ctx, `SELECT pid, uid, filename, filetype, data FROM attachments WHERE aid = ?`, aid).Scan(&pid, &uid, &name, &typ, &data)
	if err != nil || (pid == 0 && (q.user == nil || q.user.UID != uid)) {
		q.errorPage("The specified attachment does not exist.")
		return
	}
	h := q.w.Header()
	h.Set("Content-Type", typ)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	h.Set("X-Content-Type-Options", "nosniff")
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method != http.MethodHead {
		_, _ = q.w.Write(data)
	}
}

// uploads are the files of the request's "attachments[]" field.
func (q *req) uploads() []*multipart.FileHeader {
	if q.r.MultipartForm == nil {
		return nil
	}
	return slices.Clone(q.r.MultipartForm.File["attachments[]"])
}

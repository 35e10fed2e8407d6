package sandbox

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"forumgm/internal/testkit"
)

var pngData = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRfield")

// formValues reads the full reply form of a page the way a browser submits it (hidden and text
// fields; the textarea).
func formValues(t *testing.T, page string) url.Values {
	d := doc(t, page)
	v := url.Values{}
	d.Find(`form[name=input] input[type=hidden], form[name=input] input[type=text]`).Each(func(_ int, s *goquery.Selection) {
		v.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	v.Set("message", d.Find(`form[name=input] textarea[name=message]`).Text())
	return v
}

// postMultipart posts v and the files (field attachments[]) to path.
func (c *client) postMultipart(path string, v url.Values, files map[string][]byte) (*http.Response, string) {
	c.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, vs := range v {
		for _, x := range vs {
			w.WriteField(k, x)
		}
	}
	for name, data := range files {
		fw, _ := w.CreateFormFile("attachments[]", name)
		fw.Write(data)
	}
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, c.base+"/"+path, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.do(req)
}

// TestAttachmentFlow: "Add Attachment" keeps the posthash and lists the file with its aid;
// "Post Reply" with [attachment=AID] shows the picture in the post, linked to attachment.php,
// which serves the bytes to anyone; a file not placed in the text is listed under the post; a
// file never posted is served to its uploader only; a type MyBB refuses is refused.
func TestAttachmentFlow(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, true, clock, nil)
	c := newClient(t, base)
	if _, ok := c.login("Джелу", "DzheluPass1"); !ok {
		t.Fatal("login")
	}
	_, page := c.get("newreply.php?tid=1")
	v := formValues(t, page)
	hash := v.Get("posthash")
	if doc(t, page).Find(`input[type=file][name="attachments[]"]`).Length() != 1 || doc(t, page).Find(`input[name=newattachment]`).Length() != 1 {
		t.Fatal("the reply form has no upload field")
	}
	v.Set("message", "Поле после хода")
	v.Set("newattachment", "Add Attachment")
	_, page = c.postMultipart("newreply.php?tid=1&processed=1", v, map[string][]byte{"round-1.png": pngData, "legend.png": []byte("\x89PNGlegend")})
	d := doc(t, page)
	if got := d.Find(`input[name=posthash]`).AttrOr("value", ""); got != hash {
		t.Fatalf("posthash %q after the upload, want %q", got, hash)
	}
	if d.Find(`textarea[name=message]`).Text() != "Поле после хода" {
		t.Errorf("the message was not kept: %q", d.Find(`textarea[name=message]`).Text())
	}
	aids := map[string]string{}
	d.Find(`tr[id^="attachment_"]`).Each(func(_ int, tr *goquery.Selection) {
		aids[tr.Find(".attachment_filename").Text()] = strings.TrimPrefix(tr.AttrOr("id", ""), "attachment_")
	})
	if len(aids) != 2 || aids["round-1.png"] == "" {
		t.Fatalf("listed after the upload: %v", aids)
	}
	aid := aids["round-1.png"]
	// The uploader may see a file not yet posted; a guest may not.
	if resp, body := c.get("attachment.php?aid=" + aid); resp.StatusCode != 200 || body != string(pngData) {
		t.Errorf("uploader: %s %q", resp.Status, body)
	}
	guest := newClient(t, base)
	if _, body := guest.get("attachment.php?aid=" + aid); body == string(pngData) {
		t.Error("a guest sees a file not yet posted")
	}

	v = formValues(t, page)
	v.Set("message", "Поле после хода\n[attachment="+aid+"]\nПозиции: в1 C4")
	v.Set("submit", "Post Reply")
	_, body := c.postForm("newreply.php?tid=1&processed=1", v)
	m := reRefreshPID.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no redirect after posting:\n%s", body)
	}
	pid, _ := strconv.Atoi(m[2])
	atts, err := s.Attachments(t.Context(), pid)
	if err != nil || len(atts) != 2 {
		t.Fatalf("post %d has %d attachments (%v)", pid, len(atts), err)
	}
	_, page = guest.get("showthread.php?tid=1&pid=" + m[2])
	post := doc(t, page).Find("#post_" + m[2])
	img := post.Find(`#pid_` + m[2] + ` a[href="attachment.php?aid=` + aid + `"] img.attachment`)
	if img.Length() != 1 || img.AttrOr("src", "") != "attachment.php?aid="+aid {
		t.Fatalf("no inline picture in the post:\n%s", post.Text())
	}
	if strings.Contains(post.Find("#pid_"+m[2]).Text(), "[attachment=") {
		t.Error("the tag is left in the text")
	}
	if post.Find(`fieldset a[href="attachment.php?aid=`+aids["legend.png"]+`"]`).Text() != "legend.png" {
		t.Error("the unplaced file is not listed under the post")
	}
	resp, got := guest.get("attachment.php?aid=" + aid)
	if resp.StatusCode != 200 || got != string(pngData) || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("attachment.php: %s %s %d bytes", resp.Status, resp.Header.Get("Content-Type"), len(got))
	}

	// A refused type: the form comes back with MyBB's error, nothing is stored.
	_, page = c.get("newreply.php?tid=1")
	v = formValues(t, page)
	v.Set("message", "x")
	v.Set("newattachment", "Add Attachment")
	_, page = c.postMultipart("newreply.php?tid=1&processed=1", v, map[string][]byte{"virus.exe": []byte("MZ")})
	mustContain(t, "refused type", page, "The type of file that you attached is not allowed.")
	if posted, pending, _ := s.AllAttachments(t.Context()); posted != 2 || pending != 0 {
		t.Errorf("%d posted, %d pending attachments; want 2, 0", posted, pending)
	}
}

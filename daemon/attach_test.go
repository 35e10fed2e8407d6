package daemon

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/media"

	"forumgm/referee"
)

// picPNG stands for a picture of the field (the bytes matter, not the image).
var picPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR-field-of-round-1")

func picFactory(pic forum.Attachment) func() (*referee.Referee, error) {
	return fakeWith(func(f *fakeRules) { f.pic = &pic })
}

var field = forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: picPNG}

var reAttachTag = regexp.MustCompile(`\[attachment=(\d+)\]`)

// reportPost finds the bot's post holding the report: its pid and raw text.
func (r *rig) reportPost(t *testing.T) (int, string) {
	t.Helper()
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	pid, text, n := 0, "", 0
	for _, p := range posts {
		if p.Author == "gm-bot" && strings.Contains(p.Message, "Отчёт раунда.") {
			pid, text = p.PID, p.Message
			n += strings.Count(p.Message, "Отчёт раунда.")
		}
	}
	if n != 1 {
		t.Fatalf("%d reports in the thread, want 1", n)
	}
	return pid, text
}

// TestReportPictureAttachedThroughMyBB: a report with a PNG goes through the MyBB dialect's
// upload to the sandbox; the thread page shows the picture in the bot's post, linked to
// attachment.php, which serves the same bytes; the text list stands beside it.
func TestReportPictureAttachedThroughMyBB(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, picFactory(field))
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	assertExactlyOnce(t, r)
	pid, text := r.reportPost(t)
	m := reAttachTag.FindStringSubmatch(text)
	if m == nil || !strings.Contains(text, "Позиции: Ход 1 принят") || strings.Contains(text, forum.Placeholder(field.Name)) {
		t.Fatalf("report text:\n%s", text)
	}
	atts, err := r.board.Attachments(r.ctx, pid)
	if err != nil || len(atts) != 1 || !bytes.Equal(atts[0].Data, picPNG) || atts[0].Name != field.Name {
		t.Fatalf("post %d attachments: %+v %v", pid, atts, err)
	}
	// As a reader sees it: the thread page, the picture, its bytes.
	page := httpGet(t, r.url+"/showthread.php?tid=1&pid="+strconv.Itoa(pid))
	src := `<img src="attachment.php?aid=` + m[1] + `" class="attachment"`
	if !strings.Contains(page, `<a href="attachment.php?aid=`+m[1]+`" target="_blank">`+src) {
		t.Fatalf("the thread page does not show the picture (%s)", src)
	}
	if got := httpGet(t, r.url+"/attachment.php?aid="+m[1]); got != string(picPNG) {
		t.Errorf("attachment.php served %q", got)
	}
	if posted, pending, _ := r.board.AllAttachments(r.ctx); posted != 1 || pending != 0 {
		t.Errorf("%d posted, %d pending uploads; want 1, 0", posted, pending)
	}
}

// crashTransport panics (the process "dies") instead of sending the reply form's "Post Reply"
// POST once armed: the upload went through, the post never left.
type crashTransport struct {
	armed *bool
	next  http.RoundTripper
}

var errCrash = errors.New("crash")

func (c crashTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if *c.armed && req.Method == http.MethodPost && strings.HasPrefix(req.URL.Path, "/newreply.php") {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte(`name="newattachment"`)) {
			panic(errCrash)
		}
	}
	return c.next.RoundTrip(req)
}

// TestReportPictureExactlyOnceAcrossCrashes: a crash between the upload and the post leaves an
// unattached upload (never shown) and, after the restart, one report with one picture; a crash
// after the post landed (before it was marked posted) neither posts nor uploads again.
func TestReportPictureExactlyOnceAcrossCrashes(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, picFactory(field))
	armed := false
	fo, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: crashTransport{&armed, http.DefaultTransport}})))
	if err != nil {
		t.Fatal(err)
	}
	r.fo = fo
	r.d = r.newDaemon(t, picFactory(field))
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	armed = true
	crashCycle(t, r)
	if posted, pending, _ := r.board.AllAttachments(r.ctx); posted != 0 || pending != 1 {
		t.Fatalf("after the crash: %d posted, %d pending uploads; want 0, 1", posted, pending)
	}
	armed = false
	r.d = r.newDaemon(t, picFactory(field))
	r.cycle(t)
	assertExactlyOnce(t, r)
	pid, _ := r.reportPost(t)
	if atts, _ := r.board.Attachments(r.ctx, pid); len(atts) != 1 {
		t.Errorf("the report has %d attachments, want 1", len(atts))
	}
	if posted, pending, _ := r.board.AllAttachments(r.ctx); posted != 1 || pending != 1 {
		t.Errorf("%d posted, %d pending uploads; want 1 and the orphan 1", posted, pending)
	}

	// Crash after the post landed: found by its marker, nothing posted or uploaded again.
	r.post(t, "snovaya", "2-й ход сарацина н1 на G5")
	r.d.o.Hook = func(step string) {
		if step == "sent" {
			panic(errCrash)
		}
	}
	crashCycle(t, r)
	r.d = r.newDaemon(t, picFactory(field))
	r.cycle(t)
	assertExactlyOnce(t, r)
	if !strings.Contains(r.log.String(), "already on the forum") {
		t.Error("the poster did not find the marker")
	}
	if posted, pending, _ := r.board.AllAttachments(r.ctx); posted != 2 || pending != 1 {
		t.Errorf("%d posted, %d pending uploads; want 2, 1", posted, pending)
	}
}

func crashCycle(t *testing.T, r *rig) {
	t.Helper()
	defer func() {
		if p := recover(); p != errCrash {
			t.Fatalf("want the simulated crash, got %v", p)
		}
	}()
	r.clock.Advance(time.Minute)
	_, _ = r.d.Cycle(r.ctx)
}

// TestReportPictureServedWhenNoAttachments: a forum without attachments (MyBB with attachments
// off) gets the picture from forumgm's folder: written once by content hash, linked with [img] at
// the public URL where the placeholder was, served there; the text list stands.
func TestReportPictureServedWhenNoAttachments(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, picFactory(field))
	dir := filepath.Join(r.dir, "pictures")
	srv := httptest.NewServer(http.StripPrefix("/pics", media.Handler(dir)))
	defer srv.Close()
	files, err := media.New(dir, srv.URL+"/pics/")
	if err != nil {
		t.Fatal(err)
	}
	r.fo = offForum(t, r)
	r.d = r.newDaemon(t, picFactory(field), func(o *Options) { o.Files = files })
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	assertExactlyOnce(t, r)
	pid, text := r.reportPost(t)
	url := srv.URL + "/pics/" + media.Name(forum.Attachment(field))
	if want := "Отчёт раунда.\n[img]" + url + "[/img]\nПозиции: Ход 1 принят"; !strings.HasPrefix(text, want) {
		t.Fatalf("report:\n%s\nwant it to start with\n%s", text, want)
	}
	if atts, _ := r.board.Attachments(r.ctx, pid); len(atts) != 0 {
		t.Errorf("%d attachments on a forum without them", len(atts))
	}
	if got := httpGet(t, url); got != string(picPNG) {
		t.Errorf("the public URL served %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the folder, want 1", len(entries))
	}
	page := httpGet(t, r.url+"/showthread.php?tid=1&pid="+strconv.Itoa(pid))
	if !strings.Contains(page, `<img src="`+url+`" loading="lazy"`) {
		t.Error("the thread page does not show the picture")
	}
}

// TestReportPictureDroppedWithoutPublicURL: no attachments and no public URL: the placeholder
// goes, the text stands, and it is logged once for two reports.
func TestReportPictureDroppedWithoutPublicURL(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, picFactory(field))
	r.fo = offForum(t, r)
	r.d = r.newDaemon(t, picFactory(field))
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	r.post(t, "snovaya", "2-й ход сарацина н1 на G5")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	assertExactlyOnce(t, r)
	reports := 0
	for _, text := range r.botTexts(t) {
		if strings.Contains(text, "Отчёт раунда.") {
			reports++
			if strings.Contains(text, "[attachment=") || strings.Contains(text, "[img]") || !strings.Contains(text, "Позиции: Ход") {
				t.Errorf("report:\n%s", text)
			}
		}
	}
	if reports != 2 {
		t.Fatalf("%d reports, want 2", reports)
	}
	if n := strings.Count(r.log.String(), "pictures are left out"); n != 1 {
		t.Errorf("logged %d times, want once", n)
	}
}

// TestRefusedAttachmentIsLinked: a file the dialect would take but the board refuses (larger
// than the sandbox's 500 KB) is linked from forumgm's folder instead; one report, no upload kept.
func TestRefusedAttachmentIsLinked(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	big := forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: append(append([]byte{}, picPNG...), make([]byte, 600*1024)...)}
	r := newRig(t, start, picFactory(big))
	files, err := media.New(filepath.Join(r.dir, "pictures"), "https://example.org/pics/")
	if err != nil {
		t.Fatal(err)
	}
	fo, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now,
		Extra: map[string]string{"max_attachment_size": "2000000"}},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000})))
	if err != nil {
		t.Fatal(err)
	}
	r.fo = fo
	r.d = r.newDaemon(t, picFactory(big), func(o *Options) { o.Files = files })
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	assertExactlyOnce(t, r)
	_, text := r.reportPost(t)
	if !strings.Contains(text, "[img]https://example.org/pics/"+media.Name(forum.Attachment(big))+"[/img]") {
		t.Fatalf("report:\n%s", text)
	}
	if posted, pending, _ := r.board.AllAttachments(r.ctx); posted+pending != 0 {
		t.Errorf("%d posted, %d pending uploads; want none", posted, pending)
	}
	if !strings.Contains(r.log.String(), "refused an attachment") {
		t.Error("the refusal is not logged")
	}
}

func offForum(t *testing.T, r *rig) forum.Forum {
	fo, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now,
		Extra: map[string]string{"attachments": "off"}},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000})))
	if err != nil {
		t.Fatal(err)
	}
	return fo
}

func httpGet(t *testing.T, url string) string {
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
	return string(b)
}

// TestReportPictureFullSizeLink: a forum that takes the picture as an attachment shows a
// thumbnail that guests often may not open; with a media server the post also links the picture
// in full size at the media server's address, which a guest opens.
func TestReportPictureFullSizeLink(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, picFactory(field))
	dir := filepath.Join(r.dir, "pictures")
	srv := httptest.NewServer(http.StripPrefix("/pics", media.Handler(dir)))
	defer srv.Close()
	files, err := media.New(dir, srv.URL+"/pics/")
	if err != nil {
		t.Fatal(err)
	}
	r.d = r.newDaemon(t, picFactory(field), func(o *Options) { o.Files = files })
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	assertExactlyOnce(t, r)
	pid, text := r.reportPost(t)
	url := srv.URL + "/pics/" + media.Name(forum.Attachment(field))
	if !reAttachTag.MatchString(text) || !strings.Contains(text, "[url="+url+"]Картинка в полном размере[/url]") {
		t.Fatalf("report:\n%s", text)
	}
	if atts, _ := r.board.Attachments(r.ctx, pid); len(atts) != 1 {
		t.Errorf("%d attachments, want the picture attached", len(atts))
	}
	if got := httpGet(t, url); got != string(picPNG) {
		t.Errorf("the full-size link served %q", got)
	}
}

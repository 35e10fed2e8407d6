package forum

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

func TestCapabilitiesTakes(t *testing.T) {
	png := Attachment{Name: "round-1.PNG", ContentType: "image/png", Data: make([]byte, 1000)}
	for _, c := range []struct {
		name string
		caps Capabilities
		a    Attachment
		want bool
	}{
		{"no attachments", Capabilities{MaxAttachmentSize: 1 << 20}, png, false},
		{"any size, any type", Capabilities{Attachments: true}, png, true},
		{"fits", Capabilities{Attachments: true, MaxAttachmentSize: 1000, AttachmentTypes: []string{"gif", "png"}}, png, true},
		{"one byte too big", Capabilities{Attachments: true, MaxAttachmentSize: 999}, png, false},
		{"type not allowed", Capabilities{Attachments: true, AttachmentTypes: []string{"jpg"}}, png, false},
		{"no extension", Capabilities{Attachments: true, AttachmentTypes: []string{"png"}}, Attachment{Name: "field", Data: []byte{1}}, false},
		{"empty file", Capabilities{Attachments: true}, Attachment{Name: "a.png"}, false},
	} {
		if got := c.caps.Takes(c.a); got != c.want {
			t.Errorf("%s: Takes = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPlaceAttachments(t *testing.T) {
	files := []Attachment{{Name: "a.png"}, {Name: "b.png"}}
	img := func(i int, a Attachment) string { return "[img]" + a.Name + "[/img]" }
	none := func(int, Attachment) string { return "" }
	for _, c := range []struct {
		name, body string
		markup     func(int, Attachment) string
		want       string
	}{
		{"no placeholders: on top, in order", "text", img, "[img]a.png[/img]\n[img]b.png[/img]\ntext"},
		{"placeholder used in place", "x\n[attachment=b.png]\ny", img, "[img]a.png[/img]\nx\n[img]b.png[/img]\ny"},
		{"every occurrence", "[attachment=a.png] [attachment=a.png] [attachment=b.png]", img, "[img]a.png[/img] [img]a.png[/img] [img]b.png[/img]"},
		{"dropped: placeholders removed, nothing on top", "x [attachment=a.png]", none, "x "},
		{"another name is left alone", "[attachment=c.png]", none, "[attachment=c.png]"},
	} {
		if got := PlaceAttachments(c.body, files, c.markup); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPostMultipart: values and the file name go in the board's charset, the file verbatim with
// its type; a 502 after the upload is ambiguous (never repeated).
func TestPostMultipart(t *testing.T) {
	data := []byte("\x89PNG\r\n\x1a\n\x00binary")
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Query().Get("fail") != "" {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			t.Errorf("parse: %v", err)
			return
		}
		dec := charmap.Windows1251.NewDecoder()
		msg, _ := dec.String(r.FormValue("message"))
		if msg != "Ход принят" || r.FormValue("posthash") != "abc" {
			t.Errorf("values: message %q posthash %q", msg, r.FormValue("posthash"))
		}
		fh := r.MultipartForm.File["attachments[]"]
		if len(fh) != 1 {
			t.Fatalf("%d files", len(fh))
		}
		name, _ := dec.String(fh[0].Filename)
		f, _ := fh[0].Open()
		got, _ := io.ReadAll(f)
		if name != "поле.png" || fh[0].Header.Get("Content-Type") != "image/png" || string(got) != string(data) {
			t.Errorf("file %q %q %q", name, fh[0].Header.Get("Content-Type"), got)
		}
		w.Header().Set("Content-Type", "text/html; charset=windows-1251")
		io.WriteString(w, "<html>ok</html>")
	}))
	defer srv.Close()
	c := fastClient()
	form := url.Values{"message": {"Ход принят"}, "posthash": {"abc"}}
	files := []FormFile{{Field: "attachments[]", Name: "поле.png", ContentType: "image/png", Data: data}}
	if _, err := c.PostMultipart(context.Background(), srv.URL, form, files, "windows-1251"); err != nil {
		t.Fatal(err)
	}
	calls = 0
	_, err := c.PostMultipart(context.Background(), srv.URL+"?fail=1", form, files, "windows-1251")
	if !errors.Is(err, ErrAmbiguous) || calls != 1 {
		t.Errorf("502: error %v after %d calls, want ErrAmbiguous after 1", err, calls)
	}
}

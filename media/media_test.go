package media

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/forum"
)

var png = forum.Attachment{Name: "Round-2.PNG", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfield")}

func TestPutNamesByContentOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pics")
	f, err := New(dir, "https://example.org/forumgm")
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.Put(png)
	if err != nil {
		t.Fatal(err)
	}
	name := Name(png)
	if !reName.MatchString(name) || !strings.HasSuffix(name, ".png") || u != "https://example.org/forumgm/"+name {
		t.Fatalf("name %q url %q", name, u)
	}
	if f.Img(png) != "[img]"+u+"[/img]" {
		t.Errorf("Img = %q", f.Img(png))
	}
	st1, _ := os.Stat(filepath.Join(dir, name))
	// Same bytes under another name: the same file, not rewritten.
	again := png
	again.Name = "copy.png"
	if u2, err := f.Put(again); err != nil || u2 != u {
		t.Fatalf("second put: %q %v", u2, err)
	}
	st2, _ := os.Stat(filepath.Join(dir, name))
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("the file was written again")
	}
	other := forum.Attachment{Name: "x", ContentType: "image/gif", Data: []byte("GIF89a")}
	if n := Name(other); n == name || !strings.HasSuffix(n, ".gif") {
		t.Errorf("other file named %q", n)
	}
	if n := Name(forum.Attachment{Name: "x", Data: []byte{1}}); !strings.HasSuffix(n, ".bin") {
		t.Errorf("typeless file named %q", n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder (temporary files left?)", len(entries))
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x/", "example.org/pics", "https:///pics"} {
		if _, err := New(t.TempDir(), u); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	if _, err := New("", "https://example.org/"); err == nil {
		t.Error("no folder accepted")
	}
}

func TestHandlerServesOnlyHashedNames(t *testing.T) {
	dir := t.TempDir()
	f, _ := New(dir, "https://example.org/p/")
	if _, err := f.Put(png); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("no"), 0o644)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/" + Name(png), 200},
		{"/p/" + Name(png), 200},
		{"/secret.txt", 404},
		{"/", 404},
		{"/../" + Name(png), 200}, // cleaned by the client to the file itself
		{"/" + strings.Repeat("0", 32) + ".png", 404},
	} {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.path, res.StatusCode, c.status)
		}
		if c.status == 200 && (string(b) != string(png.Data) || res.Header.Get("Content-Type") != "image/png") {
			t.Errorf("%s: %q %s", c.path, b, res.Header.Get("Content-Type"))
		}
	}
	res, _ := http.Post(srv.URL+"/"+Name(png), "text/plain", nil)
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", res.StatusCode)
	}
}

// The handler serves no symlink, whether it points out of the folder or into it, and Put
// replaces one squatting a picture's name with the picture (issue 19).
func TestHandlerRefusesSymlinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	secret := forum.Attachment{Name: "s.png", ContentType: "image/png", Data: []byte("secret outside the folder")}
	if err := os.WriteFile(filepath.Join(outside, Name(secret)), secret.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, Name(secret)), filepath.Join(dir, Name(secret))); err != nil {
		t.Fatal(err)
	}
	f, _ := New(dir, "https://example.org/p/")
	if _, err := f.Put(png); err != nil {
		t.Fatal(err)
	}
	inside := forum.Attachment{Name: "i.png", ContentType: "image/png", Data: []byte("another name")}
	if err := os.Symlink(Name(png), filepath.Join(dir, Name(inside))); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	get := func(name string) (int, string) {
		res, err := http.Get(srv.URL + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, name := range []string{Name(secret), Name(inside)} {
		if code, body := get(name); code != http.StatusNotFound {
			t.Errorf("symlink %s: %d %q", name, code, body)
		}
	}
	if code, _ := get(Name(png)); code != http.StatusOK {
		t.Errorf("the picture itself: %d", code)
	}
	// Put writes the picture in place of a symlink squatting its name.
	if _, err := f.Put(secret); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(filepath.Join(dir, Name(secret))); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("after Put: %v %v", st, err)
	}
	if code, body := get(Name(secret)); code != http.StatusOK || body != string(secret.Data) {
		t.Errorf("after Put: %d %q", code, body)
	}
}

// A picture is shown ([img]) and linked in full size; any other file (the final post's draws
// file) is linked by its name, both in place of its placeholder and under a forum's attachment.
func TestMarkupByKind(t *testing.T) {
	f, err := New(t.TempDir(), "https://example.org/pics/")
	if err != nil {
		t.Fatal(err)
	}
	draws := forum.Attachment{Name: "draws.json", ContentType: "application/json", Data: []byte(`{"format":"forumgm-draws/1"}`)}
	for _, c := range []struct {
		a         forum.Attachment
		picture   bool
		img, link string
	}{
		{png, true, "[img]https://example.org/pics/" + Name(png) + "[/img]", "[url=https://example.org/pics/" + Name(png) + "]Картинка в полном размере[/url]"},
		{draws, false, "[url=https://example.org/pics/" + Name(draws) + "]draws.json[/url]", "[url=https://example.org/pics/" + Name(draws) + "]draws.json по прямой ссылке[/url]"},
	} {
		if Picture(c.a) != c.picture || f.Img(c.a) != c.img || f.Link(c.a) != c.link {
			t.Errorf("%s: picture %v, Img %q, Link %q", c.a.Name, Picture(c.a), f.Img(c.a), f.Link(c.a))
		}
	}
	if !strings.HasSuffix(Name(draws), ".json") {
		t.Errorf("the draws file is kept as %s", Name(draws))
	}
}

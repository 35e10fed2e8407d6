package main

import (
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"forumgm/forum"
	"forumgm/media"
)

// listenMedia serves the pictures folder on loopback (attachments.listen): the hashed file, and
// nothing else.
func TestListenMedia(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pictures")
	files, err := media.New(dir, "https://example.org/pictures/")
	if err != nil {
		t.Fatal(err)
	}
	pic := forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfield")}
	if _, err := files.Put(pic); err != nil {
		t.Fatal(err)
	}
	addr, stop, err := listenMedia("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for path, want := range map[string]int{"/pictures/" + media.Name(pic): 200, "/" + media.Name(pic): 200, "/": 404, "/config.yaml": 404} {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want || (want == 200 && string(b) != string(pic.Data)) {
			t.Errorf("%s: %d (%d bytes), want %d", path, res.StatusCode, len(b), want)
		}
	}
}

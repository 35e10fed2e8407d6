package daemon

import (
	"strings"
	"testing"

	"forumgm/forum"
)

// A file that can be neither attached nor served: a picture's placeholder goes (the text stands),
// the draws file's is replaced by a note saying how to get the file, so its line never ends in
// nothing.
func TestDroppedFileMarkup(t *testing.T) {
	body := "Итог\n" + forum.Placeholder("field.png") + "\nФайл: " + forum.Placeholder("draws.json")
	files := []forum.Attachment{{Name: "field.png", ContentType: "image/png", Data: []byte("x")},
		{Name: "draws.json", ContentType: "application/json", Data: []byte("{}")}}
	got := forum.PlaceAttachments(body, files, dropped)
	if strings.Contains(got, "[attachment=") || !strings.Contains(got, "Файл: (файл не приложен") ||
		!strings.Contains(got, "forumgm verify --draws") || !strings.HasPrefix(got, "Итог\n\n") {
		t.Errorf("dropped markup:\n%s", got)
	}
}

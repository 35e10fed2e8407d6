// Package fairness owns the players' in-browser fair-play check: one self-contained HTML page
// (no network; WebCrypto's HMAC-SHA256 and BigInt) that re-derives a game's draws from the seed
// revealed in its final post and checks the commitment of its opening post, draw by draw, in
// Russian. The page is written from docs/fairness.md alone; its tests hold it to the Go
// derivation (game.Derive). forumgm puts it in the pictures folder (attachments), where it is
// served beside the pictures, and the final post links it.
package fairness

import (
	_ "embed"
	"strings"

	"forumgm/forum"
	"forumgm/media"
)

//go:embed check.html
var page []byte

// Page is the check page's HTML.
func Page() []byte { return append([]byte(nil), page...) }

// Attachment is the page as a file for the pictures folder (media.Folder.Put names it by its
// content hash, so a new version never overwrites an old link's page).
func Attachment() forum.Attachment {
	return forum.Attachment{Name: "check.html", ContentType: "text/html; charset=utf-8", Data: Page()}
}

// URL is where the page is served when the pictures folder is served at publicURL
// (attachments.public_url); "" when there is none.
func URL(publicURL string) string {
	if publicURL == "" {
		return ""
	}
	if !strings.HasSuffix(publicURL, "/") {
		publicURL += "/"
	}
	return publicURL + media.Name(Attachment())
}

// Package media owns the folder of files forumgm serves itself: the pictures of messages posted to
// a forum that takes no attachments (or refuses one). Each file is written once, named by its
// content hash (so a name never changes meaning and a file is never rewritten), and linked in the
// post with [img] at the configured public URL; a web server, or Handler behind a reverse proxy,
// serves the folder there.
package media

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"forumgm/forum"
)

// Folder is the folder of served files and the public URL it is served at.
type Folder struct {
	dir    string
	public string // ends with "/"
}

// New opens (and creates, if missing) the folder dir, served at publicURL (http or https).
func New(dir, publicURL string) (*Folder, error) {
	if dir == "" {
		return nil, errors.New("media: no folder")
	}
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("media: public URL %q: want http(s)://host/path", publicURL)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("media: %w", err)
	}
	pub := u.String()
	if !strings.HasSuffix(pub, "/") {
		pub += "/"
	}
	return &Folder{dir: dir, public: pub}, nil
}

// Name is the file name a's bytes are kept under: the first 32 hex digits of their sha256 and
// the extension of a's name (or of its content type; "bin" when neither tells).
func Name(a forum.Attachment) string {
	sum := sha256.Sum256(a.Data)
	return hex.EncodeToString(sum[:16]) + "." + ext(a)
}

var reExt = regexp.MustCompile(`^[a-z0-9]{1,8}$`)

func ext(a forum.Attachment) string {
	if e := strings.ToLower(strings.TrimPrefix(path.Ext(a.Name), ".")); reExt.MatchString(e) {
		return e
	}
	if exts, _ := mime.ExtensionsByType(a.ContentType); len(exts) > 0 {
		if e := strings.TrimPrefix(exts[0], "."); reExt.MatchString(e) {
			return e
		}
	}
	return "bin"
}

// reName is what Name gives; Handler serves nothing else.
var reName = regexp.MustCompile(`^[0-9a-f]{32}\.[a-z0-9]{1,8}$`)

// Put writes a's bytes to the folder unless they are there already, and returns their public
// URL. The file appears whole or not at all (written to a temporary file, synced, renamed).
func (f *Folder) Put(a forum.Attachment) (string, error) {
	if len(a.Data) == 0 {
		return "", fmt.Errorf("media: %q is empty", a.Name)
	}
	name := Name(a)
	dst := filepath.Join(f.dir, name)
	if st, err := os.Lstat(dst); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(a.Data)) {
		return f.URL(name), nil // there already (a symlink squatting the name is replaced below)
	}
	tmp, err := os.CreateTemp(f.dir, ".put-*")
	if err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(a.Data); err != nil {
		tmp.Close()
		return "", fmt.Errorf("media: write %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", fmt.Errorf("media: write %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("media: write %s: %w", name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	return f.URL(name), nil
}

// URL is the public URL of the file named name.
func (f *Folder) URL(name string) string { return f.public + name }

// Img is the markup that shows a's picture in a post: [img]URL[/img] (after Put); a file that is
// not a picture (Picture) is linked by its name instead: [url=URL]NAME[/url].
func (f *Folder) Img(a forum.Attachment) string {
	if !Picture(a) {
		return "[url=" + f.URL(Name(a)) + "]" + a.Name + "[/url]"
	}
	return "[img]" + f.URL(Name(a)) + "[/img]"
}

// Link is the markup of a link to a served file in full size, under a forum's own thumbnail of it
// (Russian, as every text players read); for a file that is not a picture, a direct link to it
// under the forum's attachment (which a guest may not be allowed to open).
func (f *Folder) Link(a forum.Attachment) string {
	if !Picture(a) {
		return "[url=" + f.URL(Name(a)) + "]" + a.Name + " по прямой ссылке[/url]"
	}
	return "[url=" + f.URL(Name(a)) + "]Картинка в полном размере[/url]"
}

// Picture reports whether a is a picture (its content type is image/…), shown in a post rather
// than linked.
func Picture(a forum.Attachment) bool { return strings.HasPrefix(a.ContentType, "image/") }

// Handler serves the folder's files (GET and HEAD of /NAME, NAME as Name gives; nothing else, no
// listing), with a long cache lifetime: a name's content never changes. Only regular files in the
// folder itself are served: a symlink (wherever it points) is not, and nothing is opened outside
// the folder (it is opened as an os.Root).
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := path.Base(r.URL.Path)
		if !reName.MatchString(name) {
			http.NotFound(w, r)
			return
		}
		fh, st, err := openRegular(dir, name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer fh.Close()
		if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, name, st.ModTime(), fh)
	})
}

// openRegular opens the regular file name of dir: not a symlink (looked at without following it),
// never anything outside dir, and the file opened is the one looked at.
func openRegular(dir, name string) (*os.File, os.FileInfo, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	lst, err := root.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("media: %s is not a regular file", name)
	}
	fh, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() || !os.SameFile(lst, st) {
		fh.Close()
		return nil, nil, fmt.Errorf("media: %s changed while opened", name)
	}
	return fh, st, nil
}

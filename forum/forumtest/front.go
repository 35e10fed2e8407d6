package forumtest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
)

// Front is a test board's front: it passes every request to the board's handler and, when
// armed with Cut, cuts the next answer holding a text in the middle of that text (a PHP fatal
// error mid-page, a dropped connection). A fake board serves through it:
//
//	front := forumtest.NewFront(http.HandlerFunc(f.serve))
//	f.srv = httptest.NewServer(front)
type Front struct {
	h  http.Handler
	mu sync.Mutex
	// cut is the text of the next answer to cut ("" none).
	cut string
	// Cuts counts the answers cut.
	cuts int
}

// NewFront is a Front passing requests to h.
func NewFront(h http.Handler) *Front { return &Front{h: h} }

// Cut arms the front: the next answer whose body holds text ends in the middle of text.
func (f *Front) Cut(text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cut = text
}

// Cuts is how many answers were cut.
func (f *Front) Cuts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cuts
}

func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	text := f.cut
	f.mu.Unlock()
	if text == "" {
		f.h.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if i := bytes.Index(body, []byte(text)); i >= 0 {
		f.mu.Lock()
		if f.cut == text {
			f.cut = ""
			f.cuts++
			body = body[:i+len(text)/2]
		}
		f.mu.Unlock()
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

package forumtest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Front is a test board's front: it passes every request to the board's handler and, when
// armed with Cut, cuts the next answer holding a text in the middle of that text (a PHP fatal
// error mid-page, a dropped connection); armed with Swap or Relabel, it serves another thread's
// page for the one asked (Board.WrongThread). A fake board serves through it:
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
	// swap changes the URL of every request (nil: none); relabel rewrites every answer (nil: none).
	swap    func(u *url.URL)
	relabel *strings.Replacer
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

// Swap arms the front with another thread's pages: every request is answered as the request swap
// makes of it (swap changes a copy of the request's URL: tid=1 becomes tid=2), as a moderator's
// move, a caching front or a wrong redirect serves them. nil disarms it.
func (f *Front) Swap(swap func(u *url.URL)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.swap = swap
}

// Relabel arms the front with a board's page made another thread's by its ids alone: in every
// answer's body and Location each old of the pairs (old, new, ...) becomes its new. No pairs
// disarm it.
func (f *Front) Relabel(pairs ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.relabel = nil
	if len(pairs) > 0 {
		f.relabel = strings.NewReplacer(pairs...)
	}
}

func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	text, swap, relabel := f.cut, f.swap, f.relabel
	f.mu.Unlock()
	if swap != nil {
		u := *r.URL
		swap(&u)
		r = r.Clone(r.Context())
		r.URL, r.RequestURI = &u, u.RequestURI()
	}
	if text == "" && relabel == nil {
		f.h.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if relabel != nil {
		body = []byte(relabel.Replace(string(body)))
		if loc := rec.Header().Get("Location"); loc != "" {
			rec.Header().Set("Location", relabel.Replace(loc))
		}
	}
	if i := bytes.Index(body, []byte(text)); text != "" && i >= 0 {
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

package forum

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestClientAcceptsGzip: the client asks for gzip (Go's transport does, as the client sets no
// Accept-Encoding of its own) and hands back the page decoded, windows-1251 included; a page
// fetched without following its redirect has no body to decode.
func TestClientAcceptsGzip(t *testing.T) {
	page := "<html><body><p>Ход принят</p></body></html>" + strings.Repeat(" ", 4000)
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("go") != "" {
			w.Header().Set("Location", "/?pid=16")
			w.WriteHeader(http.StatusFound)
			return
		}
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("Accept-Encoding %q, want gzip", r.Header.Get("Accept-Encoding"))
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(page))
		zw.Close()
		sent.Store(int64(b.Len()))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(b.Bytes())
	}))
	defer srv.Close()
	c := NewClient(ClientConfig{Rate: 1000})
	p, err := c.Get(context.Background(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Body) != page {
		t.Fatalf("body not decoded: %q", p.Body[:min(len(p.Body), 60)])
	}
	if n := sent.Load(); n >= int64(len(page))/4 {
		t.Fatalf("sent %d bytes for a %d-byte page: not compressed", n, len(page))
	}
	r, err := c.GetNoRedirect(context.Background(), srv.URL+"/?go=1")
	if err != nil {
		t.Fatal(err)
	}
	if loc, err := r.Location(); err != nil || r.Status != http.StatusFound || loc.Query().Get("pid") != "16" {
		t.Fatalf("redirect: %d %v %v", r.Status, loc, err)
	}
}

package meter

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestCountsRequestsAndBytes(t *testing.T) {
	body := strings.Repeat("x", 1000)
	s := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer s.Close()
	before := s.Read()
	for range 2 {
		resp, err := http.Get(s.URL + "/a?b=1")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	got := s.Since(before)
	if got.Requests != 2 || len(got.Paths) != 2 || got.Paths[0] != "GET /a?b=1" {
		t.Fatalf("reading %+v", got)
	}
	if got.Out < 2000 || got.Out > 2600 || got.In < 60 || got.In > 600 {
		t.Errorf("bytes in %d out %d", got.In, got.Out)
	}
}

package forum

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHostLimitsShared(t *testing.T) {
	shared := NewHostLimits(SchedulerOptions{})
	a := NewClient(ClientConfig{Rate: 1, Limits: shared})
	b := NewClient(ClientConfig{Rate: 1, Limits: shared})
	own := NewClient(ClientConfig{Rate: 1})
	if a.limiter("forum.example.org") != b.limiter("forum.example.org") {
		t.Fatal("two sessions on one host do not share its rate")
	}
	if a.limiter("forum.example.org") == a.limiter("other.example.org") {
		t.Fatal("two hosts share a rate")
	}
	if own.limiter("forum.example.org") == a.limiter("forum.example.org") {
		t.Fatal("a client without shared limits uses the shared ones")
	}
}

// An idle probe (a redirect read for its Location) sends only the headers it needs.
func TestProbeHeadersTrimmed(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		http.Redirect(w, r, "/showthread.php?tid=1&pid=9#pid9", http.StatusFound)
	}))
	defer srv.Close()
	c := NewClient(ClientConfig{Rate: 1000})
	p, err := c.GetNoRedirect(context.Background(), srv.URL+"/showthread.php?tid=1&action=lastpost")
	if err != nil || p.Status != http.StatusFound {
		t.Fatal(p, err)
	}
	if a := got.Get("Accept"); a != "*/*" {
		t.Errorf("probe Accept %q, want */*", a)
	}
	size := 0
	for k, vs := range got {
		for _, v := range vs {
			size += len(k) + len(v) + 4
		}
	}
	if size > 160 {
		t.Errorf("probe headers %d bytes: %v", size, got)
	}
}

package forum

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
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

// A probe that names the session's cookies sends only those (a board's cookie prefix allowed),
// keeps the cookies its answer sets, and leaves every cookie to the other requests.
func TestProbeSendsOnlyTheSessionCookies(t *testing.T) {
	var cookies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cookies = nil
		for _, ck := range r.Cookies() {
			cookies = append(cookies, ck.Name+"="+ck.Value)
		}
		slices.Sort(cookies)
		if r.URL.Query().Get("action") == "lastpost" {
			http.SetCookie(w, &http.Cookie{Name: "bb_sid", Value: "s2", Path: "/"})
			http.Redirect(w, r, "/showthread.php?tid=1&pid=9#pid9", http.StatusFound)
		}
	}))
	defer srv.Close()
	c := NewClient(ClientConfig{Rate: 1000})
	u, _ := url.Parse(srv.URL + "/")
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "bb_sid", Value: "s1"}, {Name: "bb_mybbuser", Value: "2_key"},
		{Name: "bb_lastvisit", Value: "1796118201"}, {Name: "loginattempts", Value: "1"}})
	ctx := context.Background()
	if _, err := c.GetNoRedirect(ctx, srv.URL+"/showthread.php?tid=1&action=lastpost", "sid", "mybbuser"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"bb_mybbuser=2_key", "bb_sid=s1"}; !slices.Equal(cookies, want) {
		t.Errorf("the probe sent cookies %v, want %v", cookies, want)
	}
	if _, err := c.Get(ctx, srv.URL+"/index.php"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"bb_lastvisit=1796118201", "bb_mybbuser=2_key", "bb_sid=s2", "loginattempts=1"}; !slices.Equal(cookies, want) {
		t.Errorf("the next page sent cookies %v, want %v (the probe's new sid among them)", cookies, want)
	}
}

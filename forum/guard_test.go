package forum

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// pausedTransport holds every request for pause before it goes out: the process frozen (SIGSTOP,
// a VM paused, a long GC) between the write guard's answer and the request's bytes.
type pausedTransport struct{ pause time.Duration }

func (p pausedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	time.Sleep(p.pause)
	return http.DefaultTransport.RoundTrip(r)
}

// A write goes out only within the time its guard gave: a request held past it (the process paused
// after the guard said yes) is cut before its body reaches the forum, and reported as not sent,
// not as an outcome unknown. The guard's time is real time, as the leases' is.
func TestWriteGuardTimeToSend(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pause  time.Duration
		within time.Duration
		refuse error
		sent   bool
	}{
		{name: "in time", within: 10 * time.Second, sent: true},
		{name: "paused past the guard's time", pause: 400 * time.Millisecond, within: 50 * time.Millisecond},
		{name: "refused by the guard", within: time.Minute, refuse: errors.New("lease lost")},
		{name: "no time left", within: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var whole atomic.Int32 // POSTs whose whole body the board read
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if b, err := io.ReadAll(r.Body); err == nil && string(b) == "message=hello" {
					whole.Add(1)
				}
			}))
			defer srv.Close()
			c := NewClient(ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond, Transport: pausedTransport{tc.pause},
				Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
			asked := 0
			ctx := WithWriteGuard(context.Background(), func(context.Context) (time.Duration, error) {
				asked++
				return tc.within, tc.refuse
			})
			_, err := c.PostForm(ctx, srv.URL, url.Values{"message": {"hello"}}, "")
			time.Sleep(50 * time.Millisecond) // the board's side of a cut request
			if got := whole.Load() == 1; got != tc.sent {
				t.Fatalf("the board got the post: %v, want %v (err %v)", got, tc.sent, err)
			}
			if tc.sent {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || errors.Is(err, ErrAmbiguous) {
				t.Fatalf("err %v: want an error that says the request was not sent", err)
			}
			if tc.refuse != nil && !errors.Is(err, tc.refuse) {
				t.Fatalf("err %v: want the guard's", err)
			}
			if asked == 0 {
				t.Fatal("the guard was not asked")
			}
		})
	}
}

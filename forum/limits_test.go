package forum

import "testing"

func TestHostLimitsShared(t *testing.T) {
	shared := NewHostLimits()
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
	// Taking the one token of the burst through one session leaves none for the other.
	l := a.limiter("x.example.org")
	for l.Allow() {
	}
	if b.limiter("x.example.org").Allow() {
		t.Fatal("the second session got a token the first had used")
	}
}

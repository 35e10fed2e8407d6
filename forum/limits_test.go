package forum

import "testing"

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

package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHost(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"127.0.0.1:9321", true}, {"127.0.0.1", true}, {"127.5.6.7:80", true}, {"[::1]:9321", true}, {"::1", true},
		{"localhost:9321", true}, {"LOCALHOST", true},
		{"0.0.0.0:9321", false}, {"[::]:80", false}, {"192.168.1.5:9321", false}, {"evil.example:9321", false},
		{"localhost.evil.example", false}, {"127.0.0.1.nip.io:80", false}, {"", false},
	} {
		if got := Host(c.in); got != c.want {
			t.Errorf("Host(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestGuard(t *testing.T) {
	h := Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }), "loopback only")
	for host, want := range map[string]int{"127.0.0.1:9321": 200, "localhost": 200, "rebound.example:9321": 421} {
		r := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %s: %d, want %d", host, w.Code, want)
		}
	}
}

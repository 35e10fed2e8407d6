// Package loopback owns the rule of forumgm's local listeners (the moderator web UI, /metrics and
// /healthz, the sandbox board): they serve this machine only. It says which addresses and Host
// headers are loopback, and guards a handler against requests for another Host (DNS rebinding: a
// page on another site whose name is made to resolve to 127.0.0.1 must not reach them).
package loopback

import (
	"net"
	"net/http"
	"strings"
)

// Host reports whether a host or host:port (an address to listen on, or a request's Host header)
// names this machine: localhost or a loopback IP.
func Host(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Guard serves h only for requests whose Host is loopback; others get 421 Misdirected Request with
// hint as the body.
func Guard(h http.Handler, hint string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Host(r.Host) {
			http.Error(w, hint, http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

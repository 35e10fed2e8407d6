// Package meter owns the counting of what a loopback test server exchanges with a client: the
// requests it answered and the bytes on the wire both ways (request lines, headers and bodies),
// so that a test can state what a dialect's poll costs.
package meter

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
)

// Server is an httptest server whose connections are metered.
type Server struct {
	*httptest.Server
	requests  atomic.Int64
	in, out   atomic.Int64 // bytes read from clients, written to them
	mu        sync.Mutex
	paths     []string
	listening net.Listener
}

// NewServer starts h on loopback, metered. Close it when done (t.Cleanup(s.Close)).
func NewServer(h http.Handler) *Server {
	s := &Server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		s.paths = append(s.paths, r.Method+" "+r.URL.RequestURI())
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	s.listening = s.Server.Listener
	s.Server.Listener = &listener{Listener: s.listening, s: s}
	s.Start()
	return s
}

// Reading is what the server exchanged between two readings.
type Reading struct {
	Requests int64
	In, Out  int64 // bytes the server read (requests) and wrote (responses)
	Paths    []string
}

// Bytes is the traffic both ways.
func (r Reading) Bytes() int64 { return r.In + r.Out }

// Read returns the counts since the server started.
func (s *Server) Read() Reading {
	s.mu.Lock()
	paths := append([]string(nil), s.paths...)
	s.mu.Unlock()
	return Reading{Requests: s.requests.Load(), In: s.in.Load(), Out: s.out.Load(), Paths: paths}
}

// Since returns what was exchanged after an earlier reading.
func (s *Server) Since(r Reading) Reading {
	now := s.Read()
	return Reading{Requests: now.Requests - r.Requests, In: now.In - r.In, Out: now.Out - r.Out,
		Paths: now.Paths[len(r.Paths):]}
}

type listener struct {
	net.Listener
	s *Server
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, s: l.s}, nil
}

type conn struct {
	net.Conn
	s *Server
}

func (c *conn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.s.in.Add(int64(n))
	return n, err
}

// Write counts the bytes before they go: the client may have them, and its caller read the
// meter, before the write returns here.
func (c *conn) Write(b []byte) (int, error) {
	c.s.out.Add(int64(len(b)))
	n, err := c.Conn.Write(b)
	c.s.out.Add(int64(n - len(b)))
	return n, err
}

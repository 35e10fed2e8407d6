package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal: what is written to tty is read from the master.
func openPTY(t *testing.T) (tty *os.File, read func() string) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("TIOCSPTLCK: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	var mu sync.Mutex
	var got bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			k, err := m.Read(buf)
			mu.Lock()
			got.Write(buf[:k])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return tty, func() string {
		time.Sleep(200 * time.Millisecond) // what the terminal got so far
		mu.Lock()
		defer mu.Unlock()
		return got.String()
	}
}

// longTranscript is the crusade flag game with 300 chatter posts before the first move.
func longTranscript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../games/crusade/examples/crusade-flag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var chatter strings.Builder
	chatter.WriteString("posts:\n")
	at := time.Date(2026, 12, 1, 18, 1, 0, 0, time.FixedZone("MSK", 3*3600))
	for i := range 300 {
		fmt.Fprintf(&chatter, "  - {author: %s, at: %s, text: \"болтаем %d\"}\n", []string{"Джелу", "snovaya"}[i%2], at.Add(time.Duration(i)*10*time.Second).Format(time.RFC3339), i)
	}
	src := strings.Replace(string(b), "posts:\n", chatter.String(), 1)
	path := filepath.Join(t.TempDir(), "long.yaml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// replay and verify of a long game show their progress on a terminal, redrawn in place and
// wiped at the end; on a pipe they show none, and what they print on stdout is the same.
func TestReplayVerifyProgressOnATerminal(t *testing.T) {
	long := longTranscript(t)
	tty, screen := openPTY(t)
	var out bytes.Buffer
	if code := run([]string{"replay", long}, &out, tty); code != 0 {
		t.Fatalf("replay: exit %d: %s", code, screen())
	}
	got := screen()
	if !strings.Contains(got, "\rreplaying: 1 of 319 posts (0%)") || !strings.Contains(got, "replaying: 316 of 319 posts (99%)") ||
		!strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("the terminal got %q, want the progress redrawn and wiped at the end", tail(got))
	}
	if n := strings.Count(got, "replaying:"); n > 101 {
		t.Errorf("the progress was drawn %d times, want once per percent at most", n)
	}

	// On a pipe: nothing but the errors (none here), and stdout as on the terminal.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var piped bytes.Buffer
	if code := run([]string{"replay", long}, &piped, w); code != 0 {
		t.Fatalf("replay, stderr a pipe: exit %d", code)
	}
	w.Close()
	if b, _ := io.ReadAll(r); len(b) != 0 {
		t.Errorf("stderr a pipe got %q, want nothing", b)
	}
	if piped.String() != out.String() {
		t.Errorf("stdout differs with stderr on a terminal and on a pipe")
	}

	// verify of the whole thread (the bot's posts included), on the terminal.
	var thread, errb bytes.Buffer
	if code := run([]string{"replay", "--thread", long}, &thread, &errb); code != 0 {
		t.Fatalf("replay --thread: %d %s", code, errb.String())
	}
	th := filepath.Join(t.TempDir(), "thread.yaml")
	if err := os.WriteFile(th, thread.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(screen())
	out.Reset()
	if code := run([]string{"verify", th}, &out, tty); code != 0 {
		t.Fatalf("verify: exit %d\n%s", code, out.String())
	}
	got = screen()[before:]
	if !strings.Contains(got, "\rverifying: ") || !strings.Contains(got, "posts (99%)") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("verify: the terminal got %q, want its progress", tail(got))
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

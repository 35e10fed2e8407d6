// Package chrome owns starting Debian's chromium for the project's browser tests: launched the
// way forumgm always runs it (dialects/generic/browser.Launcher: headless, loopback only), stopped and its
// profile removed when the test ends. A missing chromium fails the test with how to install it.
package chrome

import (
	"os"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"forumgm/dialects/generic/browser"
)

// Start launches chromium for tb and connects to it. timeout bounds every call on the browser; it
// only stops a hung test, nothing asserts how fast anything is.
func Start(tb testing.TB, timeout time.Duration) *rod.Browser {
	tb.Helper()
	if _, err := os.Stat(browser.Bin); err != nil {
		tb.Fatalf("install chromium (apt-get install -y chromium): %v", err)
	}
	l := browser.Launcher(browser.Bin, tb.TempDir())
	u, err := l.Launch()
	if err != nil {
		l.Kill()
		l.Cleanup()
		tb.Fatalf("launch chromium: %v", err)
	}
	b := rod.New().ControlURL(u).Timeout(timeout)
	if err := b.Connect(); err != nil {
		l.Kill()
		l.Cleanup()
		tb.Fatalf("connect to chromium: %v", err)
	}
	tb.Cleanup(func() {
		_ = b.Close()
		l.Kill()
		l.Cleanup()
	})
	return b
}

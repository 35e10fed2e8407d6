// Package browser is the real-browser writer the generic dialect uses when a forum only works in a
// browser (Extra["browser"]="true"): it drives Debian's chromium through go-rod, logs in and replies
// by filling the forms of real pages. The program wires it in (generic.Options.NewBrowser: New);
// this package registers nothing. The browser is started lazily, headless, without a sandbox
// (root), with a fresh profile directory, and with host resolution limited to loopback unless
// Extra["browser_hosts"] lists the forum's host (see go-stack.md); it never downloads a browser.
//
// Extra keys: "browser_bin" (default /usr/bin/chromium), "browser_hosts" (comma-separated hosts
// the browser may resolve besides localhost/127.0.0.1), "min_form_age" (a Go duration the form is
// left open before submitting, default 2s — phpBB rejects faster forms).
package browser

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"forumgm/dialects/generic"
	"forumgm/forum"
	"forumgm/forum/web"
)

// Writer is a lazily started headless chromium.
type Writer struct {
	Bin        string
	Hosts      []string
	MinFormAge time.Duration
	Sleep      web.Sleeper
	Timeout    time.Duration

	mu      sync.Mutex
	l       *launcher.Launcher
	b       *rod.Browser
	page    *rod.Page
	dataDir string
}

// New builds a Writer from a dialect Config.
func New(cfg forum.Config) *Writer {
	w := &Writer{Bin: Bin, MinFormAge: 2 * time.Second, Sleep: forum.Sleep, Timeout: 60 * time.Second}
	if b := cfg.Extra["browser_bin"]; b != "" {
		w.Bin = b
	}
	if d, err := time.ParseDuration(cfg.Extra["min_form_age"]); err == nil && d >= 0 {
		w.MinFormAge = d
	}
	for _, h := range strings.Split(cfg.Extra["browser_hosts"], ",") {
		if h = strings.TrimSpace(h); h != "" {
			w.Hosts = append(w.Hosts, h)
		}
	}
	return w
}

// Writer is the generic dialect's real-browser writer.
var _ generic.BrowserWriter = (*Writer)(nil)

func (w *Writer) browser() (*rod.Browser, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b != nil {
		return w.b, nil
	}
	if _, err := os.Stat(w.Bin); err != nil {
		return nil, fmt.Errorf("browser: %s not found: install chromium (apt-get install -y chromium): %w", w.Bin, err)
	}
	dir, err := os.MkdirTemp("", "forumgm-chromium-")
	if err != nil {
		return nil, err
	}
	l := Launcher(w.Bin, dir, w.Hosts...)
	u, err := l.Launch()
	if err != nil {
		l.Cleanup()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("browser: launch %s: %w", w.Bin, err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		l.Cleanup()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("browser: connect: %w", err)
	}
	w.l, w.b, w.dataDir = l, b, dir
	return b, nil
}

// Close stops the browser and removes its profile.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b == nil {
		return nil
	}
	err := w.b.Close()
	w.l.Kill()
	w.l.Cleanup()
	_ = os.RemoveAll(w.dataDir)
	w.b, w.l, w.page = nil, nil, nil
	return err
}

func (w *Writer) open(ctx context.Context, url string) (*rod.Page, error) {
	b, err := w.browser()
	if err != nil {
		return nil, err
	}
	// One tab for the writer's whole life: the session's cookies live with it.
	w.mu.Lock()
	if w.page == nil {
		pg, err := b.Page(proto.TargetCreateTarget{})
		if err != nil {
			w.mu.Unlock()
			return nil, fmt.Errorf("browser: new tab: %w", err)
		}
		w.page = pg
	}
	p := w.page.Context(ctx).Timeout(w.Timeout)
	w.mu.Unlock()
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := p.Navigate(url); err != nil {
		return nil, fmt.Errorf("browser: open %s: %w", url, err)
	}
	wait()
	if err := p.WaitLoad(); err != nil {
		return nil, fmt.Errorf("browser: load %s: %w", url, err)
	}
	return p, nil
}

func fill(p *rod.Page, form, name, value string) error {
	el, err := p.Element(fmt.Sprintf(`%s [name="%s"]`, form, name))
	if err != nil {
		return fmt.Errorf("browser: field %q: %w", name, err)
	}
	if _, err := el.Eval(`(v) => { this.value = v; this.dispatchEvent(new Event('input', {bubbles: true})); }`, value); err != nil {
		return fmt.Errorf("browser: fill %q: %w", name, err)
	}
	return nil
}

// submit clicks the form's submit button (not a preview one) and waits for the next page.
func (w *Writer) submit(ctx context.Context, p *rod.Page, form string, loaded time.Time) error {
	if d := w.MinFormAge - time.Since(loaded); d > 0 {
		if err := w.Sleep(ctx, d); err != nil {
			return err
		}
	}
	btn, err := p.Element(form + ` [type="submit"]:not([name="preview"])`)
	if err != nil {
		return fmt.Errorf("browser: submit button of %s: %w", form, err)
	}
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := btn.Click(proto.InputMouseButtonLeft, 1); err != nil {
		return fmt.Errorf("browser: click: %w", err)
	}
	wait()
	return nil
}

// Login fills the login form and submits it; the session cookies stay in the browser.
func (w *Writer) Login(ctx context.Context, loginURL, form, userField, passField, user, pass string) error {
	p, err := w.open(ctx, loginURL)
	if err != nil {
		return err
	}
	loaded := time.Now()
	if err := fill(p, form, userField, user); err != nil {
		return err
	}
	if err := fill(p, form, passField, pass); err != nil {
		return err
	}
	if err := w.submit(ctx, p, form, loaded); err != nil {
		return err
	}
	if has, _, _ := p.Has(fmt.Sprintf(`%s [name="%s"]`, form, passField)); has {
		return fmt.Errorf("browser: login form shown again: %w", forum.ErrBadLogin)
	}
	return nil
}

// Reply opens formURL, writes body into field, submits, and returns where the browser ends up.
func (w *Writer) Reply(ctx context.Context, formURL, form, field, body string) (string, string, error) {
	p, err := w.open(ctx, formURL)
	if err != nil {
		return "", "", err
	}
	loaded := time.Now()
	if has, _, _ := p.Has(form); !has {
		return "", "", fmt.Errorf("browser: no %s on %s: %w", form, formURL, forum.ErrLoggedOut)
	}
	if err := fill(p, form, field, body); err != nil {
		return "", "", err
	}
	if err := w.submit(ctx, p, form, loaded); err != nil {
		return "", "", err
	}
	info, err := p.Info()
	if err != nil {
		return "", "", err
	}
	html, err := p.HTML()
	if err != nil {
		return "", "", err
	}
	return info.URL, html, nil
}

var _ generic.BrowserWriter = (*Writer)(nil)

// Bin is Debian's chromium, the only browser forumgm runs (never a downloaded one).
const Bin = "/usr/bin/chromium"

// Launcher is chromium set up the way forumgm always runs it: headless, without the sandbox
// (forumgm runs as root), with the given fresh profile folder, no background traffic, and a host
// resolver that reaches loopback and the given hosts only.
func Launcher(bin, dataDir string, hosts ...string) *launcher.Launcher {
	rules := "MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"
	for _, h := range hosts {
		rules += " , EXCLUDE " + h
	}
	return launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).UserDataDir(dataDir).
		Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
		Set("disable-sync").Set("no-first-run").Set("disable-default-apps").Set("disable-extensions").
		Set("host-resolver-rules", rules)
}

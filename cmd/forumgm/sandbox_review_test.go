package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The sandbox serves the moderator web UI beside the game: the banner names it and it answers.
func TestSandboxServesModeratorWebUI(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sb, err := startSandbox(ctx, sandboxOptions{Addr: "127.0.0.1:0", Dir: t.TempDir(), Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if !strings.HasPrefix(sb.Review, "http://127.0.0.1:") || !strings.Contains(sb.Banner(), sb.Review) {
		t.Fatalf("review URL %q not in the banner:\n%s", sb.Review, sb.Banner())
	}
	resp, err := http.Get(sb.Review + "login")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Вход") {
		t.Fatalf("login page: %d %q", resp.StatusCode, body)
	}
	// The queue needs a login.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp2, err := noFollow.Get(sb.Review)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusSeeOther && resp2.StatusCode != http.StatusFound {
		t.Fatalf("the queue without a login: %d", resp2.StatusCode)
	}
}

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `forumgm sandbox --board-only` on a port the user chose serves the board alone, in Russian
// like the players' forums, and prints a config.yaml that `forumgm check-config` and `forumgm
// forum-check` accept as written (the bot logs in and reads the game thread through it).
func TestSandboxBoardOnly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out, errs := &lockedBuffer{}, &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- cmdSandbox(ctx, []string{"--board-only", "--addr", addr, "--game", "dragonball", "--dir", t.TempDir()}, out, errs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sandbox --board-only: %v", err)
		}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(errs.String(), "Ctrl-C") {
		if time.Now().After(deadline) {
			t.Fatalf("no config printed:\n%s\n%s", out.String(), errs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	yaml := out.String()
	if !strings.Contains(yaml, "url: \"http://"+addr+"/\"") || !strings.Contains(yaml, "kind: dragonball") || strings.Contains(yaml, "Ctrl-C") {
		t.Fatalf("stdout is not the config.yaml for the board on %s:\n%s", addr, yaml)
	}
	resp, err := http.Get("http://" + addr + "/showthread.php?tid=1")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"Привет, Гость!", ">Войти<", "Драконбол"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the board's thread lacks %q", want)
		}
	}
	if strings.Contains(string(page), "Hello There") {
		t.Error("the board greets in English")
	}
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sandboxPasswordEnv, sandboxBot.Password)
	t.Setenv(sandboxModEnv, sandboxModerator.Password)
	for _, cmd := range []string{"check-config", "forum-check"} {
		var o, e strings.Builder
		if code := run([]string{cmd, "--config", cfg}, &o, &e); code != 0 {
			t.Errorf("%s on the printed config: exit %d\n%s\n%s", cmd, code, o.String(), e.String())
		}
	}
}

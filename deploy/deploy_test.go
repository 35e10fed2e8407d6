// Package deploy holds the files that run forumgm on a server (the systemd unit); its test
// checks them.
package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The unit is hardened (its own user, no new privileges, a read-only system but its state
// directory) and systemd itself accepts it.
func TestSystemdUnit(t *testing.T) {
	b, err := os.ReadFile("forumgm.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, want := range []string{"User=forumgm", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes",
		"StateDirectory=forumgm", "ReadWritePaths=/var/lib/forumgm", "CapabilityBoundingSet=\n", "KillSignal=SIGTERM",
		"ExecStart=/usr/local/bin/forumgm run --config /etc/forumgm/config.yaml", "EnvironmentFile=/etc/forumgm/env", "ExecReload=/bin/kill -HUP $MAINPID"} {
		if !strings.Contains(unit, want) {
			t.Errorf("the unit lacks %q", strings.TrimSpace(want))
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is needed to check the unit (Debian's systemd package; .ci/run installs it)")
	}
	// systemd checks that the command exists: point it at a binary that does.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "forumgm.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(unit, "/usr/local/bin/forumgm", self)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

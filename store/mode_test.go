package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A new store, its WAL, its shared-memory file and its lock file are readable by the owner only,
// even under the common umask 022 (they hold seeds, salts, marker keys and secret orders).
func TestNewStoreIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "forumgm.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ensureGame(t, s, "g1") // a write, so the WAL exists
	for _, name := range []string{path, path + "-wal", path + "-shm", lockPath(path)} {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if mode := st.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s: mode %o, want 600", filepath.Base(name), mode)
		}
	}
}

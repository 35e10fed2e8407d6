package voice

import (
	"testing"

	"forumgm/templates"
)

// The crusade templates need the game's functions: loading without them fails clearly rather
// than at render time.
func TestLoadNeedsFuncs(t *testing.T) {
	if s, err := templates.Load(Files, "crusade", nil); err == nil {
		t.Fatalf("loading without the game's functions should fail, got a set %v", s)
	}
}

package phpbb

import (
	"testing"

	"forumgm/internal/fixture"
)

// TestRealPages reads the thread pages saved from real boards (testdata/realboards/phpbb at the
// module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, "phpbb", testConfig(), *update, nil)
}

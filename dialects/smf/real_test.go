package smf

import (
	"testing"

	"forumgm/internal/fixture"
)

// TestRealPages reads the topic pages saved from real boards (testdata/realboards/smf at the
// module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, Dialect(), testConfig(), *update, nil)
}

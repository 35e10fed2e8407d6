package punbb

import (
	"testing"

	"forumgm/internal/fixture"
)

// TestRealPages reads the topic pages saved from real boards (testdata/realboards/punbb at the
// module root, see its README: FluxBB 1.4/1.5 and PunBB 1.2 blockpost markup) against goldens
// checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, Dialect(), testConfig(), *update, nil)
}

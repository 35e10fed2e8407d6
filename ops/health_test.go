package ops

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"forumgm/internal/testkit"
)

// A daemon sharing its database's games says on /healthz who it is and which games it runs; a
// daemon that does not share says nothing of it.
func TestHealthOwnedGames(t *testing.T) {
	clock := testkit.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	h := NewHealth(clock.Now, time.Minute)
	get := func() map[string]any {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		return body
	}
	if b := get(); b["owner"] != nil || b["owned_games"] != nil {
		t.Fatalf("a daemon alone reports ownership: %v", b)
	}
	h.SetOwned("vm-1-abc", []string{"g1", "g2"})
	b := get()
	var owned []string
	for _, g := range b["owned_games"].([]any) {
		owned = append(owned, g.(string))
	}
	if b["owner"] != "vm-1-abc" || !slices.Equal(owned, []string{"g1", "g2"}) {
		t.Fatalf("healthz %v", b)
	}
	h.SetOwned("vm-1-abc", nil)
	if b := get(); len(b["owned_games"].([]any)) != 0 {
		t.Fatalf("no games owned: %v", b)
	}
}

package config

import (
	"os"
	"strings"
	"testing"
	"time"
)

// forum.max_clock_skew is read as a duration (absent: 0, the daemon's default of 5m); a negative
// one is refused.
func TestMaxClockSkew(t *testing.T) {
	base, err := os.ReadFile("../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	with := func(v string) (*Config, error) {
		src := strings.Replace(string(base), "  # max_clock_skew: 5m\n", "  max_clock_skew: "+v+"\n", 1)
		if src == string(base) {
			t.Fatal("the example config has no max_clock_skew line")
		}
		cfg, err := Parse([]byte(src))
		if err != nil {
			return nil, err
		}
		return cfg, cfg.Validate(known)
	}
	cfg, err := with("3m")
	if err != nil || cfg.Forum.MaxClockSkew.D() != 3*time.Minute {
		t.Fatalf("3m: %v %v", cfg, err)
	}
	if _, err := with("-1m"); err == nil || !strings.Contains(err.Error(), "forum.max_clock_skew:") {
		t.Errorf("-1m: %v", err)
	}
	def, err := Parse(base)
	if err != nil || def.Forum.MaxClockSkew != 0 {
		t.Errorf("the default: %v %v", def.Forum.MaxClockSkew, err)
	}
}

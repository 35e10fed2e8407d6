package game

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

// PublicSetup is a game's effective setup as the players may check it: its kind, start, calendar,
// whether private messages are off, and its own keys (settings, roster, board, deployment) as the
// configuration gives them, in canonical JSON (keys sorted, no spaces). The opening post commits
// to it and the final post reveals it (docs/fairness.md, section 5), so a setting changed or
// hidden shows. Files the keys name (a question bank) are named, not included; an absolute path is
// given by its base name (the operator's folders are nobody's business, and a game moved to
// another folder keeps its setup).
func PublicSetup(kind string, s Spec) (string, error) {
	var own any
	if s.Node.Kind != 0 {
		if err := s.Node.Decode(&own); err != nil {
			return "", fmt.Errorf("engine: public setup: %w", err)
		}
	}
	v := struct {
		Kind        string   `json:"kind"`
		Start       string   `json:"start"`
		Timezone    string   `json:"timezone,omitempty"`
		WorkingDays []string `json:"working_days,omitempty"`
		NoPM        bool     `json:"no_pm,omitempty"`
		Game        any      `json:"game"`
	}{kind, s.Start.UTC().Format(time.RFC3339), s.Timezone, s.WorkingDays, s.NoPM, jsonable(own)}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("engine: public setup: %w", err)
	}
	return string(b), nil
}

// jsonable turns YAML's decoded maps (map[string]any, and map[any]any for odd keys) into what
// encoding/json writes with sorted keys.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonable(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fmt.Sprint(k)] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonable(x)
		}
		return out
	case time.Time:
		return t.UTC().Format(time.RFC3339)
	case string:
		if filepath.IsAbs(t) {
			return filepath.Base(t)
		}
		return t
	default:
		return v
	}
}

// SetupHash is sha256 of a public setup's text, in hex: what the opening post publishes.
func SetupHash(public string) string {
	sum := sha256.Sum256([]byte(public))
	return hex.EncodeToString(sum[:])
}

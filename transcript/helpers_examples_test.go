package transcript

import (
	"path/filepath"
	"strings"
)

// example is the path of an example transcript ("football-early.yaml") in its game's folder.
func example(file string) string {
	game, _, _ := strings.Cut(file, "-")
	return filepath.Join("..", "games", game, "examples", file)
}

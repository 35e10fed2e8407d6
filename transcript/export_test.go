package transcript

import "forumgm/game"

// Test-only conveniences, kept out of the binary.

// Parse reads a transcript of one of the games in reg from YAML and checks it (file names in it
// resolve against the working folder).
func Parse(b []byte, reg *game.Registry) (*Transcript, error) { return parse(b, "", reg) }

// Package voice holds every text players see of Crusade ("Крестовый поход"): the Russian replies, refusals,
// reports and help texts as text/template files (BBCode), embedded in the binary; the game's
// plug-in loads them with templates.Load.
package voice

import "embed"

// Files are the game's templates (*.tmpl).
//
//go:embed *.tmpl
var Files embed.FS

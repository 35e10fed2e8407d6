// Package picture draws the Dragonball field as a PNG: the hex grid with its cell numbers, the
// two halves and the midline, the edge and re-entry cells, the players, balls and dragons, the
// fire of the tact, and a Russian legend with both teams' rosters.
//
// One picture shows the field after one tact (the report posts the one after tact 3). Three
// tacts side by side at forum width (800-1000 px) would leave each field about 290 px wide:
// 17 px per cell, too small for cell numbers, initials and heights. So a picture is one field
// 900 px wide (50 px per cell), which a forum shows without scaling; the caller draws one per
// tact it wants to show. It is 847 px tall with up to nine players a team (larger teams make
// the rosters, and the picture, taller), an 8-bit PNG of 60-80 KB.
//
// The input is this package's own Field, a plain description of what is on the field (the
// caller leaves out what players must not see, such as the invisible yellow ball), so the
// picture does not depend on the engine's state; only the field's geometry (cell positions,
// edges, re-entry cells, the midline) comes from games/dragonball/rules, which owns it.
//
// The legend's words live in games/dragonball/picture/words.tmpl, as every text players read.
//
// Drawing uses golang.org/x/image: it is maintained by the Go team, pure Go (no cgo, no system
// libraries), and embeds the Go fonts (font/gofont), whose glyphs cover Cyrillic, so the
// picture is the same on every machine. Shapes are filled with its anti-aliasing rasterizer
// (vector) and text is drawn with font/opentype.
package picture

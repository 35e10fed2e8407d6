package picture

import (
	"embed"
	"sync"

	"forumgm/templates"
)

// wordsFile is the picture's texts (words.tmpl): everything players read lives in templates.
//
//go:embed words.tmpl
var wordsFile embed.FS

// words are the legend's and rosters' texts, from words.tmpl.
type words struct {
	set                                        *templates.Set
	sample, player, freeBall, heldBall, points string
	dragon, open, closed, fire, edge, reentry  string
	midline                                    string
	half, team                                 [2]string
}

// loadWords renders the fixed texts once; the set is safe for concurrent use.
var loadWords = sync.OnceValues(func() (*words, error) {
	set, err := templates.Load(wordsFile, "picture", nil)
	if err != nil {
		return nil, err
	}
	w := &words{set: set}
	fixed := []struct {
		name string
		to   *string
	}{
		{"dragonball_sample_initials", &w.sample},
		{"dragonball_legend_player", &w.player},
		{"dragonball_legend_free_ball", &w.freeBall},
		{"dragonball_legend_held_ball", &w.heldBall},
		{"dragonball_legend_points", &w.points},
		{"dragonball_legend_dragon", &w.dragon},
		{"dragonball_legend_mouth_open", &w.open},
		{"dragonball_legend_mouth_closed", &w.closed},
		{"dragonball_legend_fire", &w.fire},
		{"dragonball_legend_edge", &w.edge},
		{"dragonball_legend_reentry", &w.reentry},
		{"dragonball_legend_midline", &w.midline},
	}
	for _, f := range fixed {
		if *f.to, err = set.Render(f.name, nil); err != nil {
			return nil, err
		}
	}
	for t := range 2 {
		if w.half[t], err = set.Render("dragonball_half", t); err != nil {
			return nil, err
		}
		if w.team[t], err = set.Render("dragonball_team", t); err != nil {
			return nil, err
		}
	}
	return w, nil
})

// where is where a player is, for the roster.
func (w *words) where(p Player) (string, error) {
	return w.set.Render("dragonball_where", struct {
		Cell, Height int
		Off          string
	}{p.Cell, p.Height, p.Off})
}

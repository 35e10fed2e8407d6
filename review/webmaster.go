package review

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"forumgm/game"
)

// The game master's page of the web UI: the next deadlines, and the forms for an extension, a
// holiday, the game's length and a rules clarification (the same Review methods the CLI calls).

func (w *Web) masterPage(rw http.ResponseWriter, r *http.Request, g *Review) {
	sc, err := g.Schedule(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	l := w.labels(r, g)
	w.render(rw, r, http.StatusOK, "master", page{Title: w.msg("title.master", l), Game: g.Game, Kind: l.Kind, Schedule: &sc})
}

// masterCommand carries out one of the game master's page's forms.
func (w *Web) masterCommand(r *http.Request, g *Review, by, reason string) (game.Outcome, error, string) {
	field := func(name string) string { return strings.TrimSpace(r.PostForm.Get(name)) }
	switch r.PathValue("action") {
	case "extend":
		d, err := time.ParseDuration(strings.ReplaceAll(strings.ReplaceAll(field("delay"), "ч", "h"), "м", "m"))
		if err != nil {
			return game.Outcome{}, fmt.Errorf("%s", w.msg("err.bad_delay", nil)), ""
		}
		var at time.Time
		if s := field("deadline"); s != "" {
			if at, err = g.When(s); err != nil {
				return game.Outcome{}, fmt.Errorf("%s", w.msg("err.bad_deadline", nil)), ""
			}
		}
		out, err := g.Extend(r.Context(), by, reason, d, at)
		return out, err, w.msg("done.extended", nil)
	case "holiday":
		day, err := g.Day(field("day"))
		if err != nil {
			return game.Outcome{}, fmt.Errorf("%s", w.msg("err.bad_day", nil)), ""
		}
		out, err := g.Holiday(r.Context(), by, reason, day)
		return out, err, w.msg("done.holiday", nil)
	case "length":
		n, err := strconv.Atoi(field("length"))
		if err != nil {
			return game.Outcome{}, fmt.Errorf("%s", w.msg("err.bad_amount", nil)), ""
		}
		out, err := g.Length(r.Context(), by, reason, n)
		return out, err, w.msg("done.length", nil)
	}
	out, err := g.Clarify(r.Context(), by, reason, field("text"))
	return out, err, w.msg("done.clarified", nil)
}

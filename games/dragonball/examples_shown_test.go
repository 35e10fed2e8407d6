package dragonball

import (
	"regexp"
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/referee"
)

// reExample is an example a text shows: «NAME (сейчас в клетке …) может написать: [i]ORDERS[/i]»,
// or a dragon's orders in italics.
var (
	reExample = regexp.MustCompile(`(?s)(\S+) \(сейчас в клетке \d+, в\d\) может написать:\s*\[i\](.*?)\[/i\]`)
	reDragon  = regexp.MustCompile(`\[i\](Дракон такт [^\[]*?)\.?\[/i\]`)
)

// Every example the opening post and the help show is legal where shown: fed to the game as the
// player it is shown for (the dragon's orders as the team's handler), it is accepted whole. The
// opening post carries the picture of the field and says that moves go to neighbouring cells.
func TestExamplesShownAreLegal(t *testing.T) {
	sp := specOf(t, teamsYAML)
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	ref0, err := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "1", Salt: "s"})
	if err != nil {
		t.Fatal(err)
	}
	start, err := ref0.Start(sp.Start)
	if err != nil {
		t.Fatal(err)
	}
	opening := start.Messages[0]
	if len(opening.Attachments) != 1 || opening.Attachments[0].ContentType != "image/png" || len(opening.Attachments[0].Data) < 1000 {
		t.Errorf("the opening post has no picture of the field: %+v", len(opening.Attachments))
	}
	if !strings.Contains(opening.Body, "только на соседнюю клетку") {
		t.Errorf("the opening post does not say moves go to neighbouring cells:\n%s", opening.Body)
	}
	texts := map[string]string{"opening post": opening.Body}
	for _, who := range []string{"Рон", "Драко"} {
		h := newRef(t, teamsYAML).send(who, true, at(1, 11, 0), "помощь")
		texts["help for "+who] = h.Messages[0].Body
	}
	for where, text := range texts {
		ex := reExample.FindAllStringSubmatch(text, -1)
		dr := reDragon.FindAllStringSubmatch(text, -1)
		if len(ex) == 0 {
			t.Errorf("%s shows no orders example:\n%s", where, text)
		}
		for _, m := range ex {
			out := newRef(t, teamsYAML).send(m[1], true, at(1, 11, 0), m[2])
			if out.Verdict != game.Accepted || strings.Contains(out.Messages[0].Body, "Не принято") {
				t.Errorf("%s: the example for %s is refused:\n%s\n→ %s", where, m[1], m[2], out.Messages[0].Body)
			}
		}
		for _, m := range dr {
			out := newRef(t, teamsYAML).send("Гарри", true, at(1, 11, 0), m[1])
			if out.Verdict != game.Accepted || strings.Contains(out.Messages[0].Body, "Не принято") {
				t.Errorf("%s: the dragon's example is refused:\n%s\n→ %s", where, m[1], out.Messages[0].Body)
			}
		}
	}
	if h := texts["help for Драко"]; !strings.Contains(h, "Драко (сейчас в клетке") {
		t.Errorf("the help's example is not the asking player's:\n%s", h)
	}
}

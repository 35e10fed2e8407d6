package audit

import (
	"strconv"
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/referee"
)

// publicOf is an example's whole thread as a guest reads it.
func publicOf(t *testing.T, file string) ([]PublicPost, string) {
	t.Helper()
	tr := threadOf(t, "../games/"+strings.SplitN(file, "-", 2)[0]+"/examples/"+file)
	return TranscriptPosts(tr), tr.Bot
}

func failed(r *Report) string { return strings.Join(failures(r), "\n") }

// A finished game of each kind checks out from its public posts alone (no private message, no
// replay); each tamper fails, naming the post or the draw it touches.
func TestPublicCheck(t *testing.T) {
	for _, file := range []string{"crusade-flag.yaml", "dragonball-score.yaml", "dragonball-swallowed.yaml", "football-twelve.yaml", "football-early.yaml",
		// From sign-ups in the thread: a sign-up, and a volunteer's offer to replace a player,
		// make a player of its author, so it is in the chain.
		"crusade-whole.yaml", "dragonball-whole.yaml", "football-whole.yaml"} {
		t.Run(file, func(t *testing.T) {
			posts, bot := publicOf(t, file)
			rep, err := Public(posts, bot, known)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() {
				t.Fatalf("the honest thread fails:\n%s", rep)
			}
			var players []int
			final := -1
			for i, p := range posts {
				if !strings.EqualFold(p.Author, bot) {
					players = append(players, i)
				} else if strings.Contains(p.Text, "Зерно партии") {
					final = i
				}
			}
			tamper := func(name string, change func(ps []PublicPost), want ...string) {
				t.Helper()
				ps := make([]PublicPost, len(posts))
				copy(ps, posts)
				change(ps)
				rep, err := Public(ps, bot, known)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				f := failed(rep)
				if rep.OK() {
					t.Errorf("%s: passes", name)
					return
				}
				for _, w := range want {
					if !strings.Contains(strings.SplitN(f, "\n", 2)[0], w) {
						t.Errorf("%s: the first failure does not name %q:\n%s", name, w, f)
					}
				}
			}
			tamper("a seed", func(ps []PublicPost) {
				ps[final].Text = strings.Replace(ps[final].Text, "Зерно партии: ", "Зерно партии: 9", 1)
			}, "commitment")
			inChain := func(i int) bool { return strings.Contains(posts[final].Text, " "+posts[i].ID+"=") }
			var chained []int
			for _, i := range players {
				if i < final && inChain(i) {
					chained = append(chained, i)
				}
			}
			if len(chained) == 0 {
				t.Fatal("no player post in the chain")
			}
			// The first player's post fixed the start's draws (Dragonball's balls, football's
			// groups and first table; from sign-ups, the teams' forming): changed, its chain link
			// fails, and so do the draws made under it (one of them may still agree by chance: a
			// draw of two values does half the time).
			if strings.HasPrefix(file, "dragonball") || strings.HasPrefix(file, "football") {
				first := chained[0]
				ps := make([]PublicPost, len(posts))
				copy(ps, posts)
				ps[first].Text += "!"
				rep, err := Public(ps, bot, known)
				if err != nil {
					t.Fatal(err)
				}
				f := failures(rep)
				if len(f) == 0 || !strings.Contains(f[0], "post "+posts[first].ID+" ") {
					t.Errorf("the first player's post changed: the first failure does not name it:\n%s", strings.Join(f, "\n"))
				}
				start := false
				for _, l := range f {
					start = start || strings.HasPrefix(l, "draw ") && strings.Contains(l, " (after post ")
				}
				if !start {
					t.Errorf("the first player's post changed: every draw made under it still passes:\n%s", rep)
				}
			}
			mid := chained[len(chained)/2]
			tamper("a player's post", func(ps []PublicPost) { ps[mid].Text += " (исправлено)" }, "post "+posts[mid].ID+" ")
			tamper("a player's post left out", func(ps []PublicPost) {
				ps[mid] = PublicPost{ID: ps[mid].ID + "x", Author: "Гость", Text: "привет"}
			}, "post "+posts[mid].ID+" ")
			if len(chained) >= 2 {
				a, b := chained[0], chained[1]
				tamper("two posts swapped", func(ps []PublicPost) {
					ps[a].Text, ps[b].Text = ps[b].Text, ps[a].Text
				}, "post "+posts[a].ID+" ")
			}
			if draws, _ := drawList(posts[final]); len(draws) > 0 {
				d := draws[len(draws)-1]
				old := itoa(d.N) + ":" + itoa(uint64(d.Bound)) + ":" + itoa(uint64(d.Value)) + "@"
				nv := itoa(d.N) + ":" + itoa(uint64(d.Bound)) + ":" + itoa(uint64((d.Value+1)%d.Bound)) + "@"
				tamper("a face", func(ps []PublicPost) {
					ps[final].Text = strings.Replace(ps[final].Text, old, nv, 1)
					for i, c := range ps[final].Code {
						ps[final].Code = append([]string(nil), ps[final].Code...)
						ps[final].Code[i] = strings.Replace(c, old, nv, 1)
					}
				}, "draw "+itoa(d.N)+" ")
			}
		})
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// A game whose opening post commits to its setup: the revealed setup must be the committed one,
// and a setup that fixes chance fails, naming the settings.
func TestPublicSetup(t *testing.T) {
	posts, bot := publicOf(t, "football-twelve.yaml")
	first, final := -1, -1
	for i, p := range posts {
		if strings.EqualFold(p.Author, bot) {
			if first < 0 {
				first = i
			}
			if strings.Contains(p.Text, referee.DrawsLead) {
				final = i
			}
		}
	}
	with := func(setup, shown string) []PublicPost {
		ps := append([]PublicPost(nil), posts...)
		ps[first].Text += "\n" + referee.SetupLead + " " + game.SetupHash(setup)
		ps[final].Text = strings.Replace(ps[final].Text, referee.DrawsLead, referee.SetupShown+"\n"+shown+"\n"+referee.DrawsLead, 1)
		return ps
	}
	honest := `{"kind":"football","start":"2026-12-01T16:00:00Z","game":{"board":"default","settings":{"first_turn":"2026-12-01T20:00:00+03:00","turn_every":"30m","window":"10m"},"teams":[{"captain":"Вася","members":["Петя","Оля"],"name":"Команда 1"},{"captain":"Гоша","name":"Команда 2"}]}}`
	rep, err := Public(with(honest, honest), bot, known)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || !strings.Contains(rep.String(), "fixes no chance") {
		t.Fatalf("an honest setup:\n%s", rep)
	}
	changed := strings.Replace(honest, `"window":"10m"`, `"window":"15m"`, 1)
	if rep, _ := Public(with(honest, changed), bot, known); rep.OK() || !strings.Contains(failed(rep), "is not the one the opening post") {
		t.Errorf("a changed setting passes:\n%s", rep)
	}
	rigged := strings.Replace(honest, `"window":"10m"`, `"window":"10m","dice":{"37":6,"12":6}`, 1)
	if rep, _ := Public(with(rigged, rigged), bot, known); rep.OK() || !strings.Contains(failed(rep), "settings.dice") {
		t.Errorf("a setup fixing the dice passes:\n%s", rep)
	}
	if rep, _ := Public(with(honest, ""), bot, known); rep.OK() {
		t.Errorf("a committed setup left unrevealed passes:\n%s", rep)
	}
}

// The final post's lists are read from whatever a forum shows: nothing panics, and what is read
// is what was there.
func FuzzFinalPostLists(f *testing.F) {
	f.Add(referee.ChainLead + " 12=0123abcd, 15=89abcdef\n" + referee.DrawsLead + "\n[code]раунд: 0:6:3@0 1:100:50@2[/code]")
	f.Add(referee.ChainLead + " нет\n" + referee.DrawsLead + " нет")
	f.Add(referee.ChainLead + " ,,=\n" + referee.DrawsLead + " 99999999999999999999:1:1@1")
	f.Fuzz(func(t *testing.T, text string) {
		ids, prefixes, err := chainList(text)
		if err == nil && len(ids) != len(prefixes) {
			t.Fatalf("%d ids, %d heads", len(ids), len(prefixes))
		}
		draws, err := drawList(PublicPost{Text: text})
		if err == nil {
			for _, d := range draws {
				if !strings.Contains(text, strconv.FormatUint(d.N, 10)+":") {
					t.Fatalf("draw %d not in the text", d.N)
				}
			}
		}
		_, _ = Public([]PublicPost{{ID: "1", Author: "bot", Text: "sha256 " + strings.Repeat("a", 64)}, {ID: "2", Author: "bot", Text: "Зерно партии: 1, соль: 2. " + text}}, "bot", nil)
	})
}

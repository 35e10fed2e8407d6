package audit

import (
	"strconv"
	"strings"
	"testing"
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
	for _, file := range []string{"crusade-flag.yaml", "dragonball-score.yaml", "dragonball-swallowed.yaml", "football-twelve.yaml", "football-early.yaml"} {
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

package dragonball

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
	"forumgm/parser"
	"forumgm/referee"
)

var msk = time.FixedZone("MSK", 3*3600)

func at(day, h, m int) time.Time { return time.Date(2026, 12, day, h, m, 0, 0, msk) }

const teamsYAML = `teams:
  - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
  - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
`

// spec is a game section (YAML) as a Spec starting at 10:00 on 1 December.
func specOf(t testing.TB, src string) game.Spec {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	sp := game.Spec{Start: at(1, 10, 0)}
	if len(doc.Content) > 0 {
		sp.Node = *doc.Content[0]
	}
	return sp
}

// ref is a started referee of the game src describes.
type ref struct {
	*referee.Referee
	t testing.TB
}

func (r *ref) rules() *Rules { return r.Referee.Rules().(*Rules) }

// newRef is a started referee whose first player has said hello in the thread: the balls'
// start draws are made (they wait for the first player post).
func newRef(t testing.TB, src string, mut ...func(*game.Spec, *referee.Options)) *ref {
	t.Helper()
	r, sp, setup := openRef(t, src, mut...)
	if len(setup.Players) > 0 {
		r.send(setup.Players[0], false, sp.Start, "Готовы!")
	}
	return r
}

// openRef is a started referee before any player post: the balls are not drawn yet.
func openRef(t testing.TB, src string, mut ...func(*game.Spec, *referee.Options)) (*ref, game.Spec, *game.Setup) {
	t.Helper()
	sp := specOf(t, src)
	opt := referee.Options{Bot: "gm-bot", Seed: "1", Salt: "s"}
	for _, m := range mut {
		m(&sp, &opt)
	}
	opt.NoPM = sp.NoPM
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	r, err := referee.New(setup, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Start(sp.Start); err != nil {
		t.Fatal(err)
	}
	return &ref{Referee: r, t: t}, sp, setup
}

func (r *ref) send(author string, private bool, when time.Time, text string) game.Outcome {
	r.t.Helper()
	src := game.Thread
	if private {
		src = game.PM
	}
	out, err := r.Judge(game.Input{Source: src, PostID: when.Format("0215:04"), Author: author, At: when, Post: parser.FromBBCode(text)})
	if err != nil {
		r.t.Fatalf("%q by %s: %v", text, author, err)
	}
	return out
}

func finalJSON(t testing.TB, r *referee.Referee) string {
	t.Helper()
	b, err := json.Marshal(r.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Setup reports every problem at once, each with the field it is in.
func TestSetupErrorsNameFields(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"many problems", `settings: {catch_same: 120, rounds: 0, deadline: "25:00", timezone: Mars/Olympus}
teams:
  - {name: Грифоны, side: A, players: [Гарри, Рон], handler: Драко}
  - {name: Грифоны, side: C, players: [Гарри]}
`, []string{"settings.catch_same: 120", "settings.rounds: 0", "settings.deadline: \"25:00\"", "settings.timezone: \"Mars/Olympus\"",
			"teams[0].handler: \"Драко\"", "teams[1].name: \"Грифоны\" is also teams[0]", "teams[1].side: \"C\"", "teams[1].players[0]: \"Гарри\" is also teams[0].players[0]"}},
		{"unknown keys", "colour: red\n" + teamsYAML, []string{"colour"}},
		{"unknown setting", "settings: {speed_of_light: 3, catch_sam: 5}\n" + teamsYAML, []string{"speed_of_light", "catch_sam"}},
		{"no teams", "settings: {rounds: 3}\n", []string{"teams: 0 teams, want 2"}},
		{"too many players", "settings: {team_size: 2}\n" + teamsYAML, []string{"teams[0].players: 3 players, team_size is 2", "teams[1].players: 3 players"}},
		{"deployment field", teamsYAML + "deployment: {players: {Гарри: {cell: 57, hieght: 2}}}\n", []string{"deployment", "hieght"}},
		{"deployment position", teamsYAML + "deployment: {players: {Гарри: {cell: 300, height: 2}}}\n", []string{"deployment: player Гарри: cell 300"}},
		{"deployment stranger", teamsYAML + "deployment: {players: {Невилл: {cell: 57, height: 2}}}\n", []string{"\"Невилл\" is not a player"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Game{}.Setup(specOf(t, c.src))
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not name %q:\n%v", w, err)
				}
			}
		})
	}
}

// config.yaml's game section: the zone is game.timezone (a deadline in that zone), not a setting.
func TestSetupFromConfig(t *testing.T) {
	cfg := func(sp *game.Spec, _ *referee.Options) {
		sp.Timezone, sp.WorkingDays = "Asia/Yekaterinburg", []string{"Monday"}
	}
	r := newRef(t, "settings: {deadline: \"21:00\"}\n"+teamsYAML, cfg)
	if s := r.rules().game.Settings(); s.Timezone != "Asia/Yekaterinburg" || s.Location.String() != "Asia/Yekaterinburg" {
		t.Errorf("timezone: %q %v", s.Timezone, s.Location)
	}
	next, ok := r.NextTimer(at(1, 10, 0))
	if want := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC); !ok || !next.Equal(want) {
		t.Errorf("the first deadline is 21:00 in Yekaterinburg (16:00 UTC): %v", next)
	}
	for _, src := range []string{"settings: {timezone: Europe/Moscow}\n"} {
		sp := specOf(t, src+teamsYAML)
		cfg(&sp, nil)
		if _, err := (Game{}).Setup(sp); err == nil || !strings.Contains(err.Error(), "settings.") {
			t.Errorf("%s: want a settings error, got %v", strings.TrimSpace(src), err)
		}
	}
	setup, err := Game{}.Setup(specOf(t, teamsYAML))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл"}; !slices.Equal(setup.Players, want) {
		t.Errorf("players %v", setup.Players)
	}
}

// Orders by private message are answered privately, tact by tact, as understood; the state keeps
// them for the round.
func TestOrdersAnsweredPrivately(t *testing.T) {
	r := newRef(t, teamsYAML+"deployment: {players: {Гарри: {cell: 57, height: 2, balls: [красный]}}}\n")
	out := r.send("Гарри", true, at(1, 11, 0), "Такт 1: 58 в3\nТакт 2: пас 61 в2\nТакт 3: 58 в3 отбираю у Драко\nДракон такт 1: вперёд, пасть закрыта\nОписание: Гарри летит [к победе].")
	if out.Verdict != game.Accepted || len(out.Messages) != 1 {
		t.Fatalf("%s: %+v", out.Verdict, out.Messages)
	}
	m := out.Messages[0]
	if m.To != "Гарри" || m.Subject != "Драконбол" {
		t.Errorf("the answer goes privately to Гарри: to %q subject %q", m.To, m.Subject)
	}
	for _, want := range []string{"Приказы приняты", "(раунд 1)", "Такт 1: 58 в3", "Такт 2: на месте, пас на 61 в2", "Такт 3: 58 в3, отбираю у Драко",
		"Дракон: такт 1 — вперёд, пасть закрыта", "летит [\u200bк победе]"} {
		if !strings.Contains(m.Body, want) {
			t.Errorf("the answer lacks %q:\n%s", want, m.Body)
		}
	}
	o := r.rules().game.State().Orders["Гарри"]
	if o == nil || o.Tacts[0] == nil || o.Tacts[0].Cell != 58 || o.Tacts[1].Action != rules.Pass {
		t.Errorf("standing orders: %+v", o)
	}
}

// A refused line is named with its reason; the rest is accepted. A message with nothing
// acceptable is refused and changes nothing.
func TestRefusedLines(t *testing.T) {
	r := newRef(t, teamsYAML+"deployment: {players: {Рон: {cell: 57, height: 2}}}\n")
	out := r.send("Рон", true, at(1, 11, 0), "Такт 1: 58 в2\nТакт 2: 61\nДракон такт 1: вперёд")
	if out.Verdict != game.Accepted || len(out.Messages) != 1 {
		t.Fatalf("%s: %+v", out.Verdict, out.Messages)
	}
	body := out.Messages[0].Body
	for _, want := range []string{"Такт 1: 58 в2", "[b]Не принято[/b]", "«Такт 2: 61»: 58 → 61: это не соседняя клетка; из 58 можно на",
		"«Дракон такт 1: вперёд»: дракону приказывает Гарри"} {
		if !strings.Contains(body, want) {
			t.Errorf("the answer lacks %q:\n%s", want, body)
		}
	}
	before := finalJSON(t, r.Referee)
	orders := r.rules().game.State().Orders["Рон"]
	out = r.send("Рон", true, at(1, 12, 0), "Такт 1: 100 в2\nТакт 3: 58 в5")
	if out.Verdict != game.Refused || out.Messages[0].To != "Рон" || !strings.Contains(out.Messages[0].Body, "Приказы не приняты") ||
		!strings.Contains(out.Messages[0].Body, "«Такт 3: 58 в5»: высоты бывают 1, 2 и 3, а не 5") ||
		!strings.Contains(out.Messages[0].Body, "57 → 100: это не соседняя клетка") {
		t.Errorf("%s: %+v", out.Verdict, out.Messages)
	}
	if finalJSON(t, r.Referee) != before || !reflect.DeepEqual(r.rules().game.State().Orders["Рон"], orders) {
		t.Error("a refused message changed the state")
	}
	// Orders in the thread where they go privately: refused in the thread with the reason.
	out = r.send("Рон", false, at(1, 13, 0), "Такт 1: 58 в2")
	if out.Verdict != game.Refused || out.Messages[0].To != "" || !strings.Contains(out.Messages[0].Body, "личным сообщением") {
		t.Errorf("orders in the thread: %s %+v", out.Verdict, out.Messages)
	}
}

// What is not orders: help, chatter, unreadable lines, a stranger's orders, a private message the
// game cannot use.
func TestReadings(t *testing.T) {
	r := newRef(t, teamsYAML)
	cases := []struct {
		author  string
		private bool
		text    string
		verdict game.Verdict
		reply   string // a part of the reply ("" : no reply)
	}{
		{"Гойл", false, "помощь", game.Accepted, "Как писать приказы"},
		{"Гойл", true, "справка", game.Accepted, "Как писать приказы"},
		{"Джинни", false, "Удачи всем! Ловлю момент.", game.Ignored, ""},
		{"Джинни", true, "ловлю мяч на 57", game.Flagged, "я не понял приказ"},
		{"Невилл", true, "Такт 1: 57 в2 ловлю", game.Flagged, "не записаны"},
		{"Гойл", true, "привет, когда срок?", game.Ignored, "до 23:00 по Москве"},
		{"Гарри", false, "#спор дракон не мог меня проглотить", game.Flagged, "передано модератору"},
	}
	for _, c := range cases {
		before := finalJSON(t, r.Referee)
		out := r.send(c.author, c.private, at(1, 12, 0), c.text)
		if out.Verdict != c.verdict {
			t.Errorf("%q: verdict %s, want %s", c.text, out.Verdict, c.verdict)
		}
		if c.reply == "" && len(out.Messages) != 0 || c.reply != "" && (len(out.Messages) != 1 || !strings.Contains(out.Messages[0].Body, c.reply)) {
			t.Errorf("%q: replies %+v, want one with %q", c.text, out.Messages, c.reply)
		}
		if c.private && len(out.Messages) > 0 && out.Messages[0].To != c.author {
			t.Errorf("%q: a private message is answered privately: %+v", c.text, out.Messages[0])
		}
		if finalJSON(t, r.Referee) != before {
			t.Errorf("%q changed the state", c.text)
		}
	}
}

// Without private messages orders go in the thread (spells too) and are answered there.
func TestNoPM(t *testing.T) {
	r := newRef(t, teamsYAML+"deployment: {players: {Гарри: {cell: 57, height: 2, balls: [красный]}}}\n",
		func(sp *game.Spec, _ *referee.Options) { sp.NoPM = true })
	if !r.rules().game.Settings().OrdersPublic {
		t.Fatal("no private messages: orders_public")
	}
	out := r.send("Гарри", false, at(1, 11, 0), "Такт 1: 58 в2 пас 60 в2 Гуллис-дуллис")
	if out.Verdict != game.Accepted || out.Messages[0].To != "" || !strings.Contains(out.Messages[0].Body, "(Гуллис-дуллис)") {
		t.Errorf("%s %+v", out.Verdict, out.Messages)
	}
	body, err := r.rules().Say(game.SayStart, game.Context{})
	if err != nil || !strings.Contains(body, "здесь, в теме") || !strings.Contains(body, "заклинания заговорённых пасов видны всем") {
		t.Errorf("start: %v\n%s", err, body)
	}
}

// The round report goes to the thread at the deadline; the game's end brings the final post
// with the seed.
func TestRoundsAndEnd(t *testing.T) {
	r := newRef(t, "settings: {rounds: 1}\n"+teamsYAML)
	r.send("Гарри", true, at(1, 11, 0), "Такт 1: 2 в2\nОписание: разминка")
	var outs []game.Outcome
	if _, err := r.Advance(at(1, 11, 0), at(2, 0, 0), func(_ time.Time, o game.Outcome) error {
		outs = append(outs, o)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(outs) != 1 || len(outs[0].Messages) != 3 || !strings.Contains(outs[0].Messages[2].Body, "Итоги игры «Драконбол» в цифрах") {
		t.Fatalf("want one deadline with the report, the end and the summary: %+v", outs)
	}
	rep, end := outs[0].Messages[0], outs[0].Messages[1]
	if rep.To != "" || !strings.Contains(rep.Body, "[b]Раунд 1[/b]") || !strings.Contains(rep.Body, "«разминка»") || !strings.Contains(rep.Body, "раунды кончились") {
		t.Errorf("report:\n%s", rep.Body)
	}
	if end.To != "" || !strings.Contains(end.Body, "Ничья") || !strings.Contains(end.Body, "Зерно партии: 1, соль: s") {
		t.Errorf("end:\n%s", end.Body)
	}
	if !r.rules().Over() {
		t.Error("the game is not over")
	}
	if _, ok := r.NextTimer(at(2, 0, 0)); ok {
		t.Error("the clock runs on after the end")
	}
}

// The snapshot is the contract's `final` object: exactly its field names.
func TestSnapshotFields(t *testing.T) {
	r := newRef(t, teamsYAML+"deployment: {players: {Гарри: {cell: 57, height: 2, balls: [красный]}}}\n")
	var f map[string]json.RawMessage
	if err := json.Unmarshal([]byte(finalJSON(t, r.Referee)), &f); err != nil {
		t.Fatal(err)
	}
	keys := func(raw json.RawMessage) []string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	member := func(raw json.RawMessage, name string) json.RawMessage {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m[name]
	}
	checks := []struct {
		what string
		raw  json.RawMessage
		want []string
	}{
		{"final", mustRaw(t, f), []string{"balls", "dragons", "players", "round", "score", "warnings", "winner"}},
		{"player", member(f["players"], "Гарри"), []string{"balls", "cell", "height", "returns", "status", "team"}},
		{"dragon", member(f["dragons"], "Грифоны"), []string{"body", "effects", "flames", "head", "height", "swallowed", "tail", "volleys"}},
		{"ball", member(f["balls"], "красный"), []string{"cell", "height", "holder", "status", "visible"}},
		{"score", f["score"], []string{"Грифоны", "Змеи"}},
		{"balls", f["balls"], []string{"голубой", "жёлтый", "зелёный", "красный", "чёрный"}},
	}
	for _, c := range checks {
		if got := keys(c.raw); !slices.Equal(got, c.want) {
			t.Errorf("%s keys %v, want %v", c.what, got, c.want)
		}
	}
	var red struct {
		Status, Holder string
		Cell, Height   int
	}
	_ = json.Unmarshal(member(f["balls"], "красный"), &red)
	if red.Status != "held" || red.Holder != "Гарри" || red.Cell != 57 || red.Height != 2 {
		t.Errorf("a held ball has its holder's cell and height: %+v", red)
	}
}

func mustRaw(t testing.TB, m map[string]json.RawMessage) json.RawMessage {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A moderator may undo orders while their round is open (the earlier orders stand again), not a
// resolved round.
func TestUndo(t *testing.T) {
	r := newRef(t, teamsYAML)
	r.send("Рон", true, at(1, 11, 0), "Такт 1: 18 в2")
	r.send("Рон", true, at(1, 12, 0), "Такт 1: 17 в3")
	out, err := r.Moderate(game.ModCommand{Action: game.ModUndo, By: "Moderator", Reason: "по просьбе игрока", At: at(1, 13, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if body := out.Messages[0].Body; !strings.Contains(body, "отменил последние приказы Рон (раунд 1): по просьбе игрока") {
		t.Errorf("undone:\n%s", body)
	}
	if o := r.rules().game.State().Orders["Рон"]; o == nil || o.Tacts[0].Cell != 18 {
		t.Errorf("the earlier orders stand again: %+v", o)
	}
	if _, err := r.Advance(at(1, 13, 0), at(2, 0, 0), func(time.Time, game.Outcome) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Moderate(game.ModCommand{Action: game.ModUndo, By: "Moderator", At: at(2, 9, 0)}); err == nil {
		t.Error("a resolved round was undone")
	}
}

// A moderator ends the game: the winner named or by the score; the seed is revealed.
func TestModeratorEnd(t *testing.T) {
	r := newRef(t, teamsYAML)
	if _, err := r.Moderate(game.ModCommand{Action: game.ModEnd, By: "Moderator", Winner: "Вороны", At: at(1, 12, 0)}); err == nil {
		t.Error("an unknown winner accepted")
	}
	out, err := r.Moderate(game.ModCommand{Action: game.ModEnd, By: "Moderator", Winner: "Змеи", Reason: "Грифоны сдались", At: at(1, 12, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 2 || !strings.Contains(out.Messages[1].Body, "Результат: победа команды «Змеи»") ||
		!strings.Contains(out.Messages[0].Body, "завершена модератором[/b]: Грифоны сдались. Победа команды «Змеи»") ||
		!strings.Contains(out.Messages[0].Body, "Зерно партии: 1") {
		t.Errorf("%+v", out.Messages)
	}
	if f := r.rules().game.Final(); f.Winner != "Змеи" {
		t.Errorf("winner %q", f.Winner)
	}
}

// Every template the referee and the game render exists and renders without a missing value,
// for a typical context.
func TestTemplatesRender(t *testing.T) {
	r := newRef(t, teamsYAML)
	rs := r.rules()
	for _, n := range append(rs.Required(), game.RefereeTemplates...) {
		if !rs.Defined(n) {
			t.Errorf("no template %q", n)
		}
	}
	in := &game.Input{Source: game.PM, Author: "Гойл", At: at(1, 12, 0)}
	mod := &game.ModCommand{By: "Moderator", Reason: "перерыв", Flag: game.FlagDispute}
	for _, n := range game.RefereeTemplates {
		c := game.Context{In: in, Mod: mod, Dispute: "#спор", Fair: game.Fair{Commitment: "abc", Seed: "1", Salt: "s"},
			Lines: []rules.Problem{{Code: rules.CodeUnreadable, Line: "ловлю", Detail: "no_tact"}}}
		body, err := rs.Say(n, c)
		if err != nil || body == "" || strings.Contains(body, "<no value>") {
			t.Errorf("%s: %v\n%s", n, err, body)
		}
	}
}

// The sandbox's game section sets up, with a deadline a few minutes ahead.
func TestSandbox(t *testing.T) {
	sg := Game{}.Sandbox()
	if len(sg.Players) != 6 || sg.Spec == "" || len(sg.Try) == 0 {
		t.Fatalf("%+v", sg)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(sg.Spec), &doc); err != nil {
		t.Fatalf("spec: %v\n%s", err, sg.Spec)
	}
	sp := game.Spec{Node: *doc.Content[0], Start: time.Now(), Timezone: "Europe/Moscow"}
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatalf("%v\n%s", err, sg.Spec)
	}
	for _, u := range sg.Players {
		if !slices.Contains(setup.Players, u.Name) || u.Password == "" {
			t.Errorf("sandbox login %+v does not play", u)
		}
	}
}

// The sandbox's first round resolves ten minutes after it opens, whatever the time of day.
func TestSandboxDeadline(t *testing.T) {
	for _, now := range []time.Time{at(1, 12, 0), time.Date(2026, 12, 1, 20, 55, 30, 0, time.UTC)} {
		sg := sandboxAt(now)
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(sg.Spec), &doc); err != nil {
			t.Fatal(err)
		}
		setup, err := Game{}.Setup(game.Spec{Node: *doc.Content[0], Start: now, Timezone: "Europe/Moscow"})
		if err != nil {
			t.Fatal(err)
		}
		rules, err := setup.New()
		if err != nil {
			t.Fatal(err)
		}
		evs, err := rules.(game.Opener).Open(now, game.NewRand("1", 0, game.Mix{}))
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if err := rules.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := rules.NextTimer(now); ok {
			t.Errorf("opened at %v: a round is due before the balls are drawn", now)
		}
		sd := rules.(game.StartDrawer)
		if !sd.StartPending() {
			t.Fatal("the sandbox's balls need no draw")
		}
		drawn, err := sd.DrawStart(now, game.NewRand("1", 0, game.Mix{}))
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range drawn {
			if err := rules.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		next, ok := rules.NextTimer(now)
		if lead := next.Sub(now); !ok || lead < sandboxLead || lead > sandboxLead+time.Minute {
			t.Errorf("opened at %v: the first round resolves at %v", now, next)
		}
	}
}

// What the sandbox's banner suggests trying is accepted as it stands.
func TestSandboxTry(t *testing.T) {
	r := newRef(t, sandboxAt(at(1, 12, 0)).Spec, func(sp *game.Spec, _ *referee.Options) { sp.Timezone = "Europe/Moscow" })
	out := r.send("Гарри", true, at(1, 12, 1), "Такт 1: 17 в2\nДракон такт 1: вперёд")
	if out.Verdict != game.Accepted || strings.Contains(out.Messages[0].Body, "Не принято") {
		t.Errorf("%s:\n%s", out.Verdict, out.Messages[0].Body)
	}
}

// TestExpectsPrivate: orders go by private message all game long; written in the thread, none.
func TestExpectsPrivate(t *testing.T) {
	if r := newRef(t, teamsYAML); !r.Referee.ExpectsPrivate(at(1, 11, 0)) {
		t.Error("orders by private message: none expected")
	}
	if r := newRef(t, teamsYAML, func(sp *game.Spec, _ *referee.Options) { sp.NoPM = true }); r.Referee.ExpectsPrivate(at(1, 11, 0)) {
		t.Error("orders in the thread: a private message expected")
	}
}

// An acknowledgement of orders says when their round is played: round 1 today, round 2 (orders
// sent after round 1's deadline) tomorrow at the deadline, with the zone.
func TestOrdersAcknowledgementGivesDeadline(t *testing.T) {
	r := newRef(t, "settings: {deadline: \"23:00\", rounds: 3}\n"+teamsYAML)
	out := r.send("Гарри", true, at(1, 11, 0), "Такт 1: 2 в2")
	if out.Verdict != game.Accepted || !strings.Contains(out.Messages[0].Body, "Раунд 1 разыгрывается 1 декабря в 23:00 по Москве") {
		t.Fatalf("round 1: %s %+v", out.Verdict, out.Messages)
	}
	if _, err := r.Advance(at(1, 11, 0), at(1, 23, 30), func(time.Time, game.Outcome) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// Round 1's draws may have sent a player to the hospital: the first who may order does.
	for _, p := range []string{"Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл"} {
		if out = r.send(p, true, at(1, 23, 40), "Такт 1: стою"); out.Verdict == game.Accepted {
			break
		}
	}
	if out.Verdict != game.Accepted || !strings.Contains(out.Messages[0].Body, "Раунд 2 разыгрывается 2 декабря в 23:00 по Москве") {
		t.Fatalf("round 2: %s %+v", out.Verdict, out.Messages)
	}
}

// TestStartDrawsFollowTheFirstPost: the free balls' directions and heights are drawn at the first
// player post in the thread, not in the opening post: two games with the same seed whose first
// posts differ draw different balls; before the first post the opening post shows no height, no
// round is due and a private message does not draw; a deployment that leaves nothing open draws
// nothing.
func TestStartDrawsFollowTheFirstPost(t *testing.T) {
	first := func(text string) (*ref, game.Outcome) {
		t.Helper()
		r, sp, _ := openRef(t, teamsYAML)
		if !r.rules().StartPending() {
			t.Fatal("the balls are drawn before any post")
		}
		if _, ok := r.NextTimer(sp.Start); ok {
			t.Error("a round is due before the balls are drawn")
		}
		if out := r.send("Гарри", true, at(1, 12, 5), "Такт 1: 2 в2"); len(out.Events) != 1 || !r.rules().StartPending() {
			t.Errorf("a private message drew the balls: %d events", len(out.Events))
		}
		out := r.send("Рон", false, at(1, 12, 10), text)
		if r.rules().StartPending() || len(out.Events) == 0 {
			t.Fatalf("the first post in the thread did not draw the balls")
		}
		return r, out
	}
	r1, o1 := first("Готовы!")
	_, o2 := first("Готовы!!")
	d1, ok1 := o1.Events[0].(*rules.BallsDrawn)
	d2, ok2 := o2.Events[0].(*rules.BallsDrawn)
	if !ok1 || !ok2 || len(d1.Balls) != 5 {
		t.Fatalf("first events: %T %T", o1.Events[0], o2.Events[0])
	}
	if d1.Draws[0].K != 1 {
		t.Errorf("the balls were drawn under chain position %d, want 1", d1.Draws[0].K)
	}
	if reflect.DeepEqual(d1.Balls, d2.Balls) {
		t.Errorf("the same seed with different first posts drew the same balls: %+v", d1.Balls)
	}
	body := o1.Messages[0].Body
	if !strings.Contains(body, "Жеребьёвка мячей по первому посту игрока") || !strings.Contains(body, fmt.Sprintf("%s — клетка %d, в%d", d1.Balls[0].Color, d1.Balls[0].Cell, d1.Balls[0].Height)) {
		t.Errorf("the reply to the first post announces the balls:\n%s", body)
	}
	if next, ok := r1.NextTimer(at(1, 12, 10)); !ok || !next.After(at(1, 12, 10)) {
		t.Errorf("no round after the draw: %v %v", next, ok)
	}

	// the opening post: no drawn height, the draw announced
	setup, err := Game{}.Setup(specOf(t, teamsYAML))
	if err != nil {
		t.Fatal(err)
	}
	rf, _ := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "1", Salt: "s"})
	open, err := rf.Start(at(1, 12, 0))
	if err != nil || len(open.Events) != 1 || len(open.Events[0].(game.Drawer).Drawn()) != 0 {
		t.Fatalf("start: %v, %d events, drew something", err, len(open.Events))
	}
	if b := open.Messages[0].Body; !strings.Contains(b, "высота — по жеребьёвке") || !strings.Contains(b, "Жеребьёвка мячей — по первому посту") {
		t.Errorf("the opening post:\n%s", b)
	}

	// everything deployed: nothing to draw, rounds run from the start
	full := teamsYAML + `deployment:
  balls:
    чёрный: {cell: 106, height: 1, dir: e}
    зелёный: {cell: 106, height: 2, dir: w}
    голубой: {cell: 106, height: 3, dir: se}
    красный: {cell: 106, height: 1, dir: sw}
    жёлтый: {cell: 106, height: 2, dir: ne}
`
	rd, sp, _ := openRef(t, full)
	if rd.rules().StartPending() {
		t.Error("a full deployment waits for a draw")
	}
	if _, ok := rd.NextTimer(sp.Start); !ok {
		t.Error("a full deployment has no round")
	}
	if out := rd.send("Рон", false, at(1, 12, 10), "Готовы!"); len(out.Events) != 0 {
		t.Errorf("a full deployment drew at the first post: %d events", len(out.Events))
	}
}

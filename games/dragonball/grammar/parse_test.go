package grammar

import (
	"encoding/json"
	"testing"

	"forumgm/forum"
	db "forumgm/games/dragonball/rules"
)

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestContractExample: the contract's own example message.
func TestContractExample(t *testing.T) {
	o := Parse("Такт 1: 57 в2 ловлю\nТакт 2: 58 в3 пас красный 62 в2\nТакт 3: 58 в3 отбираю у Седрик\n" +
		"Описание: Гарри ныряет под хвост дракона и ловит мяч у самой трибуны.")
	want := []db.TactOrder{
		{Tact: 1, Cell: 57, Height: 2, Action: db.Catch},
		{Tact: 2, Cell: 58, Height: 3, Action: db.Pass, Ball: db.Red, To: 62, ToHeight: 2},
		{Tact: 3, Cell: 58, Height: 3, Action: db.Steal, Target: "Седрик"},
	}
	for i := range o.Tacts {
		o.Tacts[i].Line = ""
	}
	if js(o.Tacts) != js(want) {
		t.Errorf("tacts:\n got %s\nwant %s", js(o.Tacts), js(want))
	}
	if !o.HasDescription || o.Description != "Гарри ныряет под хвост дракона и ловит мяч у самой трибуны." {
		t.Errorf("description %q", o.Description)
	}
	if len(o.Unreadable) != 0 {
		t.Errorf("unreadable: %v", o.Unreadable)
	}
}

func TestTactLines(t *testing.T) {
	cases := []struct {
		in   string
		want db.TactOrder
	}{
		{"Такт 3: стою", db.TactOrder{Tact: 3}},
		{"2 такт: клетка 40 высота 1", db.TactOrder{Tact: 2, Cell: 40, Height: 1}},
		{"1) 57 выс 3", db.TactOrder{Tact: 1, Cell: 57, Height: 3}},
		{"3. 57 h2", db.TactOrder{Tact: 3, Cell: 57, Height: 2}},
		{"ТАКТ 1 - лечу на 57 В2, ЛОВЛЮ МЯЧ", db.TactOrder{Tact: 1, Cell: 57, Height: 2, Action: db.Catch}},
		{"Takт 1: 57 B2 ловлю", db.TactOrder{Tact: 1, Cell: 57, Height: 2, Action: db.Catch}},
		{"1-й такт: юв в3", db.TactOrder{Tact: 1, Dir: "se", Height: 3}},
		{"такт 2: sw", db.TactOrder{Tact: 2, Dir: "sw"}},
		{"такт 2: восток", db.TactOrder{Tact: 2, Dir: "e"}},
		{"Такт 1: ловлю Цап-царапс", db.TactOrder{Tact: 1, Action: db.Catch, Spell: "Цап-царапс"}},
		{"Такт 1: ловлю цап царапс", db.TactOrder{Tact: 1, Action: db.Catch, Spell: "Цап-царапс"}},
		{"Такт 2: 58 в3 пас красный 62 в2 Гуллис-дуллис", db.TactOrder{Tact: 2, Cell: 58, Height: 3, Action: db.Pass, Ball: db.Red, To: 62, ToHeight: 2, Spell: "Гуллис-дуллис"}},
		{"Такт 2: пас жёлтый 62", db.TactOrder{Tact: 2, Action: db.Pass, Ball: db.Yellow, To: 62}},
		{"Такт 2: пас 62 в1", db.TactOrder{Tact: 2, Action: db.Pass, To: 62, ToHeight: 1}},
		{"такт 3: отбираю", db.TactOrder{Tact: 3, Action: db.Steal}},
		{"такт 3: отбираю у Крэбба", db.TactOrder{Tact: 3, Action: db.Steal, Target: "Крэбба"}},
	}
	for _, c := range cases {
		o := Parse(c.in)
		if len(o.Tacts) != 1 || len(o.Unreadable) != 0 {
			t.Errorf("%q: %s unreadable %v", c.in, js(o.Tacts), o.Unreadable)
			continue
		}
		got := o.Tacts[0]
		got.Line = ""
		if js(got) != js(c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.in, js(got), js(c.want))
		}
	}
}

func TestDragonLines(t *testing.T) {
	cases := []struct {
		in   string
		want db.DragonOrder
	}{
		{"Дракон такт 1: вперёд, выше, пасть закрыта, залп", db.DragonOrder{Tact: 1, Move: db.MoveForward, Climb: 1, Mouth: db.MouthClosed, Fire: db.FireVolley}},
		{"дракон 2 такт: налево, ниже, пасть открыта, пламя", db.DragonOrder{Tact: 2, Move: db.MoveLeft, Climb: -1, Mouth: db.MouthOpen, Fire: db.FireFlame}},
		{"Дракон, такт 3: направо высота 2", db.DragonOrder{Tact: 3, Move: db.MoveRight, Height: 2}},
		{"ДРАКОН ТАКТ 3: стоит", db.DragonOrder{Tact: 3, Move: db.MoveStay}},
	}
	for _, c := range cases {
		o := Parse(c.in)
		if len(o.Dragon) != 1 || len(o.Unreadable) != 0 || len(o.Tacts) != 0 {
			t.Errorf("%q: %s %s unreadable %v", c.in, js(o.Dragon), js(o.Tacts), o.Unreadable)
			continue
		}
		got := o.Dragon[0]
		got.Line = ""
		if js(got) != js(c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.in, js(got), js(c.want))
		}
	}
	// "Дракон:" alone: the tact lines after it are the dragon's
	o := Parse("Дракон:\nТакт 1: вперёд\nТакт 2: залп")
	if len(o.Dragon) != 2 || o.Dragon[1].Fire != db.FireVolley {
		t.Errorf("dragon block: %s", js(o))
	}
}

func TestUnreadableAndChatter(t *testing.T) {
	if o := Parse("Привет всем! Отличная погода для драконбола."); !o.Empty() {
		t.Errorf("chatter read as orders: %s", js(o))
	}
	for _, chat := range []string{"23:00 всем удачи!", "1. Привет", "2) ну и погода", "5. ловлю момент"} {
		if o := Parse(chat); len(o.Tacts)+len(o.Dragon) != 0 || (len(o.Unreadable) != 0 && chat != "5. ловлю момент") {
			t.Errorf("%q read as orders: %s", chat, js(o))
		}
	}
	o := Parse("ловлю красный на 57")
	if len(o.Unreadable) != 1 || o.Unreadable[0].Detail != "no_tact" {
		t.Errorf("no tact: %s", js(o))
	}
	o = Parse("Такт 1: ловлю и пас 62")
	if len(o.Unreadable) != 1 || o.Unreadable[0].Code != db.CodeTwoActions {
		t.Errorf("two actions: %s", js(o))
	}
	o = Parse("Такт 2: пас красный")
	if len(o.Unreadable) != 1 || o.Unreadable[0].Detail != "no_pass_target" {
		t.Errorf("pass without target: %s", js(o))
	}
}

// TestParsePostIgnoresQuotes: orders quoted from someone else are not the poster's.
func TestParsePostIgnoresQuotes(t *testing.T) {
	p := forum.Post{Text: "Такт 1: 57 в2", Quotes: []forum.Quote{{Author: "Драко", Text: "Такт 1: 60 в3 ловлю"}},
		Code: []string{"Такт 2: 58"}}
	o := ParsePost(p)
	if len(o.Tacts) != 2 || o.Tacts[0].Cell != 57 || o.Tacts[1].Cell != 58 || o.Tacts[0].Action != "" {
		t.Errorf("got %s", js(o.Tacts))
	}
}

func TestIsHelp(t *testing.T) {
	for in, want := range map[string]bool{"помощь": true, " Справка? ": true, "HELP!": true, "как писать приказы?": true,
		"помощь нужна Рону": false, "Такт 1: стою": false, "": false} {
		if got := IsHelp(in); got != want {
			t.Errorf("IsHelp(%q) = %v", in, got)
		}
	}
}

package parser

import (
	"reflect"
	"testing"

	"forumgm/forum"
)

func TestFromBBCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want forum.Post
	}{
		{"plain", "1-й ход сарацина н2 на G5", forum.Post{Text: "1-й ход сарацина н2 на G5"}},
		{"quote named", "[quote=Bot]поле[/quote]\nмой ход", forum.Post{Text: "мой ход", Quotes: []forum.Quote{{Author: "Bot", Text: "поле"}}}},
		{"quote mybb", "[quote=\"Game Master\" pid='3' dateline='1170000000']текст[/quote]ход", forum.Post{Text: "ход", Quotes: []forum.Quote{{Author: "Game Master", PostID: "3", Text: "текст"}}}},
		{"quote phpbb", "[quote=\"gm\" post_id=12 time=1 user_id=2]a[/quote]", forum.Post{Quotes: []forum.Quote{{Author: "gm", PostID: "12", Text: "a"}}}},
		{"quote smf", "[quote author=gm link=msg=45 date=1]a[/quote]", forum.Post{Quotes: []forum.Quote{{Author: "gm", PostID: "45", Text: "a"}}}},
		{"quote vb", "[QUOTE=gm;77]a[/QUOTE]", forum.Post{Quotes: []forum.Quote{{Author: "gm", PostID: "77", Text: "a"}}}},
		{"quote xf", "[QUOTE=\"gm, post: 9, member: 3\"]a[/QUOTE]", forum.Post{Quotes: []forum.Quote{{Author: "gm", PostID: "9", Text: "a"}}}},
		{"quote ipb", "[quote name='gm' timestamp='1' post='5']a[/quote]", forum.Post{Quotes: []forum.Quote{{Author: "gm", PostID: "5", Text: "a"}}}},
		{"quote anon", "[quote]a[/quote]b", forum.Post{Text: "b", Quotes: []forum.Quote{{Text: "a"}}}},
		{"nested", "[quote=A]outer [quote=B]inner[/quote] tail[/quote]own", forum.Post{Text: "own", Quotes: []forum.Quote{{Author: "A", Text: "outer \ninner\n tail"}}}},
		{"code", "ход\n[code]\n|__|в1|\n  x  \n[/code]\nконец", forum.Post{Text: "ход\n|__|в1|\n  x  \nконец", Code: []string{"|__|в1|\n  x  "}}},
		{"code keeps tags", "[code][b]x[/b][quote]y[/code]", forum.Post{Text: "[b]x[/b][quote]y", Code: []string{"[b]x[/b][quote]y"}}},
		{"code in quote", "[quote=gm][code]|__|[/code][/quote]", forum.Post{Quotes: []forum.Quote{{Author: "gm", Text: "|__|"}}}},
		{"quote close inside code", "[quote=gm][code][/quote][/code]x[/quote]y", forum.Post{Text: "y", Quotes: []forum.Quote{{Author: "gm", Text: "[/quote]\nx"}}}},
		{"spoiler", "a[spoiler=План]секрет[/spoiler]b", forum.Post{Text: "a\nb", Spoilers: []forum.Spoiler{{Title: "План", Text: "секрет"}}}},
		{"formatting", "[b]н2[/b] на [color=red]G5[/color] [url=http://x]ссылка[/url][img]http://i[/img] [J5]", forum.Post{Text: "н2 на G5 ссылка [J5]"}},
		{"unclosed", "[quote=gm]a", forum.Post{Text: "[quote=gm]a"}},
		{"crlf nbsp", "a\r\nb&nbsp;c\u00a0d", forum.Post{Text: "a\nb c d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FromBBCode(tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func FuzzFromBBCode(f *testing.F) {
	f.Add("[quote=a][quote=b]x[/quote][code]y[/code][/quote]z[spoiler]s[/spoiler][b]b[/b]")
	f.Fuzz(func(t *testing.T, s string) {
		a, b := FromBBCode(s), FromBBCode(s)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("not deterministic")
		}
	})
}

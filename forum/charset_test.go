package forum

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// russianPage is a thread page with Russian posts, as a board writes it in UTF-8.
const russianPage = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=%s" /><title>Игра</title></head><body>
<div class="post"><span class="author">Джелу</span><div class="post_body">1-й ход крестоносца к1 на K16</div></div>
<div class="post"><span class="author">snovaya</span><div class="post_body">Плохой ход сарацина, но я всё равно пойду дальше.</div></div>
</body></html>`

func page(declared string) string { return strings.ReplaceAll(russianPage, "%s", declared) }

func encode(t *testing.T, cm *charmap.Charmap, s string) []byte {
	t.Helper()
	b, err := cm.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A page whose declared charset is not the one it is sent in is read by what it is: UTF-8 declared
// as windows-1251 (in the header or the <meta>), windows-1251 declared as UTF-8, KOI8-R declared
// as either, and windows-1251 with no declaration at all (the sniff's windows-1252).
func TestDecodeMismatch(t *testing.T) {
	for _, c := range []struct {
		name, ctype string
		raw         []byte
		charset     string
	}{
		{"utf-8 declared windows-1251 in the header", "text/html; charset=windows-1251", []byte(page("windows-1251")), "utf-8"},
		{"utf-8 declared windows-1251 in the meta", "text/html", []byte(page("windows-1251")), "utf-8"},
		{"utf-8 declared koi8-r", "text/html; charset=KOI8-R", []byte(page("koi8-r")), "utf-8"},
		{"windows-1251 declared utf-8", "text/html; charset=UTF-8", encode(t, charmap.Windows1251, page("UTF-8")), "windows-1251"},
		{"windows-1251 declared koi8-r", "text/html; charset=koi8-r", encode(t, charmap.Windows1251, page("koi8-r")), "windows-1251"},
		{"windows-1251 undeclared", "text/html", encode(t, charmap.Windows1251, strings.Replace(page(""), `<meta http-equiv="Content-Type" content="text/html; charset=" />`, "", 1)), "windows-1251"},
		{"koi8-r declared utf-8", "text/html; charset=utf-8", encode(t, charmap.KOI8R, page("utf-8")), "koi8-r"},
		{"koi8-r declared windows-1251", "text/html; charset=windows-1251", encode(t, charmap.KOI8R, page("windows-1251")), "koi8-r"},
		{"koi8-r as declared", "text/html; charset=koi8-r", encode(t, charmap.KOI8R, page("koi8-r")), "koi8-r"},
		{"windows-1251 as declared", "text/html; charset=windows-1251", encode(t, charmap.Windows1251, page("windows-1251")), "windows-1251"},
		{"utf-8 as declared", "text/html; charset=utf-8", []byte(page("utf-8")), "utf-8"},
	} {
		b, cs, err := Decode(c.raw, c.ctype)
		if err != nil || cs != c.charset {
			t.Errorf("%s: decoded as %q (%v), want %s", c.name, cs, err, c.charset)
			continue
		}
		for _, want := range []string{"Джелу", "1-й ход крестоносца к1 на K16", "всё равно"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: %q not in the decoded page:\n%s", c.name, want, b)
			}
		}
		if why := Garbled(string(b)); why != "" {
			t.Errorf("%s: the decoded page is garbled: %s", c.name, why)
		}
	}
}

// A UTF-8 page with a stray broken byte (a title cut mid-letter) stays UTF-8: the byte becomes
// U+FFFD, which Garbled then reports for the post that holds it.
func TestDecodeStrayByte(t *testing.T) {
	raw := []byte(strings.Replace(page("utf-8"), "Плохой", "Плох\xd0", 1))
	b, cs, err := Decode(raw, "text/html; charset=utf-8")
	if err != nil || cs != "utf-8" || !strings.Contains(string(b), "Плох\uFFFD") || !strings.Contains(string(b), "Джелу") {
		t.Fatalf("%q %v:\n%s", cs, err, b)
	}
}

// Garbled finds the mojibake of a mis-read page and replacement characters, and not the Russian,
// English or accented text of real posts.
func TestGarbled(t *testing.T) {
	mis1251 := func(s string) string { // UTF-8 bytes read as windows-1251
		b, _ := charmap.Windows1251.NewDecoder().Bytes([]byte(s))
		return string(b)
	}
	misLatin := func(s string) string { // windows-1251 bytes read as windows-1252
		b, _ := charmap.Windows1252.NewDecoder().Bytes(encode(t, charmap.Windows1251, s))
		return string(b)
	}
	for _, s := range []string{mis1251("Джелу"), mis1251("1-й ход крестоносца к1 на K16"), mis1251("Да"),
		misLatin("Джелу"), misLatin("к1 на K15"), "ход \uFFFD\uFFFD на K16", "ход \xd0 на"} {
		if Garbled(s) == "" {
			t.Errorf("%q: not found garbled", s)
		}
	}
	if got := mis1251("Джелу"); got != "Р”Р¶РµР»Сѓ" {
		t.Fatalf("the test's own mojibake: %q", got)
	}
	for _, s := range []string{"Джелу", "ВСЁ РЁВ И СЁМГА", "буква Р» и буква С…", "Рёва", "1-й ход крестоносца к1 на K16", "snovaya",
		"Größe über", "élève à côté", "não ações do jogo", "распределение: с1 в резерве", "Ёлка, ёж и Р—С"} {
		if why := Garbled(s); why != "" {
			t.Errorf("%q: found garbled (%s)", s, why)
		}
	}
}

// CheckEncoding marks garbled posts with a ProblemEncoding naming the part, and leaves the others.
func TestCheckEncoding(t *testing.T) {
	posts := []Post{{ID: "1", Author: "Джелу", Text: "ход"}, {ID: "2", Author: "Р”Р¶РµР»Сѓ", Text: "С…РѕРґ Рє1"}}
	CheckEncoding(posts)
	if _, ok := posts[0].Encoding(); ok || len(posts[0].Problems) != 0 {
		t.Errorf("a clean post marked: %v", posts[0].Problems)
	}
	pr, ok := posts[1].Encoding()
	if !ok || len(posts[1].Problems) != 2 || !strings.HasPrefix(pr.Detail, "author: mojibake") {
		t.Errorf("a garbled post: %v", posts[1].Problems)
	}
	var back Problem
	if err := back.UnmarshalText([]byte(pr.String())); err != nil || back != pr {
		t.Errorf("round trip: %v %v", back, err)
	}
}

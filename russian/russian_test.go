package russian

import "testing"

func TestParseOrdinal(t *testing.T) {
	for in, want := range map[string]int{
		"1-й": 1, "1-ый": 1, "1й": 1, "1ый": 1, "1": 1, "2-ой": 2, "3-ий": 3, "3-й": 3, "1.": 1, "1-я": 1,
		"первый": 1, "Первый": 1, "второй": 2, "третий": 3, "четвёртый": 4, "четвертый": 4, "пятый": 5,
		"первая": 1, "третья": 3, "1-ои": 1,
	} {
		if got, ok := ParseOrdinal(in); !ok || got != want {
			t.Errorf("ParseOrdinal(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "ход", "1x", "перв", "первоклассный", "1-abc", "12345"} {
		if n, ok := ParseOrdinal(in); ok {
			t.Errorf("ParseOrdinal(%q) = %d", in, n)
		}
	}
}

func TestLookalikes(t *testing.T) {
	if got := ToLatinUpper("Сс5 Ее Рр g"); got != "CC5 EE PP G" {
		t.Errorf("ToLatinUpper: %q", got)
	}
	if got := ToCyrillicLower("H2 p1 B3 a1 c1 K1 w1 Н2"); got != "н2 р1 в3 а1 с1 к1 ш1 н2" {
		t.Errorf("ToCyrillicLower: %q", got)
	}
	if got := Fold("ЁЖИК Идёт"); got != "ежик идет" {
		t.Errorf("Fold: %q", got)
	}
	if _, ok := LatinUpper('Д'); ok {
		t.Error("Д has no Latin reading")
	}
	if r, ok := CyrillicLower('q'); ok {
		t.Errorf("q -> %c", r)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"", "abc", 3}, {"сарацна", "сарацина", 1}, {"сорацина", "сарацина", 1},
		{"крестонсца", "крестоносца", 1}, {"каретс", "карест", 1}, {"сарацин", "крестоносца", 10},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
	if !NearWord("Сарацна", "сарацина") || !NearWord("крестонсца", "крестоносца") || NearWord("ход", "хот") || NearWord("рана", "сарацина") {
		t.Error("NearWord")
	}
}

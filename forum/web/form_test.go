package web

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

const page = `<form id="f" action="post.php?tid=2#x" accept-charset="unknown windows-1251">
<input type="hidden" name="csrf" value="t1">
<input name="subject" value="s">
<input type="password" name="pw">
<input type="checkbox" name="a" checked><input type="checkbox" name="b" value="1">
<input type="radio" name="r" value="x"><input type="radio" name="r" value="y" checked>
<select name="sel"><option value="1">one</option><option selected>two</option></select>
<select name="first"><option value="f">F</option></select>
<select name="none"></select>
<textarea name="msg">

text</textarea>
<input type="file" name="up"><input type="text" name="off" value="z" disabled><input value="noname">
<input type="submit" name="post" value="Send"><input type="submit" name="preview" value="Preview">
</form>`

func doc(t *testing.T, h string) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(h))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestValues(t *testing.T) {
	f := doc(t, page).Find("#f")
	base := url.Values{"csrf": {"t1"}, "subject": {"s"}, "pw": {""}, "a": {"on"}, "r": {"y"}, "sel": {"two"}, "first": {"f"}, "msg": {"\ntext"}}
	with := func(k, v string) url.Values {
		out := url.Values{}
		for a, b := range base {
			out[a] = b
		}
		out[k] = []string{v}
		return out
	}
	for _, tc := range []struct {
		r    Replay
		want url.Values
	}{
		{Replay{}, base},
		{Replay{Submit: "post"}, with("post", "Send")},
		{Replay{Submit: "subject"}, base}, // not a button
		{Replay{TrimTextarea: true}, with("msg", "text")},
	} {
		if got := tc.r.Values(f); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v:\ngot  %v\nwant %v", tc.r, got, tc.want)
		}
	}
}

func TestRead(t *testing.T) {
	u, _ := url.Parse("http://h/f/viewtopic.php?id=2")
	p := &forum.Page{URL: u}
	for _, tc := range []struct {
		html, sel, action string
		err               bool
	}{
		{page, "#f", "http://h/f/post.php?tid=2", false},
		{`<form id="g"><input name="a" value="1"></form>`, "#g", "http://h/f/viewtopic.php?id=2", false},
		{`<form id="g" action=" /x.php "></form>`, "#g", "http://h/x.php", false},
		{`<form id="g" action="http://[::1"></form>`, "#g", "", true},
		{page, "#nope", "", true},
	} {
		f, err := Read(p, doc(t, tc.html), tc.sel)
		if tc.err {
			if err == nil {
				t.Errorf("%s in %.30q: no error", tc.sel, tc.html)
			}
			continue
		}
		if err != nil || f.Action.String() != tc.action {
			t.Errorf("%s in %.30q: %v, %v; want %s", tc.sel, tc.html, f, err, tc.action)
		}
		if _, has := f.Values["post"]; has {
			t.Errorf("Read sent a submit button: %v", f.Values)
		}
	}
}

func TestActionAndCharset(t *testing.T) {
	u, _ := url.Parse("http://h/f/index.php?action=post")
	for _, tc := range []struct {
		html    string
		page    *forum.Page
		action  string
		ok      bool
		charset string
	}{
		{page, &forum.Page{URL: u, Charset: "utf-8"}, "http://h/f/post.php?tid=2#x", true, "windows-1251"},
		{`<form action="index.php;action=post2">`, &forum.Page{URL: u, Charset: "koi8-r"}, "http://h/f/index.php;action=post2", true, "koi8-r"},
		{`<form action="post.php">`, nil, "post.php", true, "utf-8"},
		{`<form accept-charset="UNKNOWN">`, &forum.Page{URL: u}, "", false, "utf-8"},
		{`<form action="http://[::1">`, &forum.Page{URL: u}, "", false, "utf-8"},
	} {
		f := doc(t, tc.html).Find("form")
		if a, ok := Action(f, tc.page); a != tc.action || ok != tc.ok {
			t.Errorf("Action(%.30q) = %q, %v; want %q, %v", tc.html, a, ok, tc.action, tc.ok)
		}
		if c := Charset(f, tc.page); c != tc.charset {
			t.Errorf("Charset(%.30q) = %q, want %q", tc.html, c, tc.charset)
		}
	}
}

func TestRedirectTarget(t *testing.T) {
	u, _ := url.Parse("http://h/f/post.php?tid=2")
	for _, tc := range []struct{ html, want string }{
		{`<meta http-equiv="refresh" content="1;URL=viewtopic.php?pid=7#p7">`, "http://h/f/viewtopic.php?pid=7#p7"},
		{`<meta http-equiv="Refresh" content="0; url='/t.php?p=3'">`, "http://h/t.php?p=3"},
		{`<meta http-equiv="refresh" content="viewtopic.php?pid=7">`, "http://h/f/post.php?tid=2"},
		{`<p>no refresh</p>`, "http://h/f/post.php?tid=2"},
	} {
		if got := RedirectTarget(&forum.Page{URL: u}, doc(t, tc.html)); got.String() != tc.want {
			t.Errorf("%q: %s, want %s", tc.html, got, tc.want)
		}
	}
	if got := RedirectTarget(&forum.Page{URL: u}, nil); got != u {
		t.Errorf("nil doc: %s", got)
	}
}

func TestIDFromURL(t *testing.T) {
	for _, tc := range []struct {
		u      string
		params []string
		want   string
	}{
		{"viewtopic.php?p=12#p12", []string{"p"}, "12"},
		{"viewtopic.php?pid=12", []string{"p", "pid"}, "12"},
		{"viewtopic.php?p=x&pid=5", []string{"p", "pid"}, "5"},
		{"viewtopic.php?t=2#p40", []string{"p"}, "40"},
		{"viewtopic.php?t=2#post40", []string{"p"}, ""},
		{"viewtopic.php?t=2", nil, ""},
	} {
		u, _ := url.Parse(tc.u)
		if got := IDFromURL(u, tc.params...); got != tc.want {
			t.Errorf("IDFromURL(%s, %q) = %q, want %q", tc.u, tc.params, got, tc.want)
		}
	}
	if IDFromURL(nil, "p") != "" {
		t.Error("nil URL")
	}
}

func TestFloodWait(t *testing.T) {
	for msg, want := range map[string]time.Duration{
		"At least 30 seconds have to pass between posts": 30 * time.Second,
		"Подождите 15 секунд":                            15 * time.Second,
		"wait 5 сек.":                                    5 * time.Second,
		// MyBB's flood message (the generic dialect reads it on a MyBB board).
		"You are trying to post a message too quickly after posting a previous message. Please wait 41 more seconds.": 41 * time.Second,
		"wait 0 seconds": time.Minute,
		"too soon":       time.Minute,
	} {
		if got := FloodWait(msg, time.Minute); got != want {
			t.Errorf("FloodWait(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		body  string
		limit int
		size  func(string) int
		want  []string
	}{
		{"short", 10, Runes, []string{"short"}},
		{"no limit at all", 0, Runes, []string{"no limit at all"}},
		{"a\nb\nc", 0, Bytes, []string{"a\nb\nc"}},
		{strings.Repeat("line\n", 3) + "line", 40, Bytes, []string{"line\nline\nline\nline"}},
		// Paragraph breaks first, then line breaks, then spaces; the break at a cut is dropped.
		{"aaa bbb\n\nccc ddd", 10, Runes, []string{"aaa bbb", "ccc ddd"}},
		{"aaa\nbbb ccc", 8, Runes, []string{"aaa", "bbb ccc"}},
		{"aaaa bbbb cccc", 10, Runes, []string{"aaaa bbbb", "cccc"}},
		{"aaaaaaaaaa\nbbbbbbbbbb\ncccccccccc", 30, Bytes, []string{"aaaaaaaaaa\nbbbbbbbbbb", "cccccccccc"}},
		{"абвгдежзий", 4, Runes, []string{"абвг", "дежз", "ий"}},
		{"ёёёёёёёёёё\nжжжжжжжжжж\nюююююююююю", 30, Runes, []string{"ёёёёёёёёёё\nжжжжжжжжжж", "юююююююююю"}},
		{"ёёёёёёёёёё\nжжжжжжжжжж\nюююююююююю", 30, Bytes, []string{"ёёёёёёёёёё", "жжжжжжжжжж", "юююююююююю"}},
		// A code block that fits a part goes whole.
		{"x\n[code]\na b\nc\n[/code]", 20, Runes, []string{"x", "[code]\na b\nc\n[/code]"}},
		{"абв где\n\n[code]\n1 2 3\n4 5 6\n[/code]\n\nжзи", 30, Runes, []string{"абв где", "[code]\n1 2 3\n4 5 6\n[/code]", "жзи"}},
		// A longer one is closed at the end of one part and opened again at the start of the next.
		{"[code]\n1111111111\n2222222222\n[/code]\nend", 35, Bytes,
			[]string{"[code]\n1111111111\n[/code]", "[code]\n2222222222\n[/code]\nend"}},
		{"[CODE]\n1111111111\n2222222222\n[/CODE]\n3333333333", 37, Bytes,
			[]string{"[CODE]\n1111111111\n2222222222\n[/CODE]", "3333333333"}},
		{"[code]\n11111111\n22222222\n[/code]", 26, Bytes,
			[]string{"[code]\n11111111\n[/code]", "[code]\n22222222\n[/code]"}},
		// A limit with no room for the tags cuts code like text.
		{"x\n[code]\na b\nc\n[/code]", 12, Runes, []string{"x", "[code]\na b", "c\n[/code]"}},
	} {
		if got := Split(tc.body, tc.limit, tc.size); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q, %d) = %q, want %q", tc.body, tc.limit, got, tc.want)
		}
	}
}

// Split's promises on longer texts: no part over the limit, every code block balanced in every
// part, and nothing lost.
func TestSplitProperties(t *testing.T) {
	// Lines cut at line breaks add up to the message.
	var lines []string
	for i := range 12 {
		lines = append(lines, "строка хода номер "+string(rune('A'+i)))
	}
	body := strings.Join(lines, "\n")
	parts := Split(body, 100, Runes)
	checkParts(t, parts, 100, Runes)
	if len(parts) < 3 || strings.Join(parts, "\n") != body {
		t.Errorf("lines: %q", parts)
	}
	// A board too long for one part fills the first part and goes on in balanced code blocks,
	// rows intact.
	board := "Позиция:\n[code]\n" + strings.Repeat(" 9|__|__|__|__|__|\n", 10) + "[/code]\nХод сарацин."
	parts = Split(board, 80, Runes)
	checkParts(t, parts, 80, Runes)
	if len(parts) < 3 {
		t.Fatalf("board: %q", parts)
	}
	rows := 0
	for _, p := range parts {
		rows += strings.Count(p, " 9|__|__|__|__|__|\n")
	}
	if rows != 10 || !strings.HasPrefix(parts[0], "Позиция:\n[code]\n 9|") || !strings.HasSuffix(parts[len(parts)-1], "[/code]\nХод сарацин.") {
		t.Errorf("board rows %d: %q", rows, parts)
	}
	// A line longer than the limit is cut at spaces, in runes or in bytes.
	for _, size := range []func(string) int{Runes, Bytes} {
		long := strings.Repeat("ход ", 50)
		parts = Split(long, 60, size)
		checkParts(t, parts, 60, size)
		if len(parts) < 3 || strings.Join(parts, " ") != long {
			t.Errorf("long line: %q", parts)
		}
	}
	// A word longer than the limit is cut at character boundaries.
	word := strings.Repeat("ж", 25)
	parts = Split(word, 10, Bytes)
	checkParts(t, parts, 10, Bytes)
	if strings.Join(parts, "") != word {
		t.Errorf("long word: %q", parts)
	}
	// One code line longer than a part: cut inside it, closed and reopened, every character kept.
	code := "[code]\n" + strings.Repeat("ab ", 20) + "\n[/code]"
	parts = Split(code, 30, Runes)
	checkParts(t, parts, 30, Runes)
	var kept strings.Builder
	for _, p := range parts {
		kept.WriteString(strings.TrimSuffix(strings.TrimPrefix(p, "[code]\n"), "\n[/code]"))
	}
	if kept.String() != strings.Repeat("ab ", 20) {
		t.Errorf("long code line: %q", parts)
	}
}

func checkParts(t *testing.T, parts []string, limit int, size func(string) int) {
	t.Helper()
	for i, p := range parts {
		if size(p) > limit || strings.TrimSpace(p) == "" || !utf8.ValidString(p) {
			t.Errorf("part %d (%d of %d): %q", i, size(p), limit, p)
		}
		if strings.Count(strings.ToLower(p), "[code]") != strings.Count(strings.ToLower(p), "[/code]") {
			t.Errorf("part %d leaves a code block open: %q", i, p)
		}
	}
}

// FuzzSplit: whatever the text, Split ends, and every part is within the limit and not blank.
func FuzzSplit(f *testing.F) {
	f.Add("Позиция:\n[code]\n 9|__|__|\n 8|__|__|\n[/code]\nХод.", 20, false)
	f.Add("[code]\n\n\n[/code][code]x y z[/code]", 16, true)
	f.Add("aaa bbb\n\nccc ddd", 5, false)
	f.Fuzz(func(t *testing.T, body string, limit int, bytes bool) {
		if !utf8.ValidString(body) || limit < 1 || limit > 200 {
			return
		}
		size := Runes
		if bytes {
			size = Bytes
			if limit < utf8.UTFMax {
				return // a character may not fit at all
			}
		}
		for i, p := range Split(body, limit, size) {
			if size(p) > limit && size(body) > limit {
				t.Fatalf("part %d over %d: %q", i, limit, p)
			}
			if strings.TrimSpace(p) == "" && strings.TrimSpace(body) != "" {
				t.Fatalf("blank part %d", i)
			}
		}
	})
}

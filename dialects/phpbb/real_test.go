package phpbb

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

// TestRealPages reads the thread pages saved from real boards (testdata/realboards/phpbb at the
// module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, Dialect(), testConfig(), *update, nil)
}

// phpBB 3.0 writes code as dl.codebox > dd > code with <br /> breaks and the indentation as
// no-break spaces; the code block keeps the indentation as spaces.
func TestOldCodebox(t *testing.T) {
	page := `<div id="p5" class="post bg1"><div class="postbody"><p class="author">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=3">ann</a></strong> &raquo; Sun May 26, 2019 4:34 pm </p>` +
		`<div class="content">move:<dl class="codebox"><dt>Code: <a href="#">Select all</a></dt><dd><code>if x:<br />&nbsp; &nbsp; E2-E4<br /></code></dd></dl></div></div></div>`
	posts, err := Extract([]byte(page), "", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	p := posts[0]
	if p.Author != "ann" || p.AuthorID != "3" || len(p.Code) != 1 || p.Code[0] != "if x:\n    E2-E4" || len(p.Problems) > 0 {
		t.Errorf("got %+v", p)
	}
}

// subsilver2 as a Russian board writes it, with what the real subsilver2 pages lack: a code block
// (div.codetitle + div.codecontent), a quote holding a quote, a profile link with the user id,
// the Russian date and edit wordings.
func TestSubsilver2CodeAndRussian(t *testing.T) {
	page := `<html><head><meta name="copyright" content="2000, 2002, 2005, 2007 phpBB Group" /></head><body><div id="pagecontent">
<table class="tablebg" width="100%" cellspacing="1"><tr class="row1">
<td align="center" valign="middle"><a name="p77"></a><b class="postauthor">Вася</b></td>
<td width="100%" height="25"><table width="100%" cellspacing="0"><tr>
<td class="gensmall" width="100%"><div style="float: left;">&nbsp;<b>Заголовок сообщения:</b> Re: Игра</div><div style="float: right;"><a href="./viewtopic.php?p=77#p77"><img src="icon_post_target.gif" alt="Сообщение" /></a><b>Добавлено:</b> Вт дек 01, 2026 10:15 am&nbsp;</div></td>
</tr></table></td></tr>
<tr class="row1"><td valign="top" class="profile"><span class="postdetails"><b>Сообщения:</b> 4</span></td>
<td valign="top"><table width="100%" cellspacing="5"><tr><td>
<div class="postbody"><div class="quotetitle">Петя писал(а):</div><div class="quotecontent"><div class="quotetitle">Маша писал(а):</div><div class="quotecontent">старт</div>ход Е2-Е4</div><br />Отвечаю:<div class="codetitle"><b>Код:</b></div><div class="codecontent">&nbsp; H7-H5<br />Кс8</div></div>
<span class="postbody"><br />_________________<br />подпись</span>
<br /><br /><span class="gensmall">Последний раз редактировалось Вася Вт дек 01, 2026 10:20 am, всего редактировалось 1 раз.</span>
</td></tr></table></td></tr>
<tr class="row1"><td class="profile"><strong><a href="#wrapheader">Вернуться к началу</a></strong></td>
<td><div class="gensmall" style="float: left;">&nbsp;<a href="./memberlist.php?mode=viewprofile&amp;u=5"><img src="icon_user_profile.gif" alt="Профиль" /></a></div></td></tr>
</table></div></body></html>`
	posts, err := Extract([]byte(page), "", testConfig())
	if err != nil || len(posts) != 1 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p := posts[0]
	if p.ID != "77" || p.Author != "Вася" || p.AuthorID != "5" || p.Subject != "Re: Игра" || !p.Edited ||
		p.Text != "Отвечаю:\n  H7-H5\nКс8" || len(p.Code) != 1 || p.Code[0] != "  H7-H5\nКс8" ||
		len(p.Quotes) != 1 || p.Quotes[0].Author != "Петя" || p.Quotes[0].Text != "Маша писал(а):\nстарт\nход Е2-Е4" ||
		!p.Time.Equal(time.Date(2026, 12, 1, 10, 15, 0, 0, time.UTC)) || len(p.Problems) != 0 {
		t.Errorf("got %+v", p)
	}
}

// The poster reads a thread page's position through ThreadTable: on the real subsilver2 page (page
// 2 of 4) the current and last page and the previous and next pages' links, not those of the
// previous and next topics.
func TestSubsilver2Pages(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "phpbb", "phpbb30-subsilver2-dildano-quotes.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scrape.Parse(raw, "")
	if err != nil {
		t.Fatal(err)
	}
	o, _ := scrape.OptionsFromConfig(testConfig())
	pg, err := scrape.Extract(doc, ThreadTable(doc), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg.Posts) != 10 || pg.Current != 2 || pg.Last != 4 ||
		pg.Prev != "http://127.0.0.1:8081/viewtopic-33187.php" || pg.Next != "http://127.0.0.1:8081/viewtopic-29336.php" {
		t.Errorf("%d posts, page %d of %d, prev %q next %q", len(pg.Posts), pg.Current, pg.Last, pg.Prev, pg.Next)
	}
}

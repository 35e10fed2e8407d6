package review

import (
	"net/url"
	"strings"
	"testing"

	"forumgm/referee"
)

// The game master's page: the next deadlines shown, an extension, a holiday and a clarification
// logged with who and why, a bad form refused with what to write.
func TestWebMaster(t *testing.T) {
	e := newWebEnv(t)
	c := e.client()
	c.mustLogin()
	if q := c.get("/g/g/"); !strings.Contains(q.body, `href="/g/g/master"`) {
		t.Fatalf("the game page does not lead to the game master's page:\n%s", q.body)
	}
	p := c.get("/g/g/master")
	if !strings.Contains(p.body, `id="deadlines"`) || !strings.Contains(p.body, "<li>01.12 ") {
		t.Fatalf("the page does not list the next deadlines:\n%s", p.body)
	}
	n := len(e.events())
	steps := []struct {
		path   string
		form   url.Values
		flash  string
		kind   string // the event logged ("" none)
		reason string
	}{
		{"/g/g/extend", url.Values{"delay": {"пять минут"}, "reason": {"связь"}}, "Нужна длительность", "", ""},
		{"/g/g/extend", url.Values{"delay": {"5m"}, "reason": {""}}, "Укажите причину", "", ""},
		{"/g/g/extend", url.Values{"delay": {"5m"}, "reason": {"у сарацин нет связи"}}, "Срок продлён", referee.KindExtended, "у сарацин нет связи"},
		{"/g/g/holiday", url.Values{"day": {"2026-12-03"}, "reason": {"праздник"}}, "Выходной объявлен", referee.KindHoliday, "праздник"},
		{"/g/g/holiday", url.Values{"day": {"2026-12-03"}, "reason": {"ещё раз"}}, "overlaps", "", ""},
		{"/g/g/clarify", url.Values{"text": {"Лес не мешает стрельбе."}}, "Уточнение записано", referee.KindModerated, ""},
	}
	for _, s := range steps {
		r := c.send(s.path, s.form)
		if !strings.Contains(r.body, s.flash) {
			t.Fatalf("%s %v: want %q in\n%s", s.path, s.form, s.flash, r.body)
		}
		evs := e.events()
		if s.kind == "" {
			if len(evs) != n {
				t.Fatalf("%s %v: a refused form logged %d events", s.path, s.form, len(evs)-n)
			}
			continue
		}
		last := evs[len(evs)-1]
		if len(evs) != n+1 || last.Kind != s.kind || last.Actor != modName || last.Reason != s.reason {
			t.Fatalf("%s: logged %+v, want %s by %s (%q)", s.path, last, s.kind, modName, s.reason)
		}
		n = len(evs)
	}
	if l := c.get("/g/g/log"); !strings.Contains(l.body, "срок продлён") || !strings.Contains(l.body, "объявлен выходной") {
		t.Errorf("the event log does not word the game master's events:\n%s", l.body)
	}
}

package scrape

import (
	"sync"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

var matchers sync.Map // selector -> goquery.Matcher (nil when it does not compile)

// find is s.Find(sel) with the selector compiled once per process.
func find(s *goquery.Selection, sel string) *goquery.Selection {
	m, ok := matchers.Load(sel)
	if !ok {
		c, err := cascadia.Compile(sel)
		if err != nil {
			m = nil
		} else {
			m = c
		}
		matchers.Store(sel, m)
	}
	if m == nil {
		return s.Find(sel) // goquery's own handling of a bad selector: nothing matches
	}
	return s.FindMatcher(m.(goquery.Matcher))
}

package grammar

import (
	"strconv"
	"strings"

	cr "forumgm/games/crusade/rules"
)

// statOf reads a stat word: "атака", "атаку", "атк" -> attack; "защита", "защиту", "защ" -> defence.
func statOf(t *token) (cr.Stat, bool) {
	if t == nil || t.kind != tWord {
		return "", false
	}
	f := t.fold
	switch {
	case strings.HasPrefix(f, "атак"), f == "атк", f == "ат", strings.HasPrefix(f, "att"), strings.HasPrefix(f, "сил"):
		return cr.StatAttack, true
	case strings.HasPrefix(f, "защ"), f == "зщ", f == "з", strings.HasPrefix(f, "def"), strings.HasPrefix(f, "оборон"), strings.HasPrefix(f, "брон"):
		return cr.StatDefence, true
	}
	return "", false
}

var countWords = map[string]int{"однажды": 1, "дважды": 2, "трижды": 3, "раз": 1}

// countAt reads a wound count at p: "x2", "х2", "×2", "*2", "2", "2 раза", "дважды". n is the
// tokens used.
func (lp *lineParser) countAt(p int) (count, n int, err *LineError) {
	t := lp.at(p)
	if t == nil {
		return 0, 0, nil
	}
	atoi := func(s string, tok *token) (int, *LineError) {
		v, e := strconv.Atoi(s)
		if e != nil || v < 1 || v > 99 {
			return 0, tokErr(tok, ReasonBadCount)
		}
		return v, nil
	}
	switch {
	case t.kind == tCode && strings.ContainsRune("xXхХ", t.letter):
		v, e := atoi(t.digits, t)
		return v, 1, e
	case (t.kind == tPunct && (t.raw == "×" || t.raw == "*")) || (t.kind == tWord && (t.fold == "x" || t.fold == "х")):
		if nx := lp.at(p + 1); nx != nil && nx.kind == tNum {
			v, e := atoi(nx.raw, nx)
			return v, 2, e
		}
	case t.kind == tNum:
		v, e := atoi(t.raw, t)
		if e != nil {
			return 0, 1, e
		}
		if nx := lp.at(p + 1); nx != nil && nx.kind == tWord && strings.HasPrefix(nx.fold, "раз") {
			return v, 2, nil
		}
		return v, 1, nil
	case t.kind == tWord && countWords[t.fold] > 0 && t.fold != "раз":
		return countWords[t.fold], 1, nil
	}
	return 0, 0, nil
}

// header reports whether a line holds a header: a word starting with one of prefixes, first on
// the line or first after a sentence's end ("Привет! ранение: к1 защита"); it returns the index
// after the header word and its punctuation.
func (lp *lineParser) header(prefixes ...string) (int, bool) {
	p := 0
	for lp.at(p) != nil && lp.at(p).kind == tPunct {
		p++
	}
	if q, ok := lp.headerAt(p, prefixes); ok {
		return q, true
	}
	for i := p + 1; i < len(lp.toks); i++ {
		if lp.punct(i-1, "!", ".", "?", ";", "!!", "...") {
			if q, ok := lp.headerAt(i, prefixes); ok {
				return q, true
			}
		}
	}
	return 0, false
}

func (lp *lineParser) headerAt(p int, prefixes []string) (int, bool) {
	t := lp.at(p)
	if t == nil || t.kind != tWord {
		return 0, false
	}
	for _, pre := range prefixes {
		if !strings.HasPrefix(t.fold, pre) {
			continue
		}
		p++
		skipped := 0
		for skipped < 2 && lp.at(p) != nil && lp.at(p).kind == tWord && !isStatOrCount(lp.at(p)) {
			p++ // "ранения крестоносцев:", "ранения за вчера:"
			skipped++
		}
		switch n := lp.at(p); {
		case n == nil:
			return p, skipped == 0 // the header word alone on its line
		case lp.punct(p, ":", "-", "–", "—", "="):
			for lp.punct(p, ":", "-", "–", "—", "=") {
				p++
			}
			return p, true
		case n.kind == tCode || isStatOrCount(n):
			return p, true
		}
		return 0, false
	}
	return 0, false
}

func isStatOrCount(t *token) bool {
	_, ok := statOf(t)
	return ok
}

// woundsAt reads wound items from p to the end of the line: "в3 защита", "н1 атака x2",
// "защита в3", separated by commas, semicolons or "и".
func (lp *lineParser) woundsAt(p int) ([]cr.Wound, *LineError) {
	var out []cr.Wound
	for p < len(lp.toks) {
		for lp.punct(p, ",", ";", ".", ":", "-", "–", "—", "(", ")") || lp.word(p, listWords) {
			p++
		}
		if p >= len(lp.toks) {
			break
		}
		var w cr.Wound
		start := p
		for p < len(lp.toks) && !lp.punct(p, ",", ";") && !(lp.word(p, listWords) && w.Warrior != "" && w.Stat != "") {
			t := lp.at(p)
			if s, ok := statOf(t); ok && w.Stat == "" {
				w.Stat = s
				p++
				continue
			}
			if c, n, err := lp.countAt(p); n > 0 {
				if err != nil {
					return out, err
				}
				if w.Count == 0 {
					w.Count = c
				}
				p += n
				continue
			}
			if t.kind == tCode && w.Warrior == "" {
				id, err := warriorOf(*t)
				if err != nil {
					return out, err
				}
				w.Warrior = id
				p++
				continue
			}
			p++ // chatter inside an item ("в3 пусть будет защита")
		}
		switch {
		case w.Warrior == "" && w.Stat == "" && w.Count == 0:
			continue
		case w.Warrior == "":
			return out, tokErr(lp.at(start), ReasonNoWarrior)
		case w.Stat == "":
			return out, &LineError{Token: string(w.Warrior), Reason: ReasonNoStat}
		}
		if w.Count == 0 {
			w.Count = 1
		}
		out = append(out, w)
	}
	return out, nil
}

// readAllocation reads a wound allocation: a line starting "ранение:"/"ранения:" with its items,
// and items on the lines after it. ok is false when the post has no such header or no item.
func readAllocation(lines []srcLine) (*cr.Allocation, []*LineError, bool) {
	in := false
	alloc := &cr.Allocation{}
	var probs []*LineError
	for _, l := range lines {
		lp := &lineParser{line: l.text, toks: l.toks}
		p, isHeader := lp.header("ранен", "раны", "рана", "ранить")
		if isHeader {
			in = true
		} else if !in || !hasCode(lp.toks) {
			continue
		}
		ws, err := lp.woundsAt(p)
		alloc.Wounds = append(alloc.Wounds, ws...)
		if err != nil {
			err.LineNo, err.Line = l.no, l.text
			probs = append(probs, err)
		}
	}
	if !in || (len(alloc.Wounds) == 0 && len(probs) == 0) {
		return nil, nil, false
	}
	return alloc, probs, true
}

func hasCode(toks []token) bool {
	for _, t := range toks {
		if t.kind == tCode {
			return true
		}
	}
	return false
}

// placementsAt reads "р1 J18", "р1: J18", "р1 - J18", "р1 на J18" items to the end of the line.
func (lp *lineParser) placementsAt(p int, d *cr.Deployment) *LineError {
	for p < len(lp.toks) {
		for lp.punct(p, ",", ";", ".") || lp.word(p, listWords) {
			p++
		}
		t := lp.at(p)
		if t == nil {
			return nil
		}
		if t.kind != tCode {
			p++
			continue
		}
		w, err := warriorOf(*t)
		if err != nil {
			return err
		}
		p++
		for lp.punct(p, ":", "=") || isArrow(tokOrZero(lp.at(p))) || lp.word(p, movePreps) {
			p++
		}
		c, n, cerr := lp.cellSlot(p)
		if cerr != nil {
			return cerr
		}
		if n == 0 {
			return tokErr(lp.at(p), ReasonNoDestination)
		}
		d.Cells[w] = c
		p += n
	}
	return nil
}

// readDeploymentHeader reads a placement announced by a header line ("Расстановка:", "размещение")
// with "р1 J18" items on it and the lines after it. ok is false without a header.
func readDeploymentHeader(lines []srcLine) (*cr.Deployment, []*LineError, bool) {
	in := false
	d := &cr.Deployment{Cells: map[cr.WarriorID]cr.Cell{}}
	var probs []*LineError
	for _, l := range lines {
		lp := &lineParser{line: l.text, toks: l.toks}
		p, isHeader := lp.header("расстанов", "растанов", "расстав", "размещ")
		if isHeader {
			in = true
		} else if !in || !hasCode(lp.toks) {
			continue
		}
		if err := lp.placementsAt(p, d); err != nil {
			err.LineNo, err.Line = l.no, l.text
			probs = append(probs, err)
		}
	}
	if !in {
		return nil, nil, false
	}
	return d, probs, true
}

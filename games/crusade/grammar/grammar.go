package grammar

import (
	"strings"

	cr "forumgm/games/crusade/rules"

	"forumgm/russian"
)

// Word classes, by folded form (lower case, ё -> е).
func wordSet(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var (
	hodWords  = wordSet("ход", "хода", "ходом", "ходе", "действие", "действия", "шаг")
	moveVerbs = wordSet("ходит", "ходят", "хожу", "пошел", "пошла", "идет", "иду", "идут", "двигается",
		"двигаю", "двигаем", "двигаю", "передвигается", "передвигаю", "перемещается", "перемещаю",
		"переходит", "перехожу", "встает", "встаю", "становится", "ставлю", "скачет", "едет", "шагает",
		"отходит", "отступает", "выходит", "заходит", "направляется", "бежит", "движется", "переместился",
		"передвинулся", "сходил", "ходил", "пошел", "перешел", "ушел", "уходит", "ход")
	fromPreps   = wordSet("с", "со", "из", "от")
	movePreps   = wordSet("на", "в", "во", "к", "до")
	targetPreps = wordSet("на", "в", "во", "по", "к")
	listWords   = wordSet("и")
	thenWords   = wordSet("и", "затем", "потом", "после", "чего", "этого", "а", "далее", "тут", "же")

	attackVerbs = wordSet("атакует", "атакуют", "атакую", "атакуем", "атака", "атаку", "атаковать",
		"атаковал", "бьет", "бьют", "бью", "бьем", "бить", "ударяет", "ударяют", "ударяю", "удар", "ударом",
		"ударить", "нападает", "нападают", "нападаю", "нападение", "рубит", "рублю", "колет", "колю", "бой",
		"вступает", "вступают", "атакуя", "нанес", "наносит", "наношу", "наносят")
	shotWords = wordSet("стреляет", "стреляют", "стреляю", "стреляем", "стрелять", "выстрел", "выстрелом",
		"выстрелы", "стрельба", "стрелой", "стрелами", "обстреливает", "обстрел", "выстрелил",
		"выстрелили", "стрелял", "стреляли", "залп", "залпом")
	swordWords     = wordSet("мечом", "меч", "мечем", "мечами", "мечи", "саблей", "клинком")
	lanceWords     = wordSet("копьем", "копье", "копьями", "копья", "пикой", "пиками", "таран", "тараном")
	formationWords = wordSet("строем", "строй", "строю", "фалангой", "шеренгой")
)

// sideForms are the side words a move line may carry ("1-й ход сарацина н2 на G5").
var sideForms = []string{"сарацин", "сарацина", "сарацины", "сарацинов", "сарацинам", "сарацинами",
	"крестоносец", "крестоносца", "крестоносцы", "крестоносцев", "крестоносцам", "крестоносцами"}

// isSideWord reads a side word, misspelt ones included ("сарацна", "сорацина", "крестонсца").
func isSideWord(f string) bool {
	return strings.HasPrefix(f, "сарацин") || strings.HasPrefix(f, "крестонос") || russian.NearWord(f, sideForms...)
}

// fillerWords may stand between a move's ordinal and its warrior ("1-й ход воина н2 на G5").
var fillerWords = wordSet("воин", "воина", "воином", "мой", "моего", "мои", "моим", "свой", "своего",
	"игрока", "отряд", "отряда", "это", "делаю", "делает", "такой", "будет")

func isAttackWord(t token) bool {
	if t.kind != tWord {
		return false
	}
	f := t.fold
	return attackVerbs[f] || shotWords[f] || swordWords[f] || lanceWords[f] || formationWords[f]
}

// clause is one move, attack, or move-then-attack read from a line.
type clause struct {
	moves   []cr.Move
	attacks []cr.Attack
	bare    bool // "р1 J18": no ordinal, no verb, no preposition (a placement as well as a move)
}

// lineParser reads the clauses of one tokenized line.
type lineParser struct {
	line string
	toks []token
}

func (lp *lineParser) at(p int) *token {
	if p < 0 || p >= len(lp.toks) {
		return nil
	}
	return &lp.toks[p]
}

func (lp *lineParser) word(p int, set map[string]bool) bool {
	t := lp.at(p)
	return t != nil && t.kind == tWord && set[t.fold]
}

func (lp *lineParser) punct(p int, ps ...string) bool {
	t := lp.at(p)
	if t == nil || t.kind != tPunct {
		return false
	}
	for _, s := range ps {
		if t.raw == s {
			return true
		}
	}
	return false
}

// ordinalAt reads an ordinal at p: "1-й", "первый", or a bare number followed by "ход". It
// returns the number and the tokens used.
func (lp *lineParser) ordinalAt(p int) (int, int) {
	t := lp.at(p)
	switch {
	case t == nil:
		return 0, 0
	case t.kind == tOrd:
		return t.ord, 1
	case t.kind == tWord && hodWords[t.fold] && lp.punct(p+1, "№", "#") && lp.at(p+2) != nil && lp.at(p+2).kind == tNum && len(lp.at(p+2).raw) <= 2:
		// "ход №1: н2 на G5"
		n := 0
		for _, c := range lp.at(p + 2).raw {
			n = n*10 + int(c-'0')
		}
		return n, 3
	case t.kind == tWord && hodWords[t.fold] && lp.at(p+1) != nil && lp.at(p+1).kind == tNum && len(lp.at(p+1).raw) <= 2 && !lp.word(p+2, hodWords):
		// "ход 1: н2 на G5"
		n := 0
		for _, c := range lp.at(p + 1).raw {
			n = n*10 + int(c-'0')
		}
		return n, 2
	case t.kind == tNum && len(t.raw) <= 2 && lp.word(p+1, hodWords):
		n := 0
		for _, c := range t.raw {
			n = n*10 + int(c-'0')
		}
		return n, 1
	}
	return 0, 0
}

// cellSlot reads a cell at p: a code ("G5", "с5") or a one-letter word and a number ("G 5").
// n is the tokens used (0: no cell-shaped token there).
func (lp *lineParser) cellSlot(p int) (cr.Cell, int, *LineError) {
	t := lp.at(p)
	if t == nil {
		return cr.Cell{}, 0, nil
	}
	if t.kind == tCode {
		c, e := cellOf(*t)
		return c, 1, e
	}
	if t.kind == tWord && len([]rune(t.raw)) == 1 {
		if n := lp.at(p + 1); n != nil && n.kind == tNum && n.start-t.end <= 2 {
			c, e := cellOf(joinCode(*t, *n))
			return c, 2, e
		}
		// "K-16": a dash inside the cell, written without spaces.
		if d, n := lp.at(p+1), lp.at(p+2); d != nil && n != nil && (d.raw == "-" || d.raw == "–") &&
			d.start == t.end && n.kind == tNum && n.start == d.end {
			c, e := cellOf(joinCode(*t, *n))
			return c, 3, e
		}
	}
	return cr.Cell{}, 0, nil
}

// startsCell reports whether a cell-shaped token stands at p.
func (lp *lineParser) startsCell(p int) bool {
	_, n, _ := lp.cellSlot(p)
	return n > 0
}

// targetSlot reads an attack target at p: a warrior or a cell. A code written with a lower-case
// Cyrillic kind letter ("с2", "в3") is a warrior when it names one; otherwise a cell is preferred.
func (lp *lineParser) targetSlot(p int) (cr.Target, int, *LineError) {
	t := lp.at(p)
	if t != nil && t.kind == tCode {
		w, we := warriorOf(*t)
		if prefersWarrior(*t) && we == nil {
			return cr.Target{Warrior: w}, 1, nil
		}
		c, ce := cellOf(*t)
		if ce == nil {
			return cr.Target{Cell: &c}, 1, nil
		}
		if we == nil {
			return cr.Target{Warrior: w}, 1, nil
		}
		if prefersWarrior(*t) {
			return cr.Target{}, 1, we
		}
		return cr.Target{}, 1, ce
	}
	c, n, e := lp.cellSlot(p)
	if n == 0 || e != nil {
		return cr.Target{}, n, e
	}
	return cr.Target{Cell: &c}, n, nil
}

// subjects reads the warriors a clause is about: "н2", "а1+а2", "а1 и а2", "к1, к2, к3".
func (lp *lineParser) subjects(p int) ([]cr.WarriorID, int, *LineError) {
	t := lp.at(p)
	if t == nil || t.kind != tCode {
		return nil, p, tokErr(t, ReasonNoWarrior)
	}
	w, e := warriorOf(*t)
	if e != nil {
		return nil, p, e
	}
	ws := []cr.WarriorID{w}
	p++
	for {
		sep := lp.punct(p, ",", "+", "&", "/") || lp.word(p, listWords)
		n := lp.at(p + 1)
		if !sep || n == nil || n.kind != tCode || !kindLetter(*n) {
			return ws, p, nil
		}
		w, e := warriorOf(*n)
		if e != nil {
			// "к1, к9 строем": a list with a bad code in it. Only an error when the list goes on
			// to an action; otherwise the list ends before the comma.
			if lp.at(p+2) != nil && (isAttackWord(*lp.at(p + 2))) {
				return nil, p + 1, e
			}
			return ws, p, nil
		}
		ws = append(ws, w)
		p += 2
	}
}

// clauseAt reads one clause starting at p:
//
//	[ordinal [ход]] [side] [attack words] warriors (move | attack) [then attack]
//
// It returns the clause, the index after it, and an error when the tokens at p start a clause
// but it cannot be read.
func (lp *lineParser) clauseAt(p int) (clause, int, *LineError) {
	var c clause
	ord, n := lp.ordinalAt(p)
	hadOrd := n > 0
	p += n
	hadHod := false
	for lp.word(p, hodWords) {
		hadHod = true
		p++
	}
	for lp.punct(p, ":", "-", "–", "—", ".") {
		p++
	}
	if t := lp.at(p); t != nil && t.kind == tWord && isSideWord(t.fold) {
		p++
	}
	for lp.punct(p, ":", "-", "–", "—", ",") {
		p++
	}
	for lp.word(p, fillerWords) {
		p++
	}
	// "1-й ход сарацна н2": a word not understood between the ordinal and the warrior. Ask rather
	// than drop the ordinal (which would cost a wound for a part that was written).
	if t, n := lp.at(p), lp.at(p+1); hadOrd && t != nil && t.kind == tWord && !isAttackWord(*t) &&
		n != nil && n.kind == tCode && kindLetter(*n) {
		return c, p, &LineError{Token: t.raw, Reason: ReasonUnknownWord}
	}
	var words []token
	for t := lp.at(p); t != nil && isAttackWord(*t); t = lp.at(p) {
		words = append(words, *t)
		p++
	}
	for lp.punct(p, ":") {
		p++
	}
	start := p
	ws, p, err := lp.subjects(p)
	if err != nil {
		return c, p, err
	}
	verb := false
	for lp.punct(p, ":") || lp.word(p, moveVerbs) {
		verb = verb || lp.word(p, moveVerbs)
		p++
	}
	for t := lp.at(p); t != nil && isAttackWord(*t); t = lp.at(p) {
		words = append(words, *t)
		p++
	}
	if len(words) > 0 {
		a, q, err := lp.attackRest(p, ws, words)
		if err != nil {
			return c, q, err
		}
		a.Ordinal = ord
		c.attacks = append(c.attacks, a)
		return c, q, nil
	}
	// A move.
	m := cr.Move{Warrior: ws[0], Ordinal: ord}
	bare := !hadOrd && !hadHod && !verb
	if lp.word(p, fromPreps) && lp.startsCell(p+1) {
		p++
		bare = false
	}
	if lp.word(p, movePreps) && lp.startsCell(p+1) || isArrow(tokOrZero(lp.at(p))) || lp.punct(p, ":") {
		if !lp.punct(p, ":", "-", "–", "—") {
			bare = false
		}
		p++
	}
	to, n, e := lp.cellSlot(p)
	if e != nil {
		return c, p, e
	}
	if n == 0 {
		if lp.word(p, movePreps) || isArrow(tokOrZero(lp.at(p))) {
			p++
		}
		return c, p, tokErr(lp.at(p), ReasonNoDestination)
	}
	p += n
	// "G4-G5", "G4 -> G5", "с G4 на G5": the first cell was the start.
	if q := p; isArrow(tokOrZero(lp.at(q))) || lp.word(q, movePreps) {
		if to2, n2, e2 := lp.cellSlot(q + 1); n2 > 0 {
			if e2 != nil {
				return c, q + 1, e2
			}
			from := to
			m.From, to = &from, to2
			p = q + 1 + n2
			bare = false
		}
	} else if t2 := lp.at(q); t2 != nil && !(t2.kind == tCode && prefersWarrior(*t2)) {
		// "к1 K17 K16": two cells with nothing between them are from and to (a code written as
		// a warrior, "р1 J18 р2 R18", starts the next item instead).
		if to2, n2, e2 := lp.cellSlot(q); n2 > 0 && e2 == nil {
			from := to
			m.From, to = &from, to2
			p = q + n2
			bare = false
		}
	}
	if len(ws) > 1 {
		return c, p, &LineError{Token: lp.line[lp.toks[start].start:lp.toks[p-1].end], Reason: ReasonManyWarriors}
	}
	m.To = to
	c.moves = append(c.moves, m)
	c.bare = bare
	// "н2 на G5 и атакует мечом G6": an attack by the same warrior after its move.
	q := p
	for lp.punct(q, ",", ";", ".", "-", "–", "—") || lp.word(q, thenWords) {
		q++
	}
	if t := lp.at(q); t != nil && isAttackWord(*t) {
		var words []token
		for t := lp.at(q); t != nil && isAttackWord(*t); t = lp.at(q) {
			words = append(words, *t)
			q++
		}
		a, q, err := lp.attackRest(q, ws, words)
		if err != nil {
			return c, q, err
		}
		a.Ordinal = ord
		c.attacks = append(c.attacks, a)
		c.bare = false
		return c, q, nil
	}
	return c, p, nil
}

func tokOrZero(t *token) token {
	if t == nil {
		return token{}
	}
	return *t
}

// attackRest reads an attack after its attackers and its words: more words, a preposition, the
// target (or the destination of a charge).
func (lp *lineParser) attackRest(p int, ws []cr.WarriorID, words []token) (cr.Attack, int, *LineError) {
	for t := lp.at(p); t != nil && isAttackWord(*t); t = lp.at(p) {
		words = append(words, *t)
		p++
	}
	a := cr.Attack{Kind: attackKind(ws[0], words), Attackers: ws}
	for lp.word(p, targetPreps) && lp.at(p+1) != nil || lp.punct(p, ":", "->", "→", "=>", "-", "–", "—") {
		p++
	}
	if a.Kind == cr.AttackCharge || a.Kind == cr.AttackFormation {
		c, n, e := lp.cellSlot(p)
		if n == 0 {
			return a, p, tokErr(lp.at(p), ReasonNoDestination)
		}
		if e != nil {
			if t := lp.at(p); t != nil && t.kind == tCode {
				if _, we := warriorOf(*t); we == nil && prefersWarrior(*t) {
					return a, p, &LineError{Token: t.raw, Reason: ReasonChargeNeedsCell}
				}
			}
			return a, p, e
		}
		a.To = &c
		return a, p + n, nil
	}
	tg, n, e := lp.targetSlot(p)
	if e != nil {
		return a, p, e
	}
	if n == 0 {
		return a, p, tokErr(lp.at(p), ReasonNoTarget)
	}
	a.Target = tg
	return a, p + n, nil
}

// attackKind decides the kind of an attack from its words and the first attacker's kind: a lance
// is a knight's charge (р), a pikemen formation (к), or the guard's lance (ш and anyone else, for
// the engine to judge).
func attackKind(w cr.WarriorID, words []token) cr.AttackKind {
	has := func(set map[string]bool) bool {
		for _, t := range words {
			if set[t.fold] {
				return true
			}
		}
		return false
	}
	switch {
	case has(formationWords):
		return cr.AttackFormation
	case has(shotWords):
		return cr.AttackShot
	case has(lanceWords):
		switch w.Kind() {
		case cr.Knight:
			return cr.AttackCharge
		case cr.Pikeman:
			return cr.AttackFormation
		}
		return cr.AttackLance
	case has(swordWords):
		return cr.AttackSword
	}
	return cr.AttackUnstated
}

// looksLikeClause reports whether the tokens at p look like a move or an attack someone tried to
// write, so that a clause that cannot be read there is reported rather than taken for chatter:
//
//   - an ordinal with "ход" and then a side word, a code or an attack word ("2-й ход крестоносца"),
//     or an ordinal right before a code ("1-й н2");
//   - a code (and a list of codes) followed by an arrow, an attack word, a move verb, another
//     code, or a move preposition ("на", "в") followed by a code or the end of the line.
//
// "ш1 силён", "р1 на месте" and "Ход принят" do not look like clauses.
func (lp *lineParser) looksLikeClause(p int) bool {
	if _, n := lp.ordinalAt(p); n > 0 {
		q := p + n
		hod := false
		for lp.word(q, hodWords) {
			hod = true
			q++
		}
		for lp.punct(q, ":", "-", "–", "—", ".") {
			q++
		}
		t := lp.at(q)
		if t == nil {
			return false
		}
		if t.kind == tCode {
			return true
		}
		n := lp.at(q + 1)
		return t.kind == tWord && (hod && (isSideWord(t.fold) || isAttackWord(*t)) ||
			n != nil && n.kind == tCode && kindLetter(*n))
	}
	t := lp.at(p)
	if t == nil || t.kind != tCode {
		return false
	}
	q := p + 1
	for (lp.punct(q, ",", "+", "&", "/") || lp.word(q, listWords)) && lp.at(q+1) != nil && lp.at(q+1).kind == tCode {
		q += 2
	}
	for lp.punct(q, ":") {
		q++
	}
	n := lp.at(q)
	switch {
	case n == nil:
		return false
	case isArrow(*n) && q == p+1, isAttackWord(*n), n.kind == tWord && moveVerbs[n.fold] && n.fold != "ход":
		return true
	case n.kind == tCode:
		return kindLetter(*t) && q == p+1
	case lp.word(q, movePreps):
		return lp.at(q+1) == nil || lp.at(q+1).kind == tCode || lp.startsCell(q+1)
	}
	return false
}

func readTokens(line string, toks []token) ([]clause, *LineError) {
	lp := &lineParser{line: line, toks: toks}
	var out []clause
	for p := 0; p < len(lp.toks); {
		t := lp.toks[p]
		_, isOrd := lp.ordinalAt(p)
		if t.kind != tCode && isOrd == 0 && !isAttackWord(t) {
			p++
			continue
		}
		c, q, err := lp.clauseAt(p)
		if err == nil {
			out = append(out, c)
			p = q
			continue
		}
		if lp.looksLikeClause(p) || (isAttackWord(t) && lp.looksLikeClause(p+1)) {
			return out, err
		}
		p++
	}
	return out, nil
}

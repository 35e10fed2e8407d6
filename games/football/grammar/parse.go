// Package football reads the posts and private messages of the football dice quiz: rolls
// ("Бросаю 37", "кубик 37", "ход 37", "37" alone on a line), attacks ("Атакуем Команда 2, 58"),
// defences ("Защищаемся 12"), the captain's points ("+3 к атаке", "добавляю 2 балла к защите")
// and answers ("Ответ: Пеле", or the bare message). Parse classifies a forum.Post (its own text;
// quotes are never read) into a Result: chatter, moves, an answer, a help request, or a post
// that looks like a move but cannot be read (with a reason per line).
//
// # Lines
//
// Each line of the own text is read on its own; a line may be split into clauses at ';' and at
// ". ". Case does not matter, ё is е, and Latin look-alike letters in a Cyrillic word are read as
// Cyrillic ("Бpосаю" with a Latin p). A keyword is looked for among the first three words of a
// clause, so stray words before it are allowed ("ну что, бросаю 37"):
//
//   - roll: бросаю, бросаем, бросим, бросок, кидаю, кидаем, кинем (strong) or кубик, ход (weak),
//     then exactly one number ("Бросаю кубик: 37", "кубик №37");
//   - attack: атакуем, атакую, атака, атаку, нападаем, нападение (strong), optionally "на", "в",
//     "по", then the target team and the number ("Атакуем Команда 2, 58", "атака на Команда 2:
//     58", "атакуем команду 2 — 58", "атакуем 4 58" for "Команда 4");
//   - defence: защищаемся, защищаюсь, защищаем (strong) or защита, защиту (weak), then one
//     number;
//   - points: "+N" or a word starting "добав" (or "балл", "очк" with a number), with a word
//     starting "атак" (attack) or "защит"/"защищ" (defence): "+3 к атаке", "добавляю 3 балла к
//     атаке", "+2 защита";
//   - a line that is only a number ("37", "№37", "37!") is a roll in the thread (an answer in a
//     private message).
//
// Targets are matched to Options.Teams with football.TeamKey (case, look-alike letters, with or
// without "команда"/"команду" in front of a team called "Команда N"); the Attack's Target is then
// the team's name as listed. Without a match (or without Options.Teams) the target is the text
// between the keyword and the number, and the engine refuses an unknown team.
//
// # Private messages
//
// A private message is read as points first, then "Ответ: …" (explicit), then — if it holds no
// move line — the bare message as an answer (at most two lines and 80 characters). Rolls, attacks
// and defences sent privately are still read (the engine refuses them: they go in the thread).
//
// # Classification
//
// Move: one or more intents and no unreadable line (Result.Body is what the engine judges: the
// intent, or a *football.Moves judged as a whole when there are several). Answer: an answer. Help: "помощь", "справка",
// "help", "как ходить". Unreadable: a line with a strong keyword (a verb: бросаю, атакуем,
// защищаемся; or "+N" points) that cannot be read, e.g. "Атакуем Команда 2" without a number
// (ReasonNoNumber), "атакуем 58" without a team (ReasonNoTarget), "Бросаю 37 или 38"
// (ReasonManyNumbers), "+3" in a private message without "к атаке"/"к защите" (ReasonNoRole).
// Weak keywords (кубик, ход, защита) without a number are chatter ("Ход принят", "защита у нас
// слабая"). Anything else is Chatter.
//
// Everything here is pure and deterministic: no I/O, no clock, no logging.
package grammar

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	fb "forumgm/games/football/rules"

	"forumgm/forum"
	"forumgm/russian"
)

// Class is what a post is, for the game.
type Class string

const (
	Chatter    Class = "chatter"    // nothing for the game: ignored
	Move       Class = "move"       // rolls, attacks, defences, points (Result.Intents)
	AnswerPost Class = "answer"     // an answer to the team's question (Result.Intents holds one *Answer)
	Help       Class = "help"       // a request for the help text
	Unreadable Class = "unreadable" // looks like a move but cannot be read (Result.Problems)
)

// Reason says why a line that looks like a move could not be read. Templates turn it into
// Russian (unread.<reason>).
type Reason string

const (
	ReasonNoNumber    Reason = "no-number"    // a move word and no number ("Атакуем Команда 2")
	ReasonManyNumbers Reason = "many-numbers" // several numbers where one is named ("Бросаю 37 или 38")
	ReasonNoTarget    Reason = "no-target"    // an attack naming no team ("атакуем 58")
	ReasonNoRole      Reason = "no-role"      // points without "к атаке" or "к защите"
)

// AllReasons lists every reason, for the templates' completeness test.
var AllReasons = []Reason{ReasonNoNumber, ReasonManyNumbers, ReasonNoTarget, ReasonNoRole}

// LineError is one line that looks like a move but cannot be read.
type LineError struct {
	LineNo int    `json:"line_no"` // 1-based line of the own text
	Line   string `json:"line"`    // the line as written, trimmed
	Kind   string `json:"kind"`    // what it looked like: roll, attack, defence, points
	Reason Reason `json:"reason"`
}

func (e *LineError) Error() string {
	return "line " + strconv.Itoa(e.LineNo) + " " + strconv.Quote(e.Line) + ": " + e.Kind + ": " + string(e.Reason)
}

// Options say what Parse knows about the game and the post.
type Options struct {
	Teams   []string // the teams' names, to match attack targets
	Private bool     // the post is a private message to the game
}

// Result is a post as read.
type Result struct {
	Class    Class
	Intents  []fb.Intent // in the order of the post; of an Unreadable post, what could be read
	Problems []*LineError
}

// Body is what the engine judges for the post: nil without intents, the intent itself when there
// is one, a *football.Moves (judged as a whole) when there are several.
func (r Result) Body() any {
	switch len(r.Intents) {
	case 0:
		return nil
	case 1:
		return r.Intents[0]
	}
	return &fb.Moves{Intents: append([]fb.Intent(nil), r.Intents...)}
}

// Examples are the forms the grammar reads, for the help reply.
var Examples = []string{
	"Бросаю 37",
	"кубик 37",
	"Атакуем Команда 2, 58",
	"атака на Команда 2: 58",
	"Защищаемся 12",
	"+3 к атаке (личным сообщением, капитан)",
	"Ответ: Пеле (личным сообщением, капитан)",
}

// maxAnswer bounds a bare answer in a private message.
const maxAnswer = 80

// Parse reads a post; see the package documentation.
func Parse(p forum.Post, opt Options) Result {
	own := strings.TrimSpace(russian.CleanText(p.Text))
	var res Result
	if isHelp(own) {
		res.Class = Help
		return res
	}
	if opt.Private {
		if ans, ok := explicitAnswer(own); ok {
			// points come first: a message with a points line is points
			if pts := readLines(own, opt, true); len(pts.points) == 0 && len(pts.problems) == 0 {
				res.Class = AnswerPost
				res.Intents = []fb.Intent{&fb.Answer{Text: ans, Explicit: true}}
				return res
			}
		}
	}
	r := readLines(own, opt, false)
	res.Intents = r.intents
	for _, p := range r.problems {
		// in a private message only points lines can be unreadable: other words are an answer's
		if !opt.Private || p.Kind == "points" {
			res.Problems = append(res.Problems, p)
		}
	}
	switch {
	case len(res.Problems) > 0:
		res.Class = Unreadable
	case len(res.Intents) > 0:
		res.Class = Move
	case !opt.Private:
		if ans, ok := explicitAnswer(own); ok {
			res.Class = AnswerPost
			res.Intents = []fb.Intent{&fb.Answer{Text: ans, Explicit: true}}
			return res
		}
		res.Class = Chatter
	default:
		if own != "" && utf8.RuneCountInString(own) <= maxAnswer && strings.Count(own, "\n") <= 1 {
			res.Class = AnswerPost
			res.Intents = []fb.Intent{&fb.Answer{Text: own}}
			return res
		}
		res.Class = Chatter
	}
	return res
}

// isHelp reports whether the post asks for the help text.
func isHelp(own string) bool {
	switch strings.Trim(russian.Fold(own), "!?. ") {
	case "помощь", "справка", "help", "как ходить", "как играть":
		return true
	}
	return false
}

// explicitAnswer reads "Ответ: X" (also "ответ - X", "Ответ X"): the text after the word.
func explicitAnswer(own string) (string, bool) {
	r := []rune(own)
	const word = "ответ"
	n := utf8.RuneCountInString(word)
	if len(r) <= n || russian.ToCyrillicLower(russian.Fold(string(r[:n]))) != word {
		return "", false
	}
	rest := r[n:]
	if unicode.IsLetter(rest[0]) || unicode.IsDigit(rest[0]) {
		return "", false
	}
	text := strings.TrimSpace(strings.TrimLeft(string(rest), " :-—–=>"))
	return text, text != ""
}

// lineRead is what the lines of a post hold.
type lineRead struct {
	intents  []fb.Intent
	points   []*fb.Points
	problems []*LineError
}

// readLines reads every clause of the own text. pointsOnly stops after the points lines (the
// private-message check of "points first").
func readLines(own string, opt Options, pointsOnly bool) lineRead {
	var out lineRead
	for i, line := range strings.Split(own, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, clause := range clauses(line) {
			toks := tokenize(clause)
			if len(toks) == 0 {
				continue
			}
			intent, kind, reason := readClause(clause, toks, opt)
			if pointsOnly && kind != "points" {
				continue
			}
			if reason != "" {
				out.problems = append(out.problems, &LineError{LineNo: i + 1, Line: line, Kind: kind, Reason: reason})
				continue
			}
			if intent != nil {
				out.intents = append(out.intents, intent)
				if p, ok := intent.(*fb.Points); ok {
					out.points = append(out.points, p)
				}
			}
		}
	}
	return out
}

// clauses splits a line at ';' and at ". " (a full stop followed by a space).
func clauses(line string) []string {
	var out []string
	for _, part := range strings.Split(line, ";") {
		for _, c := range strings.Split(part, ". ") {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// readClause reads one clause: an intent, or what it looked like and why it cannot be read, or
// nothing (chatter).
func readClause(clause string, toks []token, opt Options) (fb.Intent, string, Reason) {
	// points: "+N …", "добавляю N … к атаке"
	if in, reason, ok := readPoints(clause, toks, opt); ok {
		return in, "points", reason
	}
	// a bare number: a roll in the thread (in a private message, an answer)
	if bare, ok := bareNumber(toks); ok {
		if opt.Private {
			return nil, "", ""
		}
		return &fb.Roll{Number: bare, Line: clause}, "roll", ""
	}
	// the keyword: among the first three words, a strong one (a verb) before a weak one
	at, best := -1, kwNone
	words := 0
	for i, t := range toks {
		if t.kind != tWord {
			continue
		}
		if words++; words > 3 {
			break
		}
		k := keyword(t.fold)
		if k != kwNone && (at < 0 || (isWeak(best) && !isWeak(k))) {
			at, best = i, k
		}
	}
	switch best {
	case kwRoll, kwRollWeak, kwDefence, kwDefenceWeak:
		nums := numbersAfter(toks, at+1)
		kind := "roll"
		if best == kwDefence || best == kwDefenceWeak {
			kind = "defence"
		}
		switch {
		case len(nums) == 0 && !isWeak(best):
			return nil, kind, ReasonNoNumber
		case len(nums) == 0:
			return nil, "", "" // "ход принят", "защита у нас слабая"
		case len(nums) > 1:
			return nil, kind, ReasonManyNumbers
		}
		if kind == "defence" {
			return &fb.Defence{Number: nums[0], Line: clause}, kind, ""
		}
		return &fb.Roll{Number: nums[0], Line: clause}, kind, ""
	case kwAttack:
		return readAttack(clause, toks[at+1:], opt)
	}
	return nil, "", ""
}

type kw int

const (
	kwNone kw = iota
	kwRoll
	kwRollWeak
	kwAttack
	kwDefence
	kwDefenceWeak
)

func isWeak(k kw) bool { return k == kwRollWeak || k == kwDefenceWeak }

// The keywords, folded (ё as е). Verbs in the present or future ("бросаю", "атакуем") are strong;
// nouns are weak. Past forms ("бросили", "атаковали") are reports, not moves.
var keywords = map[string]kw{
	"бросаю": kwRoll, "бросаем": kwRoll, "бросим": kwRoll, "брошу": kwRoll, "бросок": kwRoll,
	"кидаю": kwRoll, "кидаем": kwRoll, "кинем": kwRoll, "кину": kwRoll,
	"кубик": kwRollWeak, "кубика": kwRollWeak, "кубиком": kwRollWeak, "ход": kwRollWeak,
	"атакуем": kwAttack, "атакую": kwAttack, "атакует": kwAttack, "атакуют": kwAttack, "атака": kwAttack,
	"атаку": kwAttack, "нападаем": kwAttack, "нападаю": kwAttack, "нападем": kwAttack,
	"нападение":  kwAttack,
	"защищаемся": kwDefence, "защищаюсь": kwDefence, "защищаем": kwDefence, "защищаю": kwDefence,
	"защитимся": kwDefence,
	"защита":    kwDefenceWeak, "защиту": kwDefenceWeak, "защиты": kwDefenceWeak,
}

// keyword classifies a folded word.
func keyword(w string) kw { return keywords[w] }

// numbersAfter lists the numbers of toks[from:].
func numbersAfter(toks []token, from int) []int {
	var out []int
	for _, t := range toks[from:] {
		if t.kind == tNum {
			out = append(out, t.num)
		}
	}
	return out
}

// bareNumber: the clause is one number with at most '№', '#' before it and '.', '!', ')' after.
func bareNumber(toks []token) (int, bool) {
	n, found := 0, false
	for _, t := range toks {
		switch {
		case t.kind == tNum && !found:
			n, found = t.num, true
		case t.kind == tPunct && strings.Contains("№#.!)", t.raw):
		default:
			return 0, false
		}
	}
	return n, found
}

// readPoints reads a points clause; ok is false when the clause is not about points.
func readPoints(clause string, toks []token, opt Options) (fb.Intent, Reason, bool) {
	plus := false // "+N" anywhere in the clause
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].kind == tPunct && toks[i].raw == "+" && toks[i+1].kind == tNum {
			plus = true
		}
	}
	if len(toks) > 0 && toks[0].raw == "+" {
		plus = true // "+ к атаке": points without a number
	}
	verb := false
	role := fb.Role("")
	for _, t := range toks {
		if t.kind != tWord {
			continue
		}
		switch {
		case strings.HasPrefix(t.fold, "добав"), strings.HasPrefix(t.fold, "балл"), strings.HasPrefix(t.fold, "очк"):
			verb = true
		case strings.HasPrefix(t.fold, "атак") && role == "":
			role = fb.RoleAttack
		case (strings.HasPrefix(t.fold, "защит") || strings.HasPrefix(t.fold, "защищ")) && role == "":
			role = fb.RoleDefence
		}
	}
	if !plus && !verb {
		return nil, "", false
	}
	nums := numbersAfter(toks, 0)
	switch {
	case role == "" && len(nums) > 0 && plus && len(toks) <= 3 && opt.Private:
		return nil, ReasonNoRole, true // "+3" alone in a private message
	case role == "":
		return nil, "", false // "+1" in the thread, "баллы у нас есть"
	case len(nums) == 0:
		return nil, ReasonNoNumber, true
	case len(nums) > 1:
		return nil, ReasonManyNumbers, true
	}
	return &fb.Points{Role: role, Count: nums[0], Line: clause}, "", true
}

// readAttack reads the rest of an attack clause after its keyword: [на|в|по] target number.
func readAttack(clause string, rest []token, opt Options) (fb.Intent, string, Reason) {
	for len(rest) > 0 && (rest[0].kind == tPunct || (rest[0].kind == tWord && isPreposition(rest[0].fold))) {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return nil, "attack", ReasonNoTarget
	}
	tail := clause[rest[0].start:]
	// a listed team first: the longest name that the clause starts with
	if team, after, ok := matchTeam(tail, opt.Teams); ok {
		nums := numbersAfter(tokenize(after), 0)
		switch len(nums) {
		case 0:
			return nil, "attack", ReasonNoNumber
		case 1:
			return &fb.Attack{Target: team, Number: nums[0], Line: clause}, "attack", ""
		}
		return nil, "attack", ReasonManyNumbers
	}
	// otherwise the target is the text before the last number
	last := -1
	for i, t := range rest {
		if t.kind == tNum {
			last = i
		}
	}
	if last < 0 {
		return nil, "attack", ReasonNoNumber
	}
	if last > 0 && rest[last-1].kind == tWord && isTeamWord(rest[last-1].fold) {
		return nil, "attack", ReasonNoNumber // "Атакуем Команда 2": the 2 is the name's
	}
	target := strings.Trim(clause[rest[0].start:rest[last].start], " \t,:;-—–=>.!")
	if fb.TeamKey(target) == "" {
		return nil, "attack", ReasonNoTarget
	}
	return &fb.Attack{Target: target, Number: rest[last].num, Line: clause}, "attack", ""
}

func isPreposition(w string) bool { return w == "на" || w == "в" || w == "во" || w == "по" }

func isTeamWord(w string) bool { return strings.HasPrefix(w, "команд") }

// matchTeam finds the listed team whose name the text starts with (by TeamKey, with or without
// "команда" in front), the longest first; it returns the name as listed and the text after it.
func matchTeam(text string, teams []string) (string, string, bool) {
	best, bestAfter, bestLen := "", "", -1
	toks := tokenize(text)
	for _, name := range teams {
		key := fb.TeamKey(name)
		if key == "" {
			continue
		}
		n := len(strings.Fields(key))
		// try the clause's first words: n words, or "команда" and n words
		for _, skip := range []int{0, 1} {
			words, end := 0, -1
			var parts []string
			for _, t := range toks {
				if t.kind == tPunct {
					continue
				}
				if words == skip+n {
					break
				}
				parts = append(parts, t.raw)
				words++
				end = t.end
			}
			if words != skip+n || end < 0 {
				continue
			}
			if skip == 1 && !isTeamWord(firstWordFold(toks)) {
				continue
			}
			if fb.TeamKey(strings.Join(parts, " ")) == key && len(key) > bestLen {
				best, bestAfter, bestLen = name, text[end:], len(key)
			}
		}
	}
	return best, bestAfter, bestLen >= 0
}

func firstWordFold(toks []token) string {
	for _, t := range toks {
		if t.kind != tPunct {
			return t.fold
		}
	}
	return ""
}

// ---- tokens ----

type tokKind int

const (
	tWord tokKind = iota
	tNum
	tPunct
)

// token is a word (letters), a number (digits) or one punctuation rune, with its byte offsets.
type token struct {
	kind       tokKind
	raw, fold  string
	num        int
	start, end int
}

// bigNumber stands for a number too long to read: off the table, refused by the engine.
const bigNumber = 1 << 30

func tokenize(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case unicode.IsLetter(r):
			j := i
			for j < len(s) {
				r2, s2 := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += s2
			}
			w := s[i:j]
			f := russian.Fold(w)
			if hasCyrillic(w) {
				f = russian.ToCyrillicLower(f)
			}
			out = append(out, token{kind: tWord, raw: w, fold: f, start: i, end: j})
			i = j
		case r >= '0' && r <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(s[i:j])
			if err != nil || j-i > 9 {
				n = bigNumber
			}
			out = append(out, token{kind: tNum, raw: s[i:j], fold: s[i:j], num: n, start: i, end: j})
			i = j
		default:
			out = append(out, token{kind: tPunct, raw: s[i : i+size], fold: s[i : i+size], start: i, end: i + size})
			i += size
		}
	}
	return out
}

func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

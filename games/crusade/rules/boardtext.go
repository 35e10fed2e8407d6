package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FlagToken is the token of a flag on a board ("Ф", Cyrillic). Render draws it "Ф_" in the left
// half of the board (the saracen flag at J1) and "_Ф" in the right half (the crusader flag at J20),
// as the seed does.
const FlagToken = "Ф"

// BoardTopLine is the line above the board: 61 underscores.
var BoardTopLine = strings.Repeat("_", 1+3*Size)

// BoardFooter is the line under the board: the column numbers.
var BoardFooter = func() string {
	var b strings.Builder
	b.WriteByte('|')
	for c := 1; c <= Size; c++ {
		fmt.Fprintf(&b, "%2s|", fmt.Sprint(c))
	}
	return strings.ReplaceAll(b.String(), " ", "_")
}()

// ForestRow reports whether row r (0..19) is a forest row (A, B, T, U).
func ForestRow(r int) bool { return r == 0 || r == 1 || r == Size-2 || r == Size-1 }

// rowSeparator is the character between two cells of row r: '<' in rows A and U, '>' in rows B
// and T, '|' elsewhere.
func rowSeparator(r int) byte {
	switch r {
	case 0, Size - 1:
		return '<'
	case 1, Size - 2:
		return '>'
	}
	return '|'
}

// Render draws a board in the seed's text format: the top line of 61 underscores, one line per row
// A..U (no Q) with 20 cells two characters wide and the row label on the right ("|__|в1|...|-E"),
// the forest rows drawn with '<' (A, U) and '>' (B, T) between their cells, and the footer
// "|_1|_2|...|20|". Lines are separated by "\n"; there is no trailing newline.
//
// tokens maps a cell to what stands in it, with underscores trimmed, as BoardText holds it: a
// warrior "в1", the flag "Ф" (FlagToken), or a mark such as "10" or "9". A one-character token is
// padded with an underscore: the flag towards its own edge of the board ("Ф_" in columns 1..10,
// "_Ф" in 11..20), anything else on the left ("_9"). Empty and absent cells are drawn "__".
// A token that is not one or two characters, or that contains a board separator, underscore or
// space, cannot be drawn and is drawn "??". Cells off the board are ignored.
func Render(tokens map[Cell]string) string {
	var b strings.Builder
	b.Grow(23 * 64 * 2)
	b.WriteString(BoardTopLine)
	for r := 0; r < Size; r++ {
		b.WriteByte('\n')
		sep := rowSeparator(r)
		b.WriteByte('|')
		for c := 1; c <= Size; c++ {
			if c > 1 {
				b.WriteByte(sep)
			}
			b.WriteString(drawToken(tokens[Cell{Row: r, Col: c}], c))
		}
		b.WriteString("|-")
		b.WriteByte(Rows[r])
	}
	b.WriteByte('\n')
	b.WriteString(BoardFooter)
	return b.String()
}

// String draws the board with Render.
func (bt *BoardText) String() string {
	if bt == nil {
		return Render(nil)
	}
	return Render(bt.Cells)
}

// Drawable reports whether Render can draw tok so that ParseBoard reads it back unchanged: a
// canonical token as ReadBoardToken returns it (a warrior code "в1", the flag "Ф", a one- or
// two-digit number).
func Drawable(tok string) bool {
	got, ok := ReadBoardToken(tok)
	return ok && got == tok && tok != ""
}

func drawToken(tok string, col int) string {
	if tok == "" {
		return "__"
	}
	if !canonical(tok) && !Drawable(tok) {
		return "??"
	}
	if utf8.RuneCountInString(tok) == 2 {
		return tok
	}
	if tok == FlagToken && col <= Size/2 {
		return tok + "_"
	}
	return "_" + tok
}

// canonical is a quick Drawable for the tokens the engine draws: a warrior code (a kind letter of
// the table and a digit) or the flag. False means "ask Drawable".
func canonical(tok string) bool {
	if tok == FlagToken {
		return true
	}
	k, size := utf8.DecodeRuneInString(tok)
	if len(tok) != size+1 || tok[size] < '0' || tok[size] > '9' {
		return false
	}
	_, ok := Table[Kind(k)]
	return ok
}

// ErrNoBoard is ParseBoard's answer when the text holds no board at all.
var ErrNoBoard = errors.New("crusade: no board in the text")

// BoardReason says why a board could not be read.
type BoardReason string

const (
	BoardCellCount   BoardReason = "cell-count"   // a row does not have 20 cells
	BoardBadLabel    BoardReason = "bad-label"    // a row label is not a row letter (A..U without Q)
	BoardNoLabel     BoardReason = "no-label"     // a row has no label and its place cannot tell it
	BoardDuplicate   BoardReason = "duplicate"    // two lines carry the same row label
	BoardMissingRows BoardReason = "missing-rows" // some rows are absent
	BoardBadToken    BoardReason = "bad-token"    // a cell holds something that is not a warrior, flag or mark
)

// BoardError is a board that is present but cannot be read. Its fields name the place: the line of
// the text (1-based), the row label when known, the column when one cell is at fault, the token
// that could not be read, and the reason.
type BoardError struct {
	Line   int         // line of the text, 1-based (0 when the whole board is at fault)
	Row    string      // row label ("E"), "" when unknown
	Col    int         // column 1..20 when one cell is at fault, else 0
	Token  string      // the text that could not be read (a cell, a label, a list of missing rows)
	Cells  int         // BoardCellCount: how many cells the row had
	Reason BoardReason // why
}

func (e *BoardError) Error() string {
	where := "board"
	if e.Row != "" {
		where += " row " + e.Row
	}
	if e.Col != 0 {
		where += fmt.Sprintf(" column %d", e.Col)
	}
	if e.Line != 0 {
		where += fmt.Sprintf(" (line %d)", e.Line)
	}
	switch e.Reason {
	case BoardCellCount:
		return fmt.Sprintf("crusade: %s: %d cells, want %d", where, e.Cells, Size)
	case BoardBadLabel:
		return fmt.Sprintf("crusade: %s: label %q is not a row (A..U without Q)", where, e.Token)
	case BoardNoLabel:
		return fmt.Sprintf("crusade: %s: no row label", where)
	case BoardDuplicate:
		return fmt.Sprintf("crusade: %s: row appears twice", where)
	case BoardMissingRows:
		return fmt.Sprintf("crusade: %s: rows missing: %s", where, e.Token)
	case BoardBadToken:
		return fmt.Sprintf("crusade: %s: cannot read %q (not a warrior, flag or number)", where, e.Token)
	}
	return fmt.Sprintf("crusade: %s: %s %q", where, e.Reason, e.Token)
}

func isBoardSep(r rune) bool {
	switch r {
	case '|', '<', '>', '¦', '│', '｜', '‹', '›', '«', '»':
		return true
	}
	return false
}

// cleanBoardText undoes what forums and editors do to a board: CRLF, HTML entities, no-break and
// zero-width spaces.
var boardReplacer = strings.NewReplacer(
	"\r\n", "\n", "\r", "\n",
	"&nbsp;", " ", "&NBSP;", " ", "&#160;", " ", "&lt;", "<", "&gt;", ">", "&#95;", "_", "&amp;", "&",
	"\u00a0", " ", "\u2007", " ", "\u202f", " ", "\u200b", "", "\u200c", "", "\u200d", "", "\ufeff", "",
	"\t", " ",
)

// mayReplace reports whether boardReplacer may change text: it holds '\r', '&', a tab, or the
// first byte of a no-break or zero-width space's UTF-8 (0xC2: U+00A0; 0xE2: U+2007, U+200B-D,
// U+202F; 0xEF: U+FEFF). Most posts hold none, and the replacer is not run.
func mayReplace(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\r', '&', '\t', 0xc2, 0xe2, 0xef:
			return true
		}
	}
	return false
}

// boardLine is one line of the text classified.
type boardLine struct {
	no     int      // 1-based line number
	kind   int      // lineOther, lineTop, lineRow, lineFooter, lineBlank
	cells  []string // lineRow: the pieces between separators
	label  string   // lineRow: text after the last separator
	labelR int      // lineRow: the row the label names, -1 none, -2 unreadable
}

const (
	lineOther = iota
	lineBlank
	lineTop
	lineRow
	lineFooter
)

// minRowCells is how many cells a line needs to be taken for a board row (the seed's other tables
// and diagrams have at most 11).
const minRowCells = 15

func classifyBoardLine(no int, s string) boardLine {
	l := boardLine{no: no, labelR: -1}
	t := strings.TrimSpace(s)
	if t == "" {
		l.kind = lineBlank
		return l
	}
	if strings.Trim(t, "_ ") == "" {
		if strings.Count(t, "_") >= 20 {
			l.kind = lineTop
		}
		return l
	}
	first := strings.IndexFunc(t, isBoardSep)
	if first < 0 || strings.TrimSpace(t[:first]) != "" {
		return l
	}
	// The last separator ends the cells; the rest is the label.
	last := strings.LastIndexFunc(t, isBoardSep)
	_, lastSize := utf8.DecodeRuneInString(t[last:])
	body := t[first:last]
	l.label = t[last+lastSize:]
	_, firstSize := utf8.DecodeRuneInString(body)
	body = body[firstSize:]
	if last == first {
		return l
	}
	l.cells = splitSeps(body)
	if len(l.cells) < minRowCells {
		return l
	}
	if isFooter(l.cells) && strings.TrimSpace(l.label) == "" {
		l.kind = lineFooter
		return l
	}
	l.kind = lineRow
	l.labelR = readRowLabel(l.label)
	return l
}

func splitSeps(s string) []string {
	out := make([]string, 0, Size+2) // a row's cells and label
	start := 0
	for i, r := range s {
		if isBoardSep(r) {
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}

func isFooter(cells []string) bool {
	n := 0
	for _, c := range cells {
		c = strings.Trim(c, "_ ")
		if c == "" {
			continue
		}
		n++
		if c != strconv.Itoa(n) {
			return false
		}
	}
	return n >= minRowCells
}

// rowLookalikes maps letters that look like a Latin row letter to it.
var rowLookalikes = map[rune]rune{
	'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P', 'Т': 'T',
	'а': 'A', 'в': 'B', 'с': 'C', 'е': 'E', 'н': 'H', 'к': 'K', 'м': 'M', 'о': 'O', 'р': 'P', 'т': 'T',
	'І': 'I', 'і': 'I', 'Ј': 'J', 'ј': 'J', 'Ѕ': 'S', 'ѕ': 'S', 'Ё': 'E', 'ё': 'E',
}

// readRowLabel reads a row label ("-A", "- А", "a"): the row index, -1 when there is none, -2 when
// it is not a row letter.
func readRowLabel(s string) int {
	s = strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '-' || r == '_' || r == '–' || r == '—' || r == '.' || r == ':'
	})
	if s == "" {
		return -1
	}
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) {
		return -2
	}
	if m, ok := rowLookalikes[r]; ok {
		r = m
	}
	r = unicode.ToUpper(r)
	if r > unicode.MaxASCII {
		return -2
	}
	i := strings.IndexRune(Rows, r)
	if i < 0 {
		return -2
	}
	return i
}

// kindLookalikes maps letters that look like (or are another case of) a warrior kind letter to it.
var kindLookalikes = map[rune]rune{
	'Р': 'р', 'p': 'р', 'P': 'р',
	'А': 'а', 'a': 'а', 'A': 'а',
	'Л': 'л',
	'С': 'с', 'c': 'с', 'C': 'с',
	'К': 'к', 'k': 'к', 'K': 'к',
	'Ш': 'ш', 'w': 'ш', 'W': 'ш',
	'В': 'в', 'B': 'в', 'b': 'в',
	'Н': 'н', 'H': 'н', 'h': 'н',
}

// ReadBoardToken reads what a player wrote in a board cell: underscores and spaces trimmed,
// look-alike letters and case folded for warrior codes ("B1", "В1" -> "в1"), "ф" -> "Ф". It returns
// "" for an empty cell and ok=false when the cell holds something that is neither a warrior code
// (a kind letter and one digit), the flag, nor a one- or two-digit number.
func ReadBoardToken(s string) (tok string, ok bool) {
	if s == "__" {
		return "", true // an empty cell, as most are
	}
	// Most cells are "__", "в1", "_Ф": trimmed, they need nothing removed inside.
	t := strings.Trim(s, "_ ")
	if !utf8.ValidString(t) || strings.IndexFunc(t, func(r rune) bool { return r == '_' || unicode.IsSpace(r) }) >= 0 {
		t = strings.Map(func(r rune) rune {
			if r == '_' || unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	n := utf8.RuneCountInString(t)
	if n == 0 {
		return "", true
	}
	r0, size := utf8.DecodeRuneInString(t)
	switch {
	case n == 1 && (r0 == 'Ф' || r0 == 'ф' || r0 == 'Φ' || r0 == 'φ'):
		return FlagToken, true
	case n <= 2 && digitsOnly(t):
		return t, true
	case n == 2 && t[size] >= '0' && t[size] <= '9':
		k := r0
		if m, ok := kindLookalikes[k]; ok {
			k = m
		}
		if _, ok := Table[Kind(k)]; ok {
			if k == r0 {
				return t, true
			}
			return string(k) + t[size:], true
		}
	}
	return t, false
}

// ParseBoard finds a board in the seed's format anywhere in text (a quote's text, a code block, a
// whole post) and reads what stands in each non-empty cell. It is tolerant of what players and
// forums do to a board: look-alike Cyrillic/Latin letters in warrior codes and row labels, case,
// stray spaces, a missing top line or footer, &nbsp; and no-break spaces, CRLF, blank lines between
// rows, and a missing label when all 20 rows are there in order.
//
// A board is a run of lines that start with '|' and have at least 15 cells (other tables and the
// rules' small diagrams do not count), at least 3 of them or one with a footer. When the text holds
// several boards the last one is read. The error is ErrNoBoard when there is none, and a
// *BoardError naming the row, cell and token when the board is there but cannot be read.
func ParseBoard(text string) (*BoardText, error) {
	if mayReplace(text) {
		text = boardReplacer.Replace(text)
	}
	if strings.IndexFunc(text, isBoardSep) < 0 {
		return nil, ErrNoBoard // no line of it can be a row or the footer
	}
	lines := strings.Split(text, "\n")
	var groups [][]boardLine
	var cur []boardLine
	flush := func() {
		rows, footer := 0, false
		for _, l := range cur {
			switch l.kind {
			case lineRow:
				rows++
			case lineFooter:
				footer = true
			}
		}
		if rows >= 3 || (rows >= 1 && footer) {
			groups = append(groups, cur)
		}
		cur = nil
	}
	for i, s := range lines {
		l := classifyBoardLine(i+1, s)
		switch l.kind {
		case lineRow:
			cur = append(cur, l)
		case lineFooter:
			cur = append(cur, l)
			flush()
		case lineTop:
			flush()
		case lineBlank:
			// Forums double line breaks; a blank line does not end a board.
		default:
			flush()
		}
	}
	flush()
	if len(groups) == 0 {
		return nil, ErrNoBoard
	}
	return readBoardGroup(groups[len(groups)-1])
}

func readBoardGroup(g []boardLine) (*BoardText, error) {
	rows := make([]boardLine, 0, Size)
	for _, l := range g {
		if l.kind == lineRow {
			rows = append(rows, l)
		}
	}
	bt := &BoardText{Cells: make(map[Cell]string, 2*Size)} // room for the warriors, the flags, a few marks
	seen := make([]bool, Size)
	for i, l := range rows {
		r := l.labelR
		switch {
		case r == -2:
			return nil, &BoardError{Line: l.no, Token: strings.TrimSpace(l.label), Reason: BoardBadLabel}
		case r == -1 && len(rows) == Size:
			r = i
		case r == -1:
			return nil, &BoardError{Line: l.no, Reason: BoardNoLabel}
		}
		label := Rows[r : r+1]
		if seen[r] {
			return nil, &BoardError{Line: l.no, Row: label, Reason: BoardDuplicate}
		}
		seen[r] = true
		cells := l.cells
		if len(cells) != Size {
			// Doubled separators leave empty pieces; drop them if that gives 20 cells.
			var kept []string
			for _, c := range cells {
				if c != "" {
					kept = append(kept, c)
				}
			}
			if len(kept) != Size {
				return nil, &BoardError{Line: l.no, Row: label, Cells: len(cells), Reason: BoardCellCount}
			}
			cells = kept
		}
		for c, s := range cells {
			tok, ok := ReadBoardToken(s)
			if !ok {
				return nil, &BoardError{Line: l.no, Row: label, Col: c + 1, Token: strings.TrimSpace(s), Reason: BoardBadToken}
			}
			if tok != "" {
				bt.Cells[Cell{Row: r, Col: c + 1}] = tok
			}
		}
	}
	var missing []string
	for r, ok := range seen {
		if !ok {
			missing = append(missing, Rows[r:r+1])
		}
	}
	if len(missing) > 0 {
		return nil, &BoardError{Token: strings.Join(missing, " "), Reason: BoardMissingRows}
	}
	return bt, nil
}

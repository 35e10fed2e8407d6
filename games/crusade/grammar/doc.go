// Package crusade reads the posts of the game Crusade ("Крестовый поход"): players' moves and
// attacks, the board they quote and edit, wound allocations and deployments. Parse classifies a
// forum.Post (own text, quotes and code blocks separated, see parser.FromBBCode) into a Result.
//
// # Where lines are read
//
// Only the poster's own text and own code blocks are read for lines; a move written inside a
// quote is never the poster's. Lines of a drawn board or table (three or more '|') are skipped.
// The board (crusade.ParseBoard) is looked for in the quotes' texts, then the own code blocks,
// then the own text, and the last one found is Turn.Board (nil when none). A board that is there
// but cannot be read is Result.BoardErr, and the post is still classified by its lines.
//
// # Normalisation
//
// Case does not matter and ё is е. Warrior codes are a kind letter and a number (р1..р3, а1..а2,
// л1..л3, с1..с2, к1..к5, ш1..ш3, в1..в8, н1..н4); the letter may be upper case or a Latin
// look-alike (H2 = н2, p1 = р1, B3 = в3, a1 = а1, c1 = с1, K1 = к1, w1 = ш1). Cells are a row
// letter A–U (no Q) and a column 1–20; the letter may be lower case or a Cyrillic look-alike
// (С5 = C5, Е4 = E4, Р3 = P3, Н7 = H7, К2 = K2, А1 = A1, В2 = B2, Т9 = T9, М1 = M1, О2 = O2), and a
// space may stand between letter and column (G 5). Where either a warrior or a cell may stand (an
// attack target), a code written with a lower-case Cyrillic kind letter that names a warrior is
// that warrior ("в3", "с2"); anything else is a cell ("В3", "C2", "E5").
//
// # Move lines
//
//	[ordinal [ход]] [side] warrior [verb] [на|в|к|до|->|-|:] cell
//	[ordinal [ход]] [side] warrior [с|из|от] cell (->|-|на|в) cell      (start and destination)
//
// ordinal: "1-й", "1-ый", "1й", "2-ой", "3-ий", "первый", "второй", "третий", "четвёртый"...,
// a bare number followed by "ход" ("1 ход"), or "ход 1", "ход №1". side: any form of
// "сарацин"/"крестоносец" ("сарацина", "крестоносца"), misspelt ones included (within
// russian.Typos edits: "сарацна", "сорацина", "крестонсца"), optional and ignored. After an
// ordinal, any other word right before the warrior (but fillers such as "воина", "мой") makes
// the line unreadable (ReasonUnknownWord): the player is asked, and the ordinal written is never
// read as missing. A cell may carry a dash ("K-16"); two cells with nothing between them are
// the start and the destination ("к1 K17 K16"). verb: идёт, ходит, перемещается, ...
// (optional). Several moves may share a line, separated by commas, semicolons or "и"
// ("1-й ход к1 на K16, 2-й ход к2 на L16"), or stand one per line. Chatter around them is skipped
// ("gl hf. 2-й ход сарацина н1 на D6").
//
// # Attack lines
//
//	[ordinal [ход]] [side] attackers attack-words [на|в|по|к] target
//	warrior move-line [и|,|затем] attack-words [на|в|по] target       (move, then attack)
//
// attackers: one warrior, or several joined by "+", "," or "и" ("а1+а2", "а1 и а2", "к1,к2").
// attack-words: a verb (атакует, бьёт, нападает, рубит, удар, атака, ...) and/or a kind word, in
// any order. The kind of attack:
//
//   - "мечом" (меч): sword, Target a warrior or cell: "р1 атакует мечом с2", "р1 мечом D6".
//   - "стреляет"/"стреляют"/"выстрел": shot, Target: "л1 стреляет в в3", "в2 стреляет по E5"; with
//     several attackers a combined shot, the named shooter first: "а1+а2 стреляют в K5".
//   - "копьём" by a knight (р): charge, To = the cell the knight goes to: "р2 копьём на H4".
//   - "копьём" by the guard (ш) or anyone else but knights and pikemen: lance, Target:
//     "ш2 копьём в р3", "ш2 бьёт копьём D5".
//   - "строем", or "копьём" by pikemen (к): formation charge, To = the destination of the first
//     named pikeman: "к1,к2 строем на C6".
//   - a verb with no kind word: AttackUnstated, Target: "р1 атакует с2" (the engine infers the
//     kind and counts the sloppiness).
//
// An ordinal in front of an attack line is Attack.Ordinal; a move followed by an attack in one
// clause gives both the same ordinal.
//
// # Wound allocations
//
//	ранение: warrior stat [count] {(,|;|и) warrior stat [count]}
//
// The header is any word starting "ранен" (ранение, ранения, ...), "раны" or "рана", first on its
// line or first after a sentence's end ("Привет! ранение: к1 защита"); items may follow on it and on the lines after it. stat: атака/атаку/атк (attack) or
// защита/защиту/защ (defence); the stat may come before the warrior. count: "x2", "х2", "×2",
// "*2", "2", "2 раза", "дважды"; 1 when absent. "ранения: в3 атака, н1 защита x2".
//
// # Deployments (private messages)
//
// A header line ("Расстановка:", "размещение") followed by "warrior cell" items ("р1 J18",
// "р1: J18", "р1 - J18", several per line with commas), or a board in the message when the items
// are absent; or, without a header, at least 5 bare "р1 J18" lines and nothing else; or a board
// drawn in the poster's own text or code (not quoted) holding the warriors of one side only and no
// move lines.
//
// # Classification
//
// A post is an AllocationPost when it has a wound header with items, a DeploymentPost as above, a
// TurnPost when it has at least one move or attack line, Chatter otherwise. When a line looks like
// a move or an attack but cannot be read, the post is Unreadable, and Problems names each such
// line, the token not understood and why (ReasonUnknownRow for Q or Z, ReasonBadColumn for 0 or
// 21, ReasonUnknownWarrior, ReasonNoDestination, ...). A line looks like a move when it starts
// with an ordinal and "ход" followed by a side word or a code ("2-й ход крестоносца в1 на Z9"), or
// a code followed by an arrow, an attack word, a move verb, another code, or "на"/"в" and a code
// or the end of the line. Ordinary chat ("Играю за сарацинов..", "оки. пиши", "Ход принят",
// "ш1 силён", "р1 на месте") is Chatter.
//
// Everything here is pure and deterministic: no I/O, no clock, no logging.
package grammar

// Examples are the line forms the grammar reads (its tests read them all). Replies never show
// them: their examples are computed legal in the position shown (games/crusade examples.go).
var Examples = []string{
	"1-й ход сарацина н2 на G5",
	"1 ход н2 на G5",
	"первый ход н2 G5",
	"н2 -> G5",
	"н2 G4-G5",
	"1-й ход к1 на K16, 2-й ход к2 на L16",
	"2-й ход р1 на D5 и атакует мечом D6",
	"р1 атакует мечом с2",
	"р1 мечом D6",
	"р2 копьём на H4",
	"ш2 копьём в р3",
	"л1 стреляет в в3",
	"в2 стреляет по E5",
	"а1+а2 стреляют в K5",
	"к1,к2 строем на C6",
	"ранения: в3 атака, н1 защита x2",
	"расстановка: р1 J18, р2 K18, ...",
}

package forum

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// Decode turns a page's bytes into UTF-8 and says which charset they were in. It is the one
// decoding of forum pages: the Client decodes every page it fetches with it, and the reading kit
// (forum/scrape) and the dialects decode saved pages with it.
//
// The charset a page declares (the Content-Type header, a BOM, its <meta>, else a sniff) is not
// always the one it is sent in: a board's settings, a proxy or a theme may declare windows-1251
// for UTF-8 bytes or the reverse, and read by the declaration the text turns into mojibake
// («Р”Р¶РµР»Сѓ») or replacement characters. So, for the charsets of Russian boards (UTF-8,
// windows-1251, KOI8-R, and the windows-1252 the sniff falls back to), the bytes decide:
//   - bytes that are valid UTF-8 and hold multi-byte sequences are UTF-8, whatever is declared
//     (a few stray invalid bytes among many multi-byte sequences too: they become U+FFFD);
//   - bytes that are not UTF-8 and read as Russian in a single-byte charset (letters in words of
//     three and more) are windows-1251 or KOI8-R, whichever the letters' frequencies and cases say
//     (the declared one of the two when they tie);
//   - anything else is read as declared; invalid bytes of a page taken for UTF-8 become U+FFFD.
//
// What is still garbled after this is caught post by post (Garbled, CheckEncoding) and held by the
// daemon, never judged.
func Decode(raw []byte, contentType string) ([]byte, string, error) {
	if len(raw) == 0 {
		return raw, "utf-8", nil
	}
	_, name, certain := charset.DetermineEncoding(raw, contentType)
	if name == "" || !certain && name == "windows-1252" && lateUTF8Meta(raw) {
		name = "utf-8"
	}
	name = actualCharset(raw, name)
	if name == "utf-8" {
		if !utf8.Valid(raw) {
			raw = bytes.ToValidUTF8(raw, []byte(string(utf8.RuneError)))
		}
		return raw, name, nil
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return nil, "", fmt.Errorf("decode %s: %w", name, err)
	}
	b, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, "", fmt.Errorf("decode %s: %w", name, err)
	}
	return b, name, nil
}

// sniffed are the declared charsets Decode checks against the bytes: those of Russian boards,
// and the sniff's fallback. Others (UTF-16 by its BOM, ISO-8859-5, ...) are read as declared.
var sniffed = map[string]bool{"utf-8": true, "windows-1251": true, "koi8-r": true, "windows-1252": true}

// actualCharset is the charset raw is in, given the one it declares (see Decode).
func actualCharset(raw []byte, declared string) string {
	if !sniffed[declared] {
		return declared
	}
	multi, invalid := 0, 0
	for i := 0; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n == 1 {
			invalid++
		} else {
			multi++
		}
		i += n
	}
	switch {
	case invalid == 0 && multi > 0:
		return "utf-8"
	case invalid == 0:
		return declared // plain ASCII: any will do, and the declared one encodes the forms
	case multi >= 10*invalid:
		return "utf-8" // UTF-8 with a few broken bytes (a title cut mid-letter): those become U+FFFD
	case russianSingleByte(raw):
		cp, koi := russianScore(raw, charmap.Windows1251), russianScore(raw, charmap.KOI8R)
		switch {
		case koi > cp, koi == cp && declared == "koi8-r":
			return "koi8-r"
		}
		return "windows-1251"
	}
	return declared
}

// russianSingleByte says whether raw's non-ASCII bytes look like Russian text in a single-byte
// charset: most of the letter bytes (0xC0-0xFF in both windows-1251 and KOI8-R) stand in runs of
// three and more, as the letters of Russian words do (accented letters of a latin-1 text stand
// alone among ASCII letters).
func russianSingleByte(raw []byte) bool {
	letters, inWords, run := 0, 0, 0
	for i := 0; i <= len(raw); i++ {
		if i < len(raw) && raw[i] >= 0xC0 {
			letters++
			run++
			continue
		}
		if run >= 3 {
			inWords += run
		}
		run = 0
	}
	return inWords >= 3 && 2*inWords >= letters
}

// russianScore is how much raw's letter bytes read as Russian in cm: each letter counts its
// frequency in Russian text (per cent), a capital counts half of it at a word's start and against
// the score inside a word. Read in the wrong one of windows-1251 and KOI8-R, Russian text's
// lower-case letters come out as capitals (the two put the cases in opposite halves) and common
// letters as rare ones.
func russianScore(raw []byte, cm *charmap.Charmap) float64 {
	score, prevLetter := 0.0, false
	for _, b := range raw {
		if b < 0xC0 {
			prevLetter = false
			continue
		}
		r := cm.DecodeByte(b)
		f := russianFreq[unicode.ToLower(r)]
		switch {
		case unicode.IsLower(r):
			score += f
		case !prevLetter:
			score += f / 2
		default:
			score--
		}
		prevLetter = true
	}
	return score
}

// russianFreq is how often each letter occurs in Russian text, per cent.
var russianFreq = map[rune]float64{
	'о': 10.97, 'е': 8.45, 'а': 8.01, 'и': 7.35, 'н': 6.70, 'т': 6.26, 'с': 5.47, 'р': 4.73,
	'в': 4.54, 'л': 4.40, 'к': 3.49, 'м': 3.21, 'д': 2.98, 'п': 2.81, 'у': 2.62, 'я': 2.01,
	'ы': 1.90, 'ь': 1.74, 'г': 1.70, 'з': 1.65, 'б': 1.59, 'ч': 1.44, 'й': 1.21, 'х': 0.97,
	'ж': 0.94, 'ш': 0.73, 'ю': 0.64, 'ц': 0.48, 'щ': 0.36, 'э': 0.32, 'ф': 0.26, 'ъ': 0.04, 'ё': 0.04,
}

var metaCharsetRe = regexp.MustCompile(`(?i)<meta[^>]+charset=["']?([a-z0-9_-]+)`)

// lateUTF8Meta says, for a page the sniff took for windows-1252 (its fallback when no charset is
// complete in the first 1024 bytes, where the HTML prescan stops), whether the page's first
// <meta> charset says UTF-8 and the page is valid UTF-8: a saved SMF 2.0 page (Curve writes its
// <meta> after about 1 KB of scripts).
func lateUTF8Meta(raw []byte) bool {
	m := metaCharsetRe.FindSubmatch(raw)
	return m != nil && strings.EqualFold(string(m[1]), "utf-8") && utf8.Valid(raw)
}

// Garbled says why s is not text that decoded cleanly, or "" when it is: replacement characters
// (U+FFFD, or bytes that are not UTF-8), or the typical mojibake of Russian text read in the wrong
// charset — UTF-8 read as windows-1251 («Р”Р¶РµР»Сѓ»: every letter a Р or С and a symbol) or
// windows-1251 read as latin-1 («Äæåëó»: accented Latin letters only).
func Garbled(s string) string {
	switch {
	case !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError):
		return "replacement characters (U+FFFD): bytes the page's charset does not hold"
	case utf8As1251(s):
		return "mojibake: UTF-8 read as windows-1251"
	case cp1251AsLatin1(s):
		return "mojibake: windows-1251 read as latin-1"
	}
	return ""
}

// utf8As1251 says whether s reads like UTF-8 Russian decoded as windows-1251: a Cyrillic letter's
// UTF-8 lead byte 0xD0 or 0xD1 shows as Р or С, its second byte (0x80-0xBF) as a windows-1251
// symbol or rare letter. It takes two such pairs and a third of the Cyrillic letters in them (a
// real «ВСЁ» or «буква Р»» is one pair among many letters).
func utf8As1251(s string) bool {
	pairs, cyrillic := 0, 0
	var prev rune
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			cyrillic++
		}
		if b, ok := charmap.Windows1251.EncodeRune(r); ok {
			// After 0xD0 (Р): А-п are 0x90-0xBF, Ё 0x81; after 0xD1 (С): р-я 0x80-0x8F, ё 0x91.
			if prev == 'Р' && (b >= 0x90 && b <= 0xBF || b == 0x81) || prev == 'С' && (b >= 0x80 && b <= 0x8F || b == 0x91) {
				pairs++
				r = 0 // a pair's second half does not start another
			}
		}
		prev = r
	}
	return pairs >= 2 && 3*pairs >= cyrillic
}

// cp1251AsLatin1 says whether s reads like windows-1251 Russian decoded as latin-1 (or
// windows-1252): three or more letters of U+00C0-U+00FF, at least half of all the Latin letters,
// at least half of them next to another (Russian words come out as runs of them, a French or
// German word has one here and there), and no Cyrillic at all.
func cp1251AsLatin1(s string) bool {
	high, latin, paired := 0, 0, 0
	prevHigh, lastCounted := false, false
	for _, r := range s {
		isHigh := r >= 0xC0 && r <= 0xFF && r != 0xD7 && r != 0xF7 && unicode.IsLetter(r)
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			return false
		case isHigh:
			high++
			latin++
			if prevHigh {
				paired++
				if !lastCounted {
					paired++ // the first of the run
				}
			}
		case r < utf8.RuneSelf && unicode.IsLetter(r):
			latin++
		}
		lastCounted = isHigh && prevHigh
		prevHigh = isHigh
	}
	return high >= 3 && 2*high >= latin && 2*paired >= high
}

// CheckEncoding adds a ProblemEncoding to each post whose author or text is Garbled: a post read
// from a page that did not decode cleanly, which must not be judged as it reads (the daemon holds
// it until a read gives its real text).
func CheckEncoding(posts []Post) {
	for i := range posts {
		p := &posts[i]
		for _, part := range []struct{ name, s string }{{"author", p.Author}, {"text", p.Text}} {
			if why := Garbled(part.s); why != "" {
				p.Problems = append(p.Problems, Problem{Kind: ProblemEncoding, Detail: part.name + ": " + why})
			}
		}
	}
}

// Encoding returns the post's ProblemEncoding, if it has one.
func (p Post) Encoding() (Problem, bool) {
	for _, pr := range p.Problems {
		if pr.Kind == ProblemEncoding {
			return pr, true
		}
	}
	return Problem{}, false
}

// Package parser holds the post handling every game's grammar shares: splitting a BBCode post as
// typed into the author's own text, quotes, code blocks and spoilers (FromBBCode, the same shape
// the forum scrapers produce), and the normalisation players' Russian text needs: cleaning
// forum-mangled whitespace, case folding with ё -> е, Cyrillic/Latin look-alike letters in both
// directions, and ordinals ("1-й", "1-ый", "первый").
//
// Everything here is a pure function: no I/O, no clock, no logging.
package parser

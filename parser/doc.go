// Package parser holds the post handling every game's grammar shares: splitting a BBCode post as
// typed into the author's own text, quotes, code blocks and spoilers (FromBBCode, the same shape
// the forum scrapers produce). The normalisation of players' Russian text is package russian's.
//
// Everything here is a pure function: no I/O, no clock, no logging.
package parser

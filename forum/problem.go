package forum

import "strings"

// ProblemKind is the part of a post a dialect could not read. What the daemon does with a post
// depends on it: a post without its author or its text goes to a person, a post without its date
// is judged at the time it was read, a post whose text did not decode cleanly waits for a read
// that gives its real text.
type ProblemKind int

const (
	// ProblemOther is a problem of no known kind (its Detail is the whole text): what a stored
	// post written before the kinds existed may hold.
	ProblemOther  ProblemKind = iota
	ProblemAuthor             // the author's name was not found
	ProblemTime               // the date was not found or not understood
	ProblemText               // the post's body (so its text) was not found
	// ProblemEncoding: the author or the text holds replacement characters or mojibake (the page
	// was read in a charset it is not in; see Garbled): what it says is not what was written.
	ProblemEncoding
)

// problemNames are the kinds as a problem's text begins: "time: not found (.post_date)".
var problemNames = [...]string{ProblemAuthor: "author", ProblemTime: "time", ProblemText: "body", ProblemEncoding: "encoding"}

// Problem is a part of a post the dialect could not read, and why: Detail says what was looked
// for or what could not be understood ("not found (.author)", `"вчера" not understood`).
type Problem struct {
	Kind   ProblemKind
	Detail string
}

// NotFound is the problem of a part that is not on the page where the dialect looked (its
// selectors; "" when there is nothing to name).
func NotFound(k ProblemKind, where string) Problem {
	if where == "" {
		return Problem{Kind: k, Detail: "not found"}
	}
	return Problem{Kind: k, Detail: "not found (" + where + ")"}
}

// String is the problem as logs, flags and the commands show it: "kind: detail".
func (p Problem) String() string {
	if p.Kind <= ProblemOther || int(p.Kind) >= len(problemNames) {
		return p.Detail
	}
	return problemNames[p.Kind] + ": " + p.Detail
}

// MarshalText writes the problem as String does: posts are stored (and shown as JSON) with their
// problems as text.
func (p Problem) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a problem MarshalText wrote; a text of no known kind is a ProblemOther.
func (p *Problem) UnmarshalText(b []byte) error {
	s := string(b)
	for k := ProblemAuthor; int(k) < len(problemNames); k++ {
		if rest, ok := strings.CutPrefix(s, problemNames[k]+": "); ok {
			*p = Problem{Kind: k, Detail: rest}
			return nil
		}
	}
	*p = Problem{Kind: ProblemOther, Detail: s}
	return nil
}

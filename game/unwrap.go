package game

// As finds the optional part T (Viewer, Styled, Debtor…) of a game or its rules, looking through
// wrappers: a wrapper (the sign-up phase around a game, package signup) gives what it wraps by
// Inner, and the part may be the wrapped game's.
func As[T any](v any) (T, bool) {
	for v != nil {
		if t, ok := v.(T); ok {
			return t, true
		}
		switch w := v.(type) {
		case interface{ Inner() Game }:
			v = w.Inner()
		case interface{ Inner() Rules }:
			v = w.Inner()
		default:
			v = nil
		}
	}
	var zero T
	return zero, false
}

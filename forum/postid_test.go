package forum

import (
	"slices"
	"testing"
)

func TestIDLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"9", "10", true}, {"10", "9", false}, {"7", "7", false}, {"x9", "x10", true}, {"ab", "b", false}, {"a", "b", true},
		// "" is nothing read yet; numbers of any length; leading zeros aside.
		{"", "1", true}, {"1", "", false}, {"99999999999999999999", "100000000000000000000", true}, {"007", "10", true},
	} {
		if got := IDLess(c.a, c.b); got != c.want {
			t.Errorf("IDLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// CompareIDs is a total order: sorting any ids gives one result, whatever their first order.
func TestCompareIDsOrder(t *testing.T) {
	ids := []string{"", "0", "7", "007", "10", "9", "b", "ab", "x10", "x9", "12a", "99999999999999999999", "100000000000000000000"}
	want := []string{"", "0", "007", "7", "9", "b", "10", "ab", "x9", "12a", "x10", "99999999999999999999", "100000000000000000000"}
	for i := range ids {
		got := append(slices.Clone(ids[i:]), ids[:i]...)
		slices.Reverse(got)
		slices.SortFunc(got, CompareIDs)
		if !slices.Equal(got, want) {
			t.Fatalf("sorted %q, want %q", got, want)
		}
		for j := range got {
			for k := range got {
				if c := CompareIDs(got[j], got[k]); c != -CompareIDs(got[k], got[j]) || (c < 0) != (j < k) {
					t.Fatalf("CompareIDs(%q, %q) = %d", got[j], got[k], c)
				}
			}
		}
	}
}

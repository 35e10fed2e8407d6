package forum

import (
	"sort"
	"strings"
)

// CompareIDs is the one order of post ids (and private-message ids), oldest first: -1 when a
// comes before b, 0 when they are the same id, +1 after. Every dialect's ids follow it, and
// everything above the dialects (the cursors, the daemon's rescan, the fleet's shared inbox)
// orders ids with it alone:
//   - "" (nothing read yet) comes first;
//   - two ids of digits compare as numbers, of any length (leading zeros aside);
//   - any other pair compares shorter first, then byte by byte (leading zeros of an id of
//     digits left out), which keeps the order of ids that carry a number after a fixed prefix
//     ("x9" before "x10").
//
// Every dialect in the tree reads ids of digits (MyBB pids and pmids, PunBB, SMF, phpBB,
// Invision, XenForo, vBulletin, uCoz, Discourse post ids); the fallback is for a board a
// generic table was written for.
func CompareIDs(a, b string) int {
	if a == b {
		return 0
	}
	ka, kb := idKey(a), idKey(b)
	if len(ka) != len(kb) {
		if len(ka) < len(kb) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ka, kb); c != 0 {
		return c
	}
	return strings.Compare(a, b) // "07" and "7": the same number, a fixed order all the same
}

// IDLess says whether post id a comes before b (CompareIDs).
func IDLess(a, b string) bool { return CompareIDs(a, b) < 0 }

// SortPosts orders posts by id (CompareIDs), oldest first; posts with the same id keep their
// order.
func SortPosts(ps []Post) {
	sort.SliceStable(ps, func(i, j int) bool { return IDLess(ps[i].ID, ps[j].ID) })
}

// idKey is what CompareIDs compares: an id of digits without its leading zeros ("0" stays),
// any other id as it is.
func idKey(id string) string {
	if !digits(id) {
		return id
	}
	if k := strings.TrimLeft(id, "0"); k != "" {
		return k
	}
	return "0"
}

// digits says whether id is a number: digits only, at least one.
func digits(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return id != ""
}

package sandbox

import (
	"fmt"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

func isCP1251(cs string) bool {
	cs = strings.ToLower(strings.TrimSpace(cs))
	return cs == "windows-1251" || cs == "cp1251"
}

// encodeCP1251 encodes a UTF-8 page in windows-1251; characters it lacks become &#NNNN;, which is
// what a real cp1251 board stores and shows for them.
func encodeCP1251(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if b, ok := charmap.Windows1251.EncodeRune(r); ok {
			out = append(out, b)
			continue
		}
		out = append(out, fmt.Sprintf("&#%d;", r)...)
	}
	return out
}

// decodeCP1251 decodes a form value a browser sent from a windows-1251 page.
func decodeCP1251(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(charmap.Windows1251.DecodeByte(s[i]))
	}
	return b.String()
}

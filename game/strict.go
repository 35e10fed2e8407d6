package game

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// unknownFieldRe is how the YAML decoder reports a key the schema does not have; lineRe any
// problem it reports on a line.
var (
	unknownFieldRe = regexp.MustCompile(`^line (\d+): field (\S+) not found in type (\S+)$`)
	lineRe         = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// DecodeStrict decodes a game's YAML keys into v, refusing keys v does not have (a misspelt
// setting is an error naming it, never silently ignored). Every problem names its line in the
// file n was read from and the key's place under n (see Explain).
func DecodeStrict(n *yaml.Node, v any) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	err = dec.Decode(v)
	// The decoder counted lines in the copy: give each problem, and each YAML tree v keeps for
	// later decoding (a game's settings), n's own lines.
	var copied yaml.Node
	if yaml.Unmarshal(b, &copied) != nil || len(copied.Content) != 1 {
		return err
	}
	lines := map[int]int{}
	sameLines(copied.Content[0], n, lines)
	relineTrees(reflect.ValueOf(v), lines)
	if err == nil {
		return nil
	}
	if te, ok := err.(*yaml.TypeError); ok {
		for i, e := range te.Errors {
			if m := lineRe.FindStringSubmatch(e); m != nil {
				l, _ := strconv.Atoi(m[1])
				if orig, ok := lines[l]; ok {
					te.Errors[i] = fmt.Sprintf("line %d: %s", orig, m[2])
				}
			}
		}
	} else if m := lineRe.FindStringSubmatch(err.Error()); m != nil {
		l, _ := strconv.Atoi(m[1])
		if orig, ok := lines[l]; ok {
			err = fmt.Errorf("line %d: %s", orig, m[2])
		}
	}
	return Explain(n, err, reflect.TypeOf(v))
}

// sameLines maps the lines of the nodes of a (a copy of b written out and read again) to the
// lines of b's nodes, walking both alike.
func sameLines(a, b *yaml.Node, lines map[int]int) {
	if _, ok := lines[a.Line]; !ok && b.Line > 0 {
		lines[a.Line] = b.Line
	}
	if len(a.Content) != len(b.Content) {
		return
	}
	for i := range a.Content {
		sameLines(a.Content[i], b.Content[i], lines)
	}
}

// nodeType is a YAML tree kept in a decoded value.
var nodeType = reflect.TypeOf(yaml.Node{})

// relineTrees gives every YAML tree held in v (a yaml.Node field, in structs, pointers and
// slices) the lines of the file: lines maps the copy's lines to the file's.
func relineTrees(v reflect.Value, lines map[int]int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			relineTrees(v.Elem(), lines)
		}
	case reflect.Struct:
		if v.Type() == nodeType {
			if v.CanAddr() {
				relineNode(v.Addr().Interface().(*yaml.Node), lines)
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				relineTrees(v.Field(i), lines)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			relineTrees(v.Index(i), lines)
		}
	}
}

func relineNode(n *yaml.Node, lines map[int]int) {
	if l, ok := lines[n.Line]; ok {
		n.Line = l
	}
	for _, c := range n.Content {
		relineNode(c, lines)
	}
}

// Explain rewrites the decoder's problems with doc (decoded into a value of type root) into ones
// that name the key's place under doc: "line 25: field pasword not found in type config.Bot"
// becomes "line 25: bot.pasword: unknown field (did you mean password_env? known here: …)", and
// a value's problem ("line 81: "5q" is not a duration") names its key too ("line 81: poll.floor:
// "5q" is not a duration"). Other errors are returned as they are.
func Explain(doc *yaml.Node, err error, root reflect.Type) error {
	te, ok := err.(*yaml.TypeError)
	if !ok {
		if m := lineRe.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			if path := valuePath(doc, line, m[2], ""); path != "" && !strings.HasPrefix(m[2], path+":") {
				return fmt.Errorf("line %d: %s: %s", line, path, m[2])
			}
		}
		return err
	}
	lines := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		lines[i] = e
		m := unknownFieldRe.FindStringSubmatch(e)
		if m == nil {
			if m := lineRe.FindStringSubmatch(e); m != nil {
				line, _ := strconv.Atoi(m[1])
				if path := valuePath(doc, line, m[2], ""); path != "" {
					lines[i] = fmt.Sprintf("line %d: %s: %s", line, path, m[2])
				}
			}
			continue
		}
		line, _ := strconv.Atoi(m[1])
		path := keyPath(doc, line, m[2], "")
		if path == "" {
			path = m[2]
		}
		typeName := m[3]
		if i := strings.LastIndexByte(typeName, '.'); i >= 0 {
			typeName = typeName[i+1:]
		}
		known := fieldsOf(root, typeName, map[reflect.Type]bool{})
		msg := fmt.Sprintf("line %d: %s: unknown field", line, path)
		if len(known) > 0 {
			if best := closest(m[2], known); best != "" {
				msg += fmt.Sprintf(" (did you mean %s? known here: %s)", best, strings.Join(known, ", "))
			} else {
				msg += fmt.Sprintf(" (known here: %s)", strings.Join(known, ", "))
			}
		}
		lines[i] = msg
	}
	return fmt.Errorf("yaml: %s", strings.Join(lines, "; "))
}

// valuePath is the dotted path of the mapping key whose value is a scalar on line (poll.floor)
// and, where several are on the line, is quoted in msg (the problem's words); "" if none.
func valuePath(n *yaml.Node, line int, msg, prefix string) string {
	first := ""
	if p := valuePathQuoted(n, line, msg, prefix, &first); p != "" {
		return p
	}
	return first
}

func valuePathQuoted(n *yaml.Node, line int, msg, prefix string, first *string) string {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if p := valuePathQuoted(c, line, msg, prefix, first); p != "" {
				return p
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name := k.Value
			if prefix != "" {
				name = prefix + "." + k.Value
			}
			if v.Kind == yaml.ScalarNode && v.Line == line {
				if *first == "" {
					*first = name
				}
				if v.Value != "" && strings.Contains(msg, strconv.Quote(v.Value)) || strings.Contains(msg, "`"+v.Value+"`") {
					return name
				}
			}
			if p := valuePathQuoted(v, line, msg, name, first); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p := valuePathQuoted(c, line, msg, fmt.Sprintf("%s[%d]", prefix, i), first); p != "" {
				return p
			}
		}
	}
	return ""
}

// keyPath is the dotted path of the mapping key named key on line (games[1].forum.pasword), "" if
// none is found.
func keyPath(n *yaml.Node, line int, key, prefix string) string {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if p := keyPath(c, line, key, prefix); p != "" {
				return p
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name := k.Value
			if prefix != "" {
				name = prefix + "." + k.Value
			}
			if k.Line == line && k.Value == key {
				return name
			}
			if p := keyPath(v, line, key, name); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p := keyPath(c, line, key, fmt.Sprintf("%s[%d]", prefix, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// fieldsOf finds the struct type named name under t and lists its YAML keys, sorted.
func fieldsOf(t reflect.Type, name string, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	if t.Name() == name {
		keys := keysOf(t)
		sort.Strings(keys)
		return keys
	}
	for i := 0; i < t.NumField(); i++ {
		if k := fieldsOf(t.Field(i).Type, name, seen); k != nil {
			return k
		}
	}
	return nil
}

// closest is the known key nearest to key by edit distance, when it is near enough to be a typo
// (at most a third of its letters differ) or key is its prefix; "" otherwise.
func closest(key string, known []string) string {
	best, bestD := "", len(key)/3+1
	for _, k := range known {
		if strings.HasPrefix(k, key) && len(key) >= 3 {
			return k
		}
		for _, cand := range []string{k, strings.SplitN(k, "_", 2)[0]} { // password_env for "pasword"
			if d := distance(key, cand); d < bestD {
				best, bestD = k, d
			}
		}
	}
	return best
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// keysOf lists the YAML keys of struct t, its inlined structs' included.
func keysOf(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if strings.Contains(opts, "inline") {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				keys = append(keys, keysOf(ft)...)
				continue
			}
		}
		if tag == "" {
			tag = strings.ToLower(f.Name)
		}
		keys = append(keys, tag)
	}
	return keys
}

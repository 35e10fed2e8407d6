package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// unknownFieldRe is how the YAML decoder reports a key the schema does not have.
var unknownFieldRe = regexp.MustCompile(`^line (\d+): field (\S+) not found in type (\S+)$`)

// explainUnknown rewrites the decoder's "line 25: field pasword not found in type config.Bot"
// lines into ones that name the key's place in the file and what it may have meant:
// "line 25: bot.pasword: unknown field (did you mean password_env? known: username, …)".
// Errors of other kinds are returned as they are.
func explainUnknown(src []byte, err error) error {
	te, ok := err.(*yaml.TypeError)
	if !ok {
		return err
	}
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil {
		return err
	}
	lines := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		lines[i] = e
		m := unknownFieldRe.FindStringSubmatch(e)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[1])
		path := keyPath(&doc, line, m[2], "")
		if path == "" {
			path = m[2]
		}
		known := fieldsOf(reflect.TypeOf(Config{}), strings.TrimPrefix(m[3], "config."), map[reflect.Type]bool{})
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

package signup

import "go.yaml.in/yaml/v3"

func node(v any) (yaml.Node, error) {
	var n yaml.Node
	err := n.Encode(v)
	return n, err
}

//go:build !linux || !cgo

package resident

func mallocArenas() {}

func mallocTrim() {}

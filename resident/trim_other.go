//go:build !linux

package resident

// TrimExecutable does nothing outside Linux: the kernels there are not measured.
func TrimExecutable() (int64, error) { return 0, nil }

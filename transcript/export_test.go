package transcript

// Test-only conveniences, kept out of the binary.

// Parse reads a transcript from YAML and checks it (file names in it resolve against the working
// folder).
func Parse(b []byte) (*Transcript, error) { return parse(b, "") }

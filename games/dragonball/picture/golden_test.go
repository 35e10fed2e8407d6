package picture

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"forumgm/games/dragonball/rules"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata/golden")

// maxBytes is the largest a picture may be: forums limit attachments, and it must load fast.
const maxBytes = 200 << 10

// goldenCase is a testdata/cases file: a field and, per dragon, the depth of its fire (0: none,
// 2: flame, 3: volley), from which the test fills Fire with the engine's cone.
type goldenCase struct {
	Note  string `yaml:"note"`
	Cones []int  `yaml:"cones"`
	Field Field  `yaml:"field"`
}

func loadCase(t testing.TB, path string) Field {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c goldenCase
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i, depth := range c.Cones {
		if depth == 0 {
			continue
		}
		dr := &c.Field.Dragons[i]
		facing, ok := rules.Cell(dr.Body).DirTo(rules.Cell(dr.Head))
		if !ok {
			t.Fatalf("%s: dragon %d: head %d not next to body %d", path, i, dr.Head, dr.Body)
		}
		for _, cell := range rules.Cone(rules.Cell(dr.Head), facing, depth) {
			dr.Fire = append(dr.Fire, int(cell))
		}
	}
	return c.Field
}

func cases(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/cases/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	return paths
}

// TestGolden draws every case and compares the pixels with testdata/golden/<case>.png.
func TestGolden(t *testing.T) {
	for _, path := range cases(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		t.Run(name, func(t *testing.T) {
			f := loadCase(t, path)
			got, err := PNG(f)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".png")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if n, why := differ(t, got, want); n != 0 {
				t.Errorf("%s: %d pixels differ%s (run with -update to accept, after looking at it)", golden, n, why)
			}
		})
	}
}

// differ counts the pixels that differ between two PNGs.
func differ(t *testing.T, a, b []byte) (int, string) {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !ia.Bounds().Eq(ib.Bounds()) {
		return max(ia.Bounds().Dx()*ia.Bounds().Dy(), ib.Bounds().Dx()*ib.Bounds().Dy()),
			" (size " + ia.Bounds().Size().String() + ", golden " + ib.Bounds().Size().String() + ")"
	}
	n := 0
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				n++
			}
		}
	}
	return n, ""
}

// TestSize: every picture is a PNG of at most maxBytes, Width wide, as tall as Size says, and
// the standard teams of seven give the designed 900 x 847.
func TestSize(t *testing.T) {
	for _, path := range cases(t) {
		f := loadCase(t, path)
		b, err := PNG(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > maxBytes {
			t.Errorf("%s: %d bytes, more than %d", path, len(b), maxBytes)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := image.Pt(cfg.Width, cfg.Height), Size(f); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	if got, want := Size(loadCase(t, "testdata/cases/start.yaml")), image.Pt(900, 847); got != want {
		t.Errorf("start: %v, want the designed %v", got, want)
	}
}

func BenchmarkPNG(b *testing.B) {
	f := loadCase(b, "testdata/cases/midgame.yaml")
	var n int
	for b.Loop() {
		p, err := PNG(f)
		if err != nil {
			b.Fatal(err)
		}
		n = len(p)
	}
	b.ReportMetric(float64(n), "png-bytes")
}

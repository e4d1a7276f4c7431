package dataset

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

func TestReadCSV(t *testing.T) {
	in := "a,b,y\n1,2,0\n\n# comment\n3,4.5,1\r\n"
	ds, err := ReadCSV(strings.NewReader(in), CSVOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.N() != 2 || ds.D != 2 || ds.Row(1)[1] != 4.5 || ds.Y[1] != 1 || ds.Names[1] != "b" {
		t.Fatalf("got %+v", ds)
	}
	if err := ds.MapBinaryLabels(); err != nil || ds.Y[0] != -1 {
		t.Fatalf("MapBinaryLabels: %v %v", err, ds.Y)
	}
}

func TestReadCSVErrorsNameLine(t *testing.T) {
	cases := []struct {
		in   string
		line int
		frag string
	}{
		{"a,y\n1,2\n3\n", 3, "fields"},
		{"a,y\n1,2\n3,x\n", 3, "not a finite number"},
		{"a,y\n1,NaN\n", 2, "not a finite number"},
		{"a,y\n1,Inf\n", 2, "not a finite number"},
		{"a,b\n1,2\n", 1, "no column \"y\""},
		{"a,a,y\n1,2,3\n", 1, "repeats"},
		{"", 1, "no header"},
		{"a,y\n", 1, "no data rows"},
		{"a,y\n1,\"2\n", 2, "not valid CSV"},
		{"y\n1\n", 1, "at least one feature"},
	}
	for _, c := range cases {
		_, err := ReadCSV(strings.NewReader(c.in), CSVOptions{Label: "y"})
		var le *dp.Error
		if !errors.As(err, &le) {
			t.Errorf("%q: error %v is not a *dp.Error", c.in, err)
			continue
		}
		if le.Line != c.line || !strings.Contains(le.Reason, c.frag) {
			t.Errorf("%q: got %v, want line %d containing %q", c.in, err, c.line, c.frag)
		}
	}
}

func TestShippedBreastCancer(t *testing.T) {
	f, err := os.Open("../testdata/breast_cancer.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := ReadCSV(f, CSVOptions{Label: "malignant"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.N() != 569 || ds.D != 30 {
		t.Fatalf("shape %d×%d, want 569×30", ds.N(), ds.D)
	}
	pos := 0
	for _, y := range ds.Y {
		if y == 1 {
			pos++
		}
	}
	if pos != 212 {
		t.Fatalf("%d malignant, want 212", pos)
	}
	ds.Standardize()
	k := ds.NormalizeRows(1)
	if k == 0 || ds.MaxNorm() > 1+1e-12 {
		t.Fatalf("normalisation: %d rows scaled, max norm %v", k, ds.MaxNorm())
	}
	for j := 0; j < ds.D; j++ {
		var s float64
		for i := 0; i < ds.N(); i++ {
			s += ds.X[i*ds.D+j]
		}
		if math.IsNaN(s) {
			t.Fatal("NaN after standardisation")
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add("a,y\n1,2\n")
	f.Add("a,b,y\n1,2\n3,4,5\n")
	f.Add("y,a\n\"1\",2\n#x\n\n3,4e400\n")
	f.Add("a,y\n1,\"2\n")
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := ReadCSV(strings.NewReader(in), CSVOptions{Label: "y", MaxRows: 1000})
		if err != nil {
			var le *dp.Error
			if !errors.As(err, &le) || le.Line < 1 || !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without a line: %v", err)
			}
			if ds != nil {
				t.Fatal("partial data returned with an error")
			}
			return
		}
		if ds.N() < 1 || ds.D < 1 || len(ds.X) != ds.N()*ds.D {
			t.Fatalf("bad shape %d×%d, %d values", ds.N(), ds.D, len(ds.X))
		}
		for _, v := range append(ds.X, ds.Y...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatal("non-finite value accepted")
			}
		}
	})
}

func TestReadCSVKey(t *testing.T) {
	in := "a,id,y,b\n1,p7,0,2\n3, p9 ,1,4\n"
	ds, err := ReadCSV(strings.NewReader(in), CSVOptions{Label: "y", Key: "id"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.D != 2 || ds.Names[1] != "b" || ds.Keys[1] != "p9" || ds.Row(1)[1] != 4 || ds.Y[1] != 1 {
		t.Fatalf("got %+v", ds)
	}
	for _, c := range []struct {
		in, frag string
		line     int
	}{
		{"a,y\n1,0\n", `no column "id"`, 1},
		{"a,id,y\n1,p,0\n2,,1\n", `column "id": empty`, 3},
		{"id,y\np,0\n", "at least one feature", 1},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), CSVOptions{Label: "y", Key: "id"})
		var le *dp.Error
		if !errors.As(err, &le) || le.Line != c.line || !strings.Contains(le.Reason, c.frag) {
			t.Errorf("%q: %v, want line %d with %q", c.in, err, c.line, c.frag)
		}
	}
	// An optional key may be absent.
	ds2, err := ReadCSV(strings.NewReader("a,y,b\n5,1,6\n"), CSVOptions{Label: "y", Key: "id", OptionalKey: true})
	if err != nil || ds2.Keys != nil || ds2.D != 2 {
		t.Fatalf("optional key: %+v %v", ds2, err)
	}
	// Subset keeps lines and keys; Append checks the columns.
	sub := ds.Subset([]int{1, 0})
	if sub.Keys[0] != "p9" || sub.Lines[0] != 3 || sub.Row(0)[0] != 3 {
		t.Fatalf("subset %+v", sub)
	}
	if err := sub.Append(ds2); err != nil || sub.N() != 3 || sub.Row(2)[1] != 6 || sub.Keys != nil || sub.Lines[2] != 2 {
		t.Fatalf("append: %v %+v", err, sub)
	}
	other, _ := ReadCSV(strings.NewReader("a,y,c\n5,1,6\n"), CSVOptions{Label: "y"})
	if err := sub.Append(other); err == nil || !strings.Contains(err.Error(), `"c"`) {
		t.Fatalf("append with other columns: %v", err)
	}
}

// NewSynthetic's errors are field values naming the parameter at fault.
func TestNewSyntheticErrors(t *testing.T) {
	for _, c := range []struct {
		kind  string
		d     int
		field string
	}{{"poisson", 3, "synthetic"}, {"linear", 0, "dimension"}, {"logistic", 2_000_000, "dimension"}} {
		_, err := NewSynthetic(c.kind, c.d, 1)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("NewSynthetic(%q, %d): error %v, want a field error on %q", c.kind, c.d, err, c.field)
		}
	}
	if g, err := NewSynthetic("Linear", 3, 1); err != nil || g.Kind != "linear" || g.LabelBound() != 2.3 {
		t.Errorf("NewSynthetic(Linear): %+v, %v", g, err)
	}
}

package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/privamp/privamp/internal/field"
)

// ScalingFormat describes the file ReadScalingFile reads.
const ScalingFormat = `a CSV file with the header "feature,center,scale" and one row per feature column of the data (by name): each feature becomes (x − center)/scale, scale > 0`

// Scaling is a declared per-feature affine map x_j ↦ (x_j − Center)/Scale,
// read from a file of public values, never from the private records: the
// same map for every record, so neighbouring raw data sets map to
// neighbouring transformed ones and a certificate on the transformed records
// covers the raw records (unlike Standardize, whose statistics come from the
// data).
type Scaling struct {
	// Path is the file the values came from.
	Path string `json:"path"`
	// Center and Scale by feature name.
	Center map[string]float64 `json:"center"`
	Scale  map[string]float64 `json:"scale"`
}

// ReadScalingFile reads a Scaling (ScalingFormat). Errors are field errors
// on "scaling" naming the file line.
func ReadScalingFile(path string) (*Scaling, error) {
	f, err := os.Open(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return nil, field.New("scaling", path, "cannot be read: %v", err)
	}
	defer f.Close()
	sc, err := ReadScaling(f)
	if err != nil {
		return nil, field.New("scaling", path, "%v", err)
	}
	sc.Path = path
	return sc, nil
}

// ReadScaling reads a Scaling from r (ScalingFormat).
func ReadScaling(r io.Reader) (*Scaling, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 3
	head, err := cr.Read()
	if err != nil || strings.Join(head, ",") != "feature,center,scale" {
		return nil, fmt.Errorf("line 1: the header must be feature,center,scale (%s)", ScalingFormat)
	}
	sc := &Scaling{Center: map[string]float64{}, Scale: map[string]float64{}}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		name := strings.TrimSpace(rec[0])
		c, errC := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		s, errS := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		switch {
		case name == "":
			return nil, fmt.Errorf("line %d: no feature name", line)
		case sc.Scale[name] != 0:
			return nil, fmt.Errorf("line %d: feature %q appears twice", line, name)
		case errC != nil || math.IsNaN(c) || math.IsInf(c, 0):
			return nil, fmt.Errorf("line %d: center %q must be a finite number", line, rec[1])
		case errS != nil || !(s > 0) || math.IsInf(s, 0):
			return nil, fmt.Errorf("line %d: scale %q must be a finite number > 0", line, rec[2])
		}
		sc.Center[name], sc.Scale[name] = c, s
	}
	if len(sc.Scale) == 0 {
		return nil, fmt.Errorf("no feature rows (%s)", ScalingFormat)
	}
	return sc, nil
}

// ApplyScaling maps every feature column of s by sc; every feature of s
// needs a row of sc (by name). Errors are field errors on "scaling".
func (s *Dataset) ApplyScaling(sc *Scaling) error {
	if len(s.Names) != s.D {
		return field.New("scaling", sc.Path, "needs named feature columns (a data file with a header)")
	}
	for _, name := range s.Names {
		if sc.Scale[name] == 0 {
			return field.New("scaling", sc.Path, "has no row for the feature %q of the data", name)
		}
	}
	for i := 0; i < s.N(); i++ {
		r := s.Row(i)
		for j, name := range s.Names {
			r[j] = (r[j] - sc.Center[name]) / sc.Scale[name]
		}
	}
	return nil
}

package verify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Load reads the claim file at path (ParseClaim) and the trajectory that
// goes with it (ScanTrace: read row by row into the summary Verify needs,
// in constant memory): the file trajectory when it is not empty, else
// the claim's "trajectory" key, a path relative to the claim file's
// directory. It returns the claim, the trajectory (nil without one) and the
// trajectory's path ("" without one). Errors name the file they are about
// ("claim.json: line 3: …", "trajectory.csv: line 7: …").
func Load(path, trajectory string) (*Claim, Trajectory, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("cannot open %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	c, err := ParseClaim(f)
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", path, err)
	}
	tpath := trajectory
	if tpath == "" && c.Trajectory != "" {
		tpath = c.Trajectory
		if !filepath.IsAbs(tpath) {
			tpath = filepath.Join(filepath.Dir(path), tpath)
		}
	}
	if tpath == "" {
		return c, nil, "", nil
	}
	if c.DPSGD != nil {
		return nil, nil, "", fmt.Errorf("%s: field \"trajectory\": a trajectory (%s) applies to pnsgd, skip and stop claims, not to dpsgd", path, tpath)
	}
	tf, err := os.Open(tpath)
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: field \"trajectory\": cannot open %s: %w", path, tpath, unwrapPath(err))
	}
	defer tf.Close()
	trace, err := ScanTrace(tf, c)
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", tpath, err)
	}
	return c, trace, tpath, nil
}

// unwrapPath drops the operation and path of an *os.PathError, which the
// message already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

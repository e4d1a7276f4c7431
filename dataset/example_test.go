package dataset_test

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/dataset"
)

// Read a small CSV file, clip its rows to a declared feature bound and map
// its 0/1 labels to ±1.
func ExampleReadCSV() {
	in := "# two features and a label\nx1,x2,y\n3,4,1\n0.3,0.4,0\n"
	ds, err := dataset.ReadCSV(strings.NewReader(in), dataset.CSVOptions{Label: "y"})
	if err != nil {
		fmt.Println(err)
		return
	}
	clipped := ds.NormalizeRows(1) // declare ‖x‖ ≤ 1
	_ = ds.MapBinaryLabels()
	fmt.Printf("%d × %d, lines %v, %d row clipped, max ‖x‖ = %.2f, labels %v\n",
		ds.N(), ds.D, ds.Lines, clipped, ds.MaxNorm(), ds.Y)

	_, err = dataset.ReadCSV(strings.NewReader("x,y\n1,2\n1,oops\n"), dataset.CSVOptions{Label: "y"})
	fmt.Println(err)
	// Output:
	// 2 × 2, lines [3 4], 1 row clipped, max ‖x‖ = 1.00, labels [1 -1]
	// line 3: column "y": "oops" is not a finite number
}

// Draw a seeded logistic data set; the generator names the loss of its
// label model, which package optimizer turns into an objective.
func ExampleSynthetic() {
	g, err := dataset.NewSynthetic("logistic", 5, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	ds := g.Sample(dataset.NewRand(2), 1000)
	fmt.Printf("%d × %d, max ‖x‖ = %.9f, |y| ≤ %v, loss %s\n", ds.N(), ds.D, ds.MaxNorm(), g.LabelBound(), g.LossName())
	// Output:
	// 1000 × 5, max ‖x‖ = 1.000000000, |y| ≤ 1, loss logistic
}

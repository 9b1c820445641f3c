package numeric_test

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/numeric"
)

func Example() {
	price := numeric.MustParse("1.5000000000") // Numeric 10
	qty, _ := numeric.ParseText(10, "2.25")
	total, _ := price.Mul(qty, 10)
	third, _ := numeric.MustParse("2.0000000000").Div(numeric.MustParse("3.0000000000"), 10)
	fmt.Println(total.String(), total.ScaledString(), third)
	_, err := numeric.MaxValue(10).Add(price)
	fmt.Println(numeric.NewArithmeticError("ADD_NUMERIC", err, numeric.MaxValue(10).String(), price.String()).Message())
	// Output:
	// 3.375 3.3750000000 0.6666666667
	// ArithmeticError while evaluating (ADD_NUMERIC 9999999999999999999999999999.9999999999 1.5).
}

package index

import (
	"fmt"
	"strconv"
)

// atoi parses a decimal number of digits only, as the pipeline writes
// them: no sign, no leading zero, so that formatting it gives it back.
func atoi(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, fmt.Errorf("%q is not a number", b)
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a number", b)
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// atof parses a float. The pipeline's (0.808, 1, 0.0079) are read
// without allocating: a decimal of at most 15 digits, 22 after the point,
// is its digits as an integer divided by a power of ten, both exact in a
// float64, so the one division rounds correctly, as strconv's own fast path
// does. Any other form goes to strconv.ParseFloat.
func atof(b []byte) (float64, error) {
	var mant uint64
	digits, frac, point := 0, 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			if digits++; point {
				frac++
			}
		case c == '.' && !point:
			point = true
		default:
			return strconv.ParseFloat(string(b), 64)
		}
	}
	if digits == 0 || digits > 15 || frac > 22 {
		return strconv.ParseFloat(string(b), 64)
	}
	return float64(mant) / pow10[frac], nil
}

// pow10 are the powers of ten exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

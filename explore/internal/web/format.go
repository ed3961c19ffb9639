package web

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/neardup/neardup/transforms/kindstyle"
)

// funcs are the templates' functions.
var funcs = template.FuncMap{
	"num":        num,
	"f32":        func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) },
	"f64":        func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) },
	"trunc":      truncate,
	"statusText": http.StatusText,
	"label":      kindstyle.Label,
	"pct":        func(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" },
}

// num writes an integer (int, int64 or uint32) with commas between groups
// of three digits: 1,234,567.
func num(v any) string {
	var n int64
	switch v := v.(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	case uint32:
		n = int64(v)
	default:
		return fmt.Sprint(v)
	}
	return thousands(n)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// truncate cuts s to n characters, the last an ellipsis, if it is longer.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

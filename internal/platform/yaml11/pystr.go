package yaml11

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Str returns what Python's str() gives for a decoded value: dates as
// 2026-06-08, timestamps as "2026-06-08 10:00:00+00:00", booleans as
// True/False, None as "None", floats in Python's repr form. Lists and
// mappings use JSON-like text, which is enough for display.
func Str(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case *big.Int:
		return x.String()
	case float64:
		return FloatRepr(x)
	case Date:
		return x.String()
	case Timestamp:
		return x.String()
	case *Map, []any:
		var buf bytes.Buffer
		_ = appendJSON(&buf, x)
		return buf.String()
	}
	return ""
}

// Truthy reports whether Python would treat v as true in a boolean context:
// None, False, 0, 0.0, "" and empty containers are false.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int64:
		return x != 0
	case int:
		return x != 0
	case *big.Int:
		return x.Sign() != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case *Map:
		return x.Len() > 0
	}
	return true
}

// FloatRepr formats f the way Python's repr(float) does: the shortest
// digits that round-trip, fixed notation between 1e-4 and 1e16, and always
// a decimal point or an exponent.
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "e" + sign + leftPad(strconv.Itoa(exp), 2)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

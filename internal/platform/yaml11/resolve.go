package yaml11

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The implicit resolvers of YAML 1.1, as PyYAML applies them to plain
// (unquoted) scalars.
var (
	boolRE = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	intRE  = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	// The float rule needs a dot: 1e5 is a string in YAML 1.1.
	floatRE = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	nullRE  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	dateRE  = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`)
	stampRE = regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?$`)
)

// Resolve returns the value a YAML 1.1 reader gives the plain scalar s.
// Anything that no implicit rule claims is a string.
func Resolve(s string) any {
	if s == "" {
		return nil
	}
	// Every implicit rule starts with one of these characters; most plain
	// scalars in a manifest are words and skip the regular expressions.
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '-', c == '+', c == '.':
	case c == '~', c == 'n', c == 'N':
		if nullRE.MatchString(s) {
			return nil
		}
		if boolRE.MatchString(s) {
			return s[0] == 'y' || s[0] == 'Y'
		}
		return s
	case c == 'y', c == 'Y', c == 't', c == 'T', c == 'f', c == 'F', c == 'o', c == 'O':
		if boolRE.MatchString(s) {
			return boolValue(s)
		}
		return s
	default:
		return s
	}
	if v, ok := resolveTime(s); ok {
		return v
	}
	if intRE.MatchString(s) {
		return parseInt(s)
	}
	if floatRE.MatchString(s) {
		return parseFloat(s)
	}
	return s
}

// resolvesToString reports whether the plain scalar s reads back as the
// string s. The encoder quotes every string for which this is false.
func resolvesToString(s string) bool {
	if s == "=" || s == "<<" { // the YAML 1.1 value and merge indicators
		return false
	}
	_, ok := Resolve(s).(string)
	return ok
}

func boolValue(s string) bool {
	switch strings.ToLower(s) {
	case "yes", "true", "on":
		return true
	}
	return false
}

// parseInt follows PyYAML's int constructor: underscores are ignored, 0b is
// binary, 0x hexadecimal, a leading 0 octal, and colons sexagesimal.
func parseInt(s string) any {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n := new(big.Int)
	switch {
	case s == "0":
	case strings.HasPrefix(s, "0b"):
		n.SetString(s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		n.SetString(s[2:], 16)
	case strings.HasPrefix(s, "0"):
		n.SetString(s[1:], 8)
	case strings.Contains(s, ":"):
		for _, part := range strings.Split(s, ":") {
			d, _ := strconv.Atoi(part)
			n.Mul(n, big.NewInt(60))
			n.Add(n, big.NewInt(int64(d)))
		}
	default:
		n.SetString(s, 10)
	}
	if neg {
		n.Neg(n)
	}
	if n.IsInt64() {
		return n.Int64()
	}
	return n
}

// parseFloat follows PyYAML's float constructor.
func parseFloat(s string) float64 {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1)
	case s == ".nan":
		return math.NaN()
	case strings.Contains(s, ":"):
		v := 0.0
		for _, part := range strings.Split(s, ":") {
			d, _ := strconv.ParseFloat(part, 64)
			v = v*60 + d
		}
		return sign * v
	}
	v, _ := strconv.ParseFloat(s, 64)
	return sign * v
}

// resolveTime recognises the YAML 1.1 timestamp forms. An impossible date
// such as 2026-13-45 is left a string (PyYAML would refuse the whole file).
func resolveTime(s string) (any, bool) {
	if m := dateRE.FindStringSubmatch(s); m != nil {
		y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
		if !validDate(y, mo, d) {
			return nil, false
		}
		return Date{Year: y, Month: time.Month(mo), Day: d}, true
	}
	m := stampRE.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
	h, mi, sec := atoi(m[4]), atoi(m[5]), atoi(m[6])
	if !validDate(y, mo, d) || h > 23 || mi > 59 || sec > 59 {
		return nil, false
	}
	frac := m[7]
	if len(frac) > 6 {
		frac = frac[:6]
	}
	us := 0
	if frac != "" {
		us = atoi(frac + strings.Repeat("0", 6-len(frac)))
	}
	loc := time.UTC
	hasZone := m[8] != ""
	if hasZone && m[8] != "Z" {
		off := atoi(m[10])*3600 + atoi(m[11])*60
		if m[9] == "-" {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, loc)
	return Timestamp{Time: t, HasZone: hasZone}, true
}

func validDate(y, m, d int) bool {
	if y < 1 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

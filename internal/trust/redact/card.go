package redact

// Payment cards: 13 to 19 digits, written whole or in groups of four
// (Amex: 4-6-5) with one space, '-' or '.' between them, whose first
// digits are an issuer's (Visa, Mastercard, Amex, Discover, JCB, Diners,
// UnionPay) and whose last digit is the Luhn check digit.
const (
	minCardDigits = 13
	maxCardDigits = 19
)

// paymentCardAt matches a payment card number starting at s[i], a digit
// at a word boundary; the span is the number.
func paymentCardAt(s string, i int) match {
	if s[i] < '2' || s[i] > '6' {
		return noMatch // no issuer's number starts so
	}
	var digits [maxCardDigits]byte
	var groups [6]int
	n, g, j := 0, 0, i
	sep := byte(0)
	for ; j < len(s); j++ {
		c := s[j]
		if isDigit(c) {
			if n == maxCardDigits {
				return noMatch
			}
			digits[n] = c - '0'
			n++
			groups[g]++
			continue
		}
		if c != ' ' && c != '-' && c != '.' || j+1 >= len(s) || !isDigit(s[j+1]) || sep != 0 && sep != c {
			break
		}
		// A group ends: cards are grouped by four, or 4-6-5.
		if groups[g] != 4 && !(g == 1 && groups[g] == 6 && groups[0] == 4) || g == len(groups)-1 {
			return noMatch
		}
		sep = c
		g++
	}
	if j < len(s) && isASCIIWord(s[j]) || n < minCardDigits || !cardGrouping(groups[:g+1], n) ||
		!cardIssuer(digits[:n]) || !luhn(digits[:n]) {
		return noMatch
	}
	return match{p: pPaymentCard, at: i, start: i, end: j}
}

// cardGrouping reports whether the groups of digits are written as
// cards are: one run, groups of four (the last may be shorter), or
// Amex's 4-6-5.
func cardGrouping(groups []int, n int) bool {
	if len(groups) == 1 {
		return true
	}
	if len(groups) == 3 && groups[0] == 4 && groups[1] == 6 && groups[2] == 5 {
		return true
	}
	for k, l := range groups {
		if l != 4 && (k < len(groups)-1 || l == 0 || l > 4) {
			return false
		}
	}
	return n >= 15
}

// cardIssuer reports whether the first digits are an issuer's, for the
// number's length.
func cardIssuer(d []byte) bool {
	prefix := func(k int) int {
		v := 0
		for _, x := range d[:k] {
			v = v*10 + int(x)
		}
		return v
	}
	n := len(d)
	switch p2, p4 := prefix(2), prefix(4); {
	case d[0] == 4:
		return n == 13 || n == 16 || n == 19 // Visa
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return n == 16 // Mastercard
	case p2 == 34 || p2 == 37:
		return n == 15 // Amex
	case p4 == 6011, p2 == 65, prefix(3) >= 644 && prefix(3) <= 649:
		return n >= 16 // Discover
	case p4 >= 3528 && p4 <= 3589:
		return n >= 16 // JCB
	case p2 == 36 || p2 == 38 || prefix(3) >= 300 && prefix(3) <= 305:
		return n == 14 || n == 16 // Diners
	case p2 == 62:
		return n >= 16 // UnionPay
	}
	return false
}

// luhn reports whether the number's check digit is right.
func luhn(d []byte) bool {
	sum := 0
	for k := range d {
		x := int(d[len(d)-1-k])
		if k%2 == 1 {
			if x *= 2; x > 9 {
				x -= 9
			}
		}
		sum += x
	}
	return sum%10 == 0
}

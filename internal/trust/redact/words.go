package redact

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Secrets in words, beyond "NAME is value" (spokenAssignmentAt): the
// English password given "to" or "for" a host, and the password named in
// other languages.

// passwordPhraseAt matches, at s[i:] ("pass" at a word boundary, any
// case), the English word password (or passwd, passphrase) followed by
//
//   - "to" and a value that looks like a secret (looksLikeSecret: "rotated
//     the password to Xk2#...", not "changed the password to something
//     stronger" nor "saved the password to 1Password"), or
//   - "for", a host or user name (or a few words: "the password for
//     the staging db: ..."), and ':' or "is", then a value: after ':' 8
//     characters or more with a digit or symbol ("root password for
//     db-prod: ..."), after "is" as spokenAssignmentAt takes one.
//
// The span is the value.
func passwordPhraseAt(s string, i int) match {
	j := i
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	if w := s[i:j]; strings.EqualFold(w, "pwd") || strings.EqualFold(w, "pw") {
		return abbreviationAt(s, i, j)
	} else if !strings.EqualFold(w, "password") && !strings.EqualFold(w, "passwd") && !strings.EqualFold(w, "passphrase") {
		return noMatch
	}
	k := skipBlanks(s, j)
	if k == j {
		return noMatch
	}
	switch {
	case hasPrefixFold(s[k:], "to") && k+2 < len(s) && (s[k+2] == ' ' || s[k+2] == '\t'):
		start, end, quoted := valueAt(s, skipBlanks(s, k+2), false)
		if v := s[start:end]; (quoted || end > start) && looksLikeSecret(v) {
			return match{p: pSpokenAssignment, at: i, start: start, end: end}
		}
	case hasPrefixFold(s[k:], "for") && k+3 < len(s) && (s[k+3] == ' ' || s[k+3] == '\t'):
		return passwordForAt(s, i, skipBlanks(s, k+3))
	}
	return noMatch
}

// abbreviationAt matches, after pwd or pw (the word s[i:j]), a value
// given after a single blank with no operator ("user ops, pwd ..."):
// quoted and not a placeholder, or bare and looking like a secret
// (looksLikeSecret: not a path, which the shell's pwd prints, nor words
// decorated with digits). The span is the value.
func abbreviationAt(s string, i, j int) match {
	if j >= len(s) || s[j] != ' ' {
		return noMatch
	}
	if start, end, ok := terseValue(s, j+1); ok {
		return match{p: pSpokenAssignment, at: i, start: start, end: end}
	}
	return noMatch
}

// terseValue reads a value given without a sentence around it, at s[j]
// (after "pwd ", or after a user name and '/'): quoted and not a
// placeholder, or bare and looking like a secret with a digit in it
// (looksLikeSecret).
func terseValue(s string, j int) (start, end int, ok bool) {
	start, end, quoted := valueAt(s, j, false)
	v := s[start:end]
	return start, end, quoted && plausibleValue(v, pAssignment, ':', true, true) || !quoted && looksLikeSecret(v) && strings.ContainsAny(v, digits)
}

// passwordForAt matches, after "password for" (the word at s[i]), the
// host or user it is for, in maxBetweenWords words at most, and the
// value given after them: after ':', 8 characters or more with a digit
// or symbol (secretShaped), after "is" as spokenAssignmentAt takes one.
// The words start at s[h].
func passwordForAt(s string, i, h int) match {
	for range maxBetweenWords {
		e := h
		for e < len(s) && e-h <= maxNameLen && (isNameByte(s[e]) || s[e] == '@') {
			e++
		}
		for e > h && s[e-1] == '.' {
			e--
		}
		if e == h || e-h > maxNameLen {
			return noMatch
		}
		if e < len(s) && s[e] == ':' && !strings.HasPrefix(s[e:], "://") {
			start, end, quoted := valueAt(s, skipBlanks(s, e+1), false)
			v := s[start:end]
			if quoted && plausibleValue(v, pAssignment, ':', true, true) ||
				!quoted && secretShaped(v) {
				return match{p: pSpokenAssignment, at: i, start: start, end: end}
			}
			return noMatch
		}
		c := skipBlanks(s, e)
		if c == e || c-e > 2 {
			return noMatch
		}
		if hasPrefixFold(s[c:], "is") && c+2 < len(s) && (s[c+2] == ' ' || s[c+2] == '\t') {
			if start, end, ok := spokenValue(s, skipBlanks(s, c+2), false); ok {
				return match{p: pSpokenAssignment, at: i, start: start, end: end}
			}
			return noMatch
		}
		h = c
	}
	return noMatch
}

// maxBetweenWords bounds the words that may stand between the name of a
// secret and the word or operator that gives its value ("the password
// for the staging db is ...", "contraseña del servidor de pruebas es
// ...").
const maxBetweenWords = 5

// spokenConnectors are the English words that may follow a secret's name
// when words stand between it and the "is" that gives its value: the
// value is then the name's ("the password for the staging db is ...",
// "the token we use is ..."), where after another word the name is part
// of something else ("the password policy is ...", "the token budget is
// ...").
var spokenConnectors = [...]string{"for", "of", "on", "to", "at", "from", "in", "i", "we", "you", "they", "that", "which", "used", "set"}

// namedBefore reports whether a secret's name stands among the
// maxBetweenWords words before the word s[k:end], followed by one of
// spokenConnectors: plain words (isNameByte, '@' or an apostrophe)
// between single blanks, on one line, no punctuation between them.
func namedBefore(s string, k, end int) bool {
	var words [maxBetweenWords + 1][2]int
	words[0] = [2]int{k, end}
	for n := 1; n < len(words); n++ {
		end := k
		for k > 0 && end-k < 2 && (s[k-1] == ' ' || s[k-1] == '	') {
			k--
		}
		if k == end {
			return false
		}
		end = k
		for k > 0 && end-k < maxNameLen && (isNameByte(s[k-1]) || s[k-1] == '@' || s[k-1] == '\'') {
			k--
		}
		if k == end || k > 0 && !isSpaceByte(s[k-1]) && s[k-1] != '(' && s[k-1] != '"' {
			return false
		}
		words[n] = [2]int{k, end}
		if !isConnector(s[words[n-1][0]:words[n-1][1]]) {
			continue
		}
		if nameKind(s[k:end]) == pAssignment || isKeyWord(s[k:end]) && twoWordName(s, k, end) {
			return true
		}
	}
	return false
}

// isConnector reports whether w is one of spokenConnectors, in any case.
func isConnector(w string) bool {
	for _, c := range spokenConnectors {
		if strings.EqualFold(w, c) {
			return true
		}
	}
	return false
}

// arrowAt matches "NAME -> value" at s[i] == '>' (a note's arrow, with
// a blank on either side): a secret's name before it (one word, or two
// read as one: "API token -> ..."), and a value after it that is quoted
// or looks like a secret with a digit (windowValue), so that code's
// member access (token->len) and prose (password -> see the vault) are
// passed over. The span is the value.
func arrowAt(s string, i int) match {
	if i < 3 || s[i-2] != ' ' || i+1 >= len(s) || s[i+1] != ' ' {
		return noMatch
	}
	end := i - 2
	for end > 0 && i-2-end < 2 && s[end-1] == ' ' {
		end--
	}
	k := nameStart(s, end)
	if k == end || nameKind(s[k:end]) != pAssignment && !twoWordName(s, k, end) {
		return noMatch
	}
	start, stop, ok := windowValue(s, skipBlanks(s, i+1), false)
	if !ok {
		return noMatch
	}
	return match{p: pSpokenAssignment, at: i, start: start, end: stop}
}

// windowValue reads the value at s[j] given with words between it and
// its name, which must look the more like a secret: quoted, as
// spokenValue takes one; bare, 8 characters or more with a letter and a
// digit and not a URL or a path (secretShaped).
func windowValue(s string, j int, asciiOnly bool) (start, end int, ok bool) {
	start, end, quoted := valueAt(s, j, asciiOnly)
	v := s[start:end]
	if quoted {
		return start, end, plausibleValue(v, pAssignment, ':', true, true)
	}
	return start, end, hasLetterAndDigit(v) && secretShaped(v)
}

// valueAt reads the value that starts at s[j]: in quotes (ASCII ones, or
// in the other languages' 「」, “” and « »), up to the closing one; bare,
// up to what ends a value, without the sentence's punctuation, and, in
// another language's text (asciiOnly), up to its first non-ASCII
// character. quoted says the value was quoted.
func valueAt(s string, j int, asciiOnly bool) (start, end int, quoted bool) {
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		start = j + 1
		window := s[start:min(len(s), start+maxValueLen)]
		n := strings.IndexByte(window, s[j])
		if n < 0 {
			return start, start, false
		}
		return start, start + n, true
	}
	if asciiOnly {
		for _, q := range [...][2]string{{"「", "」"}, {"“", "”"}, {"«", "»"}} {
			if strings.HasPrefix(s[j:], q[0]) {
				start = skipBlanks(s, j+len(q[0]))
				window := s[start:min(len(s), start+maxValueLen)]
				n := strings.Index(window, q[1])
				if n < 0 {
					return start, start, false
				}
				return start, start + len(strings.TrimRight(window[:n], " \t")), true
			}
		}
	}
	start, end = j, j
	for end < len(s) && end-start < maxValueLen && !endsValue(s[end], false) && !(asciiOnly && s[end] >= utf8.RuneSelf) {
		end++
	}
	for end > start && (s[end-1] == '.' || s[end-1] == ',' || s[end-1] == ':') {
		end--
	}
	return start, end, false
}

// spokenValue reads a value given in words at s[j:] ("the password is
// ..."), as spokenAssignmentAt takes one: quoted and not a placeholder,
// or bare, 8 characters or more with a letter and a digit.
func spokenValue(s string, j int, asciiOnly bool) (start, end int, ok bool) {
	start, end, quoted := valueAt(s, j, asciiOnly)
	v := s[start:end]
	if quoted {
		return start, end, plausibleValue(v, pAssignment, ':', true, true)
	}
	return start, end, len(v) >= 8 && hasLetterAndDigit(v) && !isPlaceholder(v)
}

// passwordWord is the word for a password in a language: its forms
// (lower case, a longer one before its prefix), and the words that say
// "is" after it. spaced says that the language writes words apart, so
// the keyword stands between word boundaries; Chinese and Japanese do
// not, and Korean glues its particles (는) to the word.
type passwordWord struct {
	lang    string
	forms   []string
	copulas []string
	spaced  bool
	// after, when set, are the only words that may follow the word when
	// words stand between it and its value (localizedAfterWords): for a
	// word another language also has (Italian password), the
	// language's own prepositions ("la password del database è ...").
	after []string
}

// passwordWords are the words for a password in other languages than
// English. A value follows one after ':' or '=' (or '：', '＝'), as a
// secret-named assignment takes it, or after one of the copulas, as a
// value said in words is taken ("" for a language that puts the value
// right after the word). The ASCII forms also name secrets in
// assignments (DB_PASSWORT=..., see localizedSecretName).
var passwordWords = [...]passwordWord{
	{"German", []string{"passwort", "kennwort"}, []string{"ist", "lautet"}, true, nil},
	{"French", []string{"mot de passe", "mot-de-passe"}, []string{"est"}, true, nil},
	{"Spanish", []string{"contraseña", "contrasena", "clave"}, []string{"es"}, true, nil},
	{"Portuguese", []string{"senha", "palavra-passe", "palavra passe"}, []string{"é", "e"}, true, nil},
	{"Italian", []string{"password", "parola d'ordine", "parola d’ordine"}, []string{"è", "e'", "é"}, true,
		[]string{"del", "della", "dello", "dell'", "dell’", "dei", "degli", "delle", "di", "per", "su", "sul", "sulla", "al", "alla", "nel", "nella", "che"}},
	{"Dutch", []string{"wachtwoord"}, []string{"is"}, true, nil},
	{"Polish", []string{"hasło", "hasła", "haslo"}, []string{"to", "jest", "brzmi"}, true, nil},
	{"Czech and Slovak", []string{"heslo"}, []string{"je"}, true, nil},
	{"Swedish", []string{"lösenordet", "lösenord"}, []string{"är"}, true, nil},
	{"Danish and Norwegian", []string{"adgangskoden", "adgangskode", "passordet", "passord"}, []string{"er"}, true, nil},
	{"Finnish", []string{"salasana"}, []string{"on"}, true, nil},
	{"Romanian", []string{"parola", "parolă"}, []string{"este"}, true, nil},
	{"Hungarian", []string{"jelszó", "jelszava", "jelszo"}, []string{""}, true, nil},
	{"Turkish", []string{"şifresi", "şifreniz", "şifre", "parolası", "parola"}, []string{""}, true, nil},
	{"Indonesian and Malay", []string{"kata sandinya", "kata sandi", "kata laluan"}, []string{"adalah", "ialah", "yaitu", "yakni"}, true, nil},
	{"Russian", []string{"пароль", "пароля"}, []string{"—", "–", "-", "это"}, true, nil},
	{"Chinese", []string{"密码", "密碼"}, []string{"是", "为", "為"}, false, nil},
	{"Japanese", []string{"パスワード", "パスコード", "暗証番号"}, []string{"は"}, false, nil},
	{"Korean", []string{"비밀번호"}, []string{"는", "가"}, false, nil},
	{"Greek", []string{"κωδικός πρόσβασης", "κωδικός"}, []string{"είναι"}, true, nil},
	{"Arabic", []string{"كلمة المرور", "كلمة السر"}, []string{"هي", "هو"}, true, nil},
	{"Hindi", []string{"पासवर्ड"}, []string{"है"}, true, nil},
	{"Vietnamese", []string{"mật khẩu"}, []string{"là"}, true, nil},
	{"Thai", []string{"รหัสผ่าน"}, []string{"คือ"}, true, nil},
	{"Hebrew", []string{"הסיסמה", "סיסמה", "הסיסמא", "סיסמא"}, []string{"היא", "הוא"}, true, nil},
	{"Persian", []string{"رمز عبور", "گذرواژه"}, nil, true, nil},
}

// localizedFirst[c] lists the indexes in passwordWords of the words with
// a form whose first byte, in either case, is c.
var localizedFirst = func() (t [256][]uint8) {
	for i, w := range passwordWords {
		for _, f := range w.forms {
			for _, c := range firstBytes(f) {
				if len(t[c]) == 0 || t[c][len(t[c])-1] != uint8(i) {
					t[c] = append(t[c], uint8(i))
				}
			}
		}
	}
	return t
}()

// firstBytes returns the first byte of form f in lower and upper case
// (one byte when the letter has no case).
func firstBytes(f string) []byte {
	r, _ := utf8.DecodeRuneInString(f)
	lo, up := string(unicode.ToLower(r)), string(unicode.ToUpper(r))
	if lo[0] == up[0] {
		return []byte{lo[0]}
	}
	return []byte{lo[0], up[0]}
}

// localizedPairs are the first two letters, lower case, of the ASCII
// forms whose second letter is ASCII: the scan's pair table takes them
// (scan.go). localizedHeads are the first two bytes, in both cases, of
// the ASCII forms whose second letter is not (lö...): exact heads.
var localizedPairs, localizedHeads = func() (pairs, heads []string) {
	for _, w := range passwordWords {
		for _, f := range w.forms {
			if f[0] >= utf8.RuneSelf {
				continue
			}
			if f[1] < utf8.RuneSelf {
				pairs = append(pairs, f[:2])
				continue
			}
			heads = append(heads, f[:2], strings.ToUpper(f[:1])+f[1:2])
		}
	}
	return pairs, heads
}()

// localizedHeadSet[c] is the set of the bytes that follow c in the
// first two bytes of an ASCII form of passwordWords, in either case: the
// cheap test before localizedStart (a 256-bit set, four words).
var localizedHeadSet = func() (t [256][4]uint64) {
	add := func(c0, c1 byte) { t[c0][c1>>6] |= 1 << (c1 & 63) }
	for _, p := range localizedPairs {
		for _, c0 := range []byte{p[0], upperASCII(p[0])} {
			add(c0, p[1])
			add(c0, upperASCII(p[1]))
		}
	}
	for _, h := range localizedHeads {
		add(h[0], h[1])
	}
	return t
}()

// localizedLead[c] says whether a form of passwordWords starts with the
// non-ASCII lead byte c: the scan tries them at such a byte.
var localizedLead = func() (t [256]bool) {
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = len(localizedFirst[c]) > 0
	}
	return t
}()

// localizedStart reports whether t (at a word boundary, or anywhere for
// the unspaced languages' non-ASCII forms) may start a form of
// passwordWords: the scan's candidate test.
func localizedStart(t string) bool {
	if len(t) > 2 && isASCIILetter(t[0]) && isASCIILetter(t[1]) && t[2] < utf8.RuneSelf &&
		localizedThird[pairIndex(t[0], t[1])]&thirdBit(t[2]) == 0 {
		return false // "heavy" is no heslo
	}
	for _, k := range localizedFirst[t[0]] {
		for _, f := range passwordWords[k].forms {
			if _, ok := foldPrefix(t, f); ok {
				return true
			}
		}
	}
	return false
}

// localizedThird[pairIndex(a, b)] has the bits (thirdBit) of the bytes
// that follow a and b, ASCII letters, in an ASCII form of passwordWords:
// localizedStart's cheap test of a word's third byte.
var localizedThird = func() (t [26 * 26]uint32) {
	for _, w := range passwordWords {
		for _, f := range w.forms {
			if len(f) > 2 && isASCIILetter(f[0]) && isASCIILetter(f[1]) {
				t[pairIndex(f[0], f[1])] |= thirdBit(f[2])
			}
		}
	}
	return t
}()

// pairIndex numbers the pair of ASCII letters a, b in any case.
func pairIndex(a, b byte) int { return int(lowerASCII(a)-'a')*26 + int(lowerASCII(b)-'a') }

// thirdBit is the bit of c in localizedThird: its letter's in any case,
// bit 26 for any other byte.
func thirdBit(c byte) uint32 {
	if isASCIILetter(c) {
		return 1 << (lowerASCII(c) - 'a')
	}
	return 1 << 26
}

// foldPrefix reports whether s starts with form f (lower case) under
// simple case folding, rune by rune, and how many bytes of s it takes.
// ASCII against ASCII is compared byte by byte; a non-ASCII letter of s
// is folded (İ is i, K the Kelvin sign is k).
func foldPrefix(s, f string) (int, bool) {
	n := 0
	for k := 0; k < len(f); {
		if n >= len(s) {
			return 0, false
		}
		if c, fc := s[n], f[k]; c < utf8.RuneSelf && fc < utf8.RuneSelf {
			if lowerASCII(c) != fc {
				return 0, false
			}
			n, k = n+1, k+1
			continue
		}
		fr, fw := utf8.DecodeRuneInString(f[k:])
		r, w := utf8.DecodeRuneInString(s[n:])
		if r != fr && unicode.ToLower(r) != fr {
			return 0, false
		}
		n, k = n+w, k+fw
	}
	return n, true
}

// localizedPasswordAt matches, at s[i:], a word for a password in another
// language (passwordWords) and the value given after it: after ':', '=',
// '：' or '＝' as a secret-named assignment's (DB password: ... ),
// after the language's copula as a value in words (Das Passwort ist
// "...", パスワードは ... です). In a spaced language the word stands
// between word boundaries. The span is the value.
func localizedPasswordAt(s string, i int) match {
	for _, k := range localizedFirst[s[i]] {
		w := &passwordWords[k]
		if w.spaced && i > 0 {
			if r, _ := utf8.DecodeLastRuneInString(s[:i]); isPyWord(r) {
				continue
			}
		}
		for _, f := range w.forms {
			n, ok := foldPrefix(s[i:], f)
			if !ok {
				continue
			}
			j := i + n
			if w.spaced && j < len(s) {
				if r, _ := utf8.DecodeRuneInString(s[j:]); isPyWord(r) {
					continue // a longer word: Passwortmanager
				}
			}
			if m := localizedValueAt(s, i, j, w); m.p >= 0 {
				return m
			}
			break
		}
	}
	return noMatch
}

// localizedValueAt matches the value given after the word for a password
// that ends at s[j], in language w.
func localizedValueAt(s string, i, j int, w *passwordWord) match {
	k := skipBlanks(s, j)
	if strings.HasPrefix(s[k:], "\u3000") {
		k = skipBlanks(s, k+len("\u3000"))
	}
	// An operator: the value of an assignment.
	op, n := byte(0), 0
	switch {
	case k < len(s) && (s[k] == ':' || s[k] == '='):
		op, n = s[k], 1
	case strings.HasPrefix(s[k:], "："):
		op, n = ':', len("：")
	case strings.HasPrefix(s[k:], "＝"):
		op, n = '=', len("＝")
	}
	if op != 0 {
		if strings.HasPrefix(s[k+n:], "//") || op == ':' && strings.HasPrefix(s[k+n:], ":") || psqlVariable(s, k) {
			return noMatch
		}
		v := skipBlanks(s, k+n)
		start, end, quoted := valueAt(s, v, true)
		if !plausibleValue(s[start:end], pAssignment, op, quoted, k > j || v > k+n) {
			return noMatch
		}
		return match{p: pLocalPassword, at: i, start: start, end: end}
	}
	// A copula: a value in words.
	for _, c := range w.copulas {
		if c == "" {
			if k == j {
				continue // the value follows the word after a blank
			}
		} else {
			n, ok := foldPrefix(s[k:], c)
			if !ok {
				continue
			}
			if w.spaced {
				if e := k + n; e >= len(s) || s[e] != ' ' && s[e] != '\t' {
					continue
				}
			}
			if w.spaced && k == j {
				continue // no blank between the word and its copula
			}
			k += n
		}
		v := skipBlanks(s, k)
		if strings.HasPrefix(s[v:], "\u3000") {
			v = skipBlanks(s, v+len("\u3000"))
		}
		if start, end, ok := spokenValue(s, v, true); ok {
			return match{p: pLocalPassword, at: i, start: start, end: end}
		}
		return noMatch
	}
	if w.spaced {
		return localizedAfterWords(s, i, j, w)
	}
	return noMatch
}

// afterWord reports whether word is a, in any case, or starts with it
// when a ends with an apostrophe (Italian's dell'utente).
func afterWord(word, a string) bool {
	if strings.HasSuffix(a, "'") || strings.HasSuffix(a, "’") {
		return len(word) > len(a) && strings.EqualFold(word[:len(a)], a)
	}
	return strings.EqualFold(word, a)
}

// localizedAfterWords matches the value given after the word for a
// password that ends at s[j], in language w, with maxBetweenWords words
// at most between them ("Kennwort für den Router lautet ...", "пароль
// от почты: ..."): after ':' or '=' at the end of a word, or after a
// copula, a value that looks like a secret (windowValue). The words are
// single, between single blanks, and no sentence ends among them.
func localizedAfterWords(s string, i, j int, w *passwordWord) match {
	e := j
	for n := range maxBetweenWords {
		k := skipBlanks(s, e)
		if k == e || k-e > 2 {
			return noMatch
		}
		we := k
		for we < len(s) && we-k <= maxNameLen {
			r, size := utf8.DecodeRuneInString(s[we:])
			if !isPyWord(r) && r != '-' && r != '.' && r != '@' && r != '\'' && r != '’' {
				break
			}
			we += size
		}
		if we == k || we-k > maxNameLen || s[we-1] == '.' {
			return noMatch
		}
		if n == 0 && w.after != nil && !slices.ContainsFunc(w.after, func(a string) bool { return afterWord(s[k:we], a) }) {
			return noMatch
		}
		// An operator after the word.
		op := 0
		switch {
		case we < len(s) && (s[we] == ':' || s[we] == '='):
			op = 1
		case strings.HasPrefix(s[we:], "："), strings.HasPrefix(s[we:], "＝"):
			op = len("：")
		}
		if op > 0 {
			if strings.HasPrefix(s[we+op:], "//") || strings.HasPrefix(s[we+op:], ":") {
				return noMatch
			}
			if start, end, ok := windowValue(s, skipBlanks(s, we+op), true); ok {
				return match{p: pLocalPassword, at: i, start: start, end: end}
			}
			return noMatch
		}
		// A copula after it.
		if c := skipBlanks(s, we); c > we {
			for _, cop := range w.copulas {
				if cop == "" {
					continue
				}
				if l, ok := foldPrefix(s[c:], cop); ok && c+l < len(s) && (s[c+l] == ' ' || s[c+l] == '\t') {
					if start, end, ok := windowValue(s, skipBlanks(s, c+l), true); ok {
						return match{p: pLocalPassword, at: i, start: start, end: end}
					}
					return noMatch
				}
			}
		}
		e = we
	}
	return noMatch
}

// localizedSecretName reports whether name, before an operator, ends with
// an ASCII form of a word for a password (DB_PASSWORT, mysql_kennwort,
// senha): forms of 8 letters or more as a suffix, shorter ones whole or
// after '_', '-' or '.'.
func localizedSecretName(name string) bool {
	for _, f := range localizedByLast[lowerASCII(name[len(name)-1])] {
		if len(f) >= 8 && hasSuffixFold(name, f) || shortSecretName(name, f) {
			return true
		}
	}
	return false
}

// localizedByLast[c] lists the forms of passwordWords made of ASCII
// letters only that end with the letter c.
var localizedByLast = func() (t [256][]string) {
	for _, w := range passwordWords {
		for _, f := range w.forms {
			if onlyLetters(f) {
				t[f[len(f)-1]] = append(t[f[len(f)-1]], f)
			}
		}
	}
	return t
}()

// credentialWords are the English words that name a user and password
// pair given together ("creds are admin / ...", "login: admin:...").
var credentialWords = [...]string{"creds", "cred", "credentials", "credential", "logins", "login", "logon"}

// credentialWordLen returns the length of the word of credentialWords t
// starts with (any case), 0 when none: the word must end there.
func credentialWordLen(t string) int {
	if len(t) < 4 || !hasPrefixFold(t, "cred") && !hasPrefixFold(t, "log") {
		return 0 // most words the scan asks about: create, local, long, ...
	}
	for _, w := range credentialWords {
		if hasPrefixFold(t, w) && (len(t) == len(w) || !isASCIIWord(t[len(w)])) {
			return len(w)
		}
	}
	return 0
}

// credentialPairAt matches, at s[i:] (a word of credentialWords at a word
// boundary), a user and password given together after the word: ':' or
// '=' or "is" or "are" (up to maxBetweenWords words may stand before it
// when the first of them is one of spokenConnectors: "the creds for
// grafana are ..."), then a user name (letters, digits, ._-@), and the
// password after '/' (blanks around it or not) or after ':' (none). The
// password must be quoted and not a placeholder, or bare and look like a
// secret with a digit in it (looksLikeSecret: not "login is required /
// optional", not "credentials are stored in Vault / rotated weekly").
// The span is the password.
func credentialPairAt(s string, i int) match {
	j := i + credentialWordLen(s[i:])
	if j == i {
		return noMatch
	}
	j, ok := credentialOperator(s, j)
	if !ok {
		return noMatch
	}
	u := j
	for j < len(s) && j-u <= maxNameLen && (isNameByte(s[j]) || s[j] == '@') {
		j++
	}
	if j == u || j-u > maxNameLen {
		return noMatch
	}
	switch k := skipBlanks(s, j); {
	case k < len(s) && s[k] == '/':
		j = skipBlanks(s, k+1)
	case k == j && k < len(s) && s[k] == ':':
		j = k + 1
	default:
		return noMatch
	}
	if start, end, ok := terseValue(s, j); ok {
		return match{p: pSpokenAssignment, at: i, start: start, end: end}
	}
	return noMatch
}

// credentialOperator reads, from s[j] just after a word of
// credentialWords, what gives its value: ':' or '=', or "is" or "are"
// between blanks, possibly after up to maxBetweenWords words the first of
// which is one of spokenConnectors. It returns where the value starts.
func credentialOperator(s string, j int) (int, bool) {
	for n := 0; n <= maxBetweenWords; n++ {
		k := skipBlanks(s, j)
		if k < len(s) && (s[k] == ':' || s[k] == '=') && !strings.HasPrefix(s[k:], "://") {
			return skipBlanks(s, k+1), true
		}
		if k == j || k-j > 2 {
			return 0, false
		}
		e := k
		for e < len(s) && e-k <= maxNameLen && (isNameByte(s[e]) || s[e] == '@') {
			e++
		}
		w := s[k:e]
		if e == k || e-k > maxNameLen {
			return 0, false
		}
		if strings.EqualFold(w, "is") || strings.EqualFold(w, "are") {
			v := skipBlanks(s, e)
			return v, v > e
		}
		if n == 0 && !isConnector(w) {
			return 0, false
		}
		j = e
	}
	return 0, false
}

package redact

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Private keys in shapes of their own, which no name in front of them
// gives away: a JSON Web Key's private members, an XML RSAKeyValue's, a
// Bitcoin private key in Wallet Import Format, a 64-byte ed25519 keypair
// (Solana's) in base58 or as a JSON array of its bytes. Each is caught by
// its structure where it can be checked (a WIF's checksum, a keypair
// whose second half is the public key of its first), and otherwise only
// where the text around it names a key (namedAsKey): a random run of
// base58, or a list of 64 numbers, is not a key by its shape alone.
const (
	// wifLen and wifCompressedLen are the lengths of a WIF key, for an
	// uncompressed public key and a compressed one.
	wifLen           = 51
	wifCompressedLen = 52
	// keypairLen is the length of an ed25519 keypair: the 32-byte seed,
	// then the 32-byte public key.
	keypairLen = 64
	// keyContextLen bounds the text before a key that namedAsKey reads.
	keyContextLen = 80
	// maxJWK bounds how far the object of a JWK member is looked for
	// around it (a 4096-bit RSA key is about 3,200 characters).
	maxJWK = 8 << 10
)

// keyMaterialAt finds the first key at or after from that is an array
// of its bytes (byteArrayKeyAt). The JWK and XML members are found by
// the scan, at their ':' and '>' (jwkMember, rsaKeyValueMember), and the
// keys in base58, base64 and hexadecimal by base64At, with the other
// runs of token characters (base58Key, encodedKeypair).
func keyMaterialAt(s string, from int) match {
	return byteArrayKeyAt(s, from)
}

// minByteArray is the length of the shortest array of keypairLen bytes:
// one digit each, commas, and the brackets.
const minByteArray = 2*keypairLen + 1

// base58Alphabet is Bitcoin's base58: the digits and letters without 0,
// O, I and l.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Value[c] is the value of c in base58, or -1.
var base58Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// base58Byte[c] says whether c is in base58Alphabet.
var base58Byte = func() (t [256]bool) {
	for c := range t {
		t[c] = base58Value[c] >= 0
	}
	return t
}()

// base58Decode decodes s, base58 of at most 128 characters, big-endian,
// each leading '1' a zero byte; ok is false for any other character.
func base58Decode(s string) (out []byte, ok bool) {
	if len(s) > 128 {
		return nil, false
	}
	var buf [96]byte // 128 base58 digits fit in 94 bytes
	n := 0           // the value so far is buf[len(buf)-n:]
	for i := 0; i < len(s); i++ {
		carry := int(base58Value[s[i]])
		if carry < 0 {
			return nil, false
		}
		for k := len(buf) - 1; k >= len(buf)-n; k-- {
			carry += 58 * int(buf[k])
			buf[k] = byte(carry)
			carry >>= 8
		}
		for ; carry > 0; carry >>= 8 {
			n++
			buf[len(buf)-n] = byte(carry)
		}
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	out = make([]byte, zeros+n)
	copy(out[zeros:], buf[len(buf)-n:])
	return out, true
}

// base58Key reports whether s[start:end], a maximal run of base64 (of
// either alphabet) with no padding after it, is a base58 key: a WIF key
// (wifKey) that checks out or is named as one, or base58 of a 64-byte
// ed25519 keypair that checks out or is named as a key. base64At, which
// reads every such run, asks.
func base58Key(s string, start, end int) bool {
	run := s[start:end]
	if n := len(run); n != wifLen && n != wifCompressedLen && (n < 86 || n > 88) {
		return false
	}
	for i := 0; i < len(run); i++ {
		if !base58Byte[run[i]] {
			return false
		}
	}
	if wifKey(run) {
		return validWIF(run) || namedAsKey(s, start)
	}
	raw, ok := base58Decode(run)
	return ok && len(raw) == keypairLen && (isEd25519Keypair(raw) || namedAsKey(s, start))
}

// wifKey reports whether run has the shape of a WIF private key: 51
// characters starting 5H, 5J or 5K (mainnet, uncompressed) or 9
// (testnet), or 52 starting K or L (mainnet, compressed) or c (testnet).
func wifKey(run string) bool {
	switch len(run) {
	case wifLen:
		return run[0] == '5' && isOneOf(run[1], "HJK") || run[0] == '9'
	case wifCompressedLen:
		return isOneOf(run[0], "KLc")
	}
	return false
}

// validWIF reports whether run is a WIF private key whose checksum holds:
// base58 of the version byte (0x80, or 0xef on testnet), the 32-byte
// key, 0x01 when its public key is compressed, and the first 4 bytes of
// the double SHA-256 of what precedes them.
func validWIF(run string) bool {
	raw, ok := base58Decode(run)
	if !ok || len(raw) != 37 && len(raw) != 38 || raw[0] != 0x80 && raw[0] != 0xef || len(raw) == 38 && raw[33] != 0x01 {
		return false
	}
	payload, check := raw[:len(raw)-4], raw[len(raw)-4:]
	first := sha256.Sum256(payload)
	second := sha256.Sum256(first[:])
	return bytes.Equal(second[:4], check)
}

// isEd25519Keypair reports whether raw, 64 bytes, is an ed25519 private
// key as Go, NaCl and Solana write it: a seed and the public key it
// derives.
func isEd25519Keypair(raw []byte) bool {
	priv := ed25519.NewKeyFromSeed(raw[:ed25519.SeedSize])
	return bytes.Equal(priv[ed25519.SeedSize:], raw[ed25519.SeedSize:])
}

// byteArrayKeyAt finds the first array of 64 numbers from 0 to 255 at
// or after from ([12, 200, ...], as Solana's id.json holds a keypair; in
// braces, as Go and C write one) that is an ed25519 keypair or is named
// as a key; the span is the array with its brackets.
func byteArrayKeyAt(s string, from int) match {
	if len(s)-from < minByteArray || strings.Count(s[from:], ",") < keypairLen-1 {
		return noMatch // too short, or too few commas, for an array of keypairLen
	}
	for i := from; len(s)-i >= minByteArray; {
		k := indexOf3(s[i:], '[', '{', '[')
		if k < 0 {
			break
		}
		open := i + k
		i = open + 1
		raw, end, ok := byteArray(s, open)
		if !ok {
			continue
		}
		if isEd25519Keypair(raw[:]) || namedAsKey(s, open) {
			return match{p: pKeyMaterial, at: open, start: open, end: end}
		}
		i = end
	}
	return noMatch
}

// byteArray reads, at s[open] ('[' or '{'), an array of exactly
// keypairLen numbers from 0 to 255 separated by commas (blanks and line
// breaks allowed around them): its bytes, and the index after its
// closing bracket.
func byteArray(s string, open int) (raw [keypairLen]byte, end int, ok bool) {
	closing := byte(']')
	if s[open] == '{' {
		closing = '}'
	}
	j := open + 1
	for n := 0; n < keypairLen; n++ {
		j = skipSpace(s, j)
		v, d := 0, j
		for j < len(s) && isDigit(s[j]) && j-d < 3 {
			v = 10*v + int(s[j]-'0')
			j++
		}
		if j == d || v > 255 || j < len(s) && isDigit(s[j]) {
			return raw, 0, false
		}
		raw[n] = byte(v)
		j = skipSpace(s, j)
		if n < keypairLen-1 {
			if j >= len(s) || s[j] != ',' {
				return raw, 0, false
			}
			j++
		}
	}
	if j < len(s) && s[j] == ',' {
		j = skipSpace(s, j+1) // a trailing comma
	}
	if j >= len(s) || s[j] != closing {
		return raw, 0, false
	}
	return raw, j + 1, true
}

// encodedKeypair reports whether run, a maximal run of base64 followed
// by pad '=' bytes, is an ed25519 keypair in base64 (86 characters and
// "==") or in hexadecimal (128 digits) whose second half is the public
// key of its first: base64At's look at runs that decode to no text.
func encodedKeypair(run string, pad int) bool {
	var raw []byte
	var err error
	switch {
	case len(run) == 86 && pad == 2:
		enc := base64.StdEncoding
		if strings.ContainsAny(run, "-_") {
			enc = base64.URLEncoding
		}
		raw, err = enc.DecodeString(run + "==")
	case len(run) == 2*keypairLen && pad == 0 && isHexRun(run):
		raw, err = hex.DecodeString(run)
	default:
		return false
	}
	return err == nil && len(raw) == keypairLen && isEd25519Keypair(raw)
}

// skipSpace returns the index of the first byte at or after j that is
// not ASCII white space.
func skipSpace(s string, j int) int {
	for j < len(s) && isSpaceByte(s[j]) {
		j++
	}
	return j
}

// keyWords say that what follows is a private key; publicWords, that it
// is something else of a key pair or a ledger (which base58 and arrays of
// 64 bytes also spell: a public key, a signature, an address, a hash).
var (
	keyWords    = [...]string{"key", "secret", "private", "priv", "wallet", "wif", "solana", "bitcoin", "btc", "seed"}
	publicWords = [...]string{"public", "pubkey", "signature", "address", "hash", "txid"}
)

// namedAsKey reports whether the text before s[start], on its line and
// the line before it (keyContextLen bytes at most), names a private key:
// one of keyWords and none of publicWords, in any case ("cold wallet
// sweep: 5K...", "~/.config/solana/id.json: [...]", "secretKey = ...").
func namedAsKey(s string, start int) bool {
	w := s[max(0, start-keyContextLen):start]
	if nl := strings.LastIndexByte(w, '\n'); nl >= 0 {
		if prev := strings.LastIndexByte(w[:nl], '\n'); prev >= 0 {
			w = w[prev+1:]
		}
	}
	named := false
	for _, k := range keyWords {
		named = named || containsFold(w, k)
	}
	if !named {
		return false
	}
	for _, p := range publicWords {
		if containsFold(w, p) {
			return false
		}
	}
	return true
}

// jwkPrivateMembers are the members of a JSON Web Key (RFC 7518) that
// hold its private part: an RSA key's d, p, q, dp, dq and qi, an EC or
// OKP key's d, a symmetric (oct) key's k.
var jwkPrivateMembers = [...]string{"d", "p", "q", "dp", "dq", "qi", "k"}

// jwkMember reports whether s[k:end], a quoted name before a ':', is a
// private member of a JSON Web Key: one of jwkPrivateMembers (names are
// case-sensitive), in an object that has a "kty" member.
func jwkMember(s string, k, end int) bool {
	if end-k > 2 || k == 0 || end >= len(s) || s[k-1] != s[end] || s[end] != '"' && s[end] != '\'' {
		return false
	}
	name := s[k:end]
	found := false
	for _, m := range jwkPrivateMembers {
		found = found || name == m
	}
	if !found {
		return false
	}
	open, close := enclosingObject(s, k)
	if open < 0 {
		return false
	}
	obj := s[open:close]
	return strings.Contains(obj, `"kty"`) || strings.Contains(obj, `'kty'`)
}

// enclosingObject returns the bounds of the innermost {...} that holds
// s[i], within maxJWK bytes on either side (close is after its '}', or
// the bound or the end of s when it is not closed there); open is -1
// when there is none.
func enclosingObject(s string, i int) (open, close int) {
	depth := 0
	open = -1
	for j := i - 1; j >= 0 && i-j <= maxJWK; j-- {
		switch s[j] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				open = j
			}
			depth--
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 {
		return -1, -1
	}
	depth = 0
	for j := open + 1; j < len(s) && j-i <= maxJWK; j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return open, j + 1
			}
			depth--
		}
	}
	return open, min(len(s), i+maxJWK)
}

// jwkValue reports whether v may be a JWK member's value: 16 base64url
// characters or more (a 128-bit key's k is 22).
func jwkValue(v string) bool {
	if len(v) < 16 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !base64Any[v[i]] {
			return false
		}
	}
	return true
}

// rsaKeyValueMembers are the elements of .NET's XML RSAKeyValue that
// hold the private key.
var rsaKeyValueMembers = [...]string{"D", "P", "Q", "DP", "DQ", "InverseQ"}

// rsaKeyValueMember reports whether name, an XML element's name that
// opens at s[k-1] == '<', is a private member of an RSAKeyValue element
// opened before it (within maxJWK bytes) and not yet closed.
func rsaKeyValueMember(s string, k int, name string) bool {
	found := false
	for _, m := range rsaKeyValueMembers {
		found = found || name == m
	}
	if !found {
		return false
	}
	before := s[max(0, k-maxJWK):k]
	o := strings.LastIndex(before, "<RSAKeyValue>")
	return o >= 0 && !strings.Contains(before[o:], "</RSAKeyValue>")
}

package redact

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// b58 encodes raw in base58 (the test's own encoder, by big integers).
func b58(raw []byte) string {
	n := new(big.Int).SetBytes(raw)
	var out []byte
	mod, base := new(big.Int), big.NewInt(58)
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for _, b := range raw {
		if b != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// wifOf is the WIF of key (32 bytes) with version byte v, compressed or
// not.
func wifOf(key []byte, v byte, compressed bool) string {
	payload := append([]byte{v}, key...)
	if compressed {
		payload = append(payload, 1)
	}
	first := sha256.Sum256(payload)
	second := sha256.Sum256(first[:])
	return b58(append(payload, second[:4]...))
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// numbers writes b as a JSON array of numbers, with sep after each comma.
func numbers(b []byte, sep string) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprint(c)
	}
	return "[" + strings.Join(parts, ","+sep) + "]"
}

func TestBase58Decode(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for _, raw := range [][]byte{{0}, {0, 0, 1}, {255}, randBytes(r, 37), randBytes(r, 64), append([]byte{0, 0}, randBytes(r, 30)...)} {
		got, ok := base58Decode(b58(raw))
		if !ok || !bytes.Equal(got, raw) {
			t.Errorf("base58Decode(b58(%x)) = %x, %v", raw, got, ok)
		}
	}
	for _, bad := range []string{"0abc", "Oabc", "Il", "abc+", strings.Repeat("z", 129)} {
		if _, ok := base58Decode(bad); ok {
			t.Errorf("base58Decode(%q) is ok", bad)
		}
	}
}

// TestKeysInShapesOfTheirOwn: WIF keys, ed25519 keypairs in base58 and
// as arrays, JWK and RSAKeyValue private members are caught; their
// public look-alikes and random text of their shape are not.
func TestKeysInShapesOfTheirOwn(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 21))
	g := shapeGen{r}
	wif := wifOf(randBytes(r, 32), 0x80, false)
	wifC := wifOf(randBytes(r, 32), 0x80, true)
	wifT := wifOf(randBytes(r, 32), 0xef, true)
	if wif[0] != '5' || len(wif) != 51 || len(wifC) != 52 || wifT[0] != 'c' {
		t.Fatalf("test WIFs of the wrong shape: %s %s %s", wif, wifC, wifT)
	}
	kp := ed25519.NewKeyFromSeed(randBytes(r, 32))
	kp58 := b58(kp)
	randomWIF := "5K" + g.str(base58Alphabet, 49)
	urlKey := g.str(shURL, 43)

	// Checked by their structure: caught anywhere.
	checkCaught(t, "sweep "+wif+" now", wif)
	checkCaught(t, wifC, wifC)
	checkCaught(t, "testnet: "+wifT+".", wifT)
	checkCaught(t, "bitcoin-cli importprivkey "+wifC+" \"\" false", wifC)
	checkCaught(t, "BTC_WIF="+wifC, wifC)
	checkCaught(t, "id: "+kp58, kp58)
	checkCaught(t, numbers(kp, ""), numbers(kp, ""))
	checkCaught(t, "cat out.json\n"+numbers(kp, " ")+"\n", numbers(kp, " "))
	checkCaught(t, "let kp = Keypair.fromSecretKey(new Uint8Array("+numbers(kp, "\n  ")+"));", numbers(kp, "\n  "))
	goArr := "{" + strings.Trim(numbers(kp, " "), "[]") + "}"
	checkCaught(t, "priv := ed25519.PrivateKey"+goArr, goArr)
	kpHex, kpB64 := hex.EncodeToString(kp), base64.StdEncoding.EncodeToString(kp)
	checkCaught(t, "ed25519 "+kpHex, kpHex)
	checkCaught(t, `"`+kpB64+`"`, kpB64)
	// Named as a key: caught though they do not check out.
	arr := numbers(randBytes(r, 64), "")
	checkCaught(t, "cold wallet: "+randomWIF, randomWIF)
	checkCaught(t, "WIF "+randomWIF, randomWIF)
	checkCaught(t, "~/.config/solana/id.json:\n"+arr, arr)
	checkCaught(t, `{"secretKey": `+arr+`}`, arr)
	b := b58(randBytes(r, 64))
	checkCaught(t, "phantom private key: "+b, b)
	// JSON Web Keys and RSAKeyValue.
	d, p, q := g.str(shURL, 43), g.str(shURL, 86), g.str(shURL, 86)
	checkCaught(t, `{"kty":"EC","crv":"P-256","x":"`+urlKey+`","y":"`+urlKey+`","d":"`+d+`"}`, d)
	checkCaught(t, `{"d": "`+d+`", "kty": "OKP", "crv": "Ed25519", "x": "`+urlKey+`"}`, d)
	checkCaught(t, `{"keys":[{"kty":"RSA","n":"`+urlKey+`","e":"AQAB","p":"`+p+`","q":"`+q+`"}]}`, p, q)
	checkCaught(t, "{'kty': 'oct', 'k': '"+d+"'}", d)
	checkCaught(t, "<RSAKeyValue><Modulus>"+urlKey+"</Modulus><Exponent>AQAB</Exponent><DP>"+p+"</DP><InverseQ>"+q+"</InverseQ></RSAKeyValue>", p, q)

	for _, in := range []string{
		// Base58 of the right length that does not check out, unnamed.
		randomWIF,
		"build " + randomWIF + " done",
		"cold wallet address " + randomWIF,
		wif[:50] + "x",
		"x" + wif, wif + "_1", "/" + wif, wif + "=",
		b58(randBytes(r, 64)),
		"signature " + b58(randBytes(r, 64)),
		"key signature: " + b58(randBytes(r, 64)),
		"https://solscan.io/tx/" + b58(randBytes(r, 64)),
		// Arrays of 64 bytes that are no keypair, or not 64 bytes.
		numbers(randBytes(r, 64), ""),
		"sha512 of the file: " + numbers(randBytes(r, 64), " "),
		"public key: " + numbers(randBytes(r, 64), " "),
		"secret key: " + numbers(randBytes(r, 63), " "),
		"secret key: " + numbers(randBytes(r, 65), " "),
		"secret key: [" + strings.Repeat("256,", 63) + "1]",
		"secret key: [" + strings.Repeat("1,", 63) + "1.5]",
		"see [1] and [2, 3]",
		hex.EncodeToString(randBytes(r, 64)),
		base64.StdEncoding.EncodeToString(randBytes(r, 64)),
		"{" + strings.Trim(numbers(randBytes(r, 64), " "), "[]") + "}",
		// JSON Web Keys without a private member, and look-alikes.
		`{"kty":"RSA","n":"` + urlKey + `","e":"AQAB","kid":"sig-1"}`,
		`{"kty":"EC","crv":"P-256","x":"` + urlKey + `","y":"` + urlKey + `"}`,
		`{"d":"` + d + `","e":"AQAB"}`,
		`{"kty":"EC","d":"short"}`,
		`{"kty":"EC","D":"` + d + `"}`,
		`{"kty":"EC"} {"d":"` + d + `"}`,
		`{"kty":"EC","meta":{"d":"ab cd"}}`,
		// XML that is not an RSAKeyValue's private part.
		"<RSAKeyValue><Modulus>" + urlKey + "</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>",
		"<P>" + p + "</P>",
		"<RSAKeyValue></RSAKeyValue><D>" + d + "</D>",
	} {
		checkQuiet(t, in, false)
	}
}

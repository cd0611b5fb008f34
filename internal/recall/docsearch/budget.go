package docsearch

import "encoding/json"

// charsPerToken is the token estimate: a token is about four characters
// of English text or JSON.
const charsPerToken = 4

// fitBudget keeps the leading results whose JSON, together, is at most
// budget tokens, and returns them with the number it dropped. A result
// that cannot be encoded does not fit. Rank order is kept: once one
// result does not fit, neither does any after it.
func fitBudget[T any](rs []T, budget int) ([]T, int) {
	used := 0
	for i, r := range rs {
		b, err := json.Marshal(r)
		used += (len(b) + 1 + charsPerToken - 1) / charsPerToken // +1: the separating comma
		if err != nil || used > budget {
			return rs[:i], len(rs) - i
		}
	}
	return rs, 0
}

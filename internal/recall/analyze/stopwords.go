package analyze

// stopWords are English function words, too frequent to rank by and too
// empty to carry meaning. Question words are among them, so "how do I
// version an API" and "version an API" are the same query.
var stopWords = setOf(
	"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
	"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
	"can", "could", "did", "do", "does", "doing", "down", "during",
	"each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how",
	"i", "if", "in", "into", "is", "it", "its", "itself", "just",
	"me", "more", "most", "my", "myself", "no", "nor", "not", "now",
	"of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own",
	"same", "she", "should", "so", "some", "such",
	"than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too",
	"under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
	"you", "your", "yours",
)

func setOf(words ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

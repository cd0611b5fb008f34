package analyze

// Stopwords is a named list of words that carry no matching signal. Every
// list the code uses is declared in this file, so a reader finds in one
// place which words each surface ignores and why.
type Stopwords map[string]struct{}

// Has reports whether w (lowercase) is in the list.
func (s Stopwords) Has(w string) bool {
	_, ok := s[w]
	return ok
}

// English are English function words, too frequent to rank by and too
// empty to carry meaning: the list of Normalize, so of docs search, the
// offline embedder and deeper context. It holds no content word. Question
// words are among them, so "how do I
// version an API" and "version an API" are the same query.
var English = setOf(
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

// RecognitionParity is the reference's general-English list (STOPWORDS
// in core/recognition_contract.py), kept word for word because the
// recognition and turn-compiler fixtures (testdata/conformance
// tier_matrix.json, recognition_vectors.json, turn_compiler_vectors.json)
// depend on it: a token in it never makes a TOKEN_OVERLAP. It holds
// content words ("work", "new", "make") and is not fit for retrieval.
var RecognitionParity = setOf(
	"a", "about", "again", "am", "an", "and", "anything", "are", "as", "at",
	"be", "can", "did", "do", "for", "from", "how", "i", "is", "it", "its",
	"keep", "like", "made", "make", "me", "new", "no", "now", "of", "ok",
	"okay", "on", "or", "our", "please", "should", "so", "some", "tell",
	"that", "the", "then", "there", "this", "to", "us", "want", "was", "we",
	"what", "whats", "when", "where", "which", "will", "with", "work",
	"worked", "working", "would", "yes", "you",
)

// CodexParity are the Codex domain words the reference's Codex turn
// engine adds to RecognitionParity (DOMAIN_STOPWORDS_CODEX), kept for the
// turn-compiler fixtures.
var CodexParity = setOf("active", "approved", "branch", "codex", "pr", "remind", "restart")

func setOf(words ...string) Stopwords {
	m := make(Stopwords, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

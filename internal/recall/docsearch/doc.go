// Package docsearch is the hybrid search over the documentation graph
// behind the docs_search and code_sample_search tools.
//
// Build indexes the searchable nodes of a graph.Graph (Doc, Article,
// Unit, Module, LearningPath, ADR, Standard, Pattern; see Searchable)
// and its CodeSample nodes. Index.Search answers a Query in five steps:
//
//  1. Filters, before anything is ranked: labels (Query.Types), product
//     (a node's own products, or those of its nearest partOf ancestor),
//     moniker (a node's monikerRange must include the requested moniker;
//     a node without a range matches every moniker) and visibility
//     (visibility: internal is left out unless Query.IncludeInternal).
//  2. Two retrievers (arms), each keeping its best 100:
//     - BM25F over four fields (bm25.go): title (weight 3, length
//     normalization b 0.3), summary (2, 0.5), headings (1.5, 0.5) and
//     body (1, 0.75), with k1 = 1.2 and idf = ln(1 + (N-df+0.5)/(df+0.5)).
//     Terms come from package analyze (Unicode words, lowercased, English
//     stop words out, a light suffix stemmer); a query word the index
//     lacks counts as the indexed term nearest in spelling
//     (analyze.Speller), weighted by its similarity.
//     - A vector arm: each node's embedding, made by the embedder the
//     index was built with (its name and dimension are kept; a query by
//     another embedder is ErrEmbedderMismatch), unit length, in one
//     float32 matrix scanned exactly; a cosine of zero or less is no
//     match. What is embedded is a node's title and summary (embedText).
//     The offline embedder is embed.Model, trained on the corpus itself
//     (TrainEmbedder). An embedder that fails at query time leaves the
//     lexical arm to answer, with a warning in the results.
//  3. Reciprocal Rank Fusion, k = 60: a document earns 1/(60 + rank) per
//     arm, equal scores sharing a rank. Before it, each arm's list is cut
//     where its score falls below 0.2 (BM25) or 0.5 (cosine) of the arm's
//     best, so that weak agreement does not outrank strong evidence.
//  4. A graph rerank of the first 100 fused candidates (rerank.go):
//     Personalized PageRank on the typed edges of a local subgraph, once
//     restarting at the candidates (by RRF score) and the query's product
//     node, once at the nodes the caller is on (Query.Anchors). Final =
//     rrf · (1 + 0.01·pr + 2·pa) · boosts, pr and pa the two masses
//     relative to their largest among the candidates.
//  5. Boosts (boost.go): ×0.5 for a document that a supersededBy edge
//     replaces, ×1.25 for the document whose title is the query, ×1.1 for
//     a document whose moniker range names the requested moniker.
//
// Each Result carries its uid, label, title, cogitave:// URI, a snippet
// (the body's best paragraph for the query, at most 240 characters), its
// score and Signals: every number above, for evaluation logs. The
// results fit Query.TokenBudget (tokens estimated as JSON characters /
// 4); what does not fit is dropped and counted.
//
// Index.SearchCode is the same fusion, without the graph rerank, over the
// code samples: fields name (title and region), source path, the titles
// of the documents that cite the sample, and the code (split at camelCase
// too), filtered by language and product.
//
// Quality, on 63 labelled queries over testdata/learn
// (testdata/queries.json: exact titles, questions, paraphrases,
// misspellings, multi-concept, filtered, and 12 held out from the tuning),
// nDCG@10 / recall@10:
//
//	BM25 alone     0.876 / 0.912
//	vectors alone  0.897 / 0.979   (embed.Model, 128 dimensions)
//	hybrid         0.921 / 0.981
//
// go test -run TestSearchQuality -v ./internal/recall/docsearch/ prints them by
// kind of query. Speed and size at 50,000 nodes: see bench_test.go.
package docsearch

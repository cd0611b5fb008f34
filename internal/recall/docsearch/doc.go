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
//     - BM25 (bm25.go, passage.go): BM25F over three short fields, title
//     (weight 3, length normalization b 0.3), summary (2, 0.5) and
//     headings (1.5, 0.5), plus the score of the document's best passage
//     (b 0.75 against the average passage). Passages are every prose
//     field the node shows: its body cut at headings and blank lines
//     into passages of about 60 words or more, each knowledge-check
//     question with its choices and explanations, its prerequisites, and
//     the code of each :::code sample it cites. k1 = 1.2 and
//     idf = ln(1 + (N-df+0.5)/(df+0.5)). Terms come from package analyze
//     (Unicode words, lowercased, English stop words out, a light suffix
//     stemmer); a query word that neither index has counts as the indexed
//     term nearest in spelling (analyze.Speller), weighted by their
//     similarity.
//     - A vector arm (retrieve.go, vector.go): the embeddings of each
//     node's title and summary (embedText) and of each of its passages,
//     made by the embedder the index was built with (its name and
//     dimension are kept; a query by another embedder is
//     ErrEmbedderMismatch), unit length, in float32 matrices scanned
//     exactly. A node's similarity is its best cosine, of its title and
//     summary or of a passage; every node is compared by title and
//     summary, and the passages of the pool that either arm found (the
//     vector arm's first 100 and the lexical hits), so the scan stays at
//     one vector per node. A cosine of zero or less is no match. The
//     offline embedder is embed.Model, trained on the corpus itself
//     (TrainEmbedder, or CachedEmbedder to keep it on disk). An embedder
//     that fails at query time leaves the lexical arm to answer, with a
//     warning in the results.
//  3. Fusion by normalized score (retrieve.go): each arm's list is first
//     cut where its score falls below 0.2 (BM25) or 0.5 (cosine) of the
//     arm's best; a candidate's fused score is the mean of its BM25 score
//     over the arm's best and its cosine above the absolute floor 0.2,
//     rescaled to [0, 1]. Reciprocal Rank Fusion (k = 60) is reported
//     as a signal only.
//  4. With Query.Anchors, a graph rerank of the first 100 candidates
//     (rerank.go): Personalized PageRank on the typed edges of a local
//     subgraph, restarting at the anchors. Final = fused · (1 + 2·pa) ·
//     boosts, pa the mass relative to its largest among the candidates.
//  5. Boosts (boost.go): ×0.5 for a document that a supersededBy edge
//     replaces, ×1.25 for the document whose title is the query, ×1.1 for
//     a document whose moniker range names the requested moniker.
//
// Each Result carries its uid, label, title, cogitave:// URI, a snippet
// (the plain text, prepared at build, of the passage that best answers
// the query, at most 240 characters), its
// score and Signals: every number above, for evaluation logs. The
// results fit Query.TokenBudget (tokens estimated as JSON characters /
// 4); what does not fit is dropped and counted.
//
// Index.SearchCode is the same fusion, without the graph rerank, over the
// code samples: fields name (title and region), source path, the titles
// of the documents that cite the sample, and the code (split at camelCase
// too), filtered by language and product.
//
// Quality: see docs/retrieval.md ("Docs search") for the two labelled
// sets (testdata/queries.json, tuned on; testdata/prose_queries.json,
// with a frozen test split) and the figures beside a plain BM25.
//
// go test -run 'TestSearchQuality|TestProseQuality' -v ./internal/recall/docsearch/
// prints them by kind of query. Speed and size at 50,000 nodes: see bench_test.go.
package docsearch

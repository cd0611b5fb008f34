// Package knowledge is the live knowledge base: the documentation graph
// (package docs) and the agent-memory federation (package federation)
// joined in one immutable graph.Graph, with the documentation's search
// index, rebuilt as either changes on disk.
//
// # Snapshots
//
// A Base holds the current Snapshot: the joined graph, the search index,
// the corpus problems, when it was built and a version that grows with
// every rebuild. A Snapshot never changes, so a caller keeps using the one
// it took while a new one is built. Watch rebuilds when a file under a
// corpus root changes (polled by name, size and modification time) or when
// the memory library publishes a new snapshot, and reports which uids
// changed, were added or were removed (docs.Diff over the joined graph).
//
// A rebuild reuses what did not change: the corpus is loaded and indexed
// again only when a file under its roots changed, and an agent's nodes are
// made again only when its manifest changed (the library keeps a
// manifest's value while its file is unchanged). The join itself, cheap
// next to both, is redone every time.
//
// # The memory in the graph
//
// Every agent of the store's library becomes an Agent node with uid
// "bourdon.agent.<agent-id>" and properties title and agent (the id),
// agentType, visibility ("public") and roleNarrative (when the manifest
// has one).
//
// Every entity of an agent becomes an Entity node with uid
// "bourdon.entity.<agent-id>.<slug>", the slug being the name in lower
// case with each run of characters other than a-z and 0-9 made one "-",
// trimmed of dashes (or, when nothing is left, "x" and the first eight hex
// digits of the name's SHA-256). An agent's second entity with the same
// slug gets "-2", the third "-3", in file order. Its properties are title
// (the name, trimmed), agents (a one-element list: the agent id), agent,
// type, summary, aliases, tags, and visibility: the row's level as the
// manifest reading resolves it (its own visibility, the policy's default,
// the private tag families), an unknown value counting as private. Its
// content is the summary. An entity without a name is left out, as the
// store's lookups leave it out. A memory node's Source is its agent id;
// its LastModified is the manifest's last_updated, or for an entity its
// last_touched when set.
//
// Memory nodes show agent memory as the memory tools do: every text
// property (title, agent, agents, agentType, roleNarrative, type, summary,
// aliases, tags), the content and the Source are redacted as fields
// (redact.Secret: a value the battery flags is replaced whole), and an
// agent id or entity name that the battery flags, or whose slug it flags,
// stands in its uid as "x" and the first eight hex digits of its SHA-256.
// So no query can match, and no uid can spell, a credential of a manifest.
//
// Edges: every entity is derivedFrom its agent, and has an xref to every
// documentation node whose uid or title equals the entity's name or one of
// its aliases, surrounding space and case ignored. An entity never has an
// xref to another memory node.
//
// Sessions, workstreams and notes are not nodes: they grow without bound
// and the federation's own tools answer for them. A memory uid that the
// corpus already defines is left out of the graph, with a warning.
//
// # Visibility
//
// Snapshot.Visible returns the test a caller's queries apply to every
// node: a memory node is hidden when its visibility is above the caller's
// level or its agent is one the caller's reader rejects; a documentation
// node with visibility "internal" is hidden below team; every other node
// is visible. The test costs a few slice reads.
//
// # Queries
//
// Snapshot.View gives a viewer's part of a snapshot, and the docs queries
// are View's methods: Find (a uid, or the closest visible ones in an
// UnknownUIDError), Fetch (content as read in one product version),
// ResolveXref, Related (the typed neighbourhood, bounded), LearningPath,
// Search and Query (openCypher). Each answers within the view, with typed
// errors, so the MCP tools and the command line share them; Listed and
// CatalogueChanges say which nodes every caller may list.
//
// # Search
//
// The index covers the documentation graph alone (the corpus as
// docs.Load reads it), not the joined one: the searchable labels are all
// documentation labels, so the results are the same, while the rerank's
// walk cannot be steered by memory a caller may not see, and a change of
// memory never rebuilds the index; Query.Anchors are therefore
// documentation uids. Without an Options.Embedder the index embeds with
// the offline model trained on the corpus at each load
// (docsearch.TrainEmbedder, 128 dimensions).
package knowledge

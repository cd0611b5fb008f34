-- Small named documents shared by every replica: the member registry, the
-- authorization server's state, drift watermarks, requests and proposals
-- (see store.Documents). A name is a slash-separated relative path, as the
-- file would be under a directory.

-- Every write takes a new revision from one sequence, so that a document
-- removed and written again never repeats a revision a reader holds.
CREATE SEQUENCE bourdon_document_revisions;

CREATE TABLE bourdon_documents (
	name       text PRIMARY KEY,
	data       bytea NOT NULL,
	revision   bigint NOT NULL DEFAULT nextval('bourdon_document_revisions'),
	updated_at timestamptz NOT NULL DEFAULT now()
);

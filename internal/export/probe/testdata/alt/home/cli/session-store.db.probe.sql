CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
CREATE TABLE turns (session_id TEXT, turn_index INTEGER);
CREATE TABLE checkpoints (session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT);
CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER);
CREATE TABLE session_refs (session_id TEXT, ref_type TEXT, ref_value TEXT);
CREATE TABLE dynamic_context_items (repository TEXT, branch TEXT, src TEXT, name TEXT, description TEXT, content TEXT, read_count INTEGER, count INTEGER);
INSERT INTO sessions VALUES
 ('a1','/home/dev/repos/ledger-svc','acme/ledger-svc',NULL,NULL,'Good session after since','2026-11-09T10:00:00Z',NULL),
 ('a2','/home/dev/repos/ledger-svc','acme/ledger-svc',NULL,NULL,CAST(X'4361666580206c6564676572' AS TEXT),'2026-11-08T10:00:00Z',NULL),
 ('a3','/home/dev/repos/ledger-svc','acme/old',NULL,NULL,'Before since','2026-11-01T10:00:00Z',NULL);

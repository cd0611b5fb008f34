CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (4);
CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT, client_name TEXT);
CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);
CREATE TABLE checkpoints (session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT);
CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT);
CREATE TABLE session_refs (session_id TEXT, ref_type TEXT, ref_value TEXT, turn_index INTEGER, created_at TEXT);
CREATE TABLE dynamic_context_items (repository TEXT, branch TEXT, src TEXT, name TEXT, description TEXT, content TEXT, read_count INTEGER, count INTEGER);
CREATE TABLE future_table (x TEXT);
INSERT INTO sessions VALUES
 ('s1','/home/dev/repos/payments-api','acme/payments-api','github','main','Add refund idempotency keys','2026-11-02T09:00:00.000Z','2026-11-02T10:00:00.000Z','cli'),
 ('s2','/tmp/scratch',NULL,NULL,NULL,'Explain   the
build script','2026-11-03 14:00:00','2026-11-03 14:30:00','cli'),
 ('s3','/home/dev/repos/atlas','acme/atlas','github','feat/tiles','Reset the staging password for deploys','2026-11-01T23:30:00-05:00',NULL,'cli'),
 ('s4','/home/dev/repos/payments-api','acme/payments-api','github','main','Old session without a creation time',NULL,'2026-10-30T10:00:00Z','cli'),
 ('s5','/home/dev/repos/payments-api','acme/payments-api','github','main','Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen — Überarbeite die Rückerstattungslogik für doppelte Buchungen —','2026-11-04T08:00:00Z','2026-11-04T09:00:00Z','cli');
INSERT INTO turns VALUES
 ('s1',0,'PROBE-SENTINEL-TURN','ok','2026-11-02T09:01:00Z'),('s1',1,'b','ok',NULL),('s1',2,'c','ok',NULL),('s1',3,'d','ok',NULL),('s1',4,'e','ok',NULL),
 ('s5',0,'x','y',NULL);
INSERT INTO checkpoints VALUES
 ('s1',1,'Idempotency table migration','PROBE-SENTINEL-OVERVIEW',NULL,NULL,NULL,NULL,NULL,NULL),
 ('s1',2,NULL,'untitled checkpoint',NULL,NULL,NULL,NULL,NULL,NULL),
 ('s1',3,'Handler wired',NULL,NULL,NULL,NULL,NULL,NULL,NULL),
 ('s1',4,'Tests green',NULL,NULL,NULL,NULL,NULL,NULL,NULL),
 ('s1',5,'Docs updated',NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO session_files VALUES
 ('s1','services/refunds/handler.go','edit',1,NULL),('s1','services/refunds/handler_test.go','create',2,NULL);
INSERT INTO session_refs VALUES
 ('s1','commit','3f2a9c1',3,NULL),('s1','pr','42',4,NULL),('s1','issue','7',4,NULL),('s1','commit','9e8d7c6',4,NULL);
INSERT INTO dynamic_context_items VALUES
 ('acme/payments-api','main','repo-instructions','Refund conventions','Use idempotency keys everywhere','long content',3,10),
 ('acme/atlas','main','user','acme/atlas',NULL,'Atlas is the map service',1,5),
 ('acme/atlas','main','user','',NULL,'nameless',1,4),
 ('acme/payments-api','main',NULL,'Token handling','never log the bearer token value',NULL,0,2),
 ('acme/payments-api','main','personal','Home address','12 Example Street',NULL,0,1);

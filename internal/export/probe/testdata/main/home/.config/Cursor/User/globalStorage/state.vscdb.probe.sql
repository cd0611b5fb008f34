CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable (key, value) VALUES
 ('composer.flat.1', '{"workspacePath":"/home/dev/repos/payments-api","title":"Add refund idempotency middleware","createdAt":1762246800000,"messages":[{"role":"user","content":"wire it","files":["api/refunds.ts"]}],"filesTouched":["api/refunds.ts",{"uri":"file:///home/dev/repos/payments-api/api/db.ts"}]}'),
 ('aichat.flat.2', '{"workspace":{"path":"/home/dev/repos/atlas"},"prompt":"Refactor tile cache eviction","timestamp":"2026-11-05T23:30:00-05:00","messages":[]}'),
 ('chat.flat.3', '{"cwd":"/home/dev/repos/payments-api","summary":"Refactor refund retries cache","updatedAt":1794700000,"files":["svc/retry.go"],"newField":{"nested":true}}'),
 ('composer.flat.4', '{"folder":"/home/dev/work/payments-api","text":"Investigate refund cache token: api_key=abc123","time":"2026-11-06"}'),
 ('chat.flat.5', CAST('{"workspacePath":"/home/dev/repos/atlas","title":"Cache warmup refactor for tiles","createdAt":"2026-11-07T10:00:00Z","messages":[{"role":"user","text":"warm it","files":[{"path":"tiles/warm.ts"}]}]}' AS BLOB)),
 ('chat.undated', '{"workspacePath":"/home/dev/repos/atlas","title":"Undated scratch note"}'),
 ('composer.bad', 'not json{'),
 ('aichat.null', NULL),
 ('workbench.other', '{"foo":1}'),
 ('history.recentlyOpenedPathsList', '{"entries":[{"folderUri":"file:///home/dev/repos/payments-api"}]}');

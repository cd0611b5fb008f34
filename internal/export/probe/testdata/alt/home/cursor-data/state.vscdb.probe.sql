CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable (key, value) VALUES
 ('composer.alt.1', '{"workspacePath":"/home/dev/repos/atlas","title":"Alt cursor session","createdAt":"2026-11-10T10:00:00Z"}');

-- 022 grant secrets: a grant may carry env values and headers of its own (`mcp grant …
-- --env K=V --header K=V`), sealed like the server's, which override the server's for the
-- agent or user it grants to (a user grant's over an agent grant's).
ALTER TABLE mcp_grants ADD COLUMN env_sealed BLOB;
ALTER TABLE mcp_grants ADD COLUMN headers_sealed BLOB;
ALTER TABLE mcp_grants ADD COLUMN env_keys TEXT NOT NULL DEFAULT '[]';
ALTER TABLE mcp_grants ADD COLUMN header_keys TEXT NOT NULL DEFAULT '[]';

-- 016 accents: nothing on SQLite, whose FTS5 folds accents already (remove_diacritics=1). On
-- PostgreSQL this version folds them the same way in the search columns and queries.
SELECT 1;

//! Reading the board: pages of tasks (keyset cursors), one task with its comments, attachments and
//! events, the event log, and full-text search.

use super::*;

/// Words a task search takes at most (each one is required).
const MAX_SEARCH_WORDS: usize = 64;
impl Board<'_> {
    /// Lists tasks: `filter` is a status, `active` (not completed or cancelled), `completed`
    /// (completed or cancelled), or `all`. One page, in the board's order (keyset cursor).
    pub fn list(&mut self, filter: &str, page: &PageRequest) -> Result<Page<Task>> {
        let cond = match filter {
            "" | "all" => "1 = 1".to_string(),
            "active" => "status NOT IN ('completed', 'cancelled')".to_string(),
            "completed" => "status IN ('completed', 'cancelled')".to_string(),
            s if [
                "pending",
                "in_progress",
                "blocked",
                "failed",
                "in_review",
                "cancelled",
                "stale",
            ]
            .contains(&s) =>
            {
                format!("status = '{s}'")
            }
            other => {
                return Err(Error::usage(format!(
                    "unknown status filter `{other}` (all, active, completed, pending, in_progress, blocked, failed, in_review, cancelled, stale)"
                )));
            }
        };
        let (cp, cc, cn) = match page.cursor.as_deref() {
            None => (i64::MAX, i64::MIN, i64::MIN),
            Some(c) => parse_cursor(c)?,
        };
        let team = self.team.clone();
        let tx = self.read()?;
        let sql_text = format!(
            "SELECT {COLUMNS} FROM tasks WHERE team_id = ?1 AND {cond}
               AND (priority < ?2 OR (priority = ?2 AND (created_at > ?3 OR (created_at = ?3 AND task_number > ?4))))
             ORDER BY priority DESC, created_at, task_number LIMIT ?5"
        );
        let mut tasks: Vec<Task> = tx.query_map(
            &sql_text,
            db_params![team.id, cp, cc, cn, page.fetch()],
            row_task,
        )?;
        for t in &mut tasks {
            t.blocked_by = Self::blockers(&tx, &t.id)?;
        }
        tx.commit()?;
        Ok(Page::cut(tasks, page, |t| {
            format!("{}.{}.{}", t.priority, t.created_at, t.task_number)
        }))
    }

    /// One task with its comments, attachments and events.
    pub fn get(&mut self, key: &str) -> Result<Detail> {
        let team = self.team.clone();
        let tx = self.read()?;
        let task = Self::find(&tx, &team, key)?;
        let (description, result, ask_user, dedupe_key, gate, dispatch_count): (
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
            i64,
        ) = tx
            .query_row(
                "SELECT description, result, ask_user, dedupe_key, gate, dispatch_count FROM tasks WHERE id = ?1", db_params![&task.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )?;
        let comments: Vec<Value> = tx.query_map(
            "SELECT author, kind, text, created_at FROM task_comments WHERE task_id = ?1 ORDER BY id",
            db_params![task.id],
            |r| {
                Ok(json!({"author": r.get::<String>(0)?, "type": r.get::<String>(1)?, "text": r.get::<String>(2)?, "created_at": r.get::<i64>(3)?}))
            },
        )?;
        let attachments: Vec<String> = tx.query_map(
            "SELECT path FROM task_attachments WHERE task_id = ?1 ORDER BY id",
            db_params![&task.id],
            |r| r.get(0),
        )?;
        let events = Self::load_events(&tx, team.id, Some(&task.id), None, 1000)?;
        tx.commit()?;
        Ok(Detail {
            task,
            description,
            result,
            gate,
            dispatch_count,
            ask_user,
            dedupe_key,
            comments,
            attachments,
            events,
        })
    }

    fn load_events(
        tx: &Db<'_>,
        team_id: i64,
        task: Option<&str>,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<Event>> {
        tx.query_map(
            "SELECT e.id, e.task_id, t.identifier, e.event, e.actor, e.data, e.at FROM task_events e JOIN tasks t ON t.id = e.task_id
             WHERE e.team_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR e.task_id = ?2) AND e.id > ?3 ORDER BY e.id LIMIT ?4",
            db_params![team_id, task, after.unwrap_or(0), limit],
            row_event,
        )
    }

    /// Audit events, of one task or the whole board, oldest first: one page (the cursor is the
    /// last event's id).
    pub fn events(&mut self, key: Option<&str>, page: &PageRequest) -> Result<Page<Event>> {
        let after = page.after_id()?;
        let team = self.team.clone();
        let tx = self.read()?;
        let id = match key {
            Some(k) => Some(Self::find(&tx, &team, k)?.id),
            None => None,
        };
        let ev = Self::load_events(&tx, team.id, id.as_deref(), after, page.fetch())?;
        tx.commit()?;
        Ok(Page::cut(ev, page, |e| e.id.to_string()))
    }

    /// Full-text search over subject and description (FTS5, ranked by bm25): one page of the
    /// ranking (the cursor counts the matches before it).
    pub fn search(&mut self, query: &str, page: &PageRequest) -> Result<Page<Task>> {
        // A ranked search pages by rank (an offset): a task added meanwhile can shift a page.
        let skip = match page.after_id()? {
            None => 0,
            Some(n) if (0..=MAX_SEARCH_OFFSET).contains(&n) => n,
            Some(_) => {
                return Err(crate::store::page::invalid(
                    page.cursor.as_deref().unwrap_or(""),
                ));
            }
        };
        // Words split at anything but letters, digits, `-` and `_` (so `foo@bar.com` is three
        // words, as the text it searches is split), each once.
        let mut terms: Vec<String> = Vec::new();
        for w in query
            .split(|c: char| !(crate::text::word_char(c) || c == '-' || c == '_'))
            .filter(|w| !w.is_empty())
        {
            if !terms.iter().any(|t| t == w) {
                terms.push(w.to_string());
            }
        }
        if terms.is_empty() {
            return Err(Error::usage("search needs a query"));
        }
        // Counted as the index splits them (`a-b-c` is three), on both backends alike.
        let parts = terms.iter().flat_map(|w| search_words(w)).count();
        if parts > MAX_SEARCH_WORDS {
            return Err(Error::usage(format!(
                "search takes at most {MAX_SEARCH_WORDS} words ({parts} given)"
            )));
        }
        let team = self.team.clone();
        let tx = self.read()?;
        let columns = COLUMNS
            .split(',')
            .map(|c| format!("t.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        // Every word as a prefix, all of them required; ranked by relevance, then oldest first.
        let (sql_text, query) = match tx.dialect() {
            Dialect::Sqlite => (
                format!(
                    "SELECT {columns} FROM tasks_fts f JOIN tasks t ON t.rowid = f.rowid
                     WHERE tasks_fts MATCH ?1 AND t.team_id = ?2 ORDER BY bm25(tasks_fts), t.rowid LIMIT ?3 OFFSET ?4"
                ),
                terms
                    .iter()
                    .map(|w| format!("\"{w}\"*"))
                    .collect::<Vec<_>>()
                    .join(" AND "),
            ),
            Dialect::Postgres => (
                format!(
                    "SELECT {columns} FROM tasks t
                     WHERE t.search @@ to_tsquery('simple', goclaw_fold(?1)) AND t.team_id = ?2
                     ORDER BY ts_rank(t.search, to_tsquery('simple', goclaw_fold(?1))) DESC, t.created_at, t.task_number
                     LIMIT ?3 OFFSET ?4"
                ),
                // Split as the search column is (at anything not a letter or digit): FTS5 takes
                // a quoted word's parts as a phrase, PostgreSQL here as all required.
                // Accents are folded, then the words lowercased, by the server (as the column's).
                terms
                    .iter()
                    .flat_map(|w| search_words(w))
                    .map(|w| format!("'{w}':*"))
                    .collect::<Vec<_>>()
                    .join(" & "),
            ),
        };
        let mut tasks: Vec<Task> = tx.query_map(
            &sql_text,
            db_params![query, team.id, page.fetch(), skip],
            row_task,
        )?;
        for t in &mut tasks {
            t.blocked_by = Self::blockers(&tx, &t.id)?;
        }
        tx.commit()?;
        let next = skip + page.limit() as i64;
        Ok(Page::cut(tasks, page, |_| next.to_string()))
    }
}

/// The deepest a search pages (its cursor is an offset).
const MAX_SEARCH_OFFSET: i64 = 1_000_000;

fn parse_cursor(c: &str) -> Result<(i64, i64, i64)> {
    let parts: Option<Vec<i64>> = c.split('.').map(|p| p.parse().ok()).collect();
    match parts.as_deref() {
        Some([p, c, n]) => Ok((*p, *c, *n)),
        _ => Err(crate::store::page::invalid(c)),
    }
}

/// A query word's parts as the PostgreSQL index splits its text: at anything that is not a
/// letter, a digit or a combining mark.
fn search_words(w: &str) -> impl Iterator<Item = &str> {
    w.split(|c: char| !crate::text::word_char(c))
        .filter(|p| !p.is_empty())
}

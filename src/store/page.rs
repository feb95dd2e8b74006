//! Pages of a list: every list goclaw prints is `{"items":[…],"next_cursor":…}`. A list that
//! grows with use (runs, sessions, the audit trail, task events …) is read a page at a time with
//! a limit and an opaque cursor: the `next_cursor` of one page asks for the next. Cursors are
//! keysets (the sort key of the last row), so a page costs O(log n + limit) however deep it is,
//! and rows added meanwhile never shift a page. A list of what is configured (agents, tools,
//! servers …) is printed whole, with `next_cursor` null.

use serde::Serialize;

use crate::error::{Error, Result};

/// The rows a page holds when no `--limit` is given.
pub const DEFAULT_LIMIT: usize = 100;
/// The most rows one page holds.
pub const MAX_LIMIT: usize = 1000;

/// One page of a list.
#[derive(Debug, Clone, Serialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Pass it as `--cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// A whole list: there is no next page.
    pub fn whole(items: Vec<T>) -> Self {
        Page {
            items,
            next_cursor: None,
        }
    }

    /// A page from the rows of a query limited to [`PageRequest::fetch`] (one more than the
    /// page holds): when that extra row came back there is a next page, from the last row kept.
    pub fn cut(mut rows: Vec<T>, request: &PageRequest, key: impl Fn(&T) -> String) -> Self {
        let limit = request.limit();
        let next_cursor = if rows.len() > limit {
            rows.truncate(limit);
            rows.last().map(key)
        } else {
            None
        };
        Page {
            items: rows,
            next_cursor,
        }
    }
}

/// What page to read: at most `limit` rows after `cursor` (the first page without one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRequest {
    pub limit: Option<usize>,
    pub cursor: Option<String>,
}

impl PageRequest {
    /// The first page of `limit` rows.
    pub fn first(limit: usize) -> Self {
        PageRequest {
            limit: Some(limit),
            cursor: None,
        }
    }

    /// The rows one page holds: the limit asked for, within 1..=[`MAX_LIMIT`].
    pub fn limit(&self) -> usize {
        self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
    }

    /// The rows to ask the store for: one more than the page holds, to know whether another
    /// page follows.
    pub fn fetch(&self) -> i64 {
        self.limit() as i64 + 1
    }

    /// The row id the page starts after, for a list ordered by an integer id.
    pub fn after_id(&self) -> Result<Option<i64>> {
        self.cursor
            .as_deref()
            .map(|c| {
                c.parse::<i64>()
                    .ok()
                    .filter(|n| n.to_string() == c)
                    .ok_or_else(|| invalid(c))
            })
            .transpose()
    }

    /// The (time, key) the page starts after, for a list ordered by a time and then a text key
    /// (a cursor made by [`time_key`]).
    pub fn after_time_key(&self) -> Result<Option<(i64, String)>> {
        let Some(c) = self.cursor.as_deref() else {
            return Ok(None);
        };
        let (time, key) = c.split_once(':').ok_or_else(|| invalid(c))?;
        let time = time.parse::<i64>().map_err(|_| invalid(c))?;
        Ok(Some((time, key.to_string())))
    }
}

/// The cursor after a row ordered by `time` and then `key`.
pub fn time_key(time: i64, key: &str) -> String {
    format!("{time}:{key}")
}

/// A cursor this list did not make (named, up to 40 characters of it).
pub fn invalid(cursor: &str) -> Error {
    let shown: String = cursor.chars().take(40).collect();
    let more = if shown.len() < cursor.len() {
        "…"
    } else {
        ""
    };
    Error::usage(format!(
        "invalid cursor `{shown}{more}`: pass the next_cursor of a previous page of the same list"
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_page_knows_whether_another_follows() {
        let request = PageRequest::first(2);
        assert_eq!(request.fetch(), 3);
        let page = Page::cut(vec![9, 8, 7], &request, |n| n.to_string());
        assert_eq!(page.items, vec![9, 8]);
        assert_eq!(page.next_cursor.as_deref(), Some("8"));
        let last = Page::cut(vec![9, 8], &request, |n| n.to_string());
        assert_eq!(last.next_cursor, None);
    }

    #[test]
    fn cursors_read_back_and_foreign_ones_are_usage_errors() {
        let r = |c: &str| PageRequest {
            limit: None,
            cursor: Some(c.into()),
        };
        assert_eq!(r("41").after_id().unwrap(), Some(41));
        assert_eq!(
            r(&time_key(17, "run:a")).after_time_key().unwrap(),
            Some((17, "run:a".into()))
        );
        for bad in ["x", "", "1.2"] {
            assert_eq!(r(bad).after_id().unwrap_err().kind.exit_code(), 2, "{bad}");
        }
        assert!(r("nokey").after_time_key().is_err());
        assert_eq!(PageRequest::default().limit(), DEFAULT_LIMIT);
        assert_eq!(PageRequest::first(0).limit(), 1);
        assert_eq!(PageRequest::first(99_999).limit(), MAX_LIMIT);
    }
}

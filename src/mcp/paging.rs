//! A server's paginated lists (tools, resources, prompts) read page by page within bounds.

use rmcp::service::ServiceError;

/// The most items a list (tools, resources, prompts) may hold, over all its pages: rmcp's
/// `list_all_*` followed `nextCursor` for as long as a server gave one, keeping every page
/// (a hostile server's pages of one large tool each took 2.5 GB in 20 s).
pub const LIST_ITEM_LIMIT: usize = 10_000;
/// The most pages a list is read from.
pub const LIST_PAGE_LIMIT: usize = 100;

/// The request params of the page after `cursor`.
pub fn page(cursor: Option<String>) -> Option<rmcp::model::PaginatedRequestParams> {
    Some(rmcp::model::PaginatedRequestParams::default().with_cursor(cursor))
}

/// Every item of a paginated list, page by page, `next` asked for each (with the cursor of the
/// page before); refused past [`LIST_ITEM_LIMIT`] items or [`LIST_PAGE_LIMIT`] pages.
pub async fn paged<T, F, Fut>(mut next: F) -> std::result::Result<Vec<T>, ServiceError>
where
    T: serde::Serialize,
    F: FnMut(Option<String>) -> Fut,
    Fut: std::future::Future<Output = std::result::Result<(Vec<T>, Option<String>), ServiceError>>,
{
    let mut items = Vec::new();
    let mut cursor = None;
    // The whole list holds no more JSON elements than one message may: each page is within
    // them, and a list of many pages was not.
    let mut meter = super::bounded::Meter::new(
        super::bounded::Limits::BODY,
        super::bounded::Oversized::default(),
    );
    for _ in 0..LIST_PAGE_LIMIT {
        let (more, after) = next(cursor).await?;
        let counted = serde_json::to_vec(&more).map_or(true, |json| meter.take(&json).is_ok());
        items.extend(more);
        if items.len() > LIST_ITEM_LIMIT || !counted {
            break;
        }
        match after {
            None => return Ok(items),
            Some(c) => cursor = Some(c),
        }
    }
    Err(ServiceError::McpError(
        rmcp::model::ErrorData::internal_error(
            format!(
                "the list goes on past {LIST_ITEM_LIMIT} items, {LIST_PAGE_LIMIT} pages or {} JSON elements in all: refused",
                super::bounded::MESSAGE_LIMIT_VALUES
            ),
            None,
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_list_is_read_to_its_end_and_no_further_than_its_bounds() {
        // Three pages, then the end.
        let got = paged(|cursor| async move {
            let n: usize = cursor.as_deref().map_or(0, |c| c.parse().unwrap());
            Ok((vec![n], (n < 2).then(|| (n + 1).to_string())))
        })
        .await
        .unwrap();
        assert_eq!(got, vec![0, 1, 2]);
        // A cursor that never ends; pages within a message's elements but not all together.
        let endless = paged(|_| async { Ok((vec![0u8], Some("again".to_string()))) }).await;
        assert!(endless.is_err());
        let heavy = paged(|_| async {
            Ok((
                vec![vec![Vec::<u8>::new(); 60_000]],
                Some("more".to_string()),
            ))
        })
        .await;
        let said = heavy.map(|_| ()).unwrap_err().to_string();
        assert!(said.contains("200000 JSON elements in all"), "{said}");
    }
}

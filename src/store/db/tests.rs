use super::*;

#[test]
fn placeholders_become_dollars_outside_literals() {
    assert_eq!(
        placeholders("SELECT ?1, ?12 FROM t WHERE a = ? AND b = '?' AND \"c?\" = ?"),
        "SELECT $1, $12 FROM t WHERE a = $13 AND b = '?' AND \"c?\" = $14"
    );
    assert_eq!(
        placeholders("-- why?\nSELECT ?2 /* ? */"),
        "-- why?\nSELECT $2 /* ? */"
    );
    assert_eq!(placeholders("SELECT 'it''s ?'"), "SELECT 'it''s ?'");
    assert_eq!(placeholders("VALUES (?, ?)"), "VALUES ($1, $2)");
    // Values a statement leaves unused are left out for PostgreSQL, the rest renumbered.
    let (sql, values) = bind(
        "SET a = ?4 WHERE id = ?1 AND run = ?2",
        vec![Value::Int(1), Value::Int(2), Value::Null, Value::Int(4)],
    );
    assert_eq!(sql, "SET a = $3 WHERE id = $1 AND run = $2");
    assert_eq!(values, vec![Value::Int(1), Value::Int(2), Value::Int(4)]);
    let (sql, values) = bind("SELECT ?1, ?1", vec![Value::Int(7)]);
    assert_eq!(
        (sql.as_str(), values),
        ("SELECT $1, $1", vec![Value::Int(7)])
    );
}

#[test]
fn the_same_calls_read_and_write_sqlite() {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let db = Db::Sqlite(&conn);
    db.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, raw BLOB)")
        .unwrap();
    let tx = db.transaction(Begin::Write).unwrap();
    tx.execute(
        "INSERT INTO t (name, score, raw) VALUES (?1, ?2, ?3)",
        db_params!["ann", 1.5, vec![0u8, 255]],
    )
    .unwrap();
    tx.execute(
        "INSERT INTO t (name) VALUES (?1)",
        db_params![None::<String>],
    )
    .unwrap();
    tx.commit().unwrap();
    {
        let tx = db.transaction(Begin::Write).unwrap();
        tx.execute("DELETE FROM t", db_params![]).unwrap();
    } // rolled back
    let rows = db
        .query_map(
            "SELECT name, score, raw FROM t ORDER BY id",
            db_params![],
            |r| {
                Ok((
                    r.get::<Option<String>>(0)?,
                    r.get::<Option<f64>>(1)?,
                    r.get::<Option<Vec<u8>>>(2)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(
        rows,
        [
            (Some("ann".into()), Some(1.5), Some(vec![0, 255])),
            (None, None, None)
        ]
    );
    let none = db
        .query_opt("SELECT id FROM t WHERE name = ?1", db_params!["bob"], |r| {
            r.get::<i64>(0)
        })
        .unwrap();
    assert_eq!(none, None);
}

//! Memory vectors on a PostgreSQL server that has pgvector (the server pgserver carries, from
//! PyPI, in a cluster of the test's own): taken up when the store's user may create it, or
//! when it is installed later and `db migrate` runs; ranked in the server, with the scores the
//! ranking in goclaw gives; filled from the stored embeddings, and by `db copy`.

use std::process::Output;

use serde_json::Value;

use crate::util::*;

/// A home whose memory is embedded by `llm` (llmock's `/v1/embeddings`).
fn home(llm: &crate::run::Llm) -> TestEnv {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.emb]\nkind = \"openai\"\nbase_url = \"{}/v1\"\n\n[memory]\nembeddings = \"emb\"\n",
            llm.base
        ),
    )
    .unwrap();
    env
}

/// goclaw on database `db` of `cluster` as `user` with `password`.
struct On<'a> {
    env: &'a TestEnv,
    url: String,
    password: &'a str,
}

impl On<'_> {
    fn run(&self, args: &[&str]) -> Output {
        self.env
            .cmd(args)
            .args(["--db", &self.url])
            .env("PGPASSWORD", self.password)
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> Value {
        let o = self.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}{}", stdout(&o), stderr(&o));
        json(&o)
    }

    fn write(&self, path: &str, content: &str) {
        let args = serde_json::json!({ "path": path, "content": content }).to_string();
        let result = self.ok(&["tools", "exec", "write_file", &args]);
        let text = result["result"]["for_llm"].as_str().unwrap_or_default();
        assert!(!text.contains("unavailable"), "{result}");
    }

    /// `memory_search`'s hits: (path, score).
    fn search(&self, query: &str) -> Vec<(String, f64)> {
        let args = serde_json::json!({ "query": query }).to_string();
        let result = self.ok(&["tools", "exec", "memory_search", &args]);
        let text = result["result"]["for_llm"].as_str().unwrap();
        if text.starts_with("No memory results") {
            return Vec::new();
        }
        let found: Value = serde_json::from_str(text).unwrap();
        found["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["path"].as_str().unwrap().to_string(),
                    h["score"].as_f64().unwrap(),
                )
            })
            .collect()
    }
}

fn same_ranking(a: &[(String, f64)], b: &[(String, f64)]) {
    assert_eq!(a.len(), b.len(), "{a:?} / {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.0, y.0, "{a:?} / {b:?}");
        assert!((x.1 - y.1).abs() < 1e-4, "{a:?} / {b:?}");
    }
}

const DOCS: [(&str, &str); 3] = [
    ("MEMORY.md", "The release train leaves on Fridays.\n"),
    ("memory/db.md", "Postgres backups run nightly at two.\n"),
    ("memory/pets.md", "The office ferret is called Nibbles.\n"),
];

#[test]
fn pgvector_ranks_memory_in_the_server_once_the_server_has_it() {
    let Some(llm) = crate::run::llmock() else {
        return;
    };
    let Some(cluster) = PgCluster::start_pgvector() else {
        return;
    };
    cluster.psql("postgres", "CREATE ROLE plain LOGIN PASSWORD 'plain-pw'");
    cluster.psql("postgres", "CREATE DATABASE mem OWNER plain");
    let env = home(&llm);
    let plain = On {
        env: &env,
        url: format!("postgres://plain@127.0.0.1:{}/mem", cluster.port),
        password: "plain-pw",
    };
    // The server offers pgvector, but this user may not create it: the store goes on without
    // it, says why, and ranks in goclaw.
    let migrated = plain.ok(&["db", "migrate"]);
    assert_eq!(migrated["vectors"]["ranking"], "goclaw", "{migrated}");
    let reason = migrated["vectors"]["reason"].as_str().unwrap();
    assert!(
        reason.contains("cannot create") && reason.contains("CREATE EXTENSION vector"),
        "{reason}"
    );
    for (path, content) in DOCS {
        plain.write(path, content);
    }
    let queries = ["release fridays", "nightly backups", "zzqx wvvk"];
    let in_goclaw: Vec<_> = queries.iter().map(|q| plain.search(q)).collect();
    assert!(
        in_goclaw.iter().all(|hits| !hits.is_empty()),
        "{in_goclaw:?}"
    );

    // A superuser installs it; the next `db migrate` takes it up and fills it.
    cluster.psql("mem", "CREATE EXTENSION vector");
    let migrated = plain.ok(&["db", "migrate"]);
    assert_eq!(migrated["vectors"]["ranking"], "pgvector", "{migrated}");
    assert_eq!(migrated["vectors"]["filled"], 3, "{migrated}");
    assert!(
        migrated["vectors"]["version"]
            .as_str()
            .unwrap()
            .starts_with('0')
    );
    let again = plain.ok(&["db", "migrate"]);
    assert_eq!(again["vectors"]["filled"], 0, "{again}");
    // The same hits, the same scores.
    for (q, before) in queries.iter().zip(&in_goclaw) {
        same_ranking(before, &plain.search(q));
    }
    // The server ranks them: with the portable copies gone, the vectors still answer a query
    // no word of which is in memory.
    cluster.psql("mem", "UPDATE memory_chunks SET embedding = NULL");
    same_ranking(&in_goclaw[2], &plain.search("zzqx wvvk"));
    // A write keeps its vector in both places; a rewrite replaces it, a delete drops it.
    plain.write("memory/new.md", "A brand new note.\n");
    plain.write(
        "memory/db.md",
        "Backups moved to three.\nAnd are checked.\n",
    );
    let count = |sql: &str| cluster.psql("mem", sql);
    assert_eq!(count("SELECT count(*) FROM memory_vectors"), "4");
    assert_eq!(
        count("SELECT count(*) FROM memory_chunks WHERE embedding IS NOT NULL"),
        "2"
    );
    let schema = plain.ok(&["db", "schema"]);
    assert!(
        schema.to_string().contains("memory_vectors"),
        "db schema does not show memory_vectors"
    );
}

#[test]
fn a_superuser_store_takes_pgvector_up_and_db_copy_fills_it() {
    let Some(llm) = crate::run::llmock() else {
        return;
    };
    let Some(cluster) = PgCluster::start_pgvector() else {
        return;
    };
    cluster.psql("postgres", "CREATE DATABASE copied");
    let env = home(&llm);
    // A SQLite store with embedded memory.
    for (path, content) in DOCS {
        let args = serde_json::json!({ "path": path, "content": content }).to_string();
        env.ok(&["tools", "exec", "write_file", &args]);
    }
    let local = On {
        env: &env,
        url: env.db().display().to_string(),
        password: "",
    };
    let in_sqlite: Vec<_> = ["release fridays", "zzqx wvvk"]
        .iter()
        .map(|q| local.search(q))
        .collect();
    let url = cluster.url("copied");
    let o = env
        .cmd(&["db", "copy", "--from", &env.db().display().to_string()])
        .args(["--to", &url])
        .env("PGPASSWORD", &cluster.password)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let copied = json(&o);
    let vectors = copied["tables"]
        .as_array()
        .unwrap_or_else(|| panic!("{copied}"))
        .iter()
        .find(|t| t["table"] == "memory_vectors")
        .cloned()
        .unwrap_or_else(|| panic!("memory_vectors not filled: {copied}"));
    assert_eq!(vectors["rows"], 3, "{copied}");
    assert_eq!(
        cluster.psql(
            "copied",
            "SELECT count(*) FROM pg_extension WHERE extname = 'vector'"
        ),
        "1",
        "a superuser's store creates the extension"
    );
    let remote = On {
        env: &env,
        url,
        password: &cluster.password,
    };
    for (q, before) in ["release fridays", "zzqx wvvk"].iter().zip(&in_sqlite) {
        same_ranking(before, &remote.search(q));
    }
}

/// An embeddings endpoint of the test's own whose vectors have `dimensions` dimensions (more
/// than pgvector's 16 000 here), for as long as the test runs.
fn wide_embeddings(dimensions: usize) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let asked: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let n = asked["input"].as_array().map_or(1, Vec::len);
            let data: Vec<Value> = (0..n)
                .map(|i| serde_json::json!({"index": i, "embedding": vec![0.5f32; dimensions]}))
                .collect();
            let doc = serde_json::json!({ "data": data }).to_string();
            let reply = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{doc}",
                doc.len()
            );
            let _ = reader.into_inner().write_all(reply.as_bytes());
        }
    });
    base
}

/// Vectors pgvector cannot hold are kept for the ranking in goclaw, never lose the write; an
/// extension dropped behind goclaw's back leaves the store working, and `db migrate` takes it
/// up again.
#[test]
fn vectors_pgvector_cannot_hold_and_a_dropped_extension_lose_nothing() {
    let Some(llm) = crate::run::llmock() else {
        return;
    };
    let Some(cluster) = PgCluster::start_pgvector() else {
        return;
    };
    cluster.psql("postgres", "CREATE DATABASE wide");
    let wide = wide_embeddings(20_000);
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!("[providers.emb]\nkind = \"openai\"\nbase_url = \"{wide}/v1\"\n\n[memory]\nembeddings = \"emb\"\n"),
    )
    .unwrap();
    let on = On {
        env: &env,
        url: cluster.url("wide"),
        password: &cluster.password,
    };
    on.write("MEMORY.md", "Twenty thousand dimensions.\n");
    let count = |sql: &str| cluster.psql("wide", sql);
    assert_eq!(count("SELECT count(*) FROM memory_vectors"), "0");
    assert_eq!(
        count("SELECT count(*) FROM memory_chunks WHERE embedding IS NOT NULL"),
        "1"
    );
    assert_eq!(on.search("zzqx")[0].0, "MEMORY.md");
    assert_eq!(on.ok(&["db", "migrate"])["vectors"]["filled"], 0);
    // The extension dropped: writes and searches go on, ranked in goclaw.
    std::fs::write(env.home().join("config.toml"), format!(
        "[providers.emb]\nkind = \"openai\"\nbase_url = \"{}/v1\"\n\n[memory]\nembeddings = \"emb\"\n",
        llm.base
    ))
    .unwrap();
    on.write("memory/a.md", "Fridays are for releases.\n");
    let before = on.search("zzqx wvvk");
    cluster.psql("wide", "DROP EXTENSION vector CASCADE");
    on.write("memory/b.md", "Backups at two.\n");
    assert!(!on.search("zzqx wvvk").is_empty());
    let migrated = on.ok(&["db", "migrate"]);
    assert_eq!(migrated["vectors"]["ranking"], "pgvector", "{migrated}");
    assert_eq!(migrated["vectors"]["filled"], 2, "{migrated}");
    let after = on.search("zzqx wvvk");
    assert_eq!(before[0].0, after[0].0, "{before:?} / {after:?}");
}

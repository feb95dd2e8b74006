//! Where the store is: a SQLite file (a path, the embedded default) or a PostgreSQL server (a
//! `postgres://` or `postgresql://` URL), chosen by `--db`, `GOCLAW_DB` or `[store]` alone.
//! A URL's password is never shown: [`PgUrl`] prints it as `***`, and [`PgUrl::scrub`] takes it
//! out of any message. The password comes, in this order, from the URL, from the variable
//! `[store] password_env` names, from `PGPASSWORD`, then from `~/.pgpass` (or `PGPASSFILE`),
//! as libpq reads them.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The store a command opens.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(PgUrl),
}

impl Location {
    /// A `--db` value: a PostgreSQL URL, or else a path.
    pub fn parse(text: &str) -> Result<Location> {
        if is_url(text) {
            PgUrl::parse(text).map(Location::Postgres)
        } else {
            Ok(Location::Sqlite(PathBuf::from(text)))
        }
    }

    /// The SQLite file, when the store is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(p) => Some(p),
            Location::Postgres(_) => None,
        }
    }
}

/// A store text that looks like a URL but names no backend goclaw has (`postgress://…`,
/// `mysql://…`): refused, with any password hidden, rather than taken for a file name.
pub fn refuse_other_url(text: &str) -> Result<()> {
    if is_url(text) {
        return Ok(());
    }
    if text.contains("password=") {
        return Err(Error::usage(
            "the store is a connection string; goclaw takes a postgres:// URL (its password is not shown)",
        )
        .with_hint("postgres://USER@HOST[:PORT]/DATABASE, the password in PGPASSWORD"));
    }
    match text.split_once("://") {
        Some((scheme, _))
            if !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            Err(Error::usage(format!(
                "the store {} is a URL goclaw cannot open",
                redact_text(text)
            ))
            .with_hint("a path for SQLite, or postgres://USER@HOST[:PORT]/DATABASE"))
        }
        _ => Ok(()),
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(u) => write!(f, "{u}"),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Whether `text` names a PostgreSQL server rather than a file.
pub fn is_url(text: &str) -> bool {
    let scheme = |s: &str| {
        text.get(..s.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(s))
    };
    scheme("postgres://") || scheme("postgresql://")
}

/// A PostgreSQL URL. Displayed and debugged with its password as `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct PgUrl {
    url: url::Url,
}

impl PgUrl {
    pub fn parse(text: &str) -> Result<PgUrl> {
        let url = url::Url::parse(text).map_err(|e| {
            Error::usage(format!(
                "the store URL {} is not a URL: {e}",
                redact_text(text)
            ))
            .with_hint("postgres://USER@HOST[:PORT]/DATABASE, the password in PGPASSWORD")
        })?;
        if !url.has_host() || url.host_str().is_some_and(str::is_empty) {
            // postgres:///db (a Unix socket in the default directory) is libpq's, and ours.
            if !text.contains(":///") {
                return Err(Error::usage(format!(
                    "the store URL {} names no server",
                    redact_text(text)
                )));
            }
        }
        let pg = PgUrl { url };
        if pg.database().is_none() && !pg.url.query_pairs().any(|(k, _)| k == "dbname") {
            // libpq would take the user's name for it: goclaw's tables would land in whatever
            // database that is (often the server's own `postgres`).
            return Err(
                Error::usage(format!("the store URL {pg} names no database"))
                    .with_hint("postgres://USER@HOST[:PORT]/DATABASE"),
            );
        }
        if let Err(why) = super::db::tls::Mode::parse(pg.param("sslmode").as_deref()) {
            return Err(Error::usage(format!("the store URL {pg}: {why}")));
        }
        Ok(pg)
    }

    /// One parameter of the URL's query (`?sslmode=require`).
    pub fn param(&self, name: &str) -> Option<String> {
        self.url
            .query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    }

    /// The TLS the URL asks for (`sslmode`; checked when the URL was parsed).
    pub fn tls_mode(&self) -> super::db::tls::Mode {
        super::db::tls::Mode::parse(self.param("sslmode").as_deref())
            .unwrap_or(super::db::tls::Mode::Plain)
    }

    /// The URL as the client library takes it, without what goclaw's TLS reads itself
    /// (`sslmode`, `sslrootcert`): the password is in it, so never print it.
    pub fn client_text(&self) -> String {
        let mut url = self.url.clone();
        let kept: Vec<(String, String)> = self
            .url
            .query_pairs()
            .filter(|(k, _)| k != "sslmode" && k != "sslrootcert")
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if kept.is_empty() {
            url.set_query(None);
        } else {
            url.query_pairs_mut().clear().extend_pairs(kept);
            // The client library decodes %20 but not the form encoding's `+` for a space
            // (`options=-c statement_timeout=5000`); a literal `+` is %2B already.
            let query = url.query().map(|q| q.replace('+', "%20"));
            url.set_query(query.as_deref());
        }
        url.into()
    }

    /// The URL as the client library takes it, password included: never print it.
    pub fn secret_text(&self) -> &str {
        self.url.as_str()
    }

    /// The password in the URL itself (`user:PASSWORD@` or `?password=`), decoded.
    pub fn password(&self) -> Option<String> {
        self.url.password().map(decode).or_else(|| {
            self.url
                .query_pairs()
                .find(|(k, _)| k == "password")
                .map(|(_, v)| v.into_owned())
        })
    }

    pub fn user(&self) -> Option<String> {
        Some(decode(self.url.username())).filter(|u| !u.is_empty())
    }

    pub fn host(&self) -> Option<&str> {
        self.url.host_str().filter(|h| !h.is_empty())
    }

    pub fn port(&self) -> Option<u16> {
        self.url.port()
    }

    pub fn database(&self) -> Option<String> {
        Some(decode(self.url.path().trim_start_matches('/'))).filter(|d| !d.is_empty())
    }

    /// `message` without the password, however it was spelled in it.
    pub fn scrub(&self, message: &str, password: Option<&str>) -> String {
        let mut out = message.to_string();
        let in_query = self
            .url
            .query()
            .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("password=")))
            .map(str::to_string);
        for secret in [
            self.url.password().map(str::to_string),
            self.password(),
            in_query,
        ]
        .into_iter()
        .flatten()
        .chain(password.map(str::to_string))
        .filter(|s| !s.is_empty())
        {
            out = out.replace(&secret, "***");
        }
        out
    }
}

impl fmt::Display for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = self.url.clone();
        if shown.password().is_some() {
            let _ = shown.set_password(Some("***"));
        }
        if shown.query_pairs().any(|(k, _)| k == "password") {
            let pairs: Vec<(String, String)> = shown
                .query_pairs()
                .map(|(k, v)| {
                    let v = if k == "password" {
                        "***".into()
                    } else {
                        v.into_owned()
                    };
                    (k.into_owned(), v)
                })
                .collect();
            shown.query_pairs_mut().clear().extend_pairs(pairs);
        }
        f.write_str(&shown.as_str().replace("%2A%2A%2A", "***"))
    }
}

/// Serialized as shown: without the password.
impl serde::Serialize for PgUrl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

fn decode(text: &str) -> String {
    percent_decode(text)
}

/// `%XX` escapes decoded; an invalid escape is kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A URL that did not parse, with whatever stands between `://user:` and `@` hidden.
fn redact_text(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let Some(at) = rest.rfind('@') else {
        return text.to_string();
    };
    let (userinfo, host) = rest.split_at(at);
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{host}"),
        None => text.to_string(),
    }
}

/// The password for `url`: the URL's own, then `$password_env`, `PGPASSWORD`, then the first
/// matching line of the password file (`PGPASSFILE` or `~/.pgpass`, read only when it is
/// private to its owner, as libpq does).
pub fn password(url: &PgUrl, password_env: Option<&str>) -> Option<String> {
    if let Some(p) = url.password() {
        return Some(p);
    }
    let from_env = |name: &str| std::env::var(name).ok().filter(|p| !p.is_empty());
    if let Some(p) = password_env.and_then(from_env) {
        return Some(p);
    }
    if let Some(p) = from_env("PGPASSWORD") {
        return Some(p);
    }
    pgpass_lookup(&password_file()?, url)
}

/// Where libpq (and goclaw) look for passwords: `PGPASSFILE`, else `~/.pgpass`.
pub fn password_file() -> Option<PathBuf> {
    std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pgpass")))
}

/// The password file, when it is there but ignored for being readable by others (libpq warns
/// of it; a password it held was otherwise missed without a word).
pub fn ignored_password_file() -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let file = password_file()?;
    let meta = std::fs::metadata(&file).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o077 != 0).then_some(file)
}

fn pgpass_lookup(file: &Path, url: &PgUrl) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
        return None;
    }
    let opened = std::fs::File::open(file).ok()?;
    let text = crate::host::read_at_most(opened, 1 << 20).ok()??;
    let text = String::from_utf8_lossy(&text);
    let host = url.host().unwrap_or("localhost").to_string();
    let port = url.port().unwrap_or(5432).to_string();
    let user = url
        .user()
        .or_else(|| std::env::var("PGUSER").ok())
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_default();
    let database = url.database().unwrap_or_else(|| user.clone());
    let wanted = [host.as_str(), &port, &database, &user];
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|line| {
            let fields = pgpass_fields(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let matches = [h, p, d, u]
                .iter()
                .zip(wanted)
                .all(|(field, want)| field.as_str() == "*" || field.as_str() == want);
            matches.then(|| password.clone())
        })
}

/// A `.pgpass` line's five fields: `:` separates them, `\:` and `\\` are escapes.
fn pgpass_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next()
                    && let Some(last) = fields.last_mut()
                {
                    last.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(last) = fields.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_postgres_and_anything_else_a_path() {
        assert!(matches!(
            Location::parse("postgres://u@h/db").unwrap(),
            Location::Postgres(_)
        ));
        assert!(matches!(
            Location::parse("postgresql:///db").unwrap(),
            Location::Postgres(_)
        ));
        assert_eq!(
            Location::parse("./postgres.db").unwrap(),
            Location::Sqlite(PathBuf::from("./postgres.db"))
        );
        assert!(Location::parse("postgres://u@/").is_err());
    }

    #[test]
    fn the_client_gets_options_with_their_spaces() {
        let url = PgUrl::parse(
            "postgres://u@h/db?options=-c%20statement_timeout%3D5000&sslmode=require&x=a%2Bb",
        )
        .unwrap();
        assert_eq!(
            url.client_text(),
            "postgres://u@h/db?options=-c%20statement_timeout%3D5000&x=a%2Bb"
        );
    }

    #[test]
    fn the_password_is_never_shown() {
        let url = PgUrl::parse("postgres://ann:s%3Acr%40t@db.example:5433/goclaw").unwrap();
        assert_eq!(url.to_string(), "postgres://ann:***@db.example:5433/goclaw");
        assert_eq!(format!("{url:?}"), url.to_string());
        assert_eq!(url.password().as_deref(), Some("s:cr@t"));
        assert_eq!(url.user().as_deref(), Some("ann"));
        assert_eq!(url.database().as_deref(), Some("goclaw"));
        assert_eq!(url.port(), Some(5433));
        let said = url.scrub("auth failed for s:cr@t (s%3Acr%40t)", None);
        assert!(!said.contains("cr@t") && !said.contains("cr%40t"), "{said}");
        let bad = Location::parse("postgres://ann:hunter2@[::1/db").unwrap_err();
        assert!(!bad.to_string().contains("hunter2"), "{bad}");
        let query = PgUrl::parse("postgres://ann@h/db?password=hunter2&sslmode=disable").unwrap();
        assert_eq!(query.password().as_deref(), Some("hunter2"));
        assert_eq!(
            query.to_string(),
            "postgres://ann@h/db?password=***&sslmode=disable"
        );
        assert!(!query.scrub("said hunter2", None).contains("hunter2"));
        assert!(is_url("POSTGRES://ann@h/db") && is_url("PostgreSQL://h/db"));
        let typo = refuse_other_url("postgress://ann:hunter2@h/db").unwrap_err();
        assert!(!typo.to_string().contains("hunter2"), "{typo}");
        assert!(refuse_other_url("./my://odd").is_ok() && refuse_other_url("a/b.db").is_ok());
        let keywords = refuse_other_url("host=h user=u password=hunter2").unwrap_err();
        assert!(!keywords.to_string().contains("hunter2"), "{keywords}");
    }

    #[test]
    fn pgpass_lines_match_field_by_field_with_wildcards_and_escapes() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(
            &file,
            "# comment\nother:5432:*:ann:no\ndb.example:*:goclaw:ann:pa\\:ss\\\\word\n*:*:*:*:any\n",
        )
        .unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let url = |u: &str| PgUrl::parse(u).unwrap();
        assert_eq!(
            pgpass_lookup(&file, &url("postgres://ann@db.example/goclaw")).as_deref(),
            Some("pa:ss\\word")
        );
        assert_eq!(
            pgpass_lookup(&file, &url("postgres://bob@elsewhere/x")).as_deref(),
            Some("any")
        );
        // Readable by others: ignored, as libpq ignores it.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(
            pgpass_lookup(&file, &url("postgres://ann@db.example/goclaw")),
            None
        );
    }
}

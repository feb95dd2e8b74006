//! Cron (§14): jobs kept in the store — an agent run (message, agent, session) or one tool
//! call — on an `at`, `every` or `cron` schedule (5-field expressions with an IANA time zone,
//! through croner), and the bookkeeping of their runs.
//!
//! Safety rules: a job carries `allowed_tools`, its creator's final tool list when it was
//! created, and runs with that list as a ceiling over whatever policy applies then, so it can
//! never do more than its creator could. Claiming a due job advances `next_run_ms` and takes a
//! lease in one guarded UPDATE, so two overlapping `goclaw cron tick` processes never run it
//! twice, and a job still running is not started again. A run that fails is recorded as failed
//! with its error. A tick that dies mid-run leaves its lease and its run row `running`: the next
//! tick on the same machine frees them at once when the tick's process is gone (the lease names
//! its host and pid); any tick frees them once the lease has expired. The run is then failed
//! ("abandoned").

use std::str::FromStr;

use crate::db_params;
use crate::store::db::{Begin, Db, Row};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::store::now_ms;
use crate::store::page::{Page, PageRequest};

/// When a job runs (§14's shapes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Schedule {
    // snake_case like every key goclaw prints; the original's camelCase is read too (jobs
    // stored before, and what a model copies from the original's schema).
    At {
        #[serde(alias = "atMs")]
        at_ms: i64,
    },
    Every {
        #[serde(alias = "everyMs")]
        every_ms: i64,
    },
    Cron {
        expr: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tz: Option<String>,
    },
}

/// Shortest `every` interval.
pub const MIN_EVERY_MS: i64 = 1_000;

impl Schedule {
    /// Reads a schedule object, with §14's messages.
    pub fn parse(v: &Value, now: i64) -> std::result::Result<Schedule, String> {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        // The original's camelCase name, or goclaw's snake_case one.
        let millis = |field: &str| {
            let snake = if field == "atMs" { "at_ms" } else { "every_ms" };
            v.get(field)
                .or_else(|| v.get(snake))
                .and_then(Value::as_f64)
                .map(|n| n as i64)
                .ok_or(format!("job.schedule.{field} is required"))
        };
        let s = match kind {
            "at" => {
                let at = millis("atMs")?;
                if at <= now {
                    return Err(format!(
                        "job.schedule.atMs is in the past ({at}). Use a future Unix timestamp in milliseconds. Current time is {now} ms"
                    ));
                }
                Schedule::At { at_ms: at }
            }
            "every" => {
                let every = millis("everyMs")?;
                if every < MIN_EVERY_MS {
                    return Err(format!(
                        "job.schedule.everyMs must be at least {MIN_EVERY_MS}"
                    ));
                }
                Schedule::Every { every_ms: every }
            }
            "cron" => {
                let expr = v
                    .get("expr")
                    .and_then(Value::as_str)
                    .filter(|e| !e.trim().is_empty())
                    .ok_or("job.schedule.expr is required")?
                    .trim()
                    .to_string();
                let tz = v
                    .get("tz")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                    .map(str::to_string);
                let s = Schedule::Cron { expr, tz };
                s.next_after(now)?;
                s
            }
            other => {
                return Err(format!(
                    "invalid schedule kind: {other} (must be at, every, or cron)"
                ));
            }
        };
        Ok(s)
    }

    /// The first run time strictly after `after` (ms); `Ok(None)` when there is none (a past
    /// `at`).
    pub fn next_after(&self, after: i64) -> std::result::Result<Option<i64>, String> {
        match self {
            Schedule::At { at_ms } => Ok((*at_ms > after).then_some(*at_ms)),
            Schedule::Every { every_ms } => Ok(Some(after + every_ms)),
            Schedule::Cron { expr, tz } => {
                let cron = croner::Cron::from_str(expr)
                    .map_err(|e| format!("invalid cron expression {expr:?}: {e}"))?;
                let zone = match tz {
                    None => jiff::tz::TimeZone::UTC,
                    Some(t) => crate::host::time_zone(t)?,
                };
                let start = jiff::Timestamp::from_millisecond(after)
                    .map_err(|_| "time out of range")?
                    .to_zoned(zone);
                cron.find_next_occurrence(&start, false)
                    .map(|t| Some(t.timestamp().as_millisecond()))
                    .map_err(|e| format!("cron expression {expr:?}: {e}"))
            }
        }
    }

    /// For the next run after a run that was due at `due`, at `now`: an `every` job keeps its
    /// rhythm (the next multiple after now); the others take their next time after now.
    pub fn following(&self, due: i64, now: i64) -> std::result::Result<Option<i64>, String> {
        match self {
            Schedule::Every { every_ms } => {
                let missed = (now - due).max(0) / every_ms + 1;
                Ok(Some(due + missed * every_ms))
            }
            other => other.next_after(now),
        }
    }
}

/// What a job does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Payload {
    /// A tool call through the gate.
    Tool { tool: String, args: Value },
    /// An agent run with this message.
    Run { message: String },
}

/// A job as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Job {
    pub id: i64,
    pub name: String,
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session: Option<String>,
    pub schedule: Schedule,
    pub payload: Payload,
    pub allowed_tools: Vec<String>,
    pub created_by: String,
    pub enabled: bool,
    pub delete_after_run: bool,
    pub next_run_ms: Option<i64>,
    pub last_run_ms: Option<i64>,
    pub last_status: Option<String>,
    pub last_error: Option<String>,
    /// The channel its result is delivered to (`[channels.NAME]`).
    pub deliver: Option<String>,
}

impl Job {
    /// Whether the caller (agent, user) owns this job: the agent must match, and the user too
    /// when the job has one.
    pub fn owned_by(&self, agent: Option<&str>, user: Option<&str>) -> bool {
        self.agent.as_deref() == agent && (self.user.is_none() || self.user.as_deref() == user)
    }
}

/// `goclaw` itself as a child process on the same store, workspace and config file (a cron
/// job's agent run, a background tick): the child never resolves them differently.
pub fn goclaw_child(
    store: &crate::store::StoreTarget,
    workspace: &std::path::Path,
    config: Option<&std::path::Path>,
) -> std::io::Result<std::process::Command> {
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    match store {
        crate::store::StoreTarget::Sqlite { path, .. } => {
            cmd.arg("--db").arg(path).env_remove("GOCLAW_DB");
        }
        // The URL goes in the child's environment, never on its command line (which `ps`
        // shows everyone): it may hold the password.
        crate::store::StoreTarget::Postgres(target) => {
            cmd.env("GOCLAW_DB", target.url.secret_text());
        }
    }
    cmd.arg("--workspace").arg(workspace);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    // The child is told who it runs as by its flags, never by the caller's environment.
    cmd.stdin(std::process::Stdio::null())
        .env_remove("GOCLAW_AGENT")
        .env_remove("GOCLAW_SESSION");
    Ok(cmd)
}

/// A new job.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub name: String,
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session: Option<String>,
    pub schedule: Schedule,
    pub payload: Payload,
    pub allowed_tools: Vec<String>,
    pub created_by: String,
    pub delete_after_run: bool,
    /// The channel its result goes to.
    pub deliver: Option<String>,
}

const COLUMNS: &str = "id, name, agent, \"user\", session, schedule, payload, allowed_tools, created_by, enabled, delete_after_run, next_run_ms, last_run_ms, last_status, last_error, deliver";

fn opt(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

fn job_row(r: &Row) -> Result<Job> {
    let parse = |i: usize| -> Result<Value> {
        serde_json::from_str(&r.get::<String>(i)?)
            .map_err(|e| Error::internal(format!("store: cron job column {i}: {e}")))
    };
    let bad = |i: usize, e: serde_json::Error| {
        Error::internal(format!("store: cron job column {i}: {e}"))
    };
    Ok(Job {
        id: r.get(0)?,
        name: r.get(1)?,
        agent: opt(r.get(2)?),
        user: opt(r.get(3)?),
        session: opt(r.get(4)?),
        schedule: serde_json::from_value(parse(5)?).map_err(|e| bad(5, e))?,
        payload: serde_json::from_value(parse(6)?).map_err(|e| bad(6, e))?,
        allowed_tools: serde_json::from_value(parse(7)?).map_err(|e| bad(7, e))?,
        created_by: r.get(8)?,
        enabled: r.get(9)?,
        delete_after_run: r.get(10)?,
        next_run_ms: r.get(11)?,
        last_run_ms: r.get(12)?,
        last_status: r.get(13)?,
        last_error: r.get(14)?,
        deliver: opt(r.get(15)?),
    })
}

/// Stores a new job (due first at its schedule's next time); a name is unique per agent, not
/// empty, and not a number (a number names a job by its id: `cron rm 1` removed job 1, not the
/// job named `1`).
pub fn add(db: Db<'_>, j: &NewJob) -> Result<Job> {
    if j.name.trim().is_empty() {
        return Err(Error::usage("a cron job needs a name"));
    }
    if j.name.trim().parse::<i64>().is_ok() {
        return Err(Error::usage(format!(
            "a cron job's name cannot be a number (`{}`): a number names a job by its id",
            j.name
        )));
    }
    let now = now_ms();
    let next = j.schedule.next_after(now).map_err(Error::usage)?;
    let inserted: Option<i64> = db.query_opt(
        "INSERT INTO cron_jobs (name, agent, \"user\", session, schedule, payload, allowed_tools,
             created_by, delete_after_run, next_run_ms, created_at, updated_at, deliver)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12)
         ON CONFLICT (agent, name) DO NOTHING RETURNING id",
        db_params![
            j.name,
            j.agent.clone().unwrap_or_default(),
            j.user.clone().unwrap_or_default(),
            j.session.clone().unwrap_or_default(),
            json!(j.schedule).to_string(),
            json!(j.payload).to_string(),
            json!(j.allowed_tools).to_string(),
            j.created_by,
            j.delete_after_run,
            next,
            now,
            j.deliver.clone().unwrap_or_default()
        ],
        |r| r.get(0),
    )?;
    match inserted {
        Some(id) => get(db, id),
        None => Err(Error::conflict(format!(
            "a cron job named {} already exists{}",
            j.name,
            j.agent
                .as_ref()
                .map(|a| format!(" for agent {a}"))
                .unwrap_or_default()
        ))),
    }
}

/// One job by id.
pub fn get(db: Db<'_>, id: i64) -> Result<Job> {
    db.query_opt(
        &format!("SELECT {COLUMNS} FROM cron_jobs WHERE id = ?1"),
        db_params![id],
        job_row,
    )?
    .ok_or_else(|| Error::not_found(format!("job {id} not found")))
}

/// A job by id or by name (`agent`'s own first).
pub fn find(db: Db<'_>, key: &str, agent: Option<&str>) -> Result<Job> {
    if let Ok(id) = key.parse::<i64>() {
        return get(db, id);
    }
    db.query_opt(
        &format!(
            "SELECT {COLUMNS} FROM cron_jobs WHERE name = ?1 AND (agent = ?2 OR ?2 = '')
             ORDER BY agent = ?2 DESC LIMIT 1"
        ),
        db_params![key, agent.unwrap_or("")],
        job_row,
    )?
    .ok_or_else(|| Error::not_found(format!("job {key} not found")))
}

/// Jobs, optionally only `agent`'s, by next run time.
pub fn list(db: Db<'_>, agent: Option<&str>) -> Result<Vec<Job>> {
    db.query_map(
        &format!(
            "SELECT {COLUMNS} FROM cron_jobs WHERE CAST(?1 AS TEXT) IS NULL OR agent = ?1
             ORDER BY next_run_ms IS NULL, next_run_ms, id"
        ),
        db_params![agent],
        job_row,
    )
}

/// Removes a job and its runs; false when there was none.
pub fn remove(db: Db<'_>, id: i64) -> Result<bool> {
    Ok(db.execute("DELETE FROM cron_jobs WHERE id = ?1", db_params![id])? > 0)
}

/// Makes a job due now (and on), for a tick to take.
pub fn make_due(db: Db<'_>, id: i64) -> Result<()> {
    db.execute(
        "UPDATE cron_jobs SET next_run_ms = ?2, enabled = 1 WHERE id = ?1",
        db_params![id, now_ms()],
    )?;
    Ok(())
}

/// Turns a job on (due again at its next time) or off.
pub fn set_enabled(db: Db<'_>, job: &Job, on: bool) -> Result<()> {
    let now = now_ms();
    let next = if on {
        job.schedule.next_after(now).map_err(Error::usage)?
    } else {
        job.next_run_ms
    };
    db.execute(
        "UPDATE cron_jobs SET enabled = ?2, next_run_ms = ?3, updated_at = ?4 WHERE id = ?1",
        db_params![job.id, on, next, now],
    )?;
    Ok(())
}

/// Changes a job's schedule, payload or session.
pub fn update(
    db: Db<'_>,
    id: i64,
    schedule: Option<&Schedule>,
    payload: Option<&Payload>,
    session: Option<&str>,
) -> Result<Job> {
    let now = now_ms();
    if let Some(s) = schedule {
        let next = s.next_after(now).map_err(Error::usage)?;
        db.execute(
            "UPDATE cron_jobs SET schedule = ?2, next_run_ms = ?3, updated_at = ?4 WHERE id = ?1",
            db_params![id, json!(s).to_string(), next, now],
        )?;
    }
    if let Some(p) = payload {
        db.execute(
            "UPDATE cron_jobs SET payload = ?2, updated_at = ?3 WHERE id = ?1",
            db_params![id, json!(p).to_string(), now],
        )?;
    }
    if let Some(s) = session {
        db.execute(
            "UPDATE cron_jobs SET session = ?2, updated_at = ?3 WHERE id = ?1",
            db_params![id, s, now],
        )?;
    }
    get(db, id)
}

/// A claimed job: run it, then [`finish`].
#[derive(Debug, Clone)]
pub struct Claim {
    pub job: Job,
    pub run_row: i64,
    /// The tick's name the lease is held under.
    pub runner: String,
}

/// Ids of the jobs due at `now` whose lease is free.
pub fn due(db: Db<'_>, now: i64) -> Result<Vec<i64>> {
    db.query_map(
        "SELECT id FROM cron_jobs WHERE enabled = 1 AND next_run_ms IS NOT NULL
           AND next_run_ms <= ?1 AND (lease_until_ms IS NULL OR lease_until_ms < ?1)
         ORDER BY next_run_ms, id",
        db_params![now],
        |r| r.get(0),
    )
}

/// Claims job `id` for `runner` when it is still due and free (one guarded UPDATE: the
/// schedule moves on and the lease is taken together, so of two ticks on two machines one
/// gets it), and opens its run row. `None`: another tick has it, or it is no longer due.
/// `force` runs it now whatever its schedule (the lease still holds).
pub fn claim(
    db: Db<'_>,
    id: i64,
    runner: &str,
    lease_ms: i64,
    force: bool,
) -> Result<Option<Claim>> {
    let tx = db.transaction(Begin::Write)?;
    let now = now_ms();
    let job = match tx.query_opt(
        &format!("SELECT {COLUMNS} FROM cron_jobs WHERE id = ?1"),
        db_params![id],
        job_row,
    )? {
        Some(j) => j,
        None => return Ok(None),
    };
    let due_at = job.next_run_ms.unwrap_or(now);
    // A forced run of a job not yet due leaves its schedule alone; a due one moves on.
    let next = if force && job.next_run_ms.is_some_and(|n| n > now) {
        job.next_run_ms
    } else {
        job.schedule.following(due_at, now).unwrap_or(None)
    };
    let changed = tx.execute(
        "UPDATE cron_jobs SET next_run_ms = ?2, lease_owner = ?3, lease_until_ms = ?4
         WHERE id = ?1 AND (lease_until_ms IS NULL OR lease_until_ms < ?5)
           AND (?6 OR (enabled = 1 AND next_run_ms IS NOT NULL AND next_run_ms <= ?5))",
        db_params![id, next, runner, now + lease_ms, now, force],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    let run_row: i64 = tx.query_row(
        "INSERT INTO cron_runs (job_id, started_at, status, runner) VALUES (?1, ?2, 'running', ?3)
         RETURNING id",
        db_params![id, now, runner],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(Some(Claim {
        job,
        run_row,
        runner: runner.to_string(),
    }))
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    pub ok: bool,
    pub error: Option<String>,
    pub output: Option<String>,
    pub run_id: Option<String>,
}

/// Records the end of a claimed run and frees the lease; a one-shot `at` job is turned off
/// (or deleted with `delete_after_run`) after it ran.
pub fn finish(db: Db<'_>, claim: &Claim, end: &Ending) -> Result<()> {
    let now = now_ms();
    let status = if end.ok { "ok" } else { "failed" };
    let cut = |s: &Option<String>| s.as_ref().map(|t| t.chars().take(4000).collect::<String>());
    db.execute(
        "UPDATE cron_runs SET finished_at = ?2, status = ?3, error = ?4, output = ?5, run_id = ?6
         WHERE id = ?1",
        db_params![
            claim.run_row,
            now,
            status,
            cut(&end.error),
            cut(&end.output),
            end.run_id
        ],
    )?;
    let one_shot = matches!(claim.job.schedule, Schedule::At { .. });
    // The lease is freed only while it is still this tick's: one that expired under a long
    // run may be another tick's now, which is running the job again.
    if one_shot && claim.job.delete_after_run && end.ok {
        db.execute(
            "DELETE FROM cron_jobs WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?2)",
            db_params![claim.job.id, claim.runner],
        )?;
        return Ok(());
    }
    db.execute(
        "UPDATE cron_jobs SET last_run_ms = ?2, last_status = ?3, last_error = ?4,
             lease_until_ms = CASE WHEN lease_owner = ?6 THEN NULL ELSE lease_until_ms END,
             lease_owner = CASE WHEN lease_owner = ?6 THEN NULL ELSE lease_owner END,
             updated_at = ?2,
             enabled = CASE WHEN ?5 THEN 0 ELSE enabled END,
             next_run_ms = CASE WHEN ?5 THEN NULL ELSE next_run_ms END
         WHERE id = ?1",
        db_params![
            claim.job.id,
            now,
            status,
            cut(&end.error),
            one_shot,
            claim.runner
        ],
    )?;
    Ok(())
}

/// The name a tick holds its leases under: `tick:PLACE:PID.START:UNIQUE`, PLACE being its host
/// and pid namespace ([`crate::host::pid_place`]) and START when its process started
/// ([`crate::host::process_start`]), so a tick that sees the same pids can tell when the
/// process holding a lease is gone, even when its pid went to another process.
pub fn runner_name() -> String {
    let start = crate::host::own_start().map_or(String::new(), |s| format!(".{s}"));
    format!(
        "tick:{}:{}{start}:{}",
        crate::host::pid_place(),
        std::process::id(),
        uuid::Uuid::now_v7().simple()
    )
}

/// A tick's process as its runner name gives it: its place, pid and start (`None` in the
/// `tick:PLACE:PID:UNIQUE` of older ticks).
type RunnerProcess<'a> = (&'a str, i64, Option<i64>);

/// The process in a runner's name (`None` for a name of another shape, such as the
/// `tick:PID:UNIQUE` of older ticks, which named no place).
fn runner_process(runner: &str) -> Option<RunnerProcess<'_>> {
    let number = |s: &str| -> Option<i64> {
        let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        s.parse().ok().filter(|_| digits)
    };
    let rest = runner.strip_prefix("tick:")?;
    let (rest, _unique) = rest.rsplit_once(':')?;
    let (place, process) = rest.rsplit_once(':')?;
    let (pid, start) = match process.split_once('.') {
        Some((pid, start)) => (number(pid)?, Some(number(start)?)),
        None => (number(process)?, None),
    };
    (pid > 1 && place.contains('#')).then_some((place, pid, start))
}

/// Frees the leases held by ticks of this host whose process is gone (killed, or stopped by a
/// second Ctrl-C before it could record its job), and fails their runs; returns how many.
/// A pid that exists may be a reused one: its lease then waits for its expiry, as another
/// host's does.
fn release_dead_leases(db: Db<'_>, now: i64) -> Result<usize> {
    let held: Vec<(i64, String)> = db.query_map(
        "SELECT id, lease_owner FROM cron_jobs
         WHERE lease_until_ms >= ?1 AND lease_owner IS NOT NULL",
        db_params![now],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let here = crate::host::pid_place();
    let mut freed = 0;
    for (job, owner) in held {
        let Some((place, pid, start)) = runner_process(&owner) else {
            continue;
        };
        if place != here || crate::host::is_running(pid, start) {
            continue;
        }
        let why = format!("abandoned: the tick running it (pid {pid}) ended before the job did");
        let tx = db.transaction(Begin::Write)?;
        let taken = tx.execute(
            "UPDATE cron_jobs SET lease_owner = NULL, lease_until_ms = NULL,
                 last_status = 'failed', last_error = ?3, last_run_ms = ?4
             WHERE id = ?1 AND lease_owner = ?2",
            db_params![job, owner, why, now],
        )?;
        if taken > 0 {
            tx.execute(
                "UPDATE cron_runs SET status = 'failed', finished_at = ?3, error = ?4
                 WHERE job_id = ?1 AND runner = ?2 AND status = 'running'",
                db_params![job, owner, now, why],
            )?;
        }
        tx.commit()?;
        freed += taken as usize;
    }
    Ok(freed)
}

/// Why a run left `running` by a tick that died failed.
const ABANDONED: &str = "abandoned: the tick running it ended before the job did";

/// Run rows left `running` by a tick that died become failed: at once when it was a tick of
/// this host whose process is gone, otherwise once its lease has expired.
pub fn reap(db: Db<'_>) -> Result<usize> {
    let now = now_ms();
    let freed = release_dead_leases(db, now)?;
    db.execute(
        "UPDATE cron_jobs SET last_status = 'failed', last_run_ms = ?1, last_error = ?2
         WHERE (lease_until_ms IS NULL OR lease_until_ms < ?1)
           AND id IN (SELECT job_id FROM cron_runs WHERE status = 'running')",
        db_params![now, ABANDONED],
    )?;
    db.execute(
        "UPDATE cron_runs SET status = 'failed', finished_at = ?1, error = ?2
         WHERE status = 'running' AND job_id IN (
             SELECT id FROM cron_jobs WHERE lease_until_ms IS NULL OR lease_until_ms < ?1)",
        db_params![now, ABANDONED],
    )
    .map(|n| n as usize + freed)
}

/// A run as listed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Run {
    pub id: i64,
    pub job_id: i64,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub status: String,
    pub error: Option<String>,
    pub output: Option<String>,
    pub run_id: Option<String>,
    pub runner: String,
}

/// One page of the runs (of one job, or all), newest first (the cursor is the last run's id).
pub fn runs(db: Db<'_>, job: Option<i64>, page: &PageRequest) -> Result<Page<Run>> {
    let filter = if job.is_some() {
        "job_id = ?1"
    } else {
        "CAST(?1 AS BIGINT) IS NULL"
    };
    let after = page.after_id()?.unwrap_or(i64::MAX);
    let rows = db.query_map(
        &format!(
            "SELECT id, job_id, started_at, finished_at, status, error, output, run_id, runner
             FROM cron_runs WHERE {filter} AND id < ?2 ORDER BY id DESC LIMIT ?3"
        ),
        db_params![job, after, page.fetch()],
        |r| {
            Ok(Run {
                id: r.get(0)?,
                job_id: r.get(1)?,
                started_at: r.get(2)?,
                finished_at: r.get(3)?,
                status: r.get(4)?,
                error: r.get(5)?,
                output: r.get(6)?,
                run_id: r.get(7)?,
                runner: r.get(8)?,
            })
        },
    )?;
    Ok(Page::cut(rows, page, |r| r.id.to_string()))
}

#[cfg(test)]
mod tests;

//! `goclaw doctor`: the checks of `ops::doctor` as a table on a terminal, a JSON document
//! otherwise; exit 1 when one failed.

use clap::Args;

use super::{Context, Status};
use crate::config::Env;
use crate::error::{ErrorKind, Result};
use crate::ops::doctor::{self, Health};

// Flags of `goclaw doctor` (the global ones only).
#[derive(Debug, Args)]
pub struct DoctorArgs {}

pub fn run(ctx: &Context, _args: DoctorArgs) -> Result<Status> {
    let report = doctor::examine(ctx.path_args(), &Env::from_process()?)?;
    ctx.out.data(&report, |w| {
        let rows: Vec<[String; 4]> = report
            .checks
            .iter()
            .map(|c| {
                let status = match c.status {
                    Health::Ok => "ok",
                    Health::Warn => "warn",
                    Health::Fail => "FAIL",
                };
                [
                    c.area.to_string(),
                    c.name.clone(),
                    status.to_string(),
                    c.detail.clone(),
                ]
            })
            .collect();
        super::table::write(w, &["AREA", "CHECK", "STATUS", "DETAIL"], &rows)?;
        let failed = report
            .checks
            .iter()
            .filter(|c| c.status == Health::Fail)
            .count();
        if failed == 0 {
            writeln!(w, "\neverything goclaw needs is in order")
        } else {
            writeln!(w, "\n{failed} check(s) failed")
        }
    })?;
    if report.ok {
        return Ok(Status::Ok);
    }
    // Exit 1 says why on stderr too, as every failure does.
    let failed: Vec<String> = report
        .checks
        .iter()
        .filter(|c| c.status == Health::Fail)
        .map(|c| format!("{} {}: {}", c.area, c.name, c.detail))
        .collect();
    ctx.out.failure_line(&format!(
        "{} check(s) failed: {}",
        failed.len(),
        crate::text::printable::one_line(&failed.join("; "))
    ));
    Ok(Status::Exit(ErrorKind::Failed))
}

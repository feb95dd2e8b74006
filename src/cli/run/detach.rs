//! `goclaw run --detach`: the same run as a process of its own, its flags carried over as
//! [`RunFlags`] and its message through stdin.

use std::os::unix::process::CommandExt;

use super::{Context, RunArgs, Status, quality_gates};
use crate::error::{Error, Result};
use crate::tools::child_run::{RunFlags, run_command, spawn_with_message};

/// How long `--detach` waits for the run to record itself: longer than its MCP servers may take
/// to connect (30 s each, at once) and its store to be free (the busy timeout), so a run that
/// is starting is never said not to have started (it waited 30 s, as long as one server may
/// take, and said so of runs that then ran, and were started again by whoever retried).
const START_WAIT: std::time::Duration = std::time::Duration::from_secs(90);

/// `--detach`: the same run as a process of its own (in its own process group, so a Ctrl-C at
/// the terminal does not reach it), started with a run id chosen here; prints the id once the
/// run's row exists, so `goclaw runs wait ID` right after finds it.
pub(super) fn detach(ctx: &Context, a: &RunArgs, message: &str) -> Result<Status> {
    let s = ctx.settings()?;
    let run_id = uuid::Uuid::now_v7().to_string();
    let config = s.config_exists.then_some(s.config_path.as_path());
    // The gates are checked here too, so a bad one is an error before the run is detached.
    quality_gates(ctx, a)?;
    let mut cmd = run_command(
        (&s.store_target(), &s.workspace, config),
        &detached_flags(a, &run_id),
    )
    .map_err(|e| Error::internal(format!("cannot find the goclaw binary: {e}")))?;
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    let mut child = spawn_with_message(&mut cmd, message)
        .map_err(|e| Error::internal(format!("cannot start the detached run: {e}")))?;
    let store = ctx.any_store()?;
    let deadline = std::time::Instant::now() + START_WAIT;
    loop {
        if crate::agent::runs::get(store.db(), &run_id)?.is_some() {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(Error::failed(format!(
                "the detached run ended before it started ({status})"
            )));
        }
        if std::time::Instant::now() >= deadline {
            return Err(Error::new(
                crate::error::ErrorKind::Timeout,
                format!(
                    "the detached run did not start within {}s (it may still: `goclaw runs show {run_id}`)",
                    START_WAIT.as_secs()
                ),
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let doc = serde_json::json!({"run_id": run_id});
    ctx.out.data(&doc, |w| writeln!(w, "{run_id}"))?;
    Ok(Status::Ok)
}

/// `--context` for a detached run: a file by its absolute path, since the run reads it from
/// another directory.
fn context_arg(a: &RunArgs) -> Option<String> {
    let c = a.context.as_ref()?;
    Some(match c.strip_prefix('@') {
        Some(file) => format!(
            "@{}",
            std::path::absolute(file)
                .unwrap_or_else(|_| file.into())
                .display()
        ),
        None => c.clone(),
    })
}

/// The flags of the detached run `a` asks for, run `run_id`.
fn detached_flags(a: &RunArgs, run_id: &str) -> RunFlags {
    RunFlags {
        quiet: true,
        run_id: Some(run_id.to_string()),
        on_ask: Some(a.on_ask.arg()),
        agent: a.caller.agent.clone(),
        user: a.caller.user.clone(),
        session: a.caller.session.clone(),
        model: a.model.clone(),
        provider: a.provider.clone(),
        timeout: a.timeout.clone(),
        task: a.task.clone(),
        team: a.team.clone(),
        context: context_arg(a),
        max_iterations: a.max_iterations,
        detach_children: a.detach_children,
        record: a.record.clone(),
        allow_tools: a.allow_tools.clone(),
        subagent_limits: a.subagent_limits,
        gates: a.gate.clone(),
        gate_agents: a.gate_agent.clone(),
        gate_retries: Some(a.gate_retries),
        evaluator: a.evaluator.clone(),
        max_rounds: a.max_rounds,
        skip_gates: a.skip_gates,
        // A run sessions_send started keeps the subagent deny lists across the hop (without
        // them it could send on, and two sessions could start each other without end).
        sent: a.sent,
        ..RunFlags::default()
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::super::RunArgs;
    use super::*;
    use crate::cli::{Cli, Command};

    /// `goclaw ARGS…` as `goclaw` parses it; its `run` arguments.
    fn parse_run(args: Vec<std::ffi::OsString>) -> RunArgs {
        let mut argv = vec![std::ffi::OsString::from("goclaw")];
        argv.extend(args);
        let matches = Cli::command()
            .try_get_matches_from(&argv)
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        match Cli::from_arg_matches(&matches).unwrap().command {
            Command::Run(a) => *a,
            other => panic!("not a run: {other:?}"),
        }
    }

    fn words(line: &[&str]) -> Vec<std::ffi::OsString> {
        line.iter().map(Into::into).collect()
    }

    #[test]
    fn a_detached_run_gets_every_flag_it_was_given() {
        let given = parse_run(words(&[
            "run",
            "--agent=-a",
            "--user",
            "u",
            "--session",
            "s",
            "--model",
            "m",
            "--provider",
            "p",
            "--timeout",
            "5m",
            "--task",
            "T-1",
            "--team",
            "t",
            "--context",
            "@rel.txt",
            "--max-iterations",
            "3",
            "--detach-children",
            "--record",
            "rec.jsonl",
            "--allow-tools",
            "a,b",
            "--subagent-limits",
            "4,1,2,9",
            "--gate",
            "test -s out",
            "--gate-agent",
            "g",
            "--gate-retries",
            "4",
            "--evaluator",
            "e",
            "--max-rounds",
            "2",
            "--skip-gates",
            "--sent",
            "--on-ask",
            "wait:3s",
            "--detach",
            "msg",
        ]));
        let flags = detached_flags(&given, "RID");
        let mut argv = words(&["--quiet", "--json", "run"]);
        argv.extend(flags.args());
        argv.extend(words(&["--", "-"]));
        let child = parse_run(argv);
        assert_eq!(
            detached_flags(&child, "RID"),
            flags,
            "nothing lost on the way"
        );
        assert_eq!(child.run_id.as_deref(), Some("RID"));
        assert_eq!(
            child.caller.agent.as_deref(),
            Some("-a"),
            "a value, not a flag"
        );
        assert!(!child.detach, "the child runs; it does not detach again");
        assert_eq!(
            child.context.as_deref().map(|c| c.starts_with("@/")),
            Some(true),
            "@FILE made absolute"
        );
        // Each field of RunFlags a detached run can carry was given above.
        assert_eq!(unset_fields(&flags), Vec::<&str>::new(), "not forwarded");
    }

    /// The fields of RunFlags a detached run can carry that `flags` leaves unset.
    fn unset_fields(flags: &RunFlags) -> Vec<&'static str> {
        let unset = RunFlags {
            quiet: true,
            run_id: Some("RID".into()),
            ..RunFlags::default()
        };
        [
            ("agent", flags.agent != unset.agent),
            ("user", flags.user != unset.user),
            ("session", flags.session != unset.session),
            ("model", flags.model != unset.model),
            ("provider", flags.provider != unset.provider),
            ("timeout", flags.timeout != unset.timeout),
            ("task", flags.task != unset.task),
            ("team", flags.team != unset.team),
            ("context", flags.context != unset.context),
            (
                "max_iterations",
                flags.max_iterations != unset.max_iterations,
            ),
            (
                "detach_children",
                flags.detach_children != unset.detach_children,
            ),
            ("record", flags.record != unset.record),
            ("allow_tools", flags.allow_tools != unset.allow_tools),
            (
                "subagent_limits",
                flags.subagent_limits != unset.subagent_limits,
            ),
            ("gates", flags.gates != unset.gates),
            ("gate_agents", flags.gate_agents != unset.gate_agents),
            ("evaluator", flags.evaluator != unset.evaluator),
            ("max_rounds", flags.max_rounds != unset.max_rounds),
            ("skip_gates", flags.skip_gates != unset.skip_gates),
            ("sent", flags.sent != unset.sent),
        ]
        .into_iter()
        .filter(|(_, differs)| !differs)
        .map(|(name, _)| name)
        .collect()
    }

    #[test]
    fn every_child_flag_is_one_goclaw_run_takes() {
        let flags = RunFlags {
            quiet: true,
            agent: Some("-agent".into()),
            user: Some("u".into()),
            session: Some("--session".into()),
            provider: Some("p".into()),
            model: Some("m".into()),
            run_id: Some("r".into()),
            parent_run: Some("pr".into()),
            depth: Some(2),
            label: Some("member:a".into()),
            team: Some("t".into()),
            task: Some("T-1".into()),
            on_ask: Some("deny".into()),
            timeout: Some("90s".into()),
            max_iterations: Some(7),
            allow_tools: Some(vec![]),
            subagent_limits: Some(crate::subagents::Limits::default()),
            context: Some("-c".into()),
            record: Some("/tmp/r.jsonl".into()),
            gates: vec!["make test".into()],
            gate_agents: vec!["rev".into()],
            gate_retries: Some(1),
            evaluator: Some("ev".into()),
            max_rounds: Some(3),
            skip_gates: true,
            events: true,
            detach: false,
            detached: true,
            detach_children: true,
            sent: true,
        };
        let mut argv = words(&["--json", "run"]);
        argv.extend(flags.args());
        argv.extend(words(&["--literal", "--", "--help"]));
        let a = parse_run(argv);
        assert_eq!(a.caller.agent.as_deref(), Some("-agent"));
        assert_eq!(a.caller.session.as_deref(), Some("--session"));
        assert_eq!(a.context.as_deref(), Some("-c"));
        assert_eq!(a.message.as_deref(), Some("--help"), "the message is text");
        assert_eq!(
            a.allow_tools,
            Some(vec![String::new()]),
            "empty: no tools (RunKit drops the blank name)"
        );
        assert_eq!((a.depth, a.label.as_str()), (2, "member:a"));
        assert_eq!(a.subagent_limits, Some(crate::subagents::Limits::default()));
        assert!(a.events && a.detached && a.sent && a.detach_children && a.skip_gates);
        let detach = RunFlags {
            detach: true,
            ..RunFlags::default()
        };
        let mut argv = words(&["run"]);
        argv.extend(detach.args());
        argv.push("x".into());
        assert!(parse_run(argv).detach);
    }
}

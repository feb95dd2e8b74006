# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_goclaw_global_optspecs
    string join \n db= config= workspace= json human q/quiet v/verbose h/help V/version
end

function __fish_goclaw_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_goclaw_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_goclaw_using_subcommand
    set -l cmd (__fish_goclaw_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c goclaw -n "__fish_goclaw_needs_command" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_needs_command" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_needs_command" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_needs_command" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c goclaw -n "__fish_goclaw_needs_command" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "run" -d 'Run an agent: Think → Act → Observe until it answers'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "runs" -d 'Agent runs: list, show, wait for and cancel them'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "sessions" -d 'Sessions: their messages, kept in the store'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "agents" -d 'Agents and their context files'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "traces" -d 'Traces of runs: LLM and tool spans, tokens, cost'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "scrub" -d 'Redact credentials from text: files or stdin to stdout'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "guard" -d 'Detect prompt injection in a message'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "sanitize" -d 'Clean LLM output: tool-call debris, thinking blocks, echoed system text'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "tools" -d 'List, describe and run tools through the gate; read the audit trail'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "policy" -d 'Explain the tool policy for an agent, or for one call'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "approvals" -d 'Manage the exec allowlist'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "cron" -d 'Scheduled agent runs and tool calls: add, list, tick (from crontab), daemon'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "secure-cli" -d 'Credentialed CLIs for credentialed_exec: register, list, remove'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "kg" -d 'The knowledge graph: entities, relations, search, export'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "message" -d 'Send a message to a channel (stdout, a file, a webhook, a command); list the channels'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "process" -d 'Background commands that exec started: list, poll, log, kill'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "media" -d 'Make images and speech, read images, recordings and documents ([media] providers)'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "providers" -d 'LLM providers: list, probe, and call an endpoint of one through the gate'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "skills" -d 'Skills: list, search and show'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "team" -d 'Teams of agents, their settings, and the mailbox'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "tasks" -d 'The team task board'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "mcp" -d 'MCP servers, grants and access requests'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "db" -d 'Inspect and maintain the store (SQLite, or PostgreSQL)'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "config" -d 'Show or create the configuration'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "doctor" -d 'Check the config, the store, providers, MCP servers and the sandbox; exit 1 if broken'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "help" -d 'Show help for a command, or a topic: exit-codes'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "version" -d 'Show the version, the commit it was built from and the store schema version'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "schema" -d 'Print the JSON Schema of a document goclaw prints (event, run, error, task, …)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l model -d 'The model (default: the agent\'s, then the provider\'s)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l provider -d 'A key of [providers], openai, anthropic, or replay:FILE (default: the agent\'s)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l max-iterations -d 'At most this many LLM iterations (the agent\'s limit still applies)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l max-cost -d 'Spend at most this many US dollars, at the provider\'s prices: a request that could take the run past it is not sent; status limited, exit 4 (default: the agent\'s max_cost)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l timeout -d 'End the run after this long (90s, 5m, 1h30m, 2d), status timed_out, exit 7' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l on-ask -d 'When a tool needs approval and there is no terminal: deny, fail, allow, or wait[:DUR] for `goclaw approvals answer` from elsewhere' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l context -d 'Extra context for the system prompt, text or @FILE: the agent sees it under `## Additional Context`, wrapped in <extra_context>' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l record -d 'Save every LLM exchange to FILE (JSON Lines) for `--provider replay:FILE`' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l allow-tools -d 'Only these tools (comma-separated), within what the policy allows; empty: none' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l run-id -d 'The run\'s id, chosen by whoever started it (a detached run, the spawn tool)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l parent-run -d 'A subagent\'s parent run (set by the spawn tool)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l subagent-limits -d 'At most these subagent limits, CONCURRENT,DEPTH,CHILDREN,ITERATIONS: a child\'s are its parent\'s at most (set by the spawn tool, with --allow-tools)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l depth -d 'A subagent\'s depth (set by the spawn tool)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l label -d 'A subagent\'s label (set by the spawn tool)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l gate -d 'A quality gate: after the answer, CMD runs in the workspace (through exec); exit 0 passes, otherwise its output goes back to the agent for revision (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l output-schema -d 'The answer must be one JSON document valid against this JSON Schema: the validation errors go back to the agent, up to --gate-retries times; then the run fails (exit 1)' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l gate-retries -d 'Revisions a failing --gate, --gate-agent or --output-schema allows before the run fails' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l gate-agent -d 'A quality gate run by AGENT, which reviews the answer: APPROVED, or REJECTED: feedback for revision (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l evaluator -d 'Evaluate-optimize: AGENT judges each answer (APPROVED or REJECTED: feedback) and the agent revises until approved or --max-rounds is reached' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l max-rounds -d 'Rounds of the evaluator loop, 1 to 5 (default 3)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l task -d 'Work on this team task (id, identifier or #number): the run claims it (or takes it when the agent holds it), starts from it, and its end completes, fails or gives it back' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l team -d 'Run for this team (default with --task: the agent\'s only team): the lead gets TEAM.md, every run its team messages, and works in the team\'s workspace' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l events -d 'Print every event as JSON Lines (and nothing else) on stdout'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l detach -d 'Print {"run_id": …} at once and run in the background (its end is in the store: `goclaw runs show`, `runs wait`)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l literal -d 'The message is text as it is, never @FILE or - (set when goclaw starts a run itself)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l sent -d 'A run that sessions_send started: the subagent deny lists apply, so it cannot start further runs (set by the sessions_send tool)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l detach-children -d 'Leave the subagents this run starts running when it ends (default: a run that answers waits for them, one that ends otherwise cancels them)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l detached -d 'A subagent that does not end with its parent\'s process (set by the spawn tool)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -l skip-gates -d 'Check no quality gate (a gate\'s own reviewer run: the recursion guard)'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand run" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -f -a "list" -d 'Runs, newest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -f -a "show" -d 'One run and its children (a tree on a terminal)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -f -a "wait" -d 'Wait until the runs end; the exit code is the one the run\'s command ended with (0 completed, 1 failed, 8 its provider failed, 7 timed out, 130 cancelled, …)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -f -a "cancel" -d 'Cancel runs: the process running each ends it cleanly, children too'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and not __fish_seen_subcommand_from list show wait cancel prune" -f -a "prune" -d 'Archive subagents that ended more than an hour ago'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l parent -d 'Only the children of this run' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l status -d 'running | completed | failed | cancelled | timed_out | denied | abandoned | limited' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l agent -d 'Only this agent\'s runs' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l session -d 'Only the runs of this session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l timeout -d 'Give up after this long (exit 7, as for a run that timed out: the lines printed tell them apart, a run still `running` or one `timed_out`)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -l any -d 'Return when one of them ends (default: when all have)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from wait" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l session -d 'The running runs of this session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -l all -d 'Every running run'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from cancel" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand runs; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -f -a "list" -d 'Every session, most recently used first'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -f -a "show" -d 'One session: agent, model, token counts, message count, summary'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -f -a "history" -d 'A session\'s messages, oldest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and not __fish_seen_subcommand_from list show history rm" -f -a "rm" -d 'Delete a session and its messages'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l agent -d 'Only this agent\'s sessions' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sessions; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -f -a "list" -d 'Every agent: key, type, provider, model'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -f -a "show" -d 'One agent\'s settings, with the defaults filled in, and its context files'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and not __fish_seen_subcommand_from list show files" -f -a "files" -d 'Context files kept in the store'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -f -a "ls" -d 'List an agent\'s context files (agent-level and per user)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -f -a "get" -d 'Print a context file (the user\'s, else the agent-level one)'
complete -c goclaw -n "__fish_goclaw_using_subcommand agents; and __fish_seen_subcommand_from files" -f -a "set" -d 'Set a context file from stdin (or @FILE); an empty BOOTSTRAP.md deletes it'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -f -a "list" -d 'Recent runs, newest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and not __fish_seen_subcommand_from list show" -f -a "show" -d 'One run\'s trace'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l session -d 'Only the runs of this session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand traces; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l value -d 'A credential value to redact wherever it appears (repeatable; under 6 bytes is ignored)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l values-file -d 'A file of credential values, one per line (repeatable)' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l server-ip -d 'A server address to redact as [SERVER_IP] (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l detect-server-ips -d 'Also redact this host\'s non-loopback interface addresses (no network requests)'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l json-values -d 'The input is JSON (documents or JSON Lines): scrub every string value on its own, keep the JSON valid, print one compact document per line'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l check -d 'Print only a report; exit 1 when anything would be redacted, 0 otherwise'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l report -d 'Also write a JSON report (counts and line numbers per pattern, never a secret) to stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l mode -d 'off | log | warn | block [default: [guard] mode, else warn]' -r -f -a "off\t'No scan at all'
log\t'Scan and note matches at info level'
warn\t'Scan and warn on matches; processing continues'
block\t'Scan and refuse the message on a match'"
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l max-chars -d 'Cut messages longer than this many bytes, as the agent loop does [default: [guard] max_message_chars, else 32000]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "list" -d 'The tools an agent may use: name, groups, risk, allowed'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "describe" -d 'A tool\'s description and JSON schema'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "exec" -d 'Run a tool through the gate: policy → rate limit → approval → execution → scrubbing → audit'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "add" -d 'Register a custom tool from its JSON definition (a file, or - for stdin)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "rm" -d 'Remove a custom tool'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "custom" -d 'Custom tools: list'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec add rm custom history" -f -a "history" -d 'The audit trail: recent calls, newest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l all -d 'Show the tools the policy removes too'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l mcp -d 'Also connect to the MCP servers the agent may use and list their tools'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l channel -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l chat-id -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l provider -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l on-ask -d 'When an approval is needed and there is no terminal: deny (exit 3), fail (exit 1), allow, or wait[:DUR] for `goclaw approvals answer` from elsewhere' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l dry-run -d 'Show what the gate would decide (and which sandbox would apply); run nothing'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l agent -d 'Only for this agent (overrides "agent" in the definition)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l agent -d 'The agent\'s own tool instead of the global one' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from custom" -f -a "list" -d 'The registered custom tools (variable names, never values)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l tool -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l session -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -f -a "explain" -d 'Show the final tool list and, for each step, the rule that applied and what it changed'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l agent -d 'The agent whose policy to explain (a key of [agents] in config; none: the global policy)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l provider -d 'Apply this provider\'s rules too ([tools.by_provider.NAME], and the agent\'s)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l group-allow -d 'The chat group\'s allow list (comma-separated names or group:NAME)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l request-allow -d 'A per-request allow list (comma-separated)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l tool -d 'Explain one call of this tool' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l args -d 'The call\'s arguments: JSON, @FILE or -' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l mcp -d 'Also connect to the MCP servers the agent may use, so their tools and the `mcp` and `mcp:<server>` groups take part'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l subagent -d 'Apply the subagent deny list'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l leaf -d 'Apply the leaf-subagent deny list too'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "list" -d 'List the entries'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "allow" -d 'An entry\'s program and argument prefix. Options go before PROGRAM: every word after it, flags included, is the command\'s (as with `env` or `timeout`)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "deny" -d 'An entry\'s program and argument prefix. Options go before PROGRAM: every word after it, flags included, is the command\'s (as with `env` or `timeout`)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "revoke" -d 'Remove an entry by id'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "pending" -d 'The approvals waiting for an answer (calls made with --on-ask wait)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke pending answer" -f -a "answer" -d 'Answer a waiting approval: once, always (adds the programs to the allowlist) or deny'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l note -d 'A note kept with the entry (shown by `approvals list`)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l note -d 'A note kept with the entry (shown by `approvals list`)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from pending" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from answer" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "add" -d 'Add a job: an agent run (--message) or a tool call (--tool) on a schedule'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "list" -d 'List jobs'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "rm" -d 'Remove a job (by id or name)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "enable" -d 'Turn a job on (due again at its next time)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "disable" -d 'Turn a job off'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "runs" -d 'Runs, newest first (of one job, or all)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "tick" -d 'Run every due job once, then exit (call it from crontab every minute); SIGINT, SIGTERM or SIGHUP stop the job running (recorded as failed) and exit 130, 143 or 129'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and not __fish_seen_subcommand_from add list rm enable disable runs tick daemon" -f -a "daemon" -d 'Tick in a loop until SIGINT, SIGTERM or SIGHUP (unless started under `nohup`), which end it with exit 0 (a service manager\'s stop is the daemon\'s normal end, not a failure); a job running then is stopped and recorded as failed'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l at -d 'Once, at this time (RFC 3339, or Unix milliseconds)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l every -d 'Repeatedly, this often (90s, 5m, 1h30m, 2d)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l cron -d 'A 5-field cron expression' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l tz -d 'The cron expression\'s IANA time zone [default: UTC]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l message -d 'Run the agent with this message' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l tool -d 'Call this tool instead' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l args -d 'The tool\'s arguments (JSON)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l deliver -d 'Deliver each run\'s result (or failure) to this channel ([channels.NAME] of config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -l delete-after-run -d 'Delete an `--at` job after it ran successfully'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l agent -d 'Only this agent\'s jobs' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l agent -d 'Whose job, when names repeat across agents' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l agent -d 'Whose job, when names repeat across agents' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l agent -d 'Whose job, when names repeat across agents' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l agent -d 'Whose job, when names repeat across agents' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from runs" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l force -d 'Also run this job now, due or not' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from tick" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l interval -d 'Time between ticks' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand cron; and __fish_seen_subcommand_from daemon" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "add" -d 'Register a CLI (or replace its registration)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "list" -d 'List the registered CLIs (variable names, never values)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "rm" -d 'Remove a registration'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "enable" -d 'Let credentialed_exec use a registered CLI again'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "disable" -d 'Keep a registration but refuse to run it'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and not __fish_seen_subcommand_from add list rm enable disable presets" -f -a "presets" -d 'The presets: gh, gcloud, aws, kubectl, terraform'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l preset -d 'Fill in variables, deny patterns, time limit and tips from a preset' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l path -d 'The binary\'s absolute path [default: where `which NAME` finds it now]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l env -d 'KEY=VALUE, or KEY to take the value from goclaw\'s environment (repeatable; sealed)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l deny-args -d 'A regex over the arguments joined by spaces that refuses the call (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l deny-verbose -d 'A regex matched against each argument from its start that refuses the call (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l timeout -d 'Seconds a call may take [default: the preset\'s, else 30]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l description -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l tips -d 'A hint shown to the agent (e.g. "use --json")' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l agent -d 'Only for this agent [default: every agent]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -l disabled -d 'Register it turned off'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l agent -d 'The agent\'s own registration instead of the global one' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l agent -d 'The agent\'s own registration instead of the global one' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l agent -d 'The agent\'s own registration instead of the global one' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand secure-cli; and __fish_seen_subcommand_from presets" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "add" -d 'Add an entity, or update the one of that name (its properties are merged)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "relate" -d 'Relate two entities: SRC REL DST (both must exist)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "search" -d 'Entities matching words, with their relations (the knowledge_graph_search tool)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "show" -d 'One entity and its relations'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "rm" -d 'Remove an entity and its relations'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and not __fish_seen_subcommand_from add relate search show rm export" -f -a "export" -d 'The whole graph: JSON Lines (entities, then relations) or Graphviz DOT'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l type -d 'What it is: person, project, service…' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l prop -d 'KEY=VALUE (repeatable; a JSON value is taken as JSON, `KEY=` removes the key)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l prop -d 'KEY=VALUE (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from relate" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l depth -d 'How far to follow relations (0 to 2)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l depth -d 'How far to follow relations (1 to 2)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l format -d 'The output: JSON Lines or Graphviz DOT' -r -f -a "jsonl\t''
dot\t''"
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand kg; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -f -a "send" -d 'Send a message to a channel, through the gate'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and not __fish_seen_subcommand_from send channels" -f -a "channels" -d 'The configured channels (a webhook\'s headers by name only)'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l channel -d 'A channel of [channels]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l topic -d 'A topic or thread (a webhook channel may have a default)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from send" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand message; and __fish_seen_subcommand_from channels" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -f -a "list" -d 'The session\'s background commands (every one without --session), newest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -f -a "poll" -d 'The output written since the last poll, and the status'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -f -a "log" -d 'The last lines of the log (the last 2 MiB of output are kept)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and not __fish_seen_subcommand_from list poll log kill" -f -a "kill" -d 'End a background command: SIGTERM to its process group, SIGKILL two seconds later'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from poll" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l lines -d 'How many lines' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from log" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand process; and __fish_seen_subcommand_from kill" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -f -a "image" -d 'Generate an image from a prompt (create_image)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -f -a "speak" -d 'Turn text into speech (tts): the text as given, @FILE, or - for stdin'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -f -a "transcribe" -d 'Transcribe a recording in the workspace (read_audio)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -f -a "describe" -d 'Ask the vision provider about an image in the workspace (read_image)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and not __fish_seen_subcommand_from image speak transcribe describe doc" -f -a "doc" -d 'The text of a PDF in the workspace; scanned pages are read by the vision provider (read_document)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -s o -l output -d 'Where to write it, inside the workspace' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l size -d 'WIDTHxHEIGHT ([media] image_size by default)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from image" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -s o -l output -d 'Where to write it, inside the workspace' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l voice -d 'A voice of the server ([media] voice by default)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from speak" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l language -d 'The spoken language (ISO 639-1)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l prompt -d 'Words or names to expect' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from transcribe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l prompt -d 'What to find out (default: describe it)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from describe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l prompt -d 'For scanned pages: what to ask the vision model' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand media; and __fish_seen_subcommand_from doc" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -f -a "list" -d 'The providers: kind, base URL, model, and whether their key is set (never its value)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -f -a "probe" -d 'Ask providers for their models: reachable, key accepted (exit 8 when one is not)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and not __fish_seen_subcommand_from list probe call" -f -a "call" -d 'One request to an endpoint of an OpenAI-compatible provider, through the gate'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from probe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand providers; and __fish_seen_subcommand_from call" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l agent -d 'The agent whose published skills count too' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -f -a "list" -d 'Every skill in the roots and the store'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -f -a "search" -d 'Rank skills for a query (BM25 over name and description)'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and not __fish_seen_subcommand_from list search show" -f -a "show" -d 'A skill\'s metadata and SKILL.md'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l agent -d 'The agent whose published skills count too' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l agent -d 'The agent whose published skills count too' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l max -d 'At most this many' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l agent -d 'The agent whose published skills count too' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand skills; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "create" -d 'Create a team of agents (keys of [agents.KEY] in config)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "list" -d 'List teams'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "show" -d 'A team with its members and effective settings'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "archive" -d 'Archive a team (its board stays readable)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "members" -d 'Add or remove members'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "settings" -d 'Read or change settings'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "message" -d 'The mailbox: send, broadcast, read, wait'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "run" -d 'Run a team on a message: the lead posts tasks, members work on them in parallel, the lead answers'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and not __fish_seen_subcommand_from create list show archive members settings message run work" -f -a "work" -d 'Work on a team\'s tasks as one member, on this machine: claim the next task, run it, repeat'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l lead -d 'The lead: creates and assigns the tasks (and reviews them when the team has no reviewer)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l member -d 'A member: works on the tasks (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l reviewer -d 'A reviewer: reviews the answers on tasks when require_review is on (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l settings -d 'Settings as JSON, @FILE or -' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from archive" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -f -a "add" -d 'Add an agent (or change its role)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from members" -f -a "rm" -d 'Remove an agent'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -f -a "get" -d 'Print the effective settings, or one (dotted key)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from settings" -f -a "set" -d 'Set one setting: KEY (dotted for nested) to VALUE (JSON, or a plain string)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l as -d 'The acting agent' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -f -a "send" -d 'Send TEXT to one member'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -f -a "broadcast" -d 'Send TEXT to every member (lead only)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -f -a "read" -d 'Read unread messages, oldest first (each is marked read for the reader only, so the next read goes on where this one ended)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from message" -f -a "wait" -d 'Block until a message arrives for the acting agent, then read it (exit 7 on timeout)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l workers -d 'Members\' runs at once (default: the number of members)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l timeout -d 'Stop everything after this long (90s, 5m, 1h30m, 2d): exit 7, tasks back to pending' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l until-empty -d 'Stop when nothing on the board can move any more (the default)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l watch -d 'Keep dispatching tasks as they are created, until stopped'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -l events -d 'Print the events of the team run and of every run as JSON Lines (and nothing else)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l agent -d 'The member that works' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l timeout -d 'Stop after this long (90s, 5m, 1h30m, 2d): exit 7, the task back to pending' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l watch -d 'Keep waiting for tasks, until stopped (default: stop when there is nothing to claim)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -l events -d 'Print the events of every run as JSON Lines (and nothing else)'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand team; and __fish_seen_subcommand_from work" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "create" -d 'Create a task (lead; members only --request tasks when the team allows)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "list" -d 'List tasks, highest priority first'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "get" -d 'One task with comments, attachments and events'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "claim" -d 'Claim a task (or --next: the most urgent one you may take; exit 5 when none)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "complete" -d 'Complete a task you hold'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "fail" -d 'Fail a task you hold'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "cancel" -d 'Cancel a task (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "assign" -d 'Assign a pending task to a member, who holds it at once (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "review" -d 'Submit a task you hold for review'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "approve" -d 'Approve a task in review (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "reject" -d 'Reject a task in review: back to its holder with the reason (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "retry" -d 'Put a stale, failed, cancelled, in-review or completed task back to pending (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "comment" -d 'Comment; --blocker fails the task and escalates to the lead'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "progress" -d 'Report progress on a task you hold (never decreases)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "attach" -d 'Attach a file path to a task'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "update" -d 'Change subject, description, priority, assignee or dependencies (lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "ask-user" -d 'Ask the user a question about a task you hold'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "clear-ask-user" -d 'Clear the question (holder or lead)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "search" -d 'Full-text search over subject and description'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "events" -d 'Audit events of one task or the whole board, oldest first'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "recover" -d 'Release claims whose run is gone and expired locks, mark stale tasks, release orphaned blocked tasks (cron-safe)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and not __fish_seen_subcommand_from create list get claim complete fail cancel assign review approve reject retry comment progress attach update ask-user clear-ask-user search events recover do" -f -a "do" -d 'Run one action given as the team_tasks tool\'s JSON (`{"action":"claim","task_id":…}`): JSON, @FILE or -'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l subject -d 'The subject: a one-line title' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l description -d 'What to do, in detail: text, @FILE, or - for stdin' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l priority -d 'Higher is more urgent: listed and claimed first (negative: after the rest)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l blocked-by -d 'A task this one waits for (repeatable): id, identifier or number (#3)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l assignee -d 'Only this member may claim it' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l dedupe-key -d 'Return the existing task with this key instead of creating a duplicate' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l gate -d 'A command the answer of a run on the task must pass (a quality gate, run in the member\'s workspace)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l require-approval -d 'Start in review: the lead approves it'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -l request -d 'A member\'s request (when member_requests is enabled)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l status -d 'all | active | completed | pending | in_progress | blocked | failed | in_review | cancelled | stale. `active` is every task not ended well: neither completed nor cancelled (failed, stale, blocked and in_review count); `completed` is both of those' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -l next -d 'The most urgent task you may take instead: pending or stale, unassigned or yours'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from claim" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l result -d 'The result, what was done: text, @FILE, or - for stdin' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from complete" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l reason -d 'Why it failed' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from fail" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l reason -d 'Why it is cancelled' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from cancel" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from assign" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l result -d 'The result submitted with it' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from review" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from approve" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l reason -d 'Why it is rejected (its result becomes `Rejected: REASON`)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from reject" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from retry" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -l blocker -d 'The work cannot go on: fail the task in progress and tell the lead (unless the team\'s blocker_escalation is off)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from comment" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l step -d 'What is being done now' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from progress" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from attach" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l subject -d 'The new subject' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l description -d 'The new description: text, @FILE, or - for stdin' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l priority -d 'The new priority: higher is more urgent' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l assignee -d 'Only this member may claim it' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l blocked-by -d 'Replace the dependencies (repeatable); --clear-blocked-by removes them all' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -l clear-blocked-by -d 'Remove every dependency'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from ask-user" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from clear-ask-user" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from events" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from recover" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l team -d 'The team (default: the acting agent\'s only team)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l as -d 'The acting agent (reads and `recover` need none: they look as the team\'s lead)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tasks; and __fish_seen_subcommand_from do" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "add" -d 'Add a server: --command for stdio, --url for streamable HTTP or SSE'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "list" -d 'List servers (secrets never shown)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "show" -d 'One server'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "rm" -d 'Remove a server and its grants and requests'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "enable" -d 'Enable a server'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "disable" -d 'Disable a server'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "grant" -d 'Grant an agent or a user a server\'s tools (optionally narrowed)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "revoke" -d 'Remove a grant'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "grants" -d 'List grants'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "request" -d 'Ask for access to a server'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "requests" -d 'List access requests'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "probe" -d 'Connect, initialize and list tools; report protocol, server, tool count and timings'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "tools" -d 'List a server\'s tools (or every enabled server\'s) with their goclaw names'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "call" -d 'Call one tool through the gate (policy, rate limit, scrubbing, audit); exit 8 when the server fails'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "resources" -d 'A server\'s resources (URI, name, type)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "read" -d 'Read one resource of a server: its text on a terminal, the contents as JSON otherwise'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "prompts" -d 'A server\'s prompts (name, description, arguments)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "prompt" -d 'Get one prompt of a server, filled with its arguments: its messages'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "serve" -d 'Serve goclaw\'s tools to an MCP client over stdio, under an agent\'s policy'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and not __fish_seen_subcommand_from add list show rm enable disable grant revoke grants request requests probe tools call resources read prompts prompt serve review" -f -a "review" -d 'Approve (creating the grant in the same transaction) or reject a request'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l command -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l arg -d 'An argument of the command (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l env -d 'K=V for the server\'s environment (repeatable; encrypted)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l url -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l transport -d 'streamable-http (default for --url) or sse' -r -f -a "stdio\t''
streamable-http\t''
sse\t''"
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l header -d 'K=V HTTP header (repeatable; encrypted)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l prefix -d 'Prefix of bridged tool names (default: mcp_<name>)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l timeout -d 'Per-call timeout: seconds, or a duration (90s, 1.5m, 1h)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l access -d 'open: every agent may use it (grants narrow); granted: only agents with a grant' -r -f -a "open\t''
granted\t''"
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -l disabled
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from disable" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l user -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l allow -d 'Only these tools (comma-separated original names)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l deny -d 'Never these tools (wins over --allow)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l env -d 'K=V for the server\'s environment when this agent or user uses it, over the server\'s own (repeatable; encrypted; a user grant\'s win over an agent grant\'s)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l header -d 'K=V HTTP header when this agent or user uses the server, over the server\'s own (repeatable; encrypted)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -l disabled -d 'Record the grant disabled (a disabled user grant removes the server for that user)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grant" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l user -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from revoke" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from grants" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l user -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l tools -d 'The tools wanted (comma-separated; default all)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l reason -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from request" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l status -d 'pending | approved | rejected' -r -f -a "pending\t''
approved\t''
rejected\t''"
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l limit -d 'The most items to print (1 to 1000)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l cursor -d 'Go on after the page this cursor ends (the `next_cursor` of the previous page)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from requests" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from probe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from tools" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from call" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from resources" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from read" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompts" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l arg -d 'K=V, an argument of the prompt (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from prompt" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l user -d 'The user: per-user context files and memory, user grants of MCP servers' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l session -d 'Session key: the conversation a run continues; rate limits count per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l on-ask -d 'When a call needs an approval (stdin is the MCP channel, so nobody can be asked): deny, fail, allow, or wait[:DUR] for `goclaw approvals answer` from elsewhere' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l note -r
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l approve
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -l reject
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand mcp; and __fish_seen_subcommand_from review" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "path" -d 'Print the store\'s path or URL, its password hidden (does not create it)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "schema" -d 'Print the schema: every table and index as SQL'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "migrate" -d 'Apply pending migrations (every command does this on first use)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "check" -d 'Check integrity and migration state, without changing anything; exit 1 when unhealthy'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "backup" -d 'Copy the store to FILE with SQLite\'s online backup API (safe while others write)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "copy" -d 'Copy a SQLite store into an empty PostgreSQL one, every row, checked by row counts'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup copy query" -f -a "query" -d 'Run one read-only SQL statement; rows as JSON Lines (one object per row)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l force -d 'Replace FILE if it exists'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l from -d 'The SQLite store to copy (only read)' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l to -d 'The PostgreSQL store to fill [default: the store, when it is PostgreSQL]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from copy" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l param -d 'A value for the next `?` placeholder (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l timeout -d 'How long the statement may run (exit 7 past it): 30, 90s, 1h30m, 500ms' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l max-bytes -d 'Bytes of values the result may hold (exit 4 past it)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -f -a "path" -d 'Print the resolved paths: config file, store, workspace, and where each came from'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -f -a "show" -d 'Print the effective configuration (secrets scrubbed): TOML on a terminal, else JSON'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -f -a "get" -d 'Print one effective setting by its dotted key (tools.exec.sandbox, agents.w1.model): the value alone on a terminal (TOML for a table), else JSON; exit 5 when it has none'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show get init" -f -a "init" -d 'Write a commented starter config file (never overwrites one)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand version" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -l db -d 'The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand schema" -s V -l version -d 'Print version'

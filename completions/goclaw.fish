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

complete -c goclaw -n "__fish_goclaw_needs_command" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_needs_command" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_needs_command" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_needs_command" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_needs_command" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c goclaw -n "__fish_goclaw_needs_command" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "scrub" -d 'Redact credentials from text: files or stdin to stdout'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "guard" -d 'Detect prompt injection in a message'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "sanitize" -d 'Clean LLM output: tool-call debris, thinking blocks, echoed system text'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "tools" -d 'List, describe and run tools through the gate; read the audit trail'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "policy" -d 'Explain the tool policy for an agent, or for one call'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "approvals" -d 'Manage the exec allowlist'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "db" -d 'Inspect and maintain the SQLite store'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "config" -d 'Show or create the configuration'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "help" -d 'Show help for a command, or a topic: exit-codes'
complete -c goclaw -n "__fish_goclaw_needs_command" -f -a "__sandbox-exec" -d 'Internal: apply the exec sandbox, then run a command (used by exec itself)'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l value -d 'A credential value to redact wherever it appears (repeatable; under 6 bytes is ignored)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l values-file -d 'A file of credential values, one per line (repeatable)' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l server-ip -d 'A server address to redact as [SERVER_IP] (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l detect-server-ips -d 'Also redact this host\'s non-loopback interface addresses (no network requests)'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l json-values -d 'The input is JSON (documents or JSON Lines): scrub every string value on its own, keep the JSON valid, print one compact document per line'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l check -d 'Print only a report; exit 1 when anything would be redacted, 0 otherwise'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l report -d 'Also write a JSON report (counts and line numbers per pattern, never a secret) to stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand scrub" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l mode -d 'off | log | warn | block [default: [guard] mode, else warn]' -r -f -a "off\t'No scan at all'
log\t'Scan and note matches at info level'
warn\t'Scan and warn on matches; processing continues'
block\t'Scan and refuse the message on a match'"
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l max-chars -d 'Cut messages longer than this many bytes, as the agent loop does [default: [guard] max_message_chars, else 32000]' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c goclaw -n "__fish_goclaw_using_subcommand guard" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand sanitize" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -f -a "list" -d 'The tools an agent may use: name, groups, risk, allowed'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -f -a "describe" -d 'A tool\'s description and JSON schema'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -f -a "exec" -d 'Run a tool through the gate: policy → rate limit → approval → execution → scrubbing → audit'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and not __fish_seen_subcommand_from list describe exec history" -f -a "history" -d 'The audit trail: recent calls, newest first, as JSON Lines'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l agent -d 'The agent whose policy applies (a key of [agents] in config)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l all -d 'Show the tools the policy removes too'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from describe" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l user -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l session -d 'Session key: the rate limit counts per session' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l channel -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l chat-id -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l provider -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l on-ask -d 'When an approval is needed and there is no terminal: deny (exit 3), fail (exit 1), allow' -r -f -a "deny\t'Refuse the call (exit 3)'
fail\t'Return a tool error saying approval was required (exit 1)'
allow\t'Run it'"
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l dry-run -d 'Show what the gate would decide (and which sandbox would apply); run nothing'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from exec" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l limit -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l tool -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l session -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand tools; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and not __fish_seen_subcommand_from explain" -f -a "explain" -d 'Show the final tool list and, for each step, the rule that applied and what it changed'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l agent -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l provider -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l group-allow -d 'The chat group\'s allow list (comma-separated names or group:NAME)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l request-allow -d 'A per-request allow list (comma-separated)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l tool -d 'Explain one call of this tool' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l args -d 'The call\'s arguments: JSON, @FILE or -' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l subagent -d 'Apply the subagent deny list'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l leaf -d 'Apply the leaf-subagent deny list too'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand policy; and __fish_seen_subcommand_from explain" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -f -a "list" -d 'List the entries'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -f -a "allow" -d 'Allow PROGRAM with an optional argument prefix'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -f -a "deny" -d 'Deny PROGRAM with an optional argument prefix (wins over allow entries and allow mode)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and not __fish_seen_subcommand_from list allow deny revoke" -f -a "revoke" -d 'Remove an entry by id'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l note -r
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l note -r
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from deny" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "path" -d 'Print the store\'s path (does not create it)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "schema" -d 'Print the schema: every table and index as SQL'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "migrate" -d 'Apply pending migrations (every command does this on first use)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "check" -d 'Check integrity and migration state, without changing anything; exit 1 when unhealthy'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "backup" -d 'Copy the store to FILE with SQLite\'s online backup API (safe while others write)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and not __fish_seen_subcommand_from path schema migrate check backup query" -f -a "query" -d 'Run one read-only SQL statement; rows as JSON Lines (one object per row)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from schema" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from migrate" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l force -d 'Replace FILE if it exists'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from backup" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l param -d 'A value for the next `?` placeholder (repeatable)' -r
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand db; and __fish_seen_subcommand_from query" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -f -a "path" -d 'Print the resolved paths: config file, store, workspace, and where each came from'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -f -a "show" -d 'Print the effective configuration (secrets scrubbed): TOML on a terminal, else JSON'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and not __fish_seen_subcommand_from path show init" -f -a "init" -d 'Write a commented starter config file (never overwrites one)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand config; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand completions" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand help" -s V -l version -d 'Print version'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l rw -d 'A path the command may write' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l db -d 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l config -d 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l workspace -d 'The workspace directory tools work in [default: the current directory]' -r -F
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l net -d 'Allow the network'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l json -d 'Print JSON even on a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -l human -d 'Print human text even when stdout is not a terminal'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -s q -l quiet -d 'Print no warnings or notes on stderr (errors still are)'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -s v -l verbose -d 'Say more on stderr'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -s h -l help -d 'Print help'
complete -c goclaw -n "__fish_goclaw_using_subcommand __sandbox-exec" -s V -l version -d 'Print version'

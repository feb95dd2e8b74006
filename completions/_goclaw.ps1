
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'goclaw' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'goclaw'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'goclaw' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('scrub', 'scrub', [CompletionResultType]::ParameterValue, 'Redact credentials from text: files or stdin to stdout')
            [CompletionResult]::new('guard', 'guard', [CompletionResultType]::ParameterValue, 'Detect prompt injection in a message')
            [CompletionResult]::new('sanitize', 'sanitize', [CompletionResultType]::ParameterValue, 'Clean LLM output: tool-call debris, thinking blocks, echoed system text')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List, describe and run tools through the gate; read the audit trail')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Explain the tool policy for an agent, or for one call')
            [CompletionResult]::new('approvals', 'approvals', [CompletionResultType]::ParameterValue, 'Manage the exec allowlist')
            [CompletionResult]::new('db', 'db', [CompletionResultType]::ParameterValue, 'Inspect and maintain the SQLite store')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show or create the configuration')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Show help for a command, or a topic: exit-codes')
            [CompletionResult]::new('__sandbox-exec', '__sandbox-exec', [CompletionResultType]::ParameterValue, 'Internal: apply the exec sandbox, then run a command (used by exec itself)')
            break
        }
        'goclaw;scrub' {
            [CompletionResult]::new('--value', '--value', [CompletionResultType]::ParameterName, 'A credential value to redact wherever it appears (repeatable; under 6 bytes is ignored)')
            [CompletionResult]::new('--values-file', '--values-file', [CompletionResultType]::ParameterName, 'A file of credential values, one per line (repeatable)')
            [CompletionResult]::new('--server-ip', '--server-ip', [CompletionResultType]::ParameterName, 'A server address to redact as [SERVER_IP] (repeatable)')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--detect-server-ips', '--detect-server-ips', [CompletionResultType]::ParameterName, 'Also redact this host''s non-loopback interface addresses (no network requests)')
            [CompletionResult]::new('--json-values', '--json-values', [CompletionResultType]::ParameterName, 'The input is JSON (documents or JSON Lines): scrub every string value on its own, keep the JSON valid, print one compact document per line')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Print only a report; exit 1 when anything would be redacted, 0 otherwise')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write a JSON report (counts and line numbers per pattern, never a secret) to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;guard' {
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'off | log | warn | block [default: [guard] mode, else warn]')
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'Cut messages longer than this many bytes, as the agent loop does [default: [guard] max_message_chars, else 32000]')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;sanitize' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;tools' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The tools an agent may use: name, groups, risk, allowed')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'A tool''s description and JSON schema')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a tool through the gate: policy → rate limit → approval → execution → scrubbing → audit')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The audit trail: recent calls, newest first, as JSON Lines')
            break
        }
        'goclaw;tools;list' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent whose policy applies (a key of [agents] in config)')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Show the tools the policy removes too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;tools;describe' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;tools;exec' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'agent')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'user')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session key: the rate limit counts per session')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'channel')
            [CompletionResult]::new('--chat-id', '--chat-id', [CompletionResultType]::ParameterName, 'chat-id')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'provider')
            [CompletionResult]::new('--on-ask', '--on-ask', [CompletionResultType]::ParameterName, 'When an approval is needed and there is no terminal: deny (exit 3), fail (exit 1), allow')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what the gate would decide (and which sandbox would apply); run nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;tools;history' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'limit')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'tool')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'session')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'agent')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;policy' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show the final tool list and, for each step, the rule that applied and what it changed')
            break
        }
        'goclaw;policy;explain' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'agent')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'provider')
            [CompletionResult]::new('--group-allow', '--group-allow', [CompletionResultType]::ParameterName, 'The chat group''s allow list (comma-separated names or group:NAME)')
            [CompletionResult]::new('--request-allow', '--request-allow', [CompletionResultType]::ParameterName, 'A per-request allow list (comma-separated)')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Explain one call of this tool')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'The call''s arguments: JSON, @FILE or -')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--subagent', '--subagent', [CompletionResultType]::ParameterName, 'Apply the subagent deny list')
            [CompletionResult]::new('--leaf', '--leaf', [CompletionResultType]::ParameterName, 'Apply the leaf-subagent deny list too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;approvals' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the entries')
            [CompletionResult]::new('allow', 'allow', [CompletionResultType]::ParameterValue, 'Allow PROGRAM with an optional argument prefix')
            [CompletionResult]::new('deny', 'deny', [CompletionResultType]::ParameterValue, 'Deny PROGRAM with an optional argument prefix (wins over allow entries and allow mode)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove an entry by id')
            break
        }
        'goclaw;approvals;list' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;approvals;allow' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'note')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;approvals;deny' {
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'note')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;approvals;revoke' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the store''s path (does not create it)')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the schema: every table and index as SQL')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Apply pending migrations (every command does this on first use)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check integrity and migration state, without changing anything; exit 1 when unhealthy')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Copy the store to FILE with SQLite''s online backup API (safe while others write)')
            [CompletionResult]::new('query', 'query', [CompletionResultType]::ParameterValue, 'Run one read-only SQL statement; rows as JSON Lines (one object per row)')
            break
        }
        'goclaw;db;path' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db;schema' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db;migrate' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db;check' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db;backup' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace FILE if it exists')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;db;query' {
            [CompletionResult]::new('--param', '--param', [CompletionResultType]::ParameterName, 'A value for the next `?` placeholder (repeatable)')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;config' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the resolved paths: config file, store, workspace, and where each came from')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective configuration (secrets scrubbed): TOML on a terminal, else JSON')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented starter config file (never overwrites one)')
            break
        }
        'goclaw;config;path' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;config;show' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;config;init' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;completions' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;help' {
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'goclaw;__sandbox-exec' {
            [CompletionResult]::new('--rw', '--rw', [CompletionResultType]::ParameterName, 'A path the command may write')
            [CompletionResult]::new('--db', '--db', [CompletionResultType]::ParameterName, 'The SQLite store [default: $GOCLAW_HOME/goclaw.db or $XDG_DATA_HOME/goclaw/goclaw.db]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The workspace directory tools work in [default: the current directory]')
            [CompletionResult]::new('--net', '--net', [CompletionResultType]::ParameterName, 'Allow the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON even on a terminal')
            [CompletionResult]::new('--human', '--human', [CompletionResultType]::ParameterName, 'Print human text even when stdout is not a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings or notes on stderr (errors still are)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

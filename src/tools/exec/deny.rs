//! The deny groups of `exec` (reference §4.3): 15 groups of Go patterns, checked in this order
//! against the raw command, first match wins. goclaw also checks every parsed simple command
//! (quotes removed, wrappers such as `env`, `nice`, `timeout` and `bash -c` unwrapped), so that
//! `r""m -rf /` or `env X=1 rm -rf /` are caught as `rm -rf /` is. Pure.

use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;

use crate::text::translate_go;

/// One deny group: its name, title and patterns (Go syntax, exactly as GoClaw's).
#[derive(Debug)]
pub struct DenyGroup {
    pub name: &'static str,
    pub title: &'static str,
    pub patterns: &'static [&'static str],
}

/// The group whose matches ask for approval instead of being refused.
pub const PACKAGE_INSTALL: &str = "package_install";

pub const DENY_GROUPS: [DenyGroup; 15] = [
    DenyGroup {
        name: "destructive_ops",
        title: "Destructive Operations",
        patterns: &[
            r"\brm\s+-[rf]{1,2}\b",
            r"\brm\s+.*--recursive",
            r"\brm\s+.*--force",
            // goclaw: rm's flags in any order and spelling (`-Rf`, `-fR`, `-rfv`, `-v -r`).
            r"\brm\s+([^\s;&|]+\s+)*-[a-zA-Z]*[rRf][a-zA-Z]*\b",
            // goclaw: GNU's abbreviated long options (`--rec`, `--f`).
            r"\brm\s+([^\s;&|]+\s+)*--(r(e(c(u(r(s(i(ve?)?)?)?)?)?)?)?|f(o(r(ce?)?)?)?)\b",
            // goclaw: deletion by other means, from an absolute path.
            r"\bfind\s+/\S*(\s.*)?\s-(delete|exec\s+(rm|shred)\b)",
            r"\b(shred|wipefs|blkdiscard|sfdisk|sgdisk|cryptsetup)\b.*\s/dev/",
            r"\bparted\b.*\s/dev/",
            r"\bmk(e2fs|swap|ntfs|dosfs|fs\.\w+)\b",
            r"\bdd\b.*\bof=/dev/(sd|nvme|vd|xvd|hd|mmcblk|disk)",
            r">\s*/dev/(sd[a-z]|nvme\d|vd[a-z]|xvd[a-z]|hd[a-z]|mmcblk\d)",
            r"\brsync\b.*--delete\b.*\s/(\s|$)",
            r"\b(shred|truncate|unlink)\b.*\s/(etc|bin|sbin|usr|lib|boot|var)/",
            r"\b(mv|rmdir)\s+([^\s;&|]+\s+)*/+\.?(\s|$)",
            r"\bgit\s+clean\b.*\s/(\s|$)",
            r#"\b(shutil\.rmtree|rmtree|rmSync|rm_rf|rm_r)\s*\(?\s*['"]/['"]"#,
            r"\bdel\s+/[fq]\b",
            r"\brmdir\s+/s\b",
            r"\b(mkfs|diskpart)\b|\bformat\s",
            r"\bdd\s+if=",
            r">\s*/dev/sd[a-z]\b",
            r"\b(shutdown|reboot|poweroff|halt)\b",
            r"\b(init|telinit)\s+[06]\b",
            r"\bsystemctl\s+(suspend|hibernate)\b",
            r":\(\)\s*\{.*\};\s*:",
        ],
    },
    DenyGroup {
        name: "data_exfiltration",
        title: "Data Exfiltration",
        patterns: &[
            r"\bcurl\b.*\|\s*(ba)?sh\b",
            // goclaw: any shell, by any path (the views give programs by base name).
            r"\b(curl|wget)\b.*\|\s*(sudo\s+)?(ba|da|z|k|a)?sh\b",
            r"\b(curl|wget)\b.*\|\s*(sudo\s+)?(busybox\s+)?(ba|da|z|k|a|mk|ya|c|tc)?sh\b",
            r"\b(curl|wget)\b.*\|\s*(sudo\s+)?(fish|python[0-9.]*|perl|ruby|node|php)\b",
            r"\b(ba|da|z|k)?sh\s+<\(\s*(curl|wget)\b",
            r"\bsource\s+<\(|\.\s+<\(",
            r"\bcurl\b.*(-d\b|-F\b|--data|--upload|--form|-T\b|(-X|--request)\s*P(UT|OST|ATCH))",
            r"\bwget\b.*-O\s*-\s*\|\s*(ba)?sh\b",
            r"\bwget\b.*(--post-(data|file)|--method=P(UT|OST|ATCH)|--body-data)",
            r"\b(nslookup|dig|host)\b",
            r"/dev/tcp/",
            r"\b(curl|wget)\b.*\blocalhost\b",
            r"\b(curl|wget)\b.*\b127\.0\.0\.1\b",
            r"\b(curl|wget)\b.*\b0\.0\.0\.0\b",
        ],
    },
    DenyGroup {
        name: "reverse_shell",
        title: "Reverse Shell",
        patterns: &[
            r"\b(nc|ncat|netcat)\b.*(\s+-[a-z]|\s+\d+\.\d+\.\d+\.\d+|\s+localhost\b)",
            r"\b(nc|ncat|netcat)\b.*--(sh-)?exec\b",
            r#"\bpython[0-9.]*\b.*(\b(import|from)\b[^;\n]*\b(socket|http|urllib|requests|httpx|aiohttp)\b|__import__\(\s*['"](socket|urllib|http))"#,
            r"\bperl\b.*-([eEM]|MIO).*\b[Ss]ocket\b",
            r#"\bnode\b.*require\s*\(\s*['"](net|dgram|tls|child_process)['"]\s*\)"#,
            r"\bphp\b.*\b(fsockopen|socket_create|stream_socket_client)\b",
            r"/in\W*et/",
            r"\bsocat\b",
            r"\bopenssl\b.*s_client",
            r"\btelnet\b.*\d+",
            r"\bpython[23]?\b.*(import|from)\s+(socket|http|urllib|requests|httpx|aiohttp)\b",
            r"\bperl\b.*-e\s*.*\b[Ss]ocket\b",
            r"\bruby\b.*-e\s*.*\b(TCPSocket|Socket)\b",
            r"\bnode\b.*-e\s*.*\b(net\.|http\.|https\.|fetch\(|axios|got\(|undici)\b",
            r#"\bnode\b.*-e\s*.*require\s*\(\s*['"]https?['"]\s*\)"#,
            r"\bawk\b.*/inet/",
            r"\bmkfifo\b",
        ],
    },
    DenyGroup {
        name: "code_injection",
        title: "Code Injection",
        patterns: &[
            r"\beval\s*\$",
            r"\bbase64\s+(-d\w*|--decode)\b.*\|\s*(ba)?sh\b",
            r"\bbase64\s+(-d\w*|--decode)\b.*\|\s*(sudo\s+)?(ba|da|z|k|a)?sh\b",
        ],
    },
    DenyGroup {
        name: "privilege_escalation",
        title: "Privilege Escalation",
        patterns: &[
            r"\bsudo\b",
            r"\bsu\b",
            r"\bdoas\b",
            r"\bpkexec\b",
            r"\brunuser\b",
            r"\bnsenter\b",
            r"\bunshare\b",
            r"\b(mount|umount)\b",
            r"\b(capsh|setcap|getcap)\b",
            // goclaw: more ways to become someone else.
            r"\b(chroot|setpriv|systemd-run|machinectl|sudoedit)\b",
            r"\b(newgrp|sg|firejail|fusermount|bwrap)\b",
            r"\bpodman\s+(run|exec|create)\b.*(--privileged|-v\s*/:|--pid[= ]host)",
            r"\bos\.set(e?[ug]id|res[ug]id)\s*\(\s*0",
            r"\bchmod\s+([^\s;&|]+\s+)*([ugoa]*\+[rwxX]*s|[2-7][0-7]{3})\b",
            r"\bdocker\s+(run|exec|create)\b.*(--privileged|-v\s*/:|--pid[= ]host)",
        ],
    },
    DenyGroup {
        name: "dangerous_paths",
        title: "Dangerous Paths",
        patterns: &[
            r"\bchmod\s+[0-7]{3,4}\s+/",
            // goclaw: with flags before the mode (`chmod -R 777 /`), or any mode on `/` itself.
            r"\bchmod\s+(-\S+\s+)+[0-7]{3,4}\s+/",
            r"\bchmod\s+(-\S+\s+)*\S+\s+/\s*($|[;&|])",
            // goclaw: any argument that is the root however spelled (`/.`, `//`, `/*`).
            r"\b(chmod|chown|chgrp|setfacl)\s+([^\s;&|]+\s+)*/+[.*]?\s*($|[;&|])",
            r"\bfind\s+/\S*(\s.*)?\s-exec\s+(chmod|chown|chgrp)\b",
            r#"\bos\.(chmod|chown)\s*\(\s*['"]/['"]"#,
            r"\bchown\b.*\s+/",
            r"\bchmod\b.*\+x.*/tmp/",
            r"\bchmod\b.*\+x.*/var/tmp/",
            r"\bchmod\b.*\+x.*/dev/shm/",
        ],
    },
    DenyGroup {
        name: "env_injection",
        title: "Environment Injection",
        patterns: &[
            r"\bLD_PRELOAD\s*=",
            r"\bDYLD_INSERT_LIBRARIES\s*=",
            r"\bLD_LIBRARY_PATH\s*=",
            r"/etc/ld\.so\.preload",
            r"\bGIT_EXTERNAL_DIFF\s*=",
            r"\bGIT_DIFF_OPTS\s*=",
            r"\bBASH_ENV\s*=",
            r"\bLD_AUDIT\s*=",
            r"\b(NODE_OPTIONS|PERL5OPT|PYTHONSTARTUP|RUBYOPT)\s*=",
            r"\bENV\s*=.*\bsh\b",
        ],
    },
    DenyGroup {
        name: "container_escape",
        title: "Container Escape",
        patterns: &[
            r"/var/run/docker\.sock|docker\.(sock|socket)",
            r"(podman|containerd|crio)\.sock",
            r"\bcurl\b.*--unix-socket\b",
            r"/proc/sys/(kernel|fs|net)/",
            r"/sys/(kernel|fs|class|devices)/",
        ],
    },
    DenyGroup {
        name: "crypto_mining",
        title: "Crypto Mining",
        patterns: &[
            r"\b(xmrig|cpuminer|minerd|cgminer|bfgminer|ethminer|nbminer|t-rex|phoenixminer|lolminer|gminer|claymore)\b",
            // goclaw: in any letter case, and more names and pool schemes.
            r"(?i)\b(xmrig|xmr-stak|t-rex|ccminer|srbminer|teamredminer|nanominer|bzminer|onezerominer|cpuminer|ethminer|lolminer|nbminer|gminer)\b",
            r"(?i)stratum2?\+(tcp|ssl|tls)://",
            r"stratum\+tcp://|stratum\+ssl://",
        ],
    },
    DenyGroup {
        name: "filter_bypass",
        title: "Filter Bypass",
        patterns: &[
            r#"\bsed\b.*['"]/e\b"#,
            r"\bsort\b.*--compress-program",
            r"\bgit\b.*(--upload-pack|--receive-pack|--exec)=",
            r"\b(rg|grep)\b.*--pre=",
            r"\bman\b.*--html=",
            r"\bhistory\b.*-[saw]\b",
            r"\$\{[^}]*@[PpEeAaKk]\}",
        ],
    },
    DenyGroup {
        name: "network_recon",
        title: "Network Reconnaissance",
        patterns: &[
            r"\b(nmap|masscan|zmap|rustscan)\b",
            r"\b(ssh|scp|sftp)\b.*@",
            r"\b(chisel|frp|ngrok|cloudflared|bore|localtunnel)\b",
        ],
    },
    DenyGroup {
        name: "package_install",
        title: "Package Installation",
        patterns: &[
            r"\bpip3?\s+install\b",
            r"\bnpm\s+install\b",
            r"\bnpm\s+i\b",
            r"\bapk\s+(add|del)\b",
            r"\bdoas\s+apk\b",
            r"\byarn\s+(add|global)\b",
            r"\bpnpm\s+(add|install)\b",
            r"\bpip3?\s+uninstall\b",
            r"\bnpm\s+uninstall\b",
            r"\bpython[23]?\b.*-m\s+pip\b",
        ],
    },
    DenyGroup {
        name: "persistence",
        title: "Persistence",
        patterns: &[
            r"\bcrontab\b",
            r">\s*~/?\.(bashrc|bash_profile|profile|zshrc)",
            // goclaw: a shell start-up file however its directory is spelled (`$HOME/.bashrc`).
            r">\s*\S*\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin)\b",
            r"\btee\b.*\.(bashrc|bash_profile|profile|zshrc)",
            // goclaw: start-up files written any other way, system-wide ones, cron and at.
            r"\b(cp|mv|ln|install|tee|rsync|dd)\b.*\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin)\b",
            r"\b(sed|perl)\s+(-\S+\s+)*-i.*\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)\b",
            r"\bof=\S*\.(bashrc|bash_profile|profile|zshrc)\b",
            r">\s*/etc/(profile|bash\.bashrc|zsh/|environment|cron)",
            r"\s/etc/(cron\.|crontab)|/var/spool/cron/",
            r"^\s*(\S+=\S*\s+)*at\s+(now|noon|midnight|teatime|\d)",
            r">\s*\S*\.(bash_aliases|inputrc)\b|config\.fish\b|\.ssh/authorized_keys\b",
            r">\s*\S*/\.(bash|zsh|profile)\S*[?*\[]",
            r"\b(tee|sponge)\b.*\s\S*/\.(bash|zsh|profile)\S*",
            r"\bgit\s+config\s+(--global|--system)\s+(core\.(pager|editor|sshCommand|fsmonitor|hooksPath)|alias\.)",
            // goclaw: the same with other options between, SSH keys however globbed, and what
            // a desktop or systemd starts at login.
            r"\bgit\s+config\b.*\s--(global|system)\b.*\s(--\S+\s+)*(core\.(pager|editor|sshCommand|fsmonitor|hooksPath)|alias\.)",
            r"\.ssh/authorized_key\S*[?*\[]",
            r"\.config/(autostart|systemd/user)(/|\b)",
            r#"\bopen\s*\(\s*['"][^'"]*\.(bashrc|bash_profile|profile|zshrc)['"]\s*,\s*['"][aw]"#,
        ],
    },
    DenyGroup {
        name: "process_control",
        title: "Process Control",
        patterns: &[
            r"\bkill\s+-9\s",
            r"\b(killall|pkill)\b",
            // goclaw: SIGKILL by name or `-s`, and every process (`-1`).
            r"(?i)\bkill\s+(-s\s*0*(9|(SIG)?KILL)|--signal[= ]\s*0*(9|(SIG)?KILL)|-n\s*0*9|-0*(9|(SIG)?KILL))\b",
            // goclaw: any signal to init or to every process.
            r"\bkill\s+([^\s;&|]+\s+)*-?1\s*($|[;&|])",
            r"\bos\.kill(pg)?\s*\(\s*-?1\s*,|\bkill\s+9\s*,\s*-?1\b",
            r"\bkillall5\b",
            r"\bkill\s+([^\s;&|]+\s+)*-1(\s|$)",
        ],
    },
    DenyGroup {
        name: "env_dump",
        title: "Environment Dump",
        patterns: &[
            r"^\s*env\s*$",
            r"^\s*env\s*\|",
            r"^\s*env\s*>\s",
            r"^\s*env(\s+-\S*)*\s*($|[|>;&])",
            r"^\s*(export|set|declare\s+-\S*p\S*|typeset\s+-\S*x\S*)\s*($|[|>;&0-9])",
            r"/proc/+(\./+)*[^/\s]+/+(\./+)*envi",
            r"\bps\s+\S*e\S*w",
            r"\bcd\s+/proc/\S+",
            r"/proc/\S*(\$|/e[^/\s]*[?*\[])",
            r"^\s*(export|readonly|local|typeset|declare)\s+-\S*p",
            r"\bcompgen\s+-[ve]\b",
            r"\$\{![^}]*\}",
            r"\bprint\s*\(\s*(dict\s*\(\s*)?os\.environ\b|console\.log\s*\(\s*process\.env\s*\)|\bENV\.to_h\b|\bin\s+ENVIRON\b|\bkeys\s+%ENV\b|\bgetenv\s*\(\s*\)",
            r"^\s*busybox\s+env\b",
            // goclaw: `env` with options or assignments but no command (`env -0`, `env -i`).
            r"^\s*env(\s+(-0|--null|-i|--ignore-environment|-u\s*\S+|--unset=\S+|-|[A-Za-z_][A-Za-z0-9_]*=\S*))*\s*($|[|>;&])",
            r"\bprintenv\b",
            r"^\s*(set|export\s+-p|declare\s+-x)\s*($|\|)",
            r"\bcompgen\s+-e\b",
            r"/proc/[^/]+/environ",
            // goclaw: a thread's environment, and Perl's whole %ENV.
            r"/proc/\S*/environ\b",
            r"\bprint\s+%ENV\b",
            r"/proc/self/environ",
            r"(?i)\bstrings\b.*/proc/",
            // goclaw: every variable at once, by other spellings.
            r"^\s*(declare|typeset)\s*($|[|>;&])",
            r"\bcompgen\s+-A\s*(export|variable)\b",
            r"\bos\.environ\s*($|[),;\]]|\.(items|copy|keys|values)\b)",
            r"%ENV\b",
            r"\bENV\.(to_h|to_a|each|inspect|keys|values|map|select)\b",
            r"\bprocess\.env\s*($|[),;\]])",
            r"(?i)\becho\b.*\$\{?GOCLAW_(GATEWAY_TOKEN|ENCRYPTION_KEY|POSTGRES_DSN)",
            r"(?i)\bprintf\b.*\$\{?GOCLAW_(GATEWAY_TOKEN|ENCRYPTION_KEY|POSTGRES_DSN)",
            r"\bpython[23]?\b.*os\.(environ|getenv).*GOCLAW_",
            r"\bnode\b.*-e.*process\.env\.GOCLAW_",
        ],
    },
];

/// One deny pattern: its group (an index into [`DENY_GROUPS`]), its Go source, the words every
/// match of it begins with (when its source says), and its regex, compiled the first time a
/// text may match it. A command line holds few of the words, so a call compiles a few dozen of
/// the ~175 patterns, not all (compiling was most of an `exec` call's own time).
struct Pattern {
    group: usize,
    go: &'static str,
    leading: Option<crate::text::leading::Leading<'static>>,
    regex: std::sync::OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// Whether the pattern matches one of `texts`, and which; an error when it does not compile.
    fn first_match<'t>(&self, texts: &'t [String]) -> Result<Option<&'t String>, String> {
        let mut candidates = texts
            .iter()
            .filter(|t| {
                self.leading
                    .as_ref()
                    .is_none_or(|l| l.may_match(t.as_bytes()))
            })
            .peekable();
        if candidates.peek().is_none() {
            return Ok(None);
        }
        let regex = self.regex().as_ref().map_err(Clone::clone)?;
        Ok(candidates.find(|t| regex.is_match(t.as_bytes())))
    }

    /// Its regex, compiled on first use.
    fn regex(&self) -> &Result<Regex, String> {
        self.regex.get_or_init(|| compile(self.go))
    }
}

/// Every pattern, in check order, none compiled yet.
static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for (g, group) in DENY_GROUPS.iter().enumerate() {
        for go in group.patterns {
            out.push(Pattern {
                group: g,
                go,
                leading: crate::text::leading::leading(go),
                regex: std::sync::OnceLock::new(),
            });
        }
    }
    out
});

/// One deny pattern, compiled for speed of compiling: an `exec` call compiles the ones its
/// command line may match (see [`Pattern`]) to ask each once whether it matches a text of a few
/// hundred bytes at most. They
/// only ever judge ASCII structure, so without Unicode (`.` and `[^…]` are bytes); only the
/// lazy DFA, which is built as it searches, and the NFA under it: no full DFA, no one-pass DFA,
/// no capture groups (only `is_match` is asked), and no literal prefilter (an Aho-Corasick
/// automaton per pattern, built to skip through long texts). Which texts match is the same;
/// compiling them is what changes (~150 patterns: 58 M instructions before the last four).
fn compile(pattern: &str) -> Result<Regex, String> {
    let translated = translate_go(pattern)?;
    Regex::builder()
        .configure(
            Regex::config()
                .dfa(false)
                .onepass(false)
                .auto_prefilter(false)
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::None),
        )
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .build(&translated)
        .map_err(|e| format!("pattern {pattern:?} does not compile: {e}"))
}

/// A matched deny pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenyMatch {
    pub group: &'static str,
    pub pattern: String,
    /// The text it matched in: the raw command or one parsed simple command.
    pub matched_in: String,
}

/// Is a group active? Every group is on unless `overrides` turns it off.
pub fn group_enabled(name: &str, overrides: &std::collections::BTreeMap<String, bool>) -> bool {
    overrides.get(name).copied().unwrap_or(true)
}

/// The first active pattern that matches any of `texts` (raw command first), then the literal
/// path denies (`denied_paths`, substring match). Fails closed if a pattern that might match
/// does not compile.
pub fn check(
    texts: &[String],
    overrides: &std::collections::BTreeMap<String, bool>,
    denied_paths: &[String],
) -> Option<DenyMatch> {
    for pattern in PATTERNS.iter() {
        let group = &DENY_GROUPS[pattern.group];
        if !group_enabled(group.name, overrides) {
            continue;
        }
        match pattern.first_match(texts) {
            Ok(None) => {}
            Ok(Some(t)) => {
                return Some(DenyMatch {
                    group: group.name,
                    pattern: pattern.go.to_string(),
                    matched_in: t.clone(),
                });
            }
            // Fails closed: a pattern that does not compile refuses every command it might
            // match.
            Err(e) => {
                return Some(DenyMatch {
                    group: "internal",
                    pattern: e,
                    matched_in: String::new(),
                });
            }
        }
    }
    for path in denied_paths.iter().filter(|p| !p.is_empty()) {
        // Globs are matched against goclaw's own absolute paths (its store, its config): a
        // relative mention (`.goclaw/`) would refuse everyday globs (`ls -la .*`), and the
        // sandbox masks it anyway.
        let named = |t: &&String| {
            t.contains(path.as_str())
                || (path.starts_with('/') && t.split_whitespace().any(|w| glob_reaches(w, path)))
        };
        if let Some(t) = texts.iter().find(named) {
            return Some(DenyMatch {
                group: "denied_paths",
                pattern: path.clone(),
                matched_in: t.clone(),
            });
        }
    }
    None
}

/// Whether the glob `word` (`/tmp/st?te/g.d?`, `.gocla*/x`) names `path` or something beneath
/// it, part by part, as the shell would expand it: a literal path denied is denied however it
/// is globbed.
fn glob_reaches(word: &str, path: &str) -> bool {
    if !word.contains(['*', '?', '[']) {
        return false;
    }
    let path: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let word: Vec<&str> = word.split('/').collect();
    word.len() >= path.len()
        && path.iter().zip(&word).all(|(p, w)| {
            p == w
                // As the shell globs: a name that starts with a dot only by a dot written.
                || (p.starts_with('.') == w.starts_with('.')
                    && globset::Glob::new(w)
                        .map(|g| g.compile_matcher().is_match(p))
                        .unwrap_or(false))
        })
}

/// Every pattern compiles (checked by a test, and by `check` failing closed): the first error.
pub fn compile_error() -> Option<String> {
    PATTERNS
        .iter()
        .find_map(|p| p.regex().as_ref().err().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a pattern is skipped without are in every match of it: each prefix
    /// regex-syntax's literal extractor finds for it begins with one of them.
    #[test]
    fn a_pattern_is_skipped_only_where_it_cannot_match() {
        use regex_syntax::hir::literal::Extractor;
        let mut proved = 0;
        for p in PATTERNS.iter() {
            let Some(leading) = &p.leading else { continue };
            let hir = syntax::parse_with(
                &translate_go(p.go).unwrap(),
                &syntax::Config::new().unicode(false).utf8(false),
            )
            .unwrap();
            // Limits high enough that no prefix is cut shorter than its word (a `(?i)` word
            // of 12 letters is 4 096 literals).
            let mut extractor = Extractor::new();
            extractor
                .limit_literal_len(64)
                .limit_class(64)
                .limit_total(1 << 20);
            let Some(prefixes) = extractor.extract(&hir).literals().map(<[_]>::to_vec) else {
                continue;
            };
            for prefix in prefixes {
                let bytes = prefix.as_bytes();
                assert!(
                    leading.words.iter().any(|w| {
                        bytes.len() >= w.len()
                            && if leading.case_insensitive {
                                bytes[..w.len()].eq_ignore_ascii_case(w.as_bytes())
                            } else {
                                bytes.starts_with(w.as_bytes())
                            }
                    }),
                    "{}: {:?} does not begin with {:?}",
                    p.go,
                    String::from_utf8_lossy(bytes),
                    leading.words
                );
            }
            proved += 1;
        }
        let with_words = PATTERNS.iter().filter(|p| p.leading.is_some()).count();
        assert!(with_words > 120, "{with_words}");
        assert_eq!(proved, with_words, "every skip is proved");
    }

    #[test]
    fn the_first_pattern_in_order_still_wins() {
        let texts = vec!["echo hi".to_string(), "sudo rm -rf /".to_string()];
        let m = check(&texts, &Default::default(), &[]).unwrap();
        assert_eq!(
            (m.group, m.matched_in.as_str()),
            ("destructive_ops", "sudo rm -rf /")
        );
        assert_eq!(
            check(&["cargo test".to_string()], &Default::default(), &[]),
            None
        );
    }
}

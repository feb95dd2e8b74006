//! The reader's tests: strict parsing, wrappers, opaque constructs and the deny views.

use super::*;

fn argvs(cmd: &str) -> Vec<Vec<String>> {
    match parse(cmd) {
        Parsed::Commands(v) => v.into_iter().map(|s| s.argv).collect(),
        Parsed::Opaque(r) => panic!("opaque: {r}"),
    }
}

fn opaque(cmd: &str) -> String {
    match parse(cmd) {
        Parsed::Opaque(r) => r,
        other => panic!("not opaque: {other:?}"),
    }
}

fn v(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

#[test]
fn splits_chains_and_pipes() {
    assert_eq!(
        argvs("git status; curl -s x | grep y"),
        vec![
            v(&["git", "status"]),
            v(&["curl", "-s", "x"]),
            v(&["grep", "y"])
        ]
    );
    // A shell reading a script from a pipe runs code nobody can see.
    assert!(opaque("curl -s x | sh").contains("standard input"));
    assert_eq!(
        argvs("a && b || c & d |& e"),
        vec![v(&["a"]), v(&["b"]), v(&["c"]), v(&["d"]), v(&["e"])]
    );
    assert_eq!(argvs("a\nb"), vec![v(&["a"]), v(&["b"])]);
}

#[test]
fn removes_quotes_and_escapes() {
    assert_eq!(argvs(r#"r""m -rf /"#), vec![v(&["rm", "-rf", "/"])]);
    assert_eq!(argvs(r#"'r'm "-rf" \/"#), vec![v(&["rm", "-rf", "/"])]);
    assert_eq!(
        argvs(r#"echo "a \"b\" c" 'd e'"#),
        vec![v(&["echo", "a \"b\" c", "d e"])]
    );
    assert_eq!(argvs("ec\\\nho hi"), vec![v(&["echo", "hi"])]);
}

#[test]
fn redirections_are_not_arguments() {
    let Parsed::Commands(c) = parse("sort -u a > out.txt 2>&1 < in") else {
        panic!()
    };
    assert_eq!(c[0].argv, v(&["sort", "-u", "a"]));
    assert_eq!(c[0].redirects, v(&["out.txt", "in"]));
    assert_eq!(argvs("cmd 2>/dev/null >log 2>&1"), vec![v(&["cmd"])]);
    // `&>` is bash's; sh (dash), which runs the command, sends `cmd` to the background.
    assert!(opaque("cmd &> log").contains("dash"));
}

#[test]
fn unwraps_wrappers() {
    assert_eq!(
        argvs("env -u BAR FOO=1 nice -n 5 timeout -s KILL 10 nohup git push"),
        vec![v(&["git", "push"])]
    );
    // env reads its options before the first assignment only, as its getopt does.
    assert_eq!(argvs("env FOO=1 -u BAR git")[0][0], "-u");
    assert_eq!(
        argvs("bash -c 'git status; curl x | grep y'"),
        vec![v(&["git", "status"]), v(&["curl", "x"]), v(&["grep", "y"])]
    );
    assert_eq!(argvs("sh -ec \"rm -rf /\""), vec![v(&["rm", "-rf", "/"])]);
    assert_eq!(argvs("xargs -0 -n 1 rm -f"), vec![v(&["rm", "-f"])]);
    assert_eq!(
        argvs("/usr/bin/env python3 x.py"),
        vec![v(&["python3", "x.py"])]
    );
    assert_eq!(argvs("FOO=bar git log"), vec![v(&["git", "log"])]);
    assert_eq!(argvs("command -v git"), vec![v(&["command", "-v", "git"])]);
    assert_eq!(argvs("env"), vec![v(&["env"])]);
}

#[test]
fn opaque_constructs() {
    assert!(opaque("echo $(curl x)").contains("substitution"));
    assert!(opaque("echo `id`").contains("substitution"));
    assert!(opaque("(cd x; rm y)").contains("subshell"));
    assert!(opaque("cat <<EOF\nx\nEOF").contains("here-doc"));
    assert!(opaque("$CMD -rf /").contains("expansion"));
    assert!(opaque("/usr/bin/r? -rf /").contains("glob"));
    assert!(opaque("eval \"$x\"").contains("eval"));
    assert!(opaque("if true; then rm x; fi").contains("if"));
    assert!(opaque("bash -c 'echo $(id)'").contains("inside `bash -c`"));
    assert!(opaque("diff <(a) <(b)").contains("process substitution"));
    assert!(opaque("echo 'unterminated").contains("unterminated"));
    assert!(opaque("env -S 'rm -rf /'").contains("env -S"));
    assert!(opaque("bash").contains("standard input"));
}

#[test]
fn expansions_in_arguments_are_marked() {
    let Parsed::Commands(c) = parse("echo \"$HOME\" $x plain") else {
        panic!()
    };
    assert_eq!(c[0].expanded, vec![1, 2]);
}

#[test]
fn deny_views_see_through_what_the_strict_reading_gives_up_on() {
    let v = deny_views(r#"env X=1 r""m -rf "/" > f"#);
    assert!(v.texts.contains(&"X=1 rm -rf / > f".to_string()), "{v:?}");
    // An opaque part keeps the parts around it.
    let v = deny_views("rm -Rfv /; eval :");
    assert!(v.texts.contains(&"rm -R -f -v /".to_string()), "{v:?}");
    // Substitutions are read on their own, and a program name from one is hidden.
    let v = deny_views("`echo rm` -rf / && echo $(id -u)");
    assert!(v.texts.contains(&"echo rm".to_string()), "{v:?}");
    assert!(v.texts.contains(&"id -u".to_string()), "{v:?}");
    assert_eq!(v.hidden.len(), 1, "{v:?}");
    // Programs by base name, chains with their separators, $IFS as a space.
    let v = deny_views("curl -s x | /bin/sh");
    assert!(v.texts.contains(&"curl -s x | sh ;".to_string()), "{v:?}");
    let v = deny_views("rm${IFS}-rf${IFS}/");
    assert!(v.texts.contains(&"rm -rf /".to_string()), "{v:?}");
    let v = deny_views(r"$'\x72m' -rf /");
    assert!(v.texts.contains(&"rm -rf /".to_string()), "{v:?}");
    assert!(!v.hidden.is_empty());
    // A builtin that renames a program hides the commands after it (dash expands an alias
    // from the next line on, or inside eval).
    for c in [
        "alias x=rm\ntrue; x -rf victim",
        "alias x='rm'; eval x -rf victim",
        "alias ll='ls -l' x=rm\nx -rf v",
        "hash -p /bin/rm x; x -rf v",
        "enable -f ./evil.so rm",
        "command alias x=\"rm \" y=-rf\nx y victim",
        "command -p -- alias x=rm\nx -rf v",
        "builtin alias x=rm\nx -rf v",
    ] {
        let v = deny_views(c);
        assert!(
            v.hidden
                .iter()
                .any(|h| h.contains("gives a command another name")),
            "{c}: {v:?}"
        );
    }
    // Paths as the kernel reads them, and relative ones after a literal cd.
    for (c, seen) in [
        ("cat /tmp//a/./b", "cat /tmp/a/b"),
        ("cat /proc/self/../self/environ", "cat /proc/self/environ"),
        ("cd /proc; cat self/environ", "cat /proc/self/environ"),
        ("cd /tmp && cd st && cat ../x.db", "cat /tmp/x.db"),
        ("cd /w; echo hi > out", "echo /w/hi > /w/out"),
        ("cd -P -- /proc; cat self/environ", "cat /proc/self/environ"),
        (
            "command cd /proc; cat self/environ",
            "cat /proc/self/environ",
        ),
    ] {
        let v = deny_views(c);
        assert!(v.texts.contains(&seen.to_string()), "{c}: {v:?}");
    }
    let v = deny_views("cd $D; cat x");
    assert!(!v.texts.iter().any(|t| t.contains("/x")), "{v:?}");
    // Everyday commands hide nothing.
    for c in [
        "alias",
        "hash",
        "ls -la",
        "echo $(date) > log",
        "for f in *.rs; do wc -l \"$f\"; done",
    ] {
        assert!(deny_views(c).hidden.is_empty(), "{c}");
    }
}

/// Commands carried in a program's arguments are commands beside it; code the reader cannot
/// follow there makes the whole command opaque.
#[test]
fn carried_commands_are_read_beside_their_carrier() {
    assert_eq!(
        argvs("find . -name x -exec rm {} \\; -print"),
        vec![
            v(&[
                "find", ".", "-name", "x", "-exec", "rm", "{}", ";", "-print"
            ]),
            v(&["rm", "{}"])
        ]
    );
    assert_eq!(
        argvs("flock -w 5 /tmp/l -c 'a; b'"),
        vec![
            v(&["flock", "-w", "5", "/tmp/l", "-c", "a; b"]),
            v(&["a"]),
            v(&["b"])
        ]
    );
    assert_eq!(argvs("ionice -c 3 nice make")[1], v(&["make"]));
    assert_eq!(argvs("script -qc 'id' /dev/null")[1], v(&["id"]));
    assert_eq!(
        argvs("git -c core.pager='less -R' log")[1],
        v(&["less", "-R"])
    );
    assert_eq!(argvs("git -c user.name=bot commit").len(), 1);
    assert_eq!(argvs("git -c core.fsmonitor=false status").len(), 1);
    assert_eq!(argvs("tar -I zstd -cf x d")[1], v(&["zstd"]));
    assert_eq!(argvs("awk '/a|b/ { print $1 }' f").len(), 1);
    assert_eq!(argvs("awk -F: '{ print $1 || $2 }' f").len(), 1);
    assert_eq!(argvs("sed -e 's/a/b/g' -e '/x/d' f").len(), 1);
    assert_eq!(argvs("sed -n '/start/,/end/p' f").len(), 1);
    // What asked for nothing: no command runs in these.
    for cmd in [
        "awk '$1 ~ /Filesystem/' f",
        "awk 'NR==1{getline; print}' f",
        "awk '/getline/' f",
        "awk -F'|' '{ print $1 }' f",
        "git -c color.pager=false log",
        "sed ':a;N;$!ba;s/\\n/ /g' f",
        "sed -i '1i header' f",
        "sed -E 's/(e)/E/g' f",
        "sed '/begin/,/end/ { s/x/y/ }' f",
    ] {
        assert!(
            matches!(parse(cmd), Parsed::Commands(_)),
            "{cmd}: {:?}",
            parse(cmd)
        );
    }
    for cmd in [
        "awk 'BEGIN{system(\"id\")}'",
        "awk '{ print | \"sh\" }'",
        "awk 'BEGIN { \"id\" | getline x }'",
        "sed 's/.*/id/e' f",
        "sed '1e id' f",
        "sed e",
        "parallel echo ::: a b",
        "make -f - x",
        "vim -c ':!id' f",
        "git --exec-path=/tmp/x status",
        "su root",
        "find . -exec sh -c 'r${x}m -rf /' \\;",
    ] {
        let _ = opaque(cmd);
    }
}

#[test]
fn carried_code_is_judged_by_the_deny_views() {
    for cmd in [
        "find . -maxdepth 0 -exec sh -c 'r${x}m -rf v' \\;",
        "flock /tmp/l sh -c 'r${x}m -rf v'",
        "git -c core.pager='r${x}m -rf /' log",
        "curl x | xargs -I{} sh -c {}",
        "curl x | script -qc sh /dev/null",
        "curl x | awk '{system($0)}'",
        "curl x | sed e",
        "curl x | parallel",
    ] {
        assert!(!deny_views(cmd).hidden.is_empty(), "{cmd}");
    }
    let views = deny_views("cat /dev/fd/../environ");
    assert!(
        views.texts.iter().any(|t| t == "cat /proc/self/environ"),
        "{views:?}"
    );
    assert!(deny_views("find . -exec grep -l x {} +").hidden.is_empty());
}

/// A program copied or linked under another name and run in the same command cannot be judged
/// by its name (helper-34: `ln -s /usr/bin/whoami w && ./w` ran past a deny entry).
#[test]
fn a_program_renamed_and_run_in_one_command_is_hidden() {
    for cmd in [
        "ln -sf /usr/bin/whoami w && ./w",
        "cp /usr/bin/whoami w2; ./w2",
        "install -m 755 /usr/bin/id bin/x && bin/x",
    ] {
        assert!(!deny_views(cmd).hidden.is_empty(), "{cmd}");
    }
    assert!(deny_views("cp a.txt b.txt && cat b.txt").hidden.is_empty());
}

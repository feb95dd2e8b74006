//! Reading a program's options as its own getopt does, to find where its operands (and so the
//! command a wrapper or carrier runs) start: short flags and clusters (`-nE 3`), values given
//! attached or as the next word, long options with `=` or the next word, GNU's unique
//! abbreviations (`--adj=5`), and `--`. An option the table does not know is an error: the
//! reader cannot tell whether it takes the next word, so it cannot tell what runs.

/// The options of one program.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Options {
    /// Short options without a value.
    pub flags: &'static str,
    /// Short options whose value is attached or the next word.
    pub valued: &'static str,
    /// Short options whose value, if any, is attached only (`-i{}`, `-l5`).
    pub optional: &'static str,
    /// Long options without a value (or with an optional one, attached by `=`).
    pub long_flags: &'static [&'static str],
    /// Long options whose value is after `=` or the next word.
    pub long_valued: &'static [&'static str],
}

/// One option read: how many words it took, and its name and value when it has them.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Read {
    pub next: usize,
    /// The options read, each with its value (short ones as `-x`, long ones as `--name`).
    pub given: Vec<(String, Option<String>)>,
}

impl Options {
    /// No option at all: a table to build others on (`..Options::NONE`).
    pub(super) const NONE: Options = Options {
        flags: "",
        valued: "",
        optional: "",
        long_flags: &[],
        long_valued: &[],
    };

    /// Reads the options of `argv` from `from`; `Ok` says where the operands start. `--` ends
    /// the options; so does the first word that is not one (`-` is an operand).
    pub(super) fn read(&self, argv: &[String], from: usize) -> Result<Read, String> {
        let mut i = from;
        let mut given = Vec::new();
        while i < argv.len() {
            let a = argv[i].as_str();
            if a == "--" {
                i += 1;
                break;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            if let Some(long) = a.strip_prefix("--") {
                i += self.long(long, argv.get(i + 1), &mut given)?;
            } else {
                i += self.short(&a[1..], argv.get(i + 1), &mut given)?;
            }
        }
        Ok(Read { next: i, given })
    }

    fn long(
        &self,
        word: &str,
        next: Option<&String>,
        given: &mut Vec<(String, Option<String>)>,
    ) -> Result<usize, String> {
        let (name, value) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (word, None),
        };
        let known = |list: &[&'static str]| -> Vec<&'static str> {
            match list.iter().find(|l| **l == name) {
                Some(exact) => vec![*exact],
                None => list
                    .iter()
                    .filter(|l| !name.is_empty() && l.starts_with(name))
                    .copied()
                    .collect(),
            }
        };
        let (valued, flags) = (known(self.long_valued), known(self.long_flags));
        match (valued.as_slice(), flags.as_slice()) {
            ([full], []) => Ok(match value {
                Some(v) => {
                    given.push((format!("--{full}"), Some(v)));
                    1
                }
                None => {
                    given.push((format!("--{full}"), next.cloned()));
                    2
                }
            }),
            ([], [full]) => {
                given.push((format!("--{full}"), value));
                Ok(1)
            }
            ([], []) => Err(format!("the option `--{name}` is not one the reader knows")),
            _ => Err(format!("the option `--{name}` is ambiguous")),
        }
    }

    fn short(
        &self,
        cluster: &str,
        next: Option<&String>,
        given: &mut Vec<(String, Option<String>)>,
    ) -> Result<usize, String> {
        for (k, c) in cluster.char_indices() {
            let rest = &cluster[k + c.len_utf8()..];
            if self.flags.contains(c) {
                given.push((format!("-{c}"), None));
                continue;
            }
            if self.optional.contains(c) {
                given.push((
                    format!("-{c}"),
                    Some(rest.to_string()).filter(|r| !r.is_empty()),
                ));
                return Ok(1);
            }
            if self.valued.contains(c) {
                return Ok(if rest.is_empty() {
                    given.push((format!("-{c}"), next.cloned()));
                    2
                } else {
                    given.push((format!("-{c}"), Some(rest.to_string())));
                    1
                });
            }
            return Err(format!("the option `-{c}` is not one the reader knows"));
        }
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    const FLOCK: Options = super::super::specs::SPECS[0].options;

    #[test]
    fn clusters_values_abbreviations_and_the_end_of_options() {
        let at = |words: &[&str]| FLOCK.read(&v(words), 1).map(|r| r.next);
        assert_eq!(at(&["flock", "-nE", "3", "f", "id"]), Ok(3));
        assert_eq!(at(&["flock", "-w5", "f"]), Ok(2));
        assert_eq!(at(&["flock", "--timeout=5", "f"]), Ok(2));
        assert_eq!(at(&["flock", "--time", "5", "f"]), Ok(3));
        assert_eq!(at(&["flock", "--", "-f", "id"]), Ok(2));
        assert_eq!(at(&["flock", "-", "id"]), Ok(1));
        assert!(at(&["flock", "-z", "f"]).is_err());
        assert!(at(&["flock", "--bogus", "f"]).is_err());
        assert!(at(&["flock", "--c", "x"]).is_err(), "close or command");
    }
}

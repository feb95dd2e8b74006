//! Deterministic benchmark corpora for `goclaw scrub` (shared by the benchmark and tests).
//!
//! `log_corpus` is realistic service logs (timestamps, levels, key=value fields, URLs, request
//! ids, UUIDs, durations) with a planted secret in about one line in a thousand; `dense_corpus`
//! puts a secret on most lines.

/// A small xorshift generator: the same seed gives the same corpus on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
    fn alnum(&mut self, out: &mut Vec<u8>, n: usize) {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for _ in 0..n {
            out.push(A[self.below(A.len() as u64) as usize]);
        }
    }
    fn hex(&mut self, out: &mut Vec<u8>, n: usize) {
        const H: &[u8] = b"0123456789abcdef";
        for _ in 0..n {
            out.push(H[self.below(16) as usize]);
        }
    }
}

const LEVELS: &[&str] = &["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const MODULES: &[&str] = &[
    "gateway",
    "agent.loop",
    "tools.exec",
    "store",
    "mcp.pool",
    "http",
    "scheduler",
];
const MESSAGES: &[&str] = &[
    "request completed",
    "tool call finished",
    "connection established",
    "cache miss, fetching from upstream",
    "session resumed",
    "retrying after backoff",
    "message delivered to channel",
    "compaction skipped: below threshold",
];
const PATHS: &[&str] = &[
    "/v1/chat/completions",
    "/api/sessions",
    "/healthz",
    "/v1/tools/invoke",
    "/ws",
];

/// One line of secret of a random kind.
fn secret(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(7) {
        0 => {
            out.extend_from_slice(b"using key sk-");
            rng.alnum(out, 40);
        }
        1 => {
            out.extend_from_slice(b"cloned with ghp_");
            rng.alnum(out, 36);
        }
        2 => {
            out.extend_from_slice(b"aws AKIA");
            out.extend_from_slice(b"IOSFODNN7EXAMPLE");
        }
        3 => {
            out.extend_from_slice(b"password=");
            rng.alnum(out, 14);
        }
        4 => {
            out.extend_from_slice(b"db postgres://app:");
            rng.alnum(out, 12);
            out.extend_from_slice(b"@10.0.3.7:5432/app");
        }
        5 => {
            out.extend_from_slice(b"OPENAI_API_KEY=");
            rng.alnum(out, 24);
        }
        _ => {
            out.extend_from_slice(b"signature ");
            rng.hex(out, 64);
        }
    }
}

fn log_line(rng: &mut Rng, n: u64, secret_every: u64, out: &mut Vec<u8>) {
    let (h, m, s, ms) = (
        (n / 3_600_000) % 24,
        (n / 60_000) % 60,
        (n / 1000) % 60,
        n % 1000,
    );
    out.extend_from_slice(format!("2026-11-21T{h:02}:{m:02}:{s:02}.{ms:03}Z ").as_bytes());
    out.extend_from_slice(rng.pick(LEVELS).as_bytes());
    out.push(b' ');
    out.extend_from_slice(rng.pick(MODULES).as_bytes());
    out.extend_from_slice(b": ");
    if rng.below(secret_every) == 0 {
        secret(rng, out);
    } else {
        out.extend_from_slice(rng.pick(MESSAGES).as_bytes());
    }
    out.extend_from_slice(b" request_id=");
    rng.hex(out, 16);
    out.extend_from_slice(b" trace=");
    rng.hex(out, 8);
    out.push(b'-');
    rng.hex(out, 4);
    out.push(b'-');
    rng.hex(out, 4);
    out.extend_from_slice(b" path=");
    out.extend_from_slice(rng.pick(PATHS).as_bytes());
    out.extend_from_slice(
        format!(
            " status={} duration_ms={}",
            200 + rng.below(4) * 100,
            rng.below(5000)
        )
        .as_bytes(),
    );
    out.extend_from_slice(
        format!(" peer=192.168.{}.{}\n", rng.below(256), rng.below(256)).as_bytes(),
    );
}

/// About `bytes` of log lines, one in about 1000 carrying a secret.
pub fn log_corpus(seed: u64, bytes: usize) -> Vec<u8> {
    corpus(seed, bytes, 1000)
}

/// About `bytes` of log lines, most of them carrying a secret.
pub fn dense_corpus(seed: u64, bytes: usize) -> Vec<u8> {
    corpus(seed, bytes, 1)
}

fn corpus(seed: u64, bytes: usize, secret_every: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(bytes + 256);
    let mut n = 0;
    while out.len() < bytes {
        log_line(&mut rng, n, secret_every, &mut out);
        n += 1;
    }
    out
}

/// About `bytes` of minified JSON without white space or secrets: an array of records
/// `{"id","user","token_count","cache_key","url","status"}` (the probe words `key`, `token` and
/// `url` on every record: the input that was quadratic).
pub fn minified_json(seed: u64, bytes: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(bytes + 256);
    out.push(b'[');
    let mut id = 0u64;
    while out.len() < bytes {
        if id > 0 {
            out.push(b',');
        }
        let user = rng.pick(&["alice", "bob", "carol", "dave"]);
        let count = rng.below(100_000);
        out.extend_from_slice(
            format!(
                r#"{{"id":{id},"user":"{user}","token_count":{count},"cache_key":"ck-{count}","url":"https://api.example.com/v1/items/{id}","status":"ok"}}"#
            )
            .as_bytes(),
        );
        id += 1;
    }
    out.push(b']');
    out
}

/// One token of `bytes` characters from the base64 alphabet: no white space at all.
pub fn token(seed: u64, bytes: usize) -> Vec<u8> {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut rng = Rng::new(seed);
    (0..bytes).map(|_| B64[rng.below(64) as usize]).collect()
}

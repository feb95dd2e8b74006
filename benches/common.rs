//! What several benchmarks share: the `--runs N` argument, loopback ports, median and best.

#![allow(dead_code)]

use std::time::Duration;

/// `--runs N` from the command line, or `default`.
pub fn runs(default: usize) -> usize {
    std::env::args()
        .skip_while(|a| a != "--runs")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// A loopback port nothing listens on.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits (up to 10 s) until something listens on 127.0.0.1:`port`.
pub fn wait_for_port(port: u16) {
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("nothing listens on 127.0.0.1:{port}");
}

/// Milliseconds: (mean, median, best).
pub fn stats(d: &[Duration]) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = d.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    (mean, ms[ms.len() / 2], ms[0])
}

/// The body of the next HTTP/1.1 request on `reader` (its Content-Length), or `None` when the
/// client closed the connection: for the in-process LLM servers of the benches.
pub fn read_request(reader: &mut impl std::io::BufRead) -> Option<Vec<u8>> {
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return None;
    }
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        if h == "\r\n" || h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    Some(body)
}

/// One figure of the performance goals (issue 17): what goclaw measured, the baseline measured
/// beside it in the same run, their ratio, and the goal. [`figure`] prints it and, when
/// `GOCLAW_BENCH_FIGURES` names a file, appends it there as one JSON line: `benches/report`
/// runs every bench that way and regenerates the README's table from the lines.
#[derive(serde::Serialize)]
pub struct Figure<'a> {
    /// The section: "scrub", "start-up", "store", "search".
    pub section: &'a str,
    pub name: &'a str,
    pub value: f64,
    pub unit: &'a str,
    /// The baseline command and its value, in the same unit.
    pub baseline: Option<(&'a str, f64)>,
    /// value / baseline (for speeds given in MB/s: baseline time / ours, so above 1 is faster).
    pub ratio: Option<f64>,
    pub goal: &'a str,
    pub met: bool,
}

pub fn figure(f: Figure) {
    let base = f
        .baseline
        .map(|(name, v)| format!(" vs {name} {v:.2}"))
        .unwrap_or_default();
    let ratio = f.ratio.map(|r| format!(" ({r:.2}x)")).unwrap_or_default();
    println!(
        "figure: {}: {} {:.2} {}{base}{ratio}; goal {}: {}",
        f.section,
        f.name,
        f.value,
        f.unit,
        f.goal,
        if f.met { "met" } else { "NOT met" }
    );
    if let Some(path) = std::env::var_os("GOCLAW_BENCH_FIGURES") {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        writeln!(file, "{}", serde_json::to_string(&f).unwrap()).unwrap();
    }
}

/// Runs `a` and `b` alternately `runs` times (each returns the time it measured): their
/// medians in ms and the median of the pair ratios a/b, so machine noise cancels.
pub fn alternate(
    runs: usize,
    a: &mut dyn FnMut() -> Duration,
    b: &mut dyn FnMut() -> Duration,
) -> (f64, f64, f64) {
    let (mut xs, mut ys, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let x = a().as_secs_f64() * 1000.0;
        let y = b().as_secs_f64() * 1000.0;
        xs.push(x);
        ys.push(y);
        ratios.push(x / y);
    }
    (median(xs), median(ys), median(ratios))
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `cmd` to its end: its wall time and its peak resident memory (KiB), from `wait4`.
pub fn run_measured(cmd: &mut std::process::Command) -> (Duration, u64) {
    let t = std::time::Instant::now();
    let child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: `rusage` is a plain C struct, zeroed is a valid value; wait4 writes it and the
    // status for our own child, which `child` never waits for (it is forgotten below).
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { nix::libc::wait4(pid, &mut status, 0, &mut usage) };
    let took = t.elapsed();
    std::mem::forget(child);
    assert_eq!(rc, pid, "wait4");
    assert!(
        nix::libc::WIFEXITED(status) && nix::libc::WEXITSTATUS(status) <= 1,
        "{cmd:?}: status {status}"
    );
    (took, usage.ru_maxrss as u64)
}

/// Runs `cmd` to its end with no input and its output discarded; it must succeed. Its wall time.
pub fn time(cmd: &mut std::process::Command) -> Duration {
    use std::process::Stdio;
    let t = std::time::Instant::now();
    let status = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let took = t.elapsed();
    assert!(status.success(), "{cmd:?}");
    took
}

/// `goclaw ARGS` with `GOCLAW_HOME` and the working directory at `home`; it must succeed (its
/// stderr in the panic). Its wall time.
pub fn goclaw(home: &std::path::Path, args: &[&str]) -> Duration {
    let t = std::time::Instant::now();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_goclaw"))
        .args(args)
        .env("GOCLAW_HOME", home)
        .current_dir(home)
        .output()
        .unwrap();
    let took = t.elapsed();
    assert!(
        o.status.success(),
        "goclaw {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    took
}

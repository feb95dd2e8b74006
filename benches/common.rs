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

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

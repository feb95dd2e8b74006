//! Facts about this host that need a system call but no network: its interface addresses, its
//! time zones, its name and whether a process exists; and reading a document with a bound on
//! its size.

use std::io::Read;
use std::net::IpAddr;

/// All of `reader`, or `None` when it holds more than `max` bytes (of which no more than one
/// past `max` is read: `/dev/zero` ends at once).
pub fn read_at_most(reader: impl Read, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    reader.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 <= max).then_some(buf))
}

/// This host's interface addresses, without loopback, link-local unicast, link-local multicast
/// and unspecified ones (the original's `DetectServerIPs`, local part). Sorted, deduplicated.
pub fn server_addresses() -> Result<Vec<IpAddr>, String> {
    let addrs =
        nix::ifaddrs::getifaddrs().map_err(|e| format!("cannot list interface addresses: {e}"))?;
    let mut out: Vec<IpAddr> = addrs
        .filter_map(|ifa| ifa.address)
        .filter_map(|a| {
            if let Some(v4) = a.as_sockaddr_in() {
                Some(IpAddr::V4(v4.ip()))
            } else {
                a.as_sockaddr_in6().map(|v6| IpAddr::V6(v6.ip()))
            }
        })
        .filter(|ip| is_server_address(*ip))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// Not loopback, link-local (unicast or multicast) or unspecified.
pub fn is_server_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            !(v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || is_v4_link_local_multicast(v4.octets()))
        }
        IpAddr::V6(v6) => {
            let seg = v6.segments();
            let link_local_unicast = seg[0] & 0xffc0 == 0xfe80;
            let link_local_multicast = seg[0] & 0xff0f == 0xff02;
            !(v6.is_loopback() || v6.is_unspecified() || link_local_unicast || link_local_multicast)
        }
    }
}

fn is_v4_link_local_multicast(o: [u8; 4]) -> bool {
    o[0] == 224 && o[1] == 0 && o[2] == 0
}

/// The IANA time zone `name` ("Asia/Ho_Chi_Minh"), from the system's tz database, or jiff's
/// bundled copy when the system has none. `Err`: the message for an unknown name.
pub fn time_zone(name: &str) -> Result<jiff::tz::TimeZone, String> {
    jiff::tz::TimeZone::get(name).map_err(|_| {
        format!(
            "invalid timezone '{name}': use IANA names like 'Asia/Ho_Chi_Minh', 'America/New_York'"
        )
    })
}

/// This machine's name (what runs and background processes record), or "" when it has none.
pub fn name() -> String {
    nix::unistd::gethostname()
        .ok()
        .and_then(|h| h.into_string().ok())
        .unwrap_or_default()
}

/// Where a pid means something: this machine's name and its pid namespace
/// (`vm#pid:[4026531836]`). Two processes with the same place see the same pids.
pub fn pid_place() -> String {
    let ns = std::fs::read_link("/proc/self/ns/pid")
        .map(|l| l.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{}#{ns}", name())
}

/// Whether process `pid` exists on this machine (it may be another's, or a reused pid: a caller
/// that must know checks something more, such as a heartbeat).
pub fn process_exists(pid: i64) -> bool {
    pid > 0
        && i32::try_from(pid).is_ok_and(|p| {
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), None)
                .map_or_else(|e| e == nix::errno::Errno::EPERM, |_| true)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_what_the_original_filters() {
        let ok = |s: &str| is_server_address(s.parse().unwrap());
        assert!(ok("10.1.2.3"));
        assert!(ok("2001:db8::1"));
        assert!(!ok("127.0.0.1"));
        assert!(!ok("169.254.1.1"));
        assert!(!ok("224.0.0.251"));
        assert!(!ok("0.0.0.0"));
        assert!(!ok("::1"));
        assert!(!ok("fe80::1"));
        assert!(!ok("ff02::1"));
        assert!(!ok("::"));
    }

    #[test]
    fn lists_without_loopback() {
        let addrs = server_addresses().unwrap();
        assert!(addrs.iter().all(|a| !a.is_loopback()));
    }
}

//! The SSRF guard of §10.3, made stricter as issue 7 asks (pure: no I/O here; the resolver that
//! applies it to every address a name resolves to lives with `web_fetch`).
//!
//! Refused: the hostnames `localhost`, `metadata.google.internal` and anything under
//! `.localhost`, `.local`, `.internal`; and every address that is not plainly public: the
//! original's private ranges (0/8, 10/8, 127/8, 169.254/16, 172.16/12, 192.168/16, 100.64/10,
//! ::, ::1, fe80::/10, fec0::/10, fc00::/7) plus broadcast, multicast and reserved space, and
//! IPv6 forms that embed an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible,
//! NAT64 `64:ff9b::/96`, SIIT's `::ffff:0:a.b.c.d`, 6to4 `2002::/16`, Teredo `2001::/32`),
//! judged by the address they embed; the local-use NAT64 `64:ff9b:1::/48` and the discard
//! prefix `100::/64` are refused whole. IPv4 literals are
//! read the way `inet_aton` (and so curl and browsers) reads them: `2130706433`, `0x7f.1`,
//! `0177.0.0.1` and `127.1` are all 127.0.0.1.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What a URL's host is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    Ip(IpAddr),
    Name(String),
}

/// Classifies a URL host (as it appears in the URL: IPv6 in brackets, any case).
pub fn parse_host(host: &str) -> Host {
    let h = host.trim().trim_end_matches('.').to_ascii_lowercase();
    if let Some(inner) = h.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        // A zone id (`fe80::1%eth0`) does not change which network the address is on.
        let addr = inner.split('%').next().unwrap_or(inner);
        if let Ok(v6) = addr.parse::<Ipv6Addr>() {
            return Host::Ip(IpAddr::V6(v6));
        }
    }
    if let Ok(v6) = h.parse::<Ipv6Addr>() {
        return Host::Ip(IpAddr::V6(v6));
    }
    match parse_ipv4_loose(&h) {
        Some(v4) => Host::Ip(IpAddr::V4(v4)),
        None => Host::Name(h),
    }
}

/// `inet_aton`'s reading: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last
/// part fills the remaining bytes.
fn parse_ipv4_loose(s: &str) -> Option<Ipv4Addr> {
    if s.is_empty() {
        return None;
    }
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let (digits, radix) = if let Some(hex) = p.strip_prefix("0x") {
            (hex, 16)
        } else if p.len() > 1 && p.starts_with('0') {
            (&p[1..], 8)
        } else {
            (*p, 10)
        };
        if digits.is_empty() && radix != 16 {
            return None;
        }
        let n = if digits.is_empty() {
            0
        } else {
            u64::from_str_radix(digits, radix).ok()?
        };
        nums.push(n);
    }
    let (last, init) = nums.split_last()?;
    if init.iter().any(|n| *n > 255) {
        return None;
    }
    let rest_bits = 8 * (4 - init.len() as u32);
    if *last >= 1u64 << rest_bits {
        return None;
    }
    let mut value: u64 = 0;
    for (i, n) in init.iter().enumerate() {
        value |= n << (24 - 8 * i as u32);
    }
    value |= last;
    Some(Ipv4Addr::from(value as u32))
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 {
        0
    } else {
        u32::MAX << (32 - bits)
    };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

/// Whether an IPv4 address is anything but public unicast.
fn v4_not_public(ip: Ipv4Addr) -> bool {
    const BLOCKED: &[([u8; 4], u32)] = &[
        ([0, 0, 0, 0], 8),
        ([10, 0, 0, 0], 8),
        ([100, 64, 0, 0], 10),
        ([127, 0, 0, 0], 8),
        ([169, 254, 0, 0], 16),
        ([172, 16, 0, 0], 12),
        ([192, 0, 0, 0], 24),
        ([192, 0, 2, 0], 24),
        ([192, 168, 0, 0], 16),
        ([198, 18, 0, 0], 15),
        ([198, 51, 100, 0], 24),
        ([203, 0, 113, 0], 24),
        ([224, 0, 0, 0], 4),
        ([240, 0, 0, 0], 4),
    ];
    BLOCKED.iter().any(|(net, bits)| in_v4(ip, *net, *bits))
}

/// Whether `ip` is refused: private, loopback, link-local, metadata, multicast, reserved, or an
/// IPv6 form embedding such an IPv4 address.
pub fn is_blocked_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4_not_public(v4),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            let embedded =
                || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
            if let Some(v4) = v6.to_ipv4_mapped() {
                return v4_not_public(v4);
            }
            // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::a.b.c.d).
            if s[..6] == [0, 0, 0, 0, 0, 0]
                && v6 != Ipv6Addr::UNSPECIFIED
                && v6 != Ipv6Addr::LOCALHOST
            {
                return v4_not_public(embedded());
            }
            // NAT64: the well-known prefix, and the local-use 64:ff9b:1::/48 (RFC 8215), which
            // a site's translator maps to any address; SIIT's IPv4-translated ::ffff:0:a.b.c.d.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] || s[..6] == [0, 0, 0, 0, 0xffff, 0] {
                return v4_not_public(embedded());
            }
            if s[..3] == [0x64, 0xff9b, 1] {
                return true;
            }
            // Teredo 2001:0::/32: the client's IPv4 address is the last 32 bits, inverted.
            if s[0] == 0x2001 && s[1] == 0 {
                let v4 = Ipv4Addr::new(
                    !(s[6] >> 8) as u8,
                    !s[6] as u8,
                    !(s[7] >> 8) as u8,
                    !s[7] as u8,
                );
                return v4_not_public(v4);
            }
            // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
            if s[0] == 0x2002 {
                let v4 =
                    Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
                return v4_not_public(v4);
            }
            v6.is_unspecified()
                || v6.is_loopback()
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xff00) == 0xff00 // multicast
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || s[..4] == [0x100, 0, 0, 0] // discard-only 100::/64
        }
    }
}

/// Hostnames refused before any lookup.
pub fn is_blocked_name(name: &str) -> bool {
    let n = name.trim_end_matches('.').to_ascii_lowercase();
    n == "localhost"
        || n == "metadata.google.internal"
        || n.ends_with(".localhost")
        || n.ends_with(".local")
        || n.ends_with(".internal")
}

/// Whether `host` matches a list entry: exact, or `*.example.com` for any proper subdomain.
pub fn domain_matches(host: &str, entry: &str) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let entry = entry.trim().to_ascii_lowercase();
    match entry.strip_prefix("*.") {
        Some(base) => host.len() > base.len() && host.ends_with(&format!(".{base}")),
        None => host == entry,
    }
}

/// The guard on a URL host before any connection: `Err` with the reason when refused. A host on
/// `allow_private` (the config allowlist of private hosts) passes. Names that are not refused by
/// name still need every address they resolve to checked with [`is_blocked_ip`].
pub fn check_host(host: &str, allow_private: &[String]) -> Result<Host, String> {
    let parsed = parse_host(host);
    if allow_private.iter().any(|e| domain_matches(host, e)) {
        return Ok(parsed);
    }
    match &parsed {
        Host::Ip(ip) if is_blocked_ip(*ip) => {
            Err(format!("private IP address not allowed: {host}"))
        }
        Host::Name(name) if is_blocked_name(name) => Err(format!("blocked hostname: {name}")),
        _ => Ok(parsed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(host: &str) -> bool {
        check_host(host, &[]).is_err()
    }

    #[test]
    fn ipv4_spellings_all_reach_the_same_address() {
        for spelling in [
            "127.0.0.1",
            "2130706433",
            "0x7f000001",
            "0x7f.1",
            "0177.0.0.1",
            "127.1",
            "0177.0.1",
            "127.0.0.1.",
        ] {
            assert_eq!(
                parse_host(spelling),
                Host::Ip("127.0.0.1".parse().unwrap()),
                "{spelling}"
            );
            assert!(blocked(spelling), "{spelling}");
        }
        assert_eq!(parse_host("0"), Host::Ip("0.0.0.0".parse().unwrap()));
        assert_eq!(
            parse_host("3232235521"),
            Host::Ip("192.168.0.1".parse().unwrap())
        );
        assert!(matches!(parse_host("1.2.3.4.5"), Host::Name(_)));
        assert!(matches!(parse_host("256.1.1.1"), Host::Name(_)));
        assert!(
            matches!(parse_host("08.1.1.1"), Host::Name(_)),
            "8 is not an octal digit"
        );
        assert!(matches!(parse_host("example.com"), Host::Name(_)));
    }

    #[test]
    fn private_and_special_ranges_are_refused() {
        for ip in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "192.0.0.8",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "[::]",
            "[::1]",
            "[fe80::1]",
            "[fe80::1%25eth0]",
            "[fec0::1]",
            "[fc00::1]",
            "[fd12:3456::1]",
            "[ff02::1]",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "[::ffff:169.254.169.254]",
            "[::127.0.0.1]",
            "[64:ff9b::10.0.0.1]",
            "[2002:c0a8:0101::1]",
            "[2001:db8::1]",
            "[::ffff:0:7f00:1]",
            "[::ffff:0:127.0.0.1]",
            "[64:ff9b:1::a00:1]",
            "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
            "[100::1]",
        ] {
            assert!(blocked(ip), "{ip} must be refused");
        }
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "[2606:4700:4700::1111]",
            "[::ffff:8.8.8.8]",
            "[2002:0808:0808::1]",
            "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]",
        ] {
            assert!(!blocked(ip), "{ip} is public");
        }
    }

    #[test]
    fn names_and_lists() {
        for name in [
            "localhost",
            "LOCALHOST.",
            "a.localhost",
            "printer.local",
            "metadata.google.internal",
            "db.internal",
        ] {
            assert!(blocked(name), "{name}");
        }
        assert!(!blocked("example.com"));
        assert!(domain_matches("a.example.com", "*.example.com"));
        assert!(domain_matches("a.b.example.com", "*.Example.com"));
        assert!(!domain_matches("example.com", "*.example.com"));
        assert!(!domain_matches("badexample.com", "*.example.com"));
        assert!(domain_matches("Intranet.Corp", "intranet.corp"));
        // The allowlist opens chosen private hosts, and only those.
        assert!(check_host("10.0.0.5", &["10.0.0.5".into()]).is_ok());
        assert!(check_host("10.0.0.6", &["10.0.0.5".into()]).is_err());
        assert_eq!(
            check_host("127.1", &[]).unwrap_err(),
            "private IP address not allowed: 127.1"
        );
    }
}

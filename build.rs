//! Records the commit goclaw is built from (`goclaw version`): `git rev-parse` when the
//! source is a git checkout, else "unknown" (a source tarball, `cargo install` from crates.io).
//! Links the binary with packed relative relocations (DT_RELR) where the linker and C library
//! support them (GNU ld 2.38+ or lld, glibc 2.36+): the loader then reads a few kilobytes of
//! relocations at every start instead of about 700 KB. A release build on x86_64 Linux, where
//! rustc links with its own lld, places the functions short commands run side by side
//! (`src/link-order.txt`, made by `benches/link-order`): fewer pages of code to fault in.

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    println!("cargo:rerun-if-changed=.git/packed-refs");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=GOCLAW_COMMIT={commit}");
    if links_packed_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-changed=src/link-order.txt");
    if let Some(order) = link_order() {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        // Functions renamed since the file was made are passed over, not warned about.
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

/// The ordering file, for a release build linked by rustc's own lld: the default on
/// x86_64-unknown-linux-gnu since Rust 1.90, unless a linker or linker features were chosen
/// (`linker` also matches `-C linker-features`). GNU ld does not know the option.
fn link_order() -> Option<PathBuf> {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let chosen = var("CARGO_ENCODED_RUSTFLAGS");
    if var("TARGET") != "x86_64-unknown-linux-gnu"
        || var("PROFILE") != "release"
        || std::env::var_os("RUSTC_LINKER").is_some()
        || ["linker", "link-self-contained"]
            .iter()
            .any(|flag| chosen.contains(flag))
    {
        return None;
    }
    let file = PathBuf::from(var("CARGO_MANIFEST_DIR")).join("src/link-order.txt");
    file.exists().then_some(file)
}

/// Whether the C toolchain links a program with `-z pack-relative-relocs` without a warning
/// (an older linker ignores the option with one; an older glibc fails the link).
fn links_packed_relocations() -> bool {
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    let same_host = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return false;
    };
    if !linux_gnu || !same_host {
        return false;
    }
    let source = out.join("relr-probe.c");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".to_string()))
        .arg(&source)
        .arg("-o")
        .arg(out.join("relr-probe"))
        .args([
            "-pie",
            "-fPIE",
            "-Wl,-z,pack-relative-relocs",
            "-Wl,--fatal-warnings",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

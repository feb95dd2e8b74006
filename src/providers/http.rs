//! The one way goclaw starts building an HTTP client (providers, web tools, MCP over HTTP), so
//! every client gets the same TLS crypto: rustls on `ring`. `ring` is installed as the process's
//! rustls provider on first use; aws-lc, reqwest's default, ran a CPU-feature probe in a
//! constructor at every process start, whether it made a request or not.

use std::sync::Once;

/// A `reqwest` client builder whose TLS uses the `ring` provider.
pub fn client_builder() -> reqwest::ClientBuilder {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Err: a provider is installed already (by an embedding program); it is used then.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}

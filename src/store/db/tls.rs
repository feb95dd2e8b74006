//! TLS to the PostgreSQL server, with rustls (the `ring` provider the rest of goclaw uses),
//! as the URL's `sslmode` asks, in libpq's meanings:
//! - `disable`, `allow`, `prefer` (and no `sslmode`): no TLS, as before (use a Unix socket,
//!   loopback or a tunnel);
//! - `require`: encrypted; whose certificate it is goes unchecked, unless `sslrootcert` names
//!   the CA, which it is then checked against, as `verify-ca` (libpq does the same);
//! - `verify-ca`: encrypted, the certificate checked against `sslrootcert` (else the system's
//!   roots), whatever name it is for (a server reached by an address its certificate does not
//!   name);
//! - `verify-full`: as `verify-ca`, and the certificate must be for the server's name.

use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};

use crate::error::{Error, Result};

/// What the URL asks of the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Plain,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    /// The mode an `sslmode` value names; `None` for values goclaw does not take.
    pub fn parse(sslmode: Option<&str>) -> std::result::Result<Mode, String> {
        match sslmode {
            None | Some("disable" | "allow" | "prefer") => Ok(Mode::Plain),
            Some("require") => Ok(Mode::Require),
            Some("verify-ca") => Ok(Mode::VerifyCa),
            Some("verify-full") => Ok(Mode::VerifyFull),
            Some(other) => Err(format!(
                "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
            )),
        }
    }
}

/// The client's TLS configuration for `mode` (`None`: no TLS).
pub fn client_config(mode: Mode, root: Option<&Path>) -> Result<Option<ClientConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::internal(format!("TLS: {e}")))?;
    let lenient = |chain: Option<Arc<rustls::client::WebPkiServerVerifier>>| {
        builder
            .clone()
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Lenient {
                chain,
                provider: provider.clone(),
            }))
            .with_no_client_auth()
    };
    Ok(match (mode, root) {
        (Mode::Plain, _) => None,
        (Mode::Require, None) => Some(lenient(None)),
        (Mode::VerifyFull, root) => Some(
            builder
                .clone()
                .with_root_certificates(roots(root)?)
                .with_no_client_auth(),
        ),
        (Mode::Require | Mode::VerifyCa, root) => {
            let chain = rustls::client::WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots(root)?),
                provider.clone(),
            )
            .build()
            .map_err(|e| Error::internal(format!("TLS: {e}")))?;
            Some(lenient(Some(chain)))
        }
    })
}

/// The CAs to check the server against: `sslrootcert`'s, else the system's.
fn roots(root: Option<&Path>) -> Result<RootCertStore> {
    let mut store = RootCertStore::empty();
    match root {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| Error::usage(format!("sslrootcert {}: {e}", path.display())))?;
            for cert in certs {
                let cert =
                    cert.map_err(|e| Error::usage(format!("sslrootcert {}: {e}", path.display())))?;
                store
                    .add(cert)
                    .map_err(|e| Error::usage(format!("sslrootcert {}: {e}", path.display())))?;
            }
        }
        None => {
            for cert in rustls_native_certs::load_native_certs().certs {
                let _ = store.add(cert);
            }
        }
    }
    if store.is_empty() {
        return Err(
            Error::usage("no CA certificate to check the PostgreSQL server against")
                .with_hint("name one with sslrootcert=/path/to/ca.pem in the store URL"),
        );
    }
    Ok(store)
}

/// A certificate checked less than `verify-full` checks it, the server's signatures always:
/// - no `chain` (`sslmode=require` without a CA): the channel is encrypted, whoever's
///   certificate it is (libpq's `require`);
/// - with a `chain` (`verify-ca`): checked against the CAs as `verify-full` checks it, its name
///   not. rustls checks the name last, once the chain, dates and signatures held, so a
///   certificate refused only for its name is taken.
#[derive(Debug)]
struct Lenient {
    chain: Option<Arc<rustls::client::WebPkiServerVerifier>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        use rustls::CertificateError::{NotValidForName, NotValidForNameContext};
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                NotValidForName | NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

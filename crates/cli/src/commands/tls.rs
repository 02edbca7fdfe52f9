//! HTTPS and WSS for the commands that talk to a server (`ataxx client`, `ataxx bot`): which
//! certificates they trust and what they say when a site's certificate is not one of them.
//!
//! The roots are the system's (rustls-native-certs reads the distribution's store, so nothing
//! is fetched) plus the certificates of `--ca-file`, for a site with a self-signed certificate.
//! One set of roots serves both ureq (HTTP) and tokio-tungstenite (the WebSocket).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use tokio_tungstenite::Connector;

/// The `--ca-file` flag, shared by the commands that reach a server.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TrustArgs {
    /// Also trust the certificates in this PEM file (a site with a self-signed certificate).
    #[arg(long, value_name = "PEM")]
    pub ca_file: Option<PathBuf>,
}

/// The certificates a connection to a server may chain to.
#[derive(Clone)]
pub struct Trust {
    roots: Vec<CertificateDer<'static>>,
}

impl Trust {
    /// The system's roots and those of `ca_file`.
    pub fn load(args: &TrustArgs) -> anyhow::Result<Trust> {
        let system = rustls_native_certs::load_native_certs();
        for err in &system.errors {
            tracing::debug!(%err, "skipping part of the system's certificate store");
        }
        let mut roots = system.certs;
        if let Some(path) = &args.ca_file {
            roots.extend(pem_certificates(path)?);
        }
        Ok(Trust { roots })
    }

    /// An HTTP agent that reports every status as a reply (the callers read error bodies).
    pub fn agent(&self) -> ureq::Agent {
        let certs = self
            .roots
            .iter()
            .map(|der| ureq::tls::Certificate::from_der(der.as_ref()).to_owned());
        let tls = ureq::tls::TlsConfig::builder()
            .root_certs(ureq::tls::RootCerts::from(certs))
            .build();
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .tls_config(tls)
            .build()
            .into()
    }

    /// The WebSocket's TLS connector (used for `wss://` only).
    pub fn connector(&self) -> anyhow::Result<Connector> {
        let mut store = rustls::RootCertStore::empty();
        let (_added, _ignored) = store.add_parsable_certificates(self.roots.iter().cloned());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .context("setting up TLS")?
            .with_root_certificates(store)
            .with_no_client_auth();
        Ok(Connector::Rustls(Arc::new(config)))
    }
}

/// Every certificate of a PEM file; a file with none is a mistake worth naming.
fn pem_certificates(path: &Path) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let shown = path.display();
    let certs = CertificateDer::pem_file_iter(path)
        .with_context(|| format!("reading --ca-file {shown}"))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading --ca-file {shown}"))?;
    if certs.is_empty() {
        bail!("--ca-file {shown} holds no PEM certificate (BEGIN CERTIFICATE)");
    }
    Ok(certs)
}

/// A plain sentence for a TLS failure somewhere in `err`'s chain, naming `--ca-file` when the
/// site's certificate is not trusted; None for other failures.
pub fn explain(err: &anyhow::Error) -> Option<String> {
    let rustls_error = err.chain().find_map(|cause| {
        if let Some(found) = cause.downcast_ref::<rustls::Error>() {
            return Some(found);
        }
        if let Some(ureq::Error::Rustls(found)) = cause.downcast_ref::<ureq::Error>() {
            return Some(found);
        }
        let io = match cause.downcast_ref::<ureq::Error>() {
            Some(ureq::Error::Io(io)) => io,
            _ => cause.downcast_ref::<std::io::Error>()?,
        };
        io.get_ref()?.downcast_ref::<rustls::Error>()
    })?;
    Some(match rustls_error {
        rustls::Error::InvalidCertificate(
            rustls::CertificateError::UnknownIssuer | rustls::CertificateError::BadSignature,
        ) => "the server's TLS certificate is not trusted (self-signed or from an unknown \
              authority); pass its certificate, or its authority's, with --ca-file PEM"
            .to_string(),
        refused @ rustls::Error::InvalidCertificate(_) => {
            format!("the server's TLS certificate was refused ({refused})")
        }
        other => format!("the TLS handshake failed: {other}"),
    })
}

/// `err` with the TLS sentence in front when there is one.
pub fn explained(err: anyhow::Error) -> anyhow::Error {
    match explain(&err) {
        Some(sentence) => err.context(sentence),
        None => err,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untrusted_certificate_is_explained_with_the_fix() {
        let unknown = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let err = anyhow::Error::from(ureq::Error::Io(std::io::Error::other(unknown)))
            .context("cannot reach https://localhost/api/command");
        let sentence = explain(&err).expect("a TLS failure");
        assert!(sentence.contains("not trusted"), "{sentence}");
        assert!(sentence.contains("--ca-file"), "{sentence}");
        assert_eq!(explain(&anyhow::anyhow!("connection refused")), None);
    }

    #[test]
    fn a_ca_file_without_certificates_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.pem");
        std::fs::write(&path, "not a certificate\n").unwrap();
        let err = pem_certificates(&path).unwrap_err();
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
    }
}

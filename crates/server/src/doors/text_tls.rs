//! TLS for the text door (`ataxx serve --text-tls CERT KEY`): every command of the text door
//! carries its player's password, so on an open port it must not travel in clear. The server
//! reads a PEM certificate chain and its private key at start (rustls with ring) and every
//! text connection is then a TLS session; the handshake must end within [`HANDSHAKE`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;

use crate::error::{Error, Result};

/// How long a new connection may take to finish its TLS handshake.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// Where the text door's certificate chain and key are (PEM files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl TlsFiles {
    /// The acceptor of TLS sessions with this certificate, or a refusal naming the file and
    /// what is wrong with it.
    pub fn acceptor(&self) -> Result<TlsAcceptor> {
        let unreadable = |path: &Path, err: &dyn std::fmt::Display| {
            Error::Config(format!("--text-tls: {}: {err}", path.display()))
        };
        let certs = CertificateDer::pem_file_iter(&self.cert)
            .and_then(|certs| certs.collect::<std::result::Result<Vec<_>, _>>())
            .map_err(|err| unreadable(&self.cert, &err))?;
        if certs.is_empty() {
            return Err(unreadable(&self.cert, &"no PEM certificate in it"));
        }
        let key =
            PrivateKeyDer::from_pem_file(&self.key).map_err(|err| unreadable(&self.key, &err))?;
        let config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|err| Error::Config(format!("--text-tls: {err}")))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|err| {
                Error::Config(format!(
                    "--text-tls: {} and {} do not make a certificate and its key: {err}",
                    self.cert.display(),
                    self.key.display()
                ))
            })?;
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

//! The client's address behind a reverse proxy. A proxy connects from its own address, so every
//! client would share one: one client's failed logins would throttle all, and one address's
//! connection cap would hold the whole site. A proxy named with `ataxx serve --trusted-proxy`
//! says whom it serves in `X-Forwarded-For`; only then is that header believed (anyone else can
//! write it), and the address taken is the last one in it that is not itself a trusted proxy
//! (a client may put anything before what its proxies add).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::http::HeaderMap;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<[IpAddr]>);

impl TrustedProxies {
    pub fn new(proxies: Vec<IpAddr>) -> TrustedProxies {
        TrustedProxies(proxies.into())
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }

    /// The client's address for a request from `peer` with `headers`: `peer` itself unless it
    /// is a trusted proxy that forwarded the request.
    pub fn client(&self, peer: SocketAddr, headers: &HeaderMap) -> SocketAddr {
        if !self.trusts(peer.ip()) {
            return peer;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        let mut client = peer.ip();
        for hop in hops.iter().rev() {
            // An address that is not one (`unknown`, garbage) ends the walk at the last good one.
            let Ok(ip) = hop.parse::<IpAddr>() else { break };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        SocketAddr::new(client, peer.port())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn only_a_trusted_proxy_is_believed_and_only_for_what_it_added() {
        let proxies = TrustedProxies::new(vec!["127.0.0.1".parse().unwrap()]);
        let proxy: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "198.51.100.9:5000".parse().unwrap();
        let ip = |addr: SocketAddr| addr.ip().to_string();
        let one = forwarded(&["203.0.113.7"]);
        assert_eq!(ip(proxies.client(proxy, &one)), "203.0.113.7");
        assert_eq!(ip(proxies.client(stranger, &one)), "198.51.100.9");
        // A client's own forged entry comes before the one its proxy appends.
        let forged = forwarded(&["10.9.9.9, 203.0.113.7"]);
        assert_eq!(ip(proxies.client(proxy, &forged)), "203.0.113.7");
        let two_headers = forwarded(&["10.9.9.9", "203.0.113.8"]);
        assert_eq!(ip(proxies.client(proxy, &two_headers)), "203.0.113.8");
        // Chained trusted proxies are skipped; garbage stops the walk.
        let chained = forwarded(&["203.0.113.9, 127.0.0.1"]);
        assert_eq!(ip(proxies.client(proxy, &chained)), "203.0.113.9");
        let garbage = forwarded(&["unknown"]);
        assert_eq!(ip(proxies.client(proxy, &garbage)), "127.0.0.1");
        assert_eq!(ip(proxies.client(proxy, &HeaderMap::new())), "127.0.0.1");
        let mapped: SocketAddr = "[::ffff:127.0.0.1]:5000".parse().unwrap();
        assert_eq!(ip(proxies.client(mapped, &one)), "203.0.113.7");
    }
}

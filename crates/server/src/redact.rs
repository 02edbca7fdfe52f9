//! Database URLs in messages without their password: `postgres://ann:s3cret@db/x` is shown as
//! `postgres://ann:***@db/x`, and the password is struck from any text quoted with it (a driver's
//! error may repeat the URL).

/// The URL with its password (between `user:` and `@` in the authority) replaced by `***`.
pub fn redact_url(url: &str) -> String {
    match password_span(url) {
        Some((start, end)) => format!("{}***{}", &url[..start], &url[end..]),
        None => url.to_string(),
    }
}

/// `text` with every occurrence of the URL's password (raw or as written) replaced by `***`.
pub fn scrub(text: &str, url: &str) -> String {
    match password_span(url) {
        Some((start, end)) => {
            let password = &url[start..end];
            let mut out = text.replace(url, &redact_url(url));
            if !password.is_empty() {
                out = out.replace(password, "***");
            }
            out
        }
        None => text.to_string(),
    }
}

/// Byte range of the password in `scheme://user:password@host...`.
fn password_span(url: &str) -> Option<(usize, usize)> {
    let authority_start = url.find("://")? + 3;
    let rest = &url[authority_start..];
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_len];
    let at = authority.rfind('@')?;
    let userinfo = &authority[..at];
    let colon = userinfo.find(':')?;
    Some((authority_start + colon + 1, authority_start + at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_shows_its_user_but_not_its_password() {
        assert_eq!(
            redact_url("postgres://ann:s3cret@db:5432/x"),
            "postgres://ann:***@db:5432/x"
        );
        assert_eq!(
            redact_url("sqlite://ataxx.db?mode=rwc"),
            "sqlite://ataxx.db?mode=rwc"
        );
    }

    #[test]
    fn passwords_are_struck_wherever_they_appear() {
        let url = "postgres://ann:p%40ss@db.example:5432/ataxx?sslmode=require";
        assert_eq!(
            redact_url(url),
            "postgres://ann:***@db.example:5432/ataxx?sslmode=require"
        );
        let message = format!("cannot open database {url:?}: password p%40ss rejected");
        let scrubbed = scrub(&message, url);
        assert!(!scrubbed.contains("p%40ss"), "{scrubbed}");
        assert!(scrubbed.contains("ann:***@db.example"), "{scrubbed}");
        // No password: nothing changes.
        assert_eq!(redact_url("postgres://db/x"), "postgres://db/x");
        assert_eq!(redact_url("postgres://ann@db/x"), "postgres://ann@db/x");
        assert_eq!(scrub("x", "sqlite://a.db"), "x");
    }
}

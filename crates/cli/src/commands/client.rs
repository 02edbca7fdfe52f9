//! `ataxx client`: sends one command of the pbmserv language to a server and prints the reply.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use anyhow::{bail, Context};
use ataxx_server::unframe;
use clap::Args as ClapArgs;

use super::tls::{self, Trust, TrustArgs};

#[derive(ClapArgs)]
pub struct Args {
    /// The server: http://host:port or https://host (the HTTP door) or host:port (the text door).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    #[command(flatten)]
    trust: TrustArgs,
    /// A body sent after the command (a chat message), HTTP door only.
    #[arg(long)]
    body: Option<String>,
    /// The command, e.g. `ataxx show 101`.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let line = args.command.join(" ");
    if line.contains(['\n', '\r']) {
        bail!("the command must be one line");
    }
    let http = args.server.starts_with("http://") || args.server.starts_with("https://");
    let (ok, reply) = match http {
        true => {
            let agent = Trust::load(&args.trust)?.agent();
            over_http(&agent, &args.server, &line, args.body.as_deref()).map_err(tls::explained)?
        }
        false if args.body.is_some() => {
            bail!("--body needs the HTTP door (--server http://... or https://...)")
        }
        false => over_text(&args.server, &line)?,
    };
    print!("{reply}");
    if !reply.ends_with('\n') {
        println!();
    }
    if !ok {
        bail!("the server refused the command");
    }
    Ok(())
}

fn over_http(
    agent: &ureq::Agent,
    server: &str,
    line: &str,
    body: Option<&str>,
) -> anyhow::Result<(bool, String)> {
    let url = format!("{}/api/command", server.trim_end_matches('/'));
    let text = match body {
        Some(body) => format!("{line}\n{body}"),
        None => line.to_string(),
    };
    let mut response = agent
        .post(&url)
        .header("Content-Type", "text/plain; charset=utf-8")
        .send(&text)
        .with_context(|| format!("cannot reach {url}"))?;
    let ok = response.status().is_success();
    let reply = response
        .body_mut()
        .read_to_string()
        .context("reading the reply")?;
    Ok((ok, reply))
}

fn over_text(server: &str, line: &str) -> anyhow::Result<(bool, String)> {
    let stream = TcpStream::connect(server).with_context(|| format!("cannot reach {server}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut read_reply = || -> anyhow::Result<String> {
        let mut lines = vec![];
        loop {
            let mut buf = String::new();
            if reader.read_line(&mut buf)? == 0 {
                bail!("the server closed the connection");
            }
            let done = buf.trim_end() == ".";
            lines.push(buf);
            if done {
                return Ok(unframe(lines.iter().map(String::as_str)).expect("ends with ."));
            }
        }
    };
    read_reply()?; // greeting
    (&stream).write_all(format!("{line}\r\n").as_bytes())?;
    let reply = read_reply()?;
    let ok = !reply.starts_with("error:") && !reply.starts_with("{\"ok\":false");
    Ok((ok, reply))
}

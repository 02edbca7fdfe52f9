"""A real SMTP server (aiosmtpd) standing in for the mail relay in the mail tests.

Usage: smtp_sink.py FOLDER PORT [--tls CERT KEY] [--auth USER:PASSWORD] [--kill-pid-file FILE].
Every message received is written to FOLDER as NNNNN.eml (numbered on from the files already
there), with an X-Envelope-To header in front, and X-Relay-TLS / X-Relay-Auth headers saying
whether it came over STARTTLS and as which AUTH user. Prints "ready" once listening and serves
until its standard input closes.

--tls: offer STARTTLS with this certificate and key, and refuse mail without it.
--auth: require AUTH (PLAIN or LOGIN) with this user and password.
--kill-pid-file: on the first message, once it is written, SIGKILL the process whose id the
  file holds (the mail server) before answering 250, and remove the file: the crash window
  between a relay's acceptance and the sender's record of it.
"""

import argparse
import os
import signal
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, folder, kill_pid_file):
        self.folder = folder
        self.kill_pid_file = kill_pid_file

    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(self.folder) if f.endswith(".eml")]) + 1
        path = os.path.join(self.folder, f"{n:05}.eml")
        login = session.auth_data.login.decode() if session.authenticated else ""
        with open(path + ".tmp", "wb") as f:
            f.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n")
            f.write(b"X-Relay-TLS: " + (b"yes" if session.ssl else b"no") + b"\r\n")
            f.write(b"X-Relay-Auth: " + login.encode() + b"\r\n")
            f.write(envelope.original_content)
        os.rename(path + ".tmp", path)
        if self.kill_pid_file and os.path.exists(self.kill_pid_file):
            with open(self.kill_pid_file) as f:
                pid = int(f.read().strip())
            os.remove(self.kill_pid_file)
            os.kill(pid, signal.SIGKILL)
        return "250 OK"


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == user
            and auth_data.password.decode() == password
        )
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return check


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("port", type=int)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth")
    parser.add_argument("--kill-pid-file")
    args = parser.parse_args()
    options = {}
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*args.tls)
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, password = args.auth.split(":", 1)
        options.update(
            authenticator=authenticator(user, password),
            auth_required=True,
            auth_require_tls=bool(args.tls),
        )
    controller = Controller(
        Sink(args.folder, args.kill_pid_file), hostname="127.0.0.1", port=args.port, **options
    )
    controller.start()
    print("ready", flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()

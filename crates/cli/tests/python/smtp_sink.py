"""A real SMTP server (aiosmtpd) standing in for the mail relay in the mail tests.

Usage: smtp_sink.py FOLDER PORT. Every message received is written to FOLDER as NNNNN.eml
(numbered on from the files already there), with an X-Envelope-To header in front. Prints
"ready" once listening and serves until its standard input closes.
"""

import os
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder):
        self.folder = folder

    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(self.folder) if f.endswith(".eml")]) + 1
        path = os.path.join(self.folder, f"{n:05}.eml")
        with open(path + ".tmp", "wb") as f:
            f.write(b"X-Envelope-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n")
            f.write(envelope.original_content)
        os.rename(path + ".tmp", path)
        return "250 OK"


def main():
    folder, port = sys.argv[1], int(sys.argv[2])
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()

"""A mail sent from a chosen source address, as a host elsewhere on the internet sends it.

Usage: smtp_send.py HOST PORT SOURCE_ADDRESS ENVELOPE_SENDER RECIPIENT < MESSAGE
The envelope sender may be empty (a bounce). Prints "sent", or "refused CODE TEXT" when the
server refuses the recipient.
"""

import smtplib
import sys

host, port, source, sender, recipient = sys.argv[1:6]
message = sys.stdin.buffer.read()
with smtplib.SMTP(host, int(port), source_address=(source, 0), timeout=30) as smtp:
    try:
        smtp.sendmail(sender, [recipient], message)
        print("sent")
    except smtplib.SMTPRecipientsRefused as refused:
        code, text = refused.recipients[recipient]
        print(f"refused {code} {text.decode()}")

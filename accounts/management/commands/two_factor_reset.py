"""Give a staff member a new second factor (a new operator, or a lost phone): every device
and backup code they had is deleted, and a new authenticator-app secret is printed, as text,
as the otpauth:// link and as a QR code to scan from the terminal; with --backup-codes, new
single-use codes too. Hand them over in person or over a channel you trust."""

import base64
import io

import qrcode
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.services import two_factor_reset


class Command(BaseCommand):
    help = "Replace a staff member's second factor: a new TOTP secret (and backup codes)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--backup-codes", type=int, default=0, metavar="N",
                            help="also make N single-use backup codes (10 is usual)")
        parser.add_argument("--no-qr", action="store_true",
                            help="print the secret and link only, no QR code")

    def handle(self, *args, username, backup_codes, no_qr, **options):
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        if not 0 <= backup_codes <= 50:
            raise CommandError("--backup-codes is between 0 and 50")
        if not user.is_staff:
            self.stderr.write(f"note: {username} is not staff; players are never asked for "
                              "a second factor")
        device, codes = two_factor_reset(user=user, backup_codes=backup_codes)
        self.stdout.write(f"New second factor for {username}; their earlier devices, backup "
                          "codes and verified sessions no longer work.")
        self.stdout.write(f"Secret (type it into the app): "
                          f"{base64.b32encode(device.bin_key).decode()}")
        self.stdout.write(f"Link: {device.config_url}")
        if not no_qr:
            picture = io.StringIO()
            code = qrcode.QRCode(border=2)
            code.add_data(device.config_url)
            code.print_ascii(out=picture, invert=True)
            self.stdout.write(picture.getvalue())
        if codes:
            self.stdout.write("Backup codes (each works once):")
            for token in codes:
                self.stdout.write(f"  {token}")

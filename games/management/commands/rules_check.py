"""``python manage.py rules_check [--check] FILE|-`` as CONFORMANCE.md §1."""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.conformance import check, run_cases


class Command(BaseCommand):
    help = "Evaluate rule cases (JSON array) against the engine; --check compares with expect."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a JSON array of cases, or - for stdin")
        parser.add_argument("--check", action="store_true", help="compare each result with its expect")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                cases = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as fh:
                    cases = json.load(fh)
        except (OSError, ValueError) as e:
            sys.stderr.write(f"rules_check: cannot read {path}: {e}\n")
            sys.exit(2)
        if not isinstance(cases, list):
            sys.stderr.write(f"rules_check: {path} is not a JSON array\n")
            sys.exit(2)
        outputs = run_cases(cases)
        sys.stdout.write(json.dumps(outputs, ensure_ascii=False) + "\n")
        if options["check"]:
            failed = [out["id"] for case, out in zip(cases, outputs) if not check(case, out)]
            sys.stderr.write(f"checked {len(cases)}, failed {len(failed)}\n")
            for cid in failed:
                sys.stderr.write(f"FAILED {cid}\n")
            if failed:
                sys.exit(1)

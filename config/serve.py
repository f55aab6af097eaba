"""daphne on uvloop's event loop: `python -m config.serve` takes daphne's own arguments.

daphne runs Twisted on an asyncio loop that `daphne.server` creates when it is imported, so
the loop's policy has to be set before that import: config/asgi.py comes too late. uvloop
took about 5% off daphne's CPU per action, for the tables and the bare echo alike
(platform/SCALING.md, the uvloop row). Without uvloop (a platform it does not build on)
daphne runs on asyncio's own loop, as `daphne` would.
"""
import asyncio


def event_loop_install():
    """Make every new event loop a uvloop one; False where uvloop is not installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main():
    event_loop_install()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()

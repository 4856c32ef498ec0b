import gc
import sys

# Importing the command line (argparse, bot.cli) makes only long-lived objects: the collector, paused
# meanwhile, would walk them and free nothing (bot/__init__.py; ``main`` pauses it again for ``ask``).
_collecting = gc.isenabled()
gc.disable()
try:
    from bot.cli import main
finally:
    if _collecting:
        gc.enable()

sys.exit(main())

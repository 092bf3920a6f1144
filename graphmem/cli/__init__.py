"""The ``graphmem`` command line (click). It lives inside the package, not in a top-level
``cli/`` folder, so that the console script is installed with the wheel."""

import sys

from mtworkbench.cli import main

if __name__ == "__main__":  # scoring worker processes (spawn) import this module too
    sys.exit(main())

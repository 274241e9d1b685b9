import sys

from mtworkbench.cli import main

sys.exit(main())

"""One module per family: its PyPI libraries, each by the name the harness gives it, with how
it is loaded and what it computes with underneath."""

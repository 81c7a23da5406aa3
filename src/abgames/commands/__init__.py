"""Sub-commands of the ``abgames`` command line, one module per family.

Each module here has ``register(subparsers)``, which adds its parsers and gives
each one ``set_defaults(run=function)``; ``function(args)`` returns the exit code.
"""

"""The tools: what the ``betspec`` commands do beside validating and generating, over the engines.

``coverage`` (the cases' coverage of the machines, and the paths it finds), ``simulate`` (random
hands, many processes), ``phh`` (hand histories), ``play`` (a hand in a terminal), ``diff`` (two
structures or option sets played side by side), ``explore`` (bounded exploration: ``validate
--deep``), ``draw`` (random tables and options from a spec's declarations) and ``demo``.

The layer rule (tests/test_layers.py): a tool may import any layer (the front end, the back ends,
the runtime, the conformance runner); no layer imports a tool, only the command line
(:mod:`betspec.cli`), the project (:mod:`betspec.project`, which runs ``validate --deep``) and
other tools.
"""

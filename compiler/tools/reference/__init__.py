"""`rulespec doc`: a reference of one game's spec, so a designer finds a helper without grepping.

collect.py gathers every declaration with its signature, comment and spec
line; render.py writes it on the terminal (rich) or as one HTML page.
"""

from __future__ import annotations

from rulespec.compiler.tools.reference.collect import Entry, Reference, Section, build_reference

__all__ = ["Entry", "Reference", "Section", "build_reference"]
